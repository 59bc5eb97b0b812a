"""The rules/ folder as data: vocabularies, unit spellings, conventions, thresholds and check declarations.

Loaded once per process. The rules hash keys the batch cache, so editing a rule invalidates old results.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from . import regex_cache
from .errors import RulesError
from .rules_folder import rules_dir
from .severity import SEVERITIES

RULE_FILES = (
    "units.yaml",
    "units.txt",
    "vocabulary.yaml",
    "conventions.yaml",
    "technologies.yaml",
    "thresholds.yaml",
    "checks.yaml",
    "scale.yaml",
    "requirements.yaml",
    "zh_variants.txt",
)


@dataclass(frozen=True)
class Rules:
    """The rule files as parsed: vocabularies, units, conventions, thresholds and the checks' declarations."""

    units: dict
    vocab: dict
    conventions: dict
    thresholds: dict
    checks: dict
    steps: dict
    directory: Path
    technologies: dict = None  # rules/technologies.yaml as parsed; sheetaudit.technologies reads it
    comparison: dict = None  # cross-sheet (batch) checks, compare.*
    scale: dict = None  # rules/scale.yaml as parsed: the what-if's assumptions (sheetaudit.atscale checks them)
    words: dict = None  # rules/checks.yaml `words`: the patterns the checks read in a sheet's text
    requirements: dict = None  # rules/requirements.yaml as parsed: the keys a requirements file may hold

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
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml: the rules load ~8x faster
        with path.open(encoding="utf-8") as fh:
            return _plain(yaml.load(fh, Loader=loader) or {})
    except FileNotFoundError:
        raise RulesError(f"{path} is missing") from None
    except yaml.YAMLError as exc:
        raise RulesError(f"{path}: not valid YAML: {exc}") from None


