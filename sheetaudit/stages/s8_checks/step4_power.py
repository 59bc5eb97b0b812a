"""Step 4, physical constraints: rack power against the air-cooling limit and the user's facility,
liquid cooling, and rack power derived from node power where the sheet gives only that."""

from __future__ import annotations

from ...records import Derived
from ...rules import load_rules, rx
from ...numfmt import fmt
from . import finding, shown, words


LIQUID = ("liquid", "immersion")


def hall_of(facility: dict | None) -> dict | None:
    """What the buyer's hall says of rack power and cooling: {'name', 'kw' (or None), 'offers' (a set, or None)}, or
    None when the profile says neither (a floor load alone)."""
    if not facility or (facility.get("rack_power_kw") is None and not facility.get("cooling")):
        return None
    offers = facility.get("cooling")
    offers = None if not offers else {offers} if isinstance(offers, str) else set(offers)
    cap = facility.get("rack_power_kw")
    return {
        "name": str(facility.get("name") or "your hall"),
        "kw": None if cap is None else float(cap),
        "offers": offers,
    }


def run(figs, sheet, doc, facility):
    r = load_rules()
    limit = r.threshold("air_cooling_limit_kw")
    out = []
    power = [f for f in figs if f.quantity == "power"]
    rack = [f for f in power if f.scope == "per-rack"]
    node = [f for f in power if f.scope == "per-node"]
    cooling_figs = [f for f in figs if f.quantity == "cooling"]
    hall = hall_of(facility)
    dense = [f for f in rack if f.normalized["value"] > limit]
    if hall is None:  # with a hall, the hall decides (_facility): the air limit is the hall's, not a guess
        cases: dict[str, list] = {}
        for f in dense:
            cases.setdefault(cooled_by(f, cooling_figs, r), []).append(f)
        for case in ("air", "unstated", "either", "liquid"):
            if cases.get(case):
                out.append(_density(case, cases[case], cooling_figs, limit))
    liquid = [f for f in cooling_figs if f.normalized["value"] in LIQUID]
    if not dense:
        liquid = [f for f in liquid if not _liquid_is_an_option(f, cooling_figs, r)]
    if liquid or dense:
        data = (
            {"stated": list(dict.fromkeys(f.text for f in liquid))}
            if liquid
            else {"rack_kw": max(f.normalized["value"] for f in dense), "limit_kw": limit}
        )
        parts = {"why": "stated" if liquid else "dense"}
        case = ""
        if hall and hall["offers"] and hall["offers"] & set(LIQUID):
            parts["hall"] = True
            data.update(hall=hall["name"], offered=sorted(hall["offers"] & set(LIQUID)))
            case = "hall"
        # a family where only some models need liquid: say which, and which can be air-cooled
        need = list(dict.fromkeys(f.model for f in liquid + dense if f.model))
        air = [
            m
            for m in dict.fromkeys(f.model for f in cooling_figs if f.model and f.normalized["value"] == "air")
            if m not in need
        ]
        if need and air:
            out.append(
                finding(
                    "power.liquid-cooling-required",
                    liquid + dense,
                    models=need,
                    data={**data, "air_cooled": air},
                    case=case,
                    message="some_models",
                    parts={**parts, "are": "one" if len(air) == 1 else "many"},
                )
            )
        else:
            out.append(
                finding(
                    "power.liquid-cooling-required",
                    liquid + dense,
                    data=data,
                    case=case,
                    message="all",
                    parts=parts,
                )
            )
    derived_rack = None
    if node and not rack and sheet.kind in ("server", "pod", "unknown", "rack"):
        n = int(r.threshold("typical_nodes_per_rack"))
        top = max(node, key=lambda f: f.normalized["value"])
        kw = top.normalized["value"] * n
        derived_rack = kw
        d = Derived(
            "rack power for typical nodes per rack",
            kw,
            "kW",
            f"{top.text} per node x {n} nodes per rack = {fmt(kw)} kW",
            [top.id],
            inputs={"node_kw": top.normalized["value"], "nodes": n},
        )
        out.append(
            finding(
                "power.per-node-only",
                [top],
                [d],
                data=shown(top, node_kw=top.normalized["value"], nodes=n, rack_kw=kw, limit_kw=limit),
                parts={"over_air": kw > limit},
            )
        )
    system = [f for f in power if f.scope not in ("per-device", "per-accelerator", "per-port", "per-lane", "per-link")]
    if not system and sheet.kind in ("server", "rack", "pod"):
        out.append(
            finding(
                "power.missing",
                power[:3],
                data={"items": [shown(f) for f in power[:3]]},
                message="components_only" if power else "none",
            )
        )
    if facility:
        weight = [f for f in figs if f.quantity == "weight" and f.scope == "per-rack"]
        out.extend(_facility(facility, hall, rack, derived_rack, liquid, limit, weight, footprint_m(doc)))
    return out


def cooled_by(f, cooling_figs, r) -> str:
    """How the sheet says the rack of F is cooled: air (only air is stated for it), liquid (liquid or immersion is),
    either (air as standard, liquid only as an option) or unstated. The cooling of F's own model when the sheet
    gives one, else what the sheet states for no model in particular, else anything it states."""
    said = _own_words(f, r)
    if said:
        return said
    own = (
        ([c for c in cooling_figs if c.model == f.model] if f.model else [])
        or [c for c in cooling_figs if not c.model]
        or cooling_figs
    )
    said = {c.normalized["value"] for c in own}
    if said & set(LIQUID):
        wet = [c for c in own if c.normalized["value"] in LIQUID]
        return "either" if all(_offered_as_option(c, r) for c in wet) else "liquid"
    return "air" if "air" in said else "unstated"


