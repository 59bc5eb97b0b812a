"""The pint registry, built once per process (construction costs ~0.5 s) and cached on disk by pint."""
from __future__ import annotations

import math
import os
from functools import lru_cache
from pathlib import Path

from .rules import load_rules

TARGET = {"bandwidth": "gigabyte / second", "latency": "nanosecond", "power": "kilowatt"}


@lru_cache(maxsize=1)
def registry():
    import pint
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "sheetaudit" / "pint"
    try:
        cache.mkdir(parents=True, exist_ok=True)
        ureg = pint.UnitRegistry(cache_folder=cache)
    except Exception:   # a read-only home must not stop the audit; pint then parses without its cache
        ureg = pint.UnitRegistry()
    ureg.load_definitions(str(load_rules().directory / "units.txt"))
    return ureg


@lru_cache(maxsize=256)
def factor(quantity: str, spelling: str) -> float:
    """Multiplier from a printed unit spelling to the contract's unit for the quantity (GB/s, ns, kW)."""
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
