"""The rules/ folder as data: vocabularies, unit spellings, conventions, thresholds and check declarations.

Loaded once per process. The rules hash keys the batch cache, so editing a rule invalidates old results.
"""
from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .errors import RulesError

RULE_FILES = ("units.yaml", "units.txt", "vocabulary.yaml", "conventions.yaml", "technologies.yaml", "thresholds.yaml",
              "checks.yaml")


def rules_dir() -> Path:
    env = os.environ.get("SHEETAUDIT_RULES")
    if env:
        return Path(env)
    here = Path(__file__).resolve().parent
    for cand in (here.parent / "rules", here / "_rules"):
        if (cand / "checks.yaml").exists():
            return cand
    raise RulesError(f"rules folder not found next to {here} (set SHEETAUDIT_RULES)")


@dataclass(frozen=True)
class Rules:
    units: dict
    vocab: dict
    conventions: dict
    thresholds: dict
    checks: dict
    steps: dict
    directory: Path
    technologies: dict = None     # rules/technologies.yaml as parsed; sheetaudit.technologies reads it
    comparison: dict = None      # cross-sheet (batch) checks, compare.*

    def explain(self, code: str) -> dict | None:
        """Any code the tool can print, per-sheet or cross-sheet."""
        return self.checks.get(code) or (self.comparison or {}).get(code)

    def threshold(self, name: str) -> float:
        return float(self.thresholds[name]["value"])

    def check(self, code: str) -> dict:
        try:
            return self.checks[code]
        except KeyError:
            raise RulesError(f"check {code} is not declared in rules/checks.yaml") from None


def _load_yaml(path: Path):
    import yaml
    try:
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)   # libyaml: the rules load ~8x faster
        with path.open(encoding="utf-8") as fh:
            return yaml.load(fh, Loader=loader) or {}
    except FileNotFoundError:
        raise RulesError(f"{path} is missing") from None
    except yaml.YAMLError as exc:
        raise RulesError(f"{path}: not valid YAML: {exc}") from None


@lru_cache(maxsize=4)
def load_rules(directory: str | None = None) -> Rules:
    d = Path(directory) if directory else rules_dir()
    docs = _cached_docs(d)
    if docs is None:
        docs = {name: _load_yaml(d / name) for name in RULE_FILES if name.endswith(".yaml")}
        rules = _rules(docs, d)
        _validate(rules)
        _store_docs(d, docs)
        return rules
    return _rules(docs, d)


def _rules(docs: dict, d: Path) -> Rules:
    """The technology names, patterns and generation table live in technologies.yaml (the knowledge base);
    the stages that read them as conventions["technologies"] / ["generations"] get that view of it."""
    from .technologies import conventions_view
    checks_doc = docs["checks.yaml"]
    kb = docs["technologies.yaml"]
    conventions = {**docs["conventions.yaml"], **conventions_view(kb)}
    return Rules(units=docs["units.yaml"], vocab=docs["vocabulary.yaml"], conventions=conventions,
                 thresholds=docs["thresholds.yaml"], checks=checks_doc.get("checks", {}),
                 steps=checks_doc.get("steps", {}), directory=d, technologies=kb,
                 comparison=checks_doc.get("comparison", {}))


def _cache_path(d: Path) -> Path:
    import sys
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "sheetaudit"
    return base / f"rules-{rules_hash(str(d))[:16]}-py{sys.version_info[0]}{sys.version_info[1]}.marshal"


def _cached_docs(d: Path) -> dict | None:
    """The parsed, validated rule files of an earlier run, keyed by their hash: a run then imports no YAML
    parser (~20 ms of a short sheet's audit). marshal keeps integer keys (JSON would not) and runs no code;
    a missing or corrupt cache is ignored."""
    import marshal
    try:
        docs = marshal.loads(_cache_path(d).read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    names = [n for n in RULE_FILES if n.endswith(".yaml")]
    if not isinstance(docs, dict) or not all(isinstance(docs.get(n), dict) for n in names):
        return None
    return docs


def _store_docs(d: Path, docs: dict) -> None:
    import marshal
    try:
        data = marshal.dumps(docs)
        if marshal.loads(data) != docs:
            return
        path = _cache_path(d)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except (OSError, TypeError, ValueError):   # unwritable home, or YAML marshal cannot hold: no cache
        pass


def _validate(rules: Rules) -> None:
    from .technologies import validate
    validate(rules.technologies)
    for code, c in list(rules.checks.items()) + list((rules.comparison or {}).items()):
        for key in ("step", "severity", "title", "why", "fix"):
            if key not in c:
                raise RulesError(f"rules/checks.yaml: check {code} lacks '{key}'")
        if c["severity"] not in ("error", "warning", "info"):
            raise RulesError(f"rules/checks.yaml: check {code} has unknown severity {c['severity']!r}")
    for key, entries in rules.vocab.items():
        if isinstance(entries, list):
            for e in entries:
                try:
                    re.compile(e["pattern"])
                except (re.error, KeyError, TypeError) as exc:
                    raise RulesError(f"rules/vocabulary.yaml: {key}: bad pattern {e!r}: {exc}") from None


@lru_cache(maxsize=4)
def rules_hash(directory: str | None = None) -> str:
    d = Path(directory) if directory else rules_dir()
    h = hashlib.sha256()
    for name in RULE_FILES:
        p = d / name
        if p.exists():
            h.update(name.encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


@lru_cache(maxsize=512)
def rx(pattern: str) -> re.Pattern:
    """Compiled, case-insensitive pattern from the rules (cached: the same few hundred are used per sheet)."""
    return re.compile(pattern, re.I)
