"""Step 4, physical constraints: rack power against the air-cooling limit and the user's facility,
liquid cooling, and rack power derived from node power where the sheet gives only that."""
from __future__ import annotations

from ..model import Derived
from ..rules import load_rules, rx
from . import finding, fmt, shown, words


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
        out.append(finding("power.rack-density", "Rack power {figure} ({pages}) is above the {limit_kw} kW per rack "
                           "that air cooling can remove.", dense,
                           data=shown(top, rack_kw=top.normalized["value"], limit_kw=limit)))
    liquid = [f for f in cooling_figs if f.normalized["value"] in ("liquid", "immersion")]
    if not dense:
        liquid = [f for f in liquid if not _liquid_is_an_option(f, cooling_figs, r)]
    if liquid or dense:
        data = ({"stated": list(dict.fromkeys(f.text for f in liquid))} if liquid else
                {"rack_kw": max(f.normalized["value"] for f in dense), "limit_kw": limit})
        why = "the sheet states {stated}" if liquid else "its rack power ({rack_kw} kW) is above the air-cooling limit"
        # a family where only some models need liquid: say which, and which can be air-cooled
        need = list(dict.fromkeys(f.model for f in liquid + dense if f.model))
        air = [m for m in dict.fromkeys(f.model for f in cooling_figs if f.model and f.normalized["value"] == "air")
               if m not in need]
        if need and air:
            out.append(finding("power.liquid-cooling-required",
                               "{models}: liquid cooling is required: " + why + "; {air_cooled} "
                               f"{'is' if len(air) == 1 else 'are'} air-cooled.", liquid + dense, models=need,
                               data={**data, "air_cooled": air}))
        else:
            out.append(finding("power.liquid-cooling-required", "Liquid cooling is required: " + why + ".",
                               liquid + dense, data=data))
    derived_rack = None
    if node and not rack and sheet.kind in ("server", "pod", "unknown", "rack"):
        n = int(r.threshold("typical_nodes_per_rack"))
        top = max(node, key=lambda f: f.normalized["value"])
        kw = top.normalized["value"] * n
        derived_rack = kw
        d = Derived("rack power for typical nodes per rack", kw, "kW",
                    f"{top.text} per node x {n} nodes per rack = {fmt(kw)} kW", [top.id],
                    inputs={"node_kw": top.normalized["value"], "nodes": n})
        over = "; that is above the {limit_kw} kW air-cooling limit" if kw > limit else ""
        out.append(finding("power.per-node-only", "Only node power is given ({figure}, {pages}); {nodes} nodes per "
                           "rack would draw {rack_kw} kW" + over + ".", [top], [d],
                           data=shown(top, node_kw=top.normalized["value"], nodes=n, rack_kw=kw, limit_kw=limit)))
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
    dv = Derived("floor load", load, "kg/m²", f"{top.text} / ({w:g} m x {d:g} m){assumed} = {fmt(load)} kg/m²", [top.id],
                 inputs={"weight_kg": top.normalized["value"], "width_m": w, "depth_m": d})
    return [finding("power.facility-exceeded", "Floor load {load_kg_m2} kg/m² ({figure} on {width_m:g} x {depth_m:g} m"
                    "{assumed}) exceeds the facility's {limit_kg_m2} kg/m².", [top], [dv],
                    data=shown(top, load_kg_m2=load, width_m=w, depth_m=d, assumed=assumed, limit_kg_m2=limit))]


def footprint_m(doc) -> tuple[float, float] | None:
    """'600 mm W x 1,068 mm D' -> (0.6, 1.068) metres, from the first segment that prints one."""
    pat = words("footprint")
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
                out.append(finding("power.facility-exceeded", "Rack power {figure} ({pages}) exceeds the facility's "
                                   "{limit_kw} kW per rack.", [f],
                                   data=shown(f, rack_kw=f.normalized["value"], limit_kw=float(cap))))
        if not rack and derived_rack and derived_rack > float(cap):
            out.append(finding("power.facility-exceeded", "Derived rack power {rack_kw} kW exceeds the facility's "
                               "{limit_kw} kW per rack (reduce nodes per rack).",
                               data={"rack_kw": derived_rack, "limit_kw": float(cap)}))
    floor = fac.get("floor_load_kg_m2")
    if floor is not None and weight:
        out.extend(_floor(float(floor), weight, footprint))
    avail = fac.get("cooling")
    if avail:
        avail = {avail} if isinstance(avail, str) else set(avail)
        need = {f.normalized["value"] for f in liquid}
        if need and not need & avail:
            out.append(finding("power.facility-exceeded", "The sheet requires {needs} cooling; the facility offers "
                               "{offers}.", liquid, data={"needs": sorted(need), "offers": sorted(avail)}))
    return out
