"""The pint registry, built once per process (construction costs ~0.5 s) and cached on disk by pint.

Importing pint alone costs ~0.2 s, more than reading a short sheet; so the factor of every unit spelling in
rules/ is also kept on disk (keyed by the rules hash), and a run whose rules have not changed never imports pint.
"""

from __future__ import annotations

import json
import math
import re
from functools import lru_cache

from .cachedir import HASH16, store, user_cache_dir
from .rules import compiled, load_rules

TARGET = {"bandwidth": "gigabyte / second", "latency": "nanosecond", "power": "kilowatt", "weight": "kilogram"}


@lru_cache(maxsize=1)
def registry():
    import pint

    cache = user_cache_dir() / "pint"
    try:
        cache.mkdir(parents=True, exist_ok=True)
        ureg = pint.UnitRegistry(cache_folder=cache)
    except Exception:  # a read-only home must not stop the audit; pint then parses without its cache
        ureg = pint.UnitRegistry()
    ureg.load_definitions(str(load_rules().directory / "units.txt"))
    return ureg


@lru_cache(maxsize=1)
def _factor_table() -> dict:
    """The factor of every spelling in rules/, read from the disk cache written by an earlier run with the
    same rules, else computed with pint and written (atomically; a corrupt or unwritable cache is ignored)."""
    from .rules import rules_hash

    path = user_cache_dir() / f"factors-{rules_hash()[:16]}.json"
    try:
        table = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(table, dict) and all(isinstance(v, float) for v in table.values()):
            return table
    except (OSError, ValueError):
        pass
    table = {}
    r = load_rules()
    for quantity in TARGET:
        names = list(r.units.get(quantity, {}))
        if quantity == "bandwidth":
            names += list(r.units.get("needs_network_word", {})) + canonical_rates()
        for spelling in names:
            try:
                table[f"{quantity}|{spelling}"] = float(_compute(quantity, spelling))
            except Exception:  # a spelling pint cannot read fails when used, as before
                continue
    try:
        store(path, json.dumps(table).encode("utf-8"), f"factors-{HASH16}.json")
    except OSError:
        pass
    return table


@lru_cache(maxsize=256)
def factor(quantity: str, spelling: str) -> float:
    """Multiplier from a printed unit spelling to the contract's unit for the quantity (GB/s, ns, kW)."""
    cached = _factor_table().get(f"{quantity}|{spelling}")
    if cached is not None:
        return cached
    return _compute(quantity, spelling)


def _compute(quantity: str, spelling: str) -> float:
    table = load_rules().units.get(quantity, {})
    expr = table.get(spelling)
    if expr is None and quantity == "bandwidth":
        expr = load_rules().units.get("needs_network_word", {}).get(spelling) or _rate_expr(spelling)
    if expr is None:
        raise KeyError(f"no unit spelling {spelling!r} for {quantity}")
    ureg = registry()
    target = TARGET[quantity]
    if "transfer" in expr:
        # Transfers are signalling symbols (one bit per lane); encoding is applied by the normaliser.
        return ureg.Quantity(1, expr).to("gigabit / second").magnitude / 8
    return ureg.Quantity(1, expr).to(target).magnitude


def convert(quantity: str, value: float, spelling: str) -> float:
    v = float(value) * factor(quantity, spelling)
    return v if math.isfinite(v) else 0.0


# Rates as a grammar (rules/units.yaml rate_grammar): [prefix][base][per time] in any of its spellings.
def _alt(words) -> str:
    return "|".join(re.escape(w).replace(r"\ ", r"\s*") for w in sorted(words, key=len, reverse=True))


@lru_cache(maxsize=1)
def _rate_sources() -> tuple[str, str]:
    """The grammar's two ways of writing a rate as regular-expression sources: symbols ("GT/sec", "GiBps"; groups
    sp, sb) and words ("gigabits per second"; groups wp, wb, any case)."""
    g = load_rules().units["rate_grammar"]
    per = "|".join(
        re.escape(t).replace(r"\ ", r"\s*").replace("/", r"\s*/\s*")
        for t in sorted(g["per_time"], key=len, reverse=True)
    )
    symbolic = rf"(?P<sp>{_alt(g['prefixes'])})(?P<sb>{_alt(g['bases'])})(?:{per})"
    words = (
        rf"(?i:(?P<wp>{_alt(g['word_prefixes'])})\s?(?P<wb>{_alt(g['word_bases'])})\s*"
        r"(?:per\s*sec(?:ond)?|/\s*s(?:ec(?:ond)?)?\b|ps\b))"
    )
    return symbolic, words


@lru_cache(maxsize=1)
def rate_regex() -> str:
    """A regular expression matching every spelling of a rate the grammar allows (for the finder's figure pattern)."""
    symbolic, words = _rate_sources()
    return rf"(?:{words}|{symbolic})(?![A-Za-z])"


@lru_cache(maxsize=1)
def _rate_patterns():
    symbolic, words = _rate_sources()
    return compiled(symbolic), compiled(words)


@lru_cache(maxsize=512)
def canonical_rate(printed: str) -> str | None:
    """'GT/sec' -> 'GT/s', 'gigabits per second' -> 'Gb/s', 'GiBps' -> 'GiB/s'; None when not a rate."""
    g = load_rules().units["rate_grammar"]
    symbolic, words = _rate_patterns()
    short = {name: sym for sym, name in g["pint_prefixes"].items()}
    text = printed.strip()
    m = symbolic.fullmatch(text)
    if m:
        prefix = short[g["prefixes"][m.group("sp")]]
        base = g["bases"][m.group("sb")]
    else:
        m = words.fullmatch(text)
        if not m:
            return None
        prefix = g["word_prefixes"][m.group("wp").lower()]
        base = g["word_bases"][m.group("wb").lower()]
    if base == "T" and prefix.endswith("i"):
        return None  # no binary transfer rates
    return f"{prefix}{base}/s"


def canonical_rates() -> list[str]:
    g = load_rules().units["rate_grammar"]
    return [f"{p}{b}/s" for p in g["pint_prefixes"] for b in g["pint_bases"] if not (b == "T" and p.endswith("i"))]


def _rate_expr(spelling: str) -> str | None:
    g = load_rules().units["rate_grammar"]
    m = re.fullmatch(r"(Ki|Mi|Gi|Ti|[KMGTP])([bBT])/s", spelling)
    if not m:
        return None
    return f"{g['pint_prefixes'][m.group(1)]}{g['pint_bases'][m.group(2)]} / second"