def _plain(obj):
    """YAML reads `checked: 2026-12-01` as a date; rules are plain data (text, numbers, lists, maps), so a date
    is kept as the text it was written as. Why: the rules cache (marshal) holds plain data only, and a date in
    technologies.yaml silently disabled it, costing every run the YAML parse."""
    import datetime

    if isinstance(obj, dict):
        return {k: _plain(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_plain(v) for v in obj]
    if isinstance(obj, (datetime.date, datetime.datetime)):
        return obj.isoformat()
    return obj


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
    checks_doc = docs["checks.yaml"]
    kb = docs["technologies.yaml"]
    vocab = {**docs["vocabulary.yaml"], "tier_technology": tier_words(docs["vocabulary.yaml"]["tier_technology"], kb)}
    return Rules(
        units=docs["units.yaml"],
        vocab=vocab,
        conventions=docs["conventions.yaml"],
        thresholds=docs["thresholds.yaml"],
        checks=checks_doc.get("checks", {}),
        steps=checks_doc.get("steps", {}),
        directory=d,
        technologies=kb,
        comparison=checks_doc.get("comparison", {}),
        scale=docs["scale.yaml"],
        words=checks_doc.get("words", {}),
        requirements=docs["requirements.yaml"],
    )


def tier_words(entries: list[dict], kb: dict) -> list[dict]:
    """The words that put a figure in a tier (vocabulary.yaml tier_technology) with every technology of the
    knowledge base added to the first entry of its tier: the vocabulary holds the other words (a switch family,
    "host interface"), technologies.yaml the fabrics, so a fabric added there is read as its tier."""
    entries = [dict(e) for e in entries]
    for tier in dict.fromkeys(t["tier"] for t in kb.get("technologies") or []):
        names = "|".join(t["pattern"] for t in kb["technologies"] if t["tier"] == tier)
        first = next((e for e in entries if e["tier"] == tier), None)
        if first is None:
            entries.append({"pattern": names, "tier": tier})
        else:
            first["pattern"] = f"{names}|{first['pattern']}"
    return entries


def _cache_path(d: Path) -> Path:
    import sys
    from .cachedir import user_cache_dir

    return user_cache_dir() / f"rules-{rules_hash(str(d))[:16]}-py{sys.version_info[0]}{sys.version_info[1]}.marshal"


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
        from .cachedir import HASH16, store

        store(_cache_path(d), data, f"rules-{HASH16}-py*.marshal")
    except (OSError, TypeError, ValueError):  # unwritable home, or YAML marshal cannot hold: no cache
        pass


def _validate(rules: Rules) -> None:
    validate_technologies(rules.technologies)
    for code, c in list(rules.checks.items()) + list((rules.comparison or {}).items()):
        for key in ("step", "severity", "title", "why", "fix"):
            if key not in c:
                raise RulesError(f"rules/checks.yaml: check {code} lacks '{key}'")
        if c["severity"] not in SEVERITIES:
            raise RulesError(f"rules/checks.yaml: check {code} has unknown severity {c['severity']!r}")
    for key, pattern in (rules.words or {}).items():
        try:
            re.compile(pattern)
        except (re.error, TypeError) as exc:
            raise RulesError(f"rules/checks.yaml: words: {key}: bad pattern {pattern!r}: {exc}") from None
    for key, entries in rules.vocab.items():
        if isinstance(entries, list):
            for e in entries:
                try:
                    re.compile(e["pattern"])
                except (re.error, KeyError, TypeError) as exc:
                    raise RulesError(f"rules/vocabulary.yaml: {key}: bad pattern {e!r}: {exc}") from None


def validate_technologies(doc: dict) -> None:
    """Every technology names a pattern and tier; every generation row carries its source and checked date."""
    techs = doc.get("technologies")
    if not isinstance(techs, list) or not techs:
        raise RulesError("rules/technologies.yaml: 'technologies' must be a non-empty list")
    for t in techs:
        for key in ("name", "pattern", "tier", "bytes_totals"):
            if not t.get(key):
                raise RulesError(f"rules/technologies.yaml: technology {t.get('name', '?')!r} lacks '{key}'")
        spelt = [t.get(k) or "" for k in ("generation_pattern", "rate_names", "named_alone", "context")]
        for pat in [t["pattern"], *spelt] + [p for g in t.get("generations") or [] for p in g.get("names") or []]:
            try:
                compiled(pat)
            except re.error as exc:
                raise RulesError(f"rules/technologies.yaml: {t['name']}: bad pattern {pat!r}: {exc}") from None
        for g in t.get("generations") or []:
            missing = [k for k in ("gen", "source", "checked") if not g.get(k)]
            if missing:
                raise RulesError(
                    f"rules/technologies.yaml: {t['name']} generation {g.get('gen', '?')!r} lacks "
                    f"{', '.join(missing)} (every row needs a source and the date it was checked)"
                )


@lru_cache(maxsize=4)
def rules_hash(directory: str | None = None) -> str:
    d = Path(directory) if directory else rules_dir()
    h = hashlib.sha256()
    for name in RULE_FILES:
        p = d / name
        if p.exists():
            h.update(name.encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


@lru_cache(maxsize=1024)
def compiled(pattern: str, flags: int = 0) -> re.Pattern:
    """A pattern of the rules or of our own modules, compiled once per process, and built from the compiled form
    an earlier run kept where it can (sheetaudit.regex_cache, which also makes its simplified Chinese characters
    match their traditional forms: rules/zh_variants.txt)."""
    return regex_cache.compile(pattern, flags)


def rx(pattern: str) -> re.Pattern:
    """Compiled, case-insensitive pattern from the rules (cached: the same few hundred are used per sheet)."""
    return compiled(pattern, re.I)


def check_words(name: str) -> re.Pattern:
    """The checks' own pattern NAME (rules/checks.yaml `words`), compiled case-insensitive."""
    try:
        return rx(load_rules().words[name])
    except KeyError:
        raise RulesError(f"rules/checks.yaml: words: {name} is missing") from None
