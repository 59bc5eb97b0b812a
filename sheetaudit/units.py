"""The pint registry, built once per process (construction costs ~0.5 s) and cached on disk by pint.

Importing pint alone costs ~0.2 s, more than reading a short sheet; so the factor of every unit spelling in
rules/ is also kept on disk (keyed by the rules hash), and a run whose rules have not changed never imports pint.
"""
from __future__ import annotations

import json
import math
import os
from functools import lru_cache
from pathlib import Path

from .rules import load_rules

TARGET = {"bandwidth": "gigabyte / second", "latency": "nanosecond", "power": "kilowatt", "weight": "kilogram"}


def _cache_dir() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "sheetaudit"


@lru_cache(maxsize=1)
def registry():
    import pint
    cache = _cache_dir() / "pint"
    try:
        cache.mkdir(parents=True, exist_ok=True)
        ureg = pint.UnitRegistry(cache_folder=cache)
    except Exception:   # a read-only home must not stop the audit; pint then parses without its cache
        ureg = pint.UnitRegistry()
    ureg.load_definitions(str(load_rules().directory / "units.txt"))
    return ureg


@lru_cache(maxsize=1)
def _factor_table() -> dict:
    """The factor of every spelling in rules/, read from the disk cache written by an earlier run with the
    same rules, else computed with pint and written (atomically; a corrupt or unwritable cache is ignored)."""
    from .rules import rules_hash
    path = _cache_dir() / f"factors-{rules_hash()[:16]}.json"
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
            names += list(r.units.get("needs_network_word", {}))
        for spelling in names:
            try:
                table[f"{quantity}|{spelling}"] = float(_compute(quantity, spelling))
            except Exception:   # a spelling pint cannot read fails when used, as before
                continue
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(table), encoding="utf-8")
        os.replace(tmp, path)
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
        expr = load_rules().units.get("needs_network_word", {}).get(spelling)
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
