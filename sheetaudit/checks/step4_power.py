"""Step 4, physical constraints: rack power against the air-cooling limit and the user's facility,
liquid cooling, and rack power derived from node power where the sheet gives only that."""
from __future__ import annotations

from ..model import Derived
from ..rules import load_rules
from . import finding, fmt


def run(figs, sheet, doc, facility):
    r = load_rules()
    limit = r.threshold("air_cooling_limit_kw")
    out = []
    power = [f for f in figs if f.quantity == "power"]
    rack = [f for f in power if f.scope == "per-rack"]
    node = [f for f in power if f.scope == "per-node"]
    cooling = {f.normalized["value"] for f in figs if f.quantity == "cooling"}
    cooling_figs = [f for f in figs if f.quantity == "cooling"]
    dense = [f for f in rack if f.normalized["value"] > limit]
    if dense:
        top = max(dense, key=lambda f: f.normalized["value"])
        out.append(finding("power.rack-density", f"Rack power {top.text} (p{top.page}) is above the {fmt(limit)} kW "
                           "per rack that air cooling can remove.", dense))
    liquid = [f for f in cooling_figs if f.normalized["value"] in ("liquid", "immersion")]
    if liquid or dense:
        why = (f"the sheet states {', '.join(dict.fromkeys(f.text for f in liquid))}" if liquid else
               f"its rack power ({max(f.normalized['value'] for f in dense):g} kW) is above the air-cooling limit")
        out.append(finding("power.liquid-cooling-required", f"Liquid cooling is required: {why}.", liquid + dense))
    derived_rack = None
    if node and not rack and sheet.kind in ("server", "pod", "unknown", "rack"):
        n = int(r.threshold("typical_nodes_per_rack"))
        top = max(node, key=lambda f: f.normalized["value"])
        kw = top.normalized["value"] * n
        derived_rack = kw
        d = Derived("rack power for typical nodes per rack", kw, "kW",
                    f"{top.text} per node x {n} nodes per rack = {fmt(kw)} kW", [top.id])
        over = f"; that is above the {fmt(limit)} kW air-cooling limit" if kw > limit else ""
        out.append(finding("power.per-node-only", f"Only node power is given ({top.text}, p{top.page}); "
                           f"{n} nodes per rack would draw {fmt(kw)} kW{over}.", [top], [d]))
    if not power and sheet.kind in ("server", "rack", "pod"):
        out.append(finding("power.missing", "The sheet gives no power consumption for the node, rack or accelerators."))
    if facility:
        out.extend(_facility(facility, rack, derived_rack, cooling, liquid))
    return out


def _facility(fac, rack, derived_rack, cooling, liquid):
    out = []
    cap = fac.get("rack_power_kw")
    if cap is not None:
        for f in rack:
            if f.normalized["value"] > float(cap):
                out.append(finding("power.facility-exceeded", f"Rack power {f.text} (p{f.page}) exceeds the facility's "
                                   f"{fmt(float(cap))} kW per rack.", [f]))
        if not rack and derived_rack and derived_rack > float(cap):
            out.append(finding("power.facility-exceeded", f"Derived rack power {fmt(derived_rack)} kW exceeds the "
                               f"facility's {fmt(float(cap))} kW per rack (reduce nodes per rack)."))
    avail = fac.get("cooling")
    if avail:
        avail = {avail} if isinstance(avail, str) else set(avail)
        need = {f.normalized["value"] for f in liquid}
        if need and not need & avail:
            out.append(finding("power.facility-exceeded", f"The sheet requires {', '.join(sorted(need))} cooling; the "
                               f"facility offers {', '.join(sorted(avail))}.", liquid))
    return out
