"""Read a requirements file and check it against rules/requirements.yaml: an unknown key, a unit that is not the
key's quantity, or a value of the wrong type is one UsageError naming the file and the key (exit 2). Every value
goes through the one validator (sheetaudit.validate): numbers finite and of a sane size, whole numbers where a
count is meant, true (not 1) where a flag is."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from ..errors import UsageError, describe_path

_NUMBER_UNIT = re.compile(r"^\s*([-+]?\d[\d,]*(?:\.\d+)?|[-+]?\.\d+)\s*(\S.*?)?\s*$")


@lru_cache(maxsize=1)
def spec() -> dict:
    """rules/requirements.yaml as parsed: {'keys': {...}, 'results': {...}}."""
    from ..rules import _load_yaml, rules_dir

    return _load_yaml(rules_dir() / "requirements.yaml")


def load_requirements(path: str | Path) -> dict:
    """The file as checked data: {'name', 'source', 'facility' (or None), 'keys': {key: normalised wanted}} with
    each bound as {'min' | 'max': number in the key's unit, 'at': ...}, rdma as True, cooling as a list."""
    from ..validate import InvalidInput, read_yaml

    where = f"requirements file {describe_path(path)}"
    try:  # read as every input file is (sheetaudit.validate): a regular file under a size cap, nesting bounded
        data = read_yaml(path, what="requirements file")
    except InvalidInput as exc:
        raise UsageError(f"{where}: {exc.key + ': ' if exc.key else ''}{exc.problem}") from None
    return check_requirements(data, where, source=Path(path).name)


def check_requirements(data, where: str, source: str = "") -> dict:
    keys = spec()["keys"]
    if not isinstance(data, dict) or not data:
        raise UsageError(
            f"{where}: expected a mapping of requirements (e.g. 'scale_up_gbs: {{min: 400}}'); "
            f"known keys: {', '.join(keys)}"
        )
    unknown = [str(k) for k in data if k not in keys]
    if unknown:
        raise UsageError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(keys)})")
    out = {"name": "", "source": source, "facility": None, "keys": {}}
    for key, raw in data.items():
        s = keys[key]
        at = f"{where}: {key}"
        kind = s["kind"]
        if kind == "text":
            if not isinstance(raw, str):
                raise UsageError(f"{at}: expected a text, got {_shown(raw)}")
            out["name"] = raw
        elif kind == "facility":
            if not isinstance(raw, dict):
                raise UsageError(
                    f"{at}: expected a facility profile (rack_power_kw, cooling, floor_load_kg_m2), got {_shown(raw)}"
                )
            out["facility"] = raw
        elif kind == "required":
            _valid(raw, {"enum": ["required", True], "description": "'required'"}, at)
            out["keys"][key] = True
        elif kind == "methods":
            got = [raw] if isinstance(raw, str) else raw
            if not isinstance(got, list) or not got or any(m not in s["values"] for m in got):
                raise UsageError(f"{at}: expected one of {', '.join(s['values'])} or a list of them, got {_shown(raw)}")
            out["keys"][key] = list(dict.fromkeys(got))
        else:
            out["keys"][key] = _bound(raw, s, at)
    if not out["keys"] and out["facility"] is None:
        raise UsageError(
            f"{where}: no requirement to check (known: {', '.join(k for k in keys if k not in ('name', 'facility'))})"
        )
    return out


