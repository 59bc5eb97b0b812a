"""The what-if's assumptions: rules/scale.yaml (name, default, why, source), with the user's overrides from a YAML
file and --assume KEY=VALUE. Each value is checked against its kind, so a typo is a clear error, never a silent
default."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import RulesError, UsageError
from ..rules import load_rules

KINDS = (
    "fraction",
    "share",
    "positive",
    "count",
    "choice",
    "marks",
    "fractions",
    "optional-positive",
    "optional-count",
)


@dataclass(frozen=True)
class Assumption:
    name: str
    value: object
    kind: str
    why: str
    source: str
    origin: str = "default"  # default | user
    choices: tuple = ()

    def to_json(self) -> dict:
        return {"value": self.value, "origin": self.origin, "why": self.why, "source": self.source}


class Assumptions(dict):
    """name -> Assumption; `self[name].value` is the value the model uses."""

    def value(self, name: str):
        return self[name].value

    def user_set(self, name: str) -> bool:
        return self[name].origin == "user"

    def flat(self) -> dict:
        """name -> value: the mapping the JSON contract prints."""
        return {k: a.value for k, a in self.items()}

    def with_overrides(self, overrides: dict, where: str) -> "Assumptions":
        out = Assumptions(self)
        for key, raw in overrides.items():
            if key not in self:
                raise UsageError(
                    f"{where}: unknown assumption {key!r} (known: {', '.join(sorted(self))}); "
                    f"'sheetaudit scale --list-assumptions' explains each"
                )
            a = self[key]
            value = _check(a, raw, where)
            if a.kind == "fractions":
                # one entry changed (--assume matmul_efficiency={h100-bf16: 0.7}) keeps the others
                value = {**a.value, **value}
            out[key] = Assumption(key, value, a.kind, a.why, a.source, "user", a.choices)
        return out


def _schema(a: Assumption) -> dict:
    """The schema a value of this assumption must fit (rules/inputs/assumption-kinds.yaml)."""
    from ..validate import load_schema

    kind = a.kind.removeprefix("optional-")
    schema = {"enum": list(a.choices)} if kind == "choice" else load_schema("assumption-kinds")["properties"][kind]
    return {"anyOf": [{"type": "null"}, schema]} if a.kind.startswith("optional-") else schema


def _check(a: Assumption, raw, where: str):
    """The value converted to what its kind needs, or an InvalidInput (a UsageError) naming where and the key."""
    from ..validate import validate

    value = validate({a.name: raw}, {"properties": {a.name: _schema(a)}}, source=where)[a.name]
    kind = a.kind.removeprefix("optional-")
    if value is None or kind == "choice":
        return value
    if kind == "fractions":
        return {str(k): float(v) for k, v in value.items()}
    if kind == "marks":
        return sorted((float(v) for v in (value if isinstance(value, (list, tuple)) else [value])), reverse=True)
    return int(value) if kind == "count" else float(value)


def load_assumptions() -> Assumptions:
    rules = load_rules()
    path = rules.directory / "scale.yaml"
    data = rules.scale  # parsed with the other rules, and cached with them between runs
    out = Assumptions()
    for name, spec in data.items():
        if not isinstance(spec, dict) or not {"value", "kind", "why", "source"} <= set(spec):
            raise RulesError(f"{path}: {name}: needs value, kind, why and source")
        if spec["kind"] not in KINDS:
            raise RulesError(f"{path}: {name}: kind {spec['kind']!r} is not one of {', '.join(KINDS)}")
        a = Assumption(name, None, spec["kind"], spec["why"], spec["source"], choices=tuple(spec.get("choices", ())))
        try:
            value = _check(a, spec["value"], str(path))
        except UsageError as exc:
            raise RulesError(str(exc)) from None
        out[name] = Assumption(name, value, a.kind, a.why, a.source, "default", a.choices)
    return out


def parse_assume(items: list[str]) -> dict:
    """--assume KEY=VALUE (repeatable); VALUE is read as YAML, so 0.5, null and [0.9, 0.5] mean what they say."""
    import yaml

    out = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--assume {item!r}: expected KEY=VALUE, e.g. --assume overlap=0.5")
        try:
            out[key.strip()] = yaml.safe_load(raw) if raw.strip() else None
        except yaml.YAMLError:
            raise UsageError(f"--assume {item!r}: the value is not readable") from None
    return out


def read_overrides(path: str | Path) -> dict:
    import yaml

    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise UsageError(f"assumptions file {path}: {exc}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise UsageError(f"assumptions file {path}: expected a mapping of KEY: VALUE")
    # The file may also be a copy of rules/scale.yaml, entries with value/why/source: take the value.
    return {k: (v["value"] if isinstance(v, dict) and "value" in v else v) for k, v in data.items()}


def assumptions(file: str | Path | None = None, assume: list[str] | tuple = ()) -> Assumptions:
    """Defaults, then the file's values, then --assume (the command line wins)."""
    a = load_assumptions()
    if file:
        a = a.with_overrides(read_overrides(file), f"assumptions file {file}")
    if assume:
        a = a.with_overrides(parse_assume(list(assume)), "--assume")
    return a