def _phrases(f, r) -> list[str]:
    """The cooling methods the figure's own label names (rules/vocabulary.yaml cooling_phrase). Its label only:
    the prose around a figure speaks of other halls too ('well beyond what an air-cooled hall can remove')."""
    return list(dict.fromkeys(m.group(0) for m in rx(r.vocab["cooling_phrase"]).finditer(f.label or "")))


def _own_words(f, r) -> str:
    """The cooling the rack figure's own label states ('Air-cooled: four servers per rack at ~44 kW', 'Rack power,
    liquid-cooled build: 94 kW'): air or liquid, or '' when its label names none or both."""
    values = {next((c["value"] for c in r.vocab["cooling"] if rx(c["pattern"]).search(n)), "") for n in _phrases(f, r)}
    values.discard("")
    if len(values) != 1:
        return ""
    (v,) = values
    return "liquid" if v in LIQUID else "air"


def _density(case: str, dense: list, cooling_figs: list, limit: float):
    """power.rack-density for the racks above the air limit that the sheet cools alike (CASE, rules/checks.yaml)."""
    top = max(dense, key=lambda f: f.normalized["value"])
    said = [
        c
        for c in cooling_figs
        if (case != "liquid" or c.normalized["value"] in LIQUID)
        and (case not in ("air", "either") or c.normalized["value"] == "air")
    ]
    own = _phrases(top, load_rules())
    cooling = own or list(dict.fromkeys(c.text for c in said))[:3]
    return finding(
        "power.rack-density",
        dense,
        case=case,
        data=shown(top, rack_kw=top.normalized["value"], limit_kw=limit, cooling=cooling),
    )


def _offered_as_option(f, r) -> bool:
    """Liquid cooling the sheet offers as an option ('optional DLC kit', '可选'), with no word that requires it."""
    said = f"{f.label} {f.segment.text if f.segment else f.context}"
    return bool(words("cooling_option").search(said)) and not rx(r.vocab["cooling_required_cue"]).search(said)


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
    dv = Derived(
        "floor load",
        load,
        "kg/m²",
        f"{top.text} / ({w:g} m x {d:g} m){assumed} = {fmt(load)} kg/m²",
        [top.id],
        inputs={"weight_kg": top.normalized["value"], "width_m": w, "depth_m": d},
    )
    return [
        finding(
            "power.facility-exceeded",
            [top],
            [dv],
            data=shown(top, load_kg_m2=load, width_m=w, depth_m=d, assumed=assumed, limit_kg_m2=limit),
            message="floor",
        )
    ]


def footprint_m(doc) -> tuple[float, float] | None:
    """'600 mm W x 1,068 mm D' -> (0.6, 1.068) metres, from the first segment that prints one."""
    pat = words("footprint")
    for s in doc.segments:
        m = pat.search(s.text)
        if m:
            return float(m.group(1).replace(",", "")) / 1000, float(m.group(2).replace(",", "")) / 1000
    return None


def _facility(fac, hall, rack, derived_rack, liquid, limit, weight=(), footprint=None):
    """The hall decides: power.facility-exceeded when it cannot feed or cool the rack (naming the rack and the
    hall), nothing when it can."""
    out = []
    if hall:
        cap, offers = hall["kw"], hall["offers"]
        need = {f.normalized["value"] for f in liquid}
        cooling_short = bool(offers is not None and need and not need & offers)
        if rack:
            top = max(rack, key=lambda f: f.normalized["value"])
            kw = top.normalized["value"]
            air_only = offers is not None and not offers & set(LIQUID)
            cooling_short = cooling_short or (air_only and cap is None and kw > limit)
            over = cap is not None and kw > cap
            if over or cooling_short:
                if over and cooling_short:
                    message = "rack_over_needs" if need else "rack_over_air"
                else:
                    message = "rack_over" if over else "rack_needs" if need else "rack_air"
                out.append(
                    finding(
                        "power.facility-exceeded",
                        [top] + (liquid if need else []),
                        message=message,
                        data=shown(
                            top,
                            rack_kw=kw,
                            limit_kw=cap,
                            hall=hall["name"],
                            air_kw=limit,
                            needs=sorted(need),
                            offers=sorted(offers or ()),
                        ),
                    )
                )
                cooling_short = False
        elif derived_rack and cap is not None and derived_rack > cap:
            out.append(
                finding(
                    "power.facility-exceeded",
                    case="derived",
                    data={"rack_kw": derived_rack, "limit_kw": cap, "hall": hall["name"]},
                )
            )
        if cooling_short:
            out.append(
                finding(
                    "power.facility-exceeded",
                    liquid,
                    message="cooling",
                    data={"needs": sorted(need), "offers": sorted(offers), "hall": hall["name"]},
                )
            )
    floor = fac.get("floor_load_kg_m2")
    if floor is not None and weight:
        out.extend(_floor(float(floor), weight, footprint))
    return out