def _bound(raw, s: dict, at: str) -> dict:
    allowed = list(s["bounds"]) + list(s.get("extra") or {})
    example = f"{{{s['bounds'][0]}: N}}"
    if not isinstance(raw, dict):
        raise UsageError(f"{at}: expected a mapping such as {example}, got {_shown(raw)}")
    for k in raw:
        if k not in allowed:
            raise UsageError(f"{at}: unknown key {str(k)!r} (expected {', '.join(allowed)})")
    if not any(b in raw for b in s["bounds"]):
        raise UsageError(f"{at}: expected {' or '.join(s['bounds'])}, as in {example}")
    out = {}
    for b in s["bounds"]:
        if b in raw:
            out[b] = _number(raw[b], s, f"{at}.{b}")
            lo, hi = s.get("range") or (0, None)
            if out[b] < lo or (hi is not None and out[b] > hi):
                span = f"between {lo} and {hi}" if hi is not None else f"at least {lo}"
                raise UsageError(f"{at}.{b}: {_shown(raw[b])} is out of range (expected a number {span})")
    for k, rule in (s.get("extra") or {}).items():
        if k not in raw and rule.get("optional"):
            continue
        if k not in raw:
            raise UsageError(f"{at}: expected '{k}' (e.g. {{{s['bounds'][0]}: 0.9, {k}: 1024}})")
        v = raw[k]
        if rule.get("count"):  # a large count as people write it: 15e12, 15T, 300B
            from ..atscale.parse import parse_count

            if not isinstance(v, str):
                _valid(v, {"type": "number", "exclusiveMinimum": 0, "description": "a count above 0"}, f"{at}.{k}")
            try:
                count = parse_count(str(v)) if not isinstance(v, bool) else parse_count("x")
            except ValueError as exc:
                raise UsageError(f"{at}.{k}: {exc}") from None
            out[k] = _valid(
                count, {"type": "number", "exclusiveMinimum": 0, "description": "a count above 0"}, f"{at}.{k}"
            )
            continue
        least = rule.get("min", 0)
        _valid(
            v, {"type": "integer", "minimum": least, "description": f"a whole number of at least {least}"}, f"{at}.{k}"
        )
        out[k] = int(v)
    return out


def _valid(value, schema: dict, at: str):
    """VALUE checked by sheetaudit.validate against SCHEMA; a UsageError naming AT otherwise."""
    from ..validate import InvalidInput, validate

    try:
        return validate(value, schema, source="")
    except InvalidInput as exc:
        raise UsageError(f"{at}{'.' + exc.key if exc.key else ''}: {exc.problem}") from None


def _number(raw, s: dict, at: str) -> float:
    """A number in the key's unit, or a string with its own unit converted to it ('3.2 Tb/s', '800 ns')."""
    unit = s.get("unit") or ""
    wanted = f"a {'whole ' if s.get('whole') else ''}number{' in ' + unit if unit else ''}"
    number = {"type": "integer" if s.get("whole") else "number", "description": wanted}
    if not isinstance(raw, str):
        return float(_valid(raw, number, at))
    m = _NUMBER_UNIT.match(raw)
    if not m:
        raise UsageError(f"{at}: expected {wanted}, got {_shown(raw)}")
    value, printed = float(m.group(1).replace(",", "")), (m.group(2) or "").strip()
    if not printed or printed == unit:
        return float(_valid(value, number, at))
    quantity = s.get("quantity")
    if quantity:
        from ..units import canonical_rate, convert

        spelling = (canonical_rate(printed) or printed) if quantity == "bandwidth" else printed
        try:
            converted = convert(quantity, value, spelling) * _to_key_unit(quantity, unit)
        except KeyError:
            pass
        else:
            return float(_valid(converted, number, at))
    raise UsageError(
        f"{at}: unknown unit {printed!r} (expected {unit or 'a plain number'}"
        f"{' or another ' + quantity + ' unit' if quantity else ''})"
    )


def _to_key_unit(quantity: str, unit: str) -> float:
    """The contract's unit (GB/s, ns, kW) to the key's own: a latency requirement is in µs."""
    from ..units import convert

    return 1.0 / convert(quantity, 1.0, unit.replace("µ", "u")) if quantity == "latency" else 1.0


def _shown(v) -> str:
    text = repr(v) if not isinstance(v, str) else f"'{v}'"
    return text if len(text) <= 60 else text[:57] + "..."
