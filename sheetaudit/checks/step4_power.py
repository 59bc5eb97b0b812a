"""Step 4, physical constraints: rack power against the air-cooling limit and the user's facility,
liquid cooling, and rack power derived from node power where the sheet gives only that."""
from __future__ import annotations

from ..model import Derived
from ..rules import load_rules, rx
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
    if not dense:
        liquid = [f for f in liquid if not _liquid_is_an_option(f, cooling_figs, r)]
    if liquid or dense:
        why = (f"the sheet states {', '.join(dict.fromkeys(f.text for f in liquid))}" if liquid else
               f"its rack power ({max(f.normalized['value'] for f in dense):g} kW) is above the air-cooling limit")
        # a family where only some models need liquid: say which, and which can be air-cooled
        need = list(dict.fromkeys(f.model for f in liquid + dense if f.model))
        air = [m for m in dict.fromkeys(f.model for f in cooling_figs if f.model and f.normalized["value"] == "air")
               if m not in need]
        if need and air:
            out.append(finding("power.liquid-cooling-required",
                               f"{', '.join(need)}: liquid cooling is required: {why}; {', '.join(air)} "
                               f"{'is' if len(air) == 1 else 'are'} air-cooled.", liquid + dense, models=need))
        else:
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
        weight = [f for f in figs if f.quantity == "weight" and f.scope == "per-rack"]
        out.extend(_facility(facility, rack, derived_rack, cooling, liquid, weight, footprint_m(doc)))
    return out


def _liquid_is_an_option(f, cooling_figs, r) -> bool:
    """Air-cooled and liquid-cooled builds of one product, the liquid one offered ("or an optional cold-plate
    kit", "液冷版") with no word that requires it. A model of a family cooled by liquid alone is not optional:
    that model needs it (its finding names it)."""
    air = [a for a in cooling_figs if a.normalized["value"] == "air"]
    if f.model:
        air = [a for a in air if a.model == f.model]
    if not air:
        return False
    words = f"{f.label} {f.segment.text if f.segment else f.context}"
    return not rx(r.vocab["cooling_required_cue"]).search(words)


def _floor(limit, weight, footprint):
    """Rack weight over its footprint against the floor's rated load; a 600 x 1,200 mm rack is assumed unprinted."""
    top = max(weight, key=lambda f: f.normalized["value"])
    w, d = footprint or (0.6, 1.2)
    load = top.normalized["value"] / (w * d)
    if load <= limit:
        return []
    assumed = "" if footprint else " (footprint not printed: a 600 x 1,200 mm rack assumed)"
    dv = Derived("floor load", load, "kg/m²", f"{top.text} / ({w:g} m x {d:g} m){assumed} = {fmt(load)} kg/m²", [top.id])
    return [finding("power.facility-exceeded", f"Floor load {fmt(load)} kg/m² ({top.text} on {w:g} x {d:g} m{assumed}) "
                    f"exceeds the facility's {fmt(limit)} kg/m².", [top], [dv])]


def footprint_m(doc) -> tuple[float, float] | None:
    """'600 mm W x 1,068 mm D' -> (0.6, 1.068) metres, from the first segment that prints one."""
    import re
    pat = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*mm\s*W\s*[x×]\s*(\d[\d,]*(?:\.\d+)?)\s*mm\s*D", re.I)
    for s in doc.segments:
        m = pat.search(s.text)
        if m:
            return float(m.group(1).replace(",", "")) / 1000, float(m.group(2).replace(",", "")) / 1000
    return None


def _facility(fac, rack, derived_rack, cooling, liquid, weight=(), footprint=None):
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
    floor = fac.get("floor_load_kg_m2")
    if floor is not None and weight:
        out.extend(_floor(float(floor), weight, footprint))
    avail = fac.get("cooling")
    if avail:
        avail = {avail} if isinstance(avail, str) else set(avail)
        need = {f.normalized["value"] for f in liquid}
        if need and not need & avail:
            out.append(finding("power.facility-exceeded", f"The sheet requires {', '.join(sorted(need))} cooling; the "
                               f"facility offers {', '.join(sorted(avail))}.", liquid))
    return out
