"""One plain-language sentence per sheet, for the person who signs the purchase."""
from __future__ import annotations

from ..model import Audit


def verdict(a: Audit) -> str:
    parts = []
    ratio = next((d for d in a.derived if d.name.startswith("scale-out : scale-up")), None)
    if ratio and ratio.value:
        parts.append(f"Scale-out bandwidth per accelerator is 1/{1 / ratio.value:.0f} of its scale-up bandwidth")
    rack = [f for f in a.figures if f.quantity == "power" and f.scope == "per-rack"]
    cooling = {f.normalized["value"] for f in a.figures if f.quantity == "cooling"}
    derived_rack = next((d for d in a.derived if d.name.startswith("rack power")), None)
    if rack:
        kw = max(f.normalized["value"] for f in rack)
        need = "needs liquid cooling" if ("liquid" in cooling or "immersion" in cooling or kw > 40) else "is air-coolable"
        parts.append(f"the rack draws {kw:g} kW and {need}")
    elif derived_rack:
        parts.append(f"about {derived_rack.value:g} kW per rack at typical density (derived from node power)")
    elif cooling & {"liquid", "immersion"}:
        parts.append("it needs liquid cooling")
    if not parts:
        n = len(a.findings)
        errors = sum(1 for f in a.findings if f.severity == "error")
        parts.append(f"{len(a.figures)} figure(s) read, {n} finding(s)" + (f", {errors} error(s)" if errors else ""))
    s = "; ".join(parts)
    return s[0].upper() + s[1:] + "."
