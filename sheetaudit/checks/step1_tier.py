"""Step 1, tier and domain: every interconnect figure in a tier, the scale-up domain's size known, totals
over a node, domain or switch divided back to one accelerator (or one port)."""
from __future__ import annotations

import re

from ..model import Derived
from ..normalise import same_model
from . import bw, finding, fmt, named

AGGREGATE_SCOPES = {"per-node": "node", "per-domain": "domain", "per-switch": "switch", "per-rack": "rack",
                    "per-cluster": "cluster"}


def run(figs, sheet, doc, facility):
    out = []
    unknown = [f for f in figs if f.quantity in ("bandwidth", "latency") and f.tier in ("unknown", None)]
    if unknown:
        out.append(finding("tier.unclassified", "Tier not decided for " + ", ".join(f"{f.text} (p{f.page})" for f in unknown)
                           + ": nothing says whether it is scale-up, scale-out or front-end.", unknown))
    up = bw(figs, "scale-up")
    domain = [f for f in figs if f.quantity == "domain_size" and f.tier == "scale-up"]
    if up and not domain:
        out.append(finding("tier.domain-size-missing",
                           f"Scale-up bandwidth is given ({', '.join(dict.fromkeys(f.text for f in up))}) but not how "
                           "many accelerators share one scale-up domain.", up))
    out.extend(_aggregates(figs, sheet, domain))
    out.extend(_mixed(figs))
    return out


def _aggregates(figs, sheet, domain):
    out = []
    for f in bw(figs, "scale-up", "scale-out", "front-end", "host", "mixed", scopes=set(AGGREGATE_SCOPES)):
        if f.scope == "per-switch" and sheet.kind == "switch":
            continue   # a switch's own capacity is its figure; bandwidth.aggregate-mismatch checks it
        v = f.normalized["value"]
        where = AGGREGATE_SCOPES[f.scope]
        divisor, what = None, "accelerator"
        if f.scope == "per-switch":
            ports = same_model(f, [p for p in figs if p.quantity == "bandwidth" and p.scope == "per-port" and p.count])
            if ports:
                divisor, what = ports[0].count, "port"
        elif f.scope == "per-domain" and domain:
            divisor = max(d.normalized["value"] for d in domain)
        elif f.scope == "per-node":
            divisor = sheet.accelerators_for(f.segment.block if f.segment else 0, f.model)
        derived = []
        if divisor:
            per = v / divisor
            derived.append(Derived(f"per-{what} equivalent of {f.text}", per, "GB/s",
                                   f"{fmt(v)} GB/s per direction / {int(divisor)} {what}s = {fmt(per)} GB/s per {what}",
                                   [f.id]))
            msg = (f"{named(f)}{f.text} (p{f.page}) is a total over the {where}, not a per-{what} figure: "
                   f"{fmt(v)} GB/s per direction / {int(divisor)} = {fmt(per)} GB/s per {what} per direction.")
        else:
            msg = f"{named(f)}{f.text} (p{f.page}) is a total over the {where}; the sheet does not say how many {what}s share it."
        out.append(finding("tier.aggregate-figure", msg, [f], derived, models=[f.model] if f.model else []))
    return out


def _mixed(figs):
    out = []
    bws = [f for f in figs if f.quantity == "bandwidth" and f.tier not in ("memory",)]
    total_word = re.compile(r"total|combined|aggregate|sum|overall|合计|总", re.I)
    for f in bws:
        parts = None
        if f.tier != "mixed" and not total_word.search(f"{f.label} {f.context}"):
            continue
        for a in bws:
            for b in bws:
                if a is b or f in (a, b) or a.id > b.id:
                    continue
                if abs(float(a.value) + float(b.value) - float(f.value)) < 1e-6 * max(1, float(f.value)) \
                        and (a.tier != b.tier or _bits(a) != _bits(b)):
                    parts = (a, b)
        if f.tier == "mixed" or parts:
            detail = (f": it equals {parts[0].text} ({parts[0].tier}) + {parts[1].text} ({parts[1].tier})"
                      + (", adding bytes and bits" if _bits(parts[0]) != _bits(parts[1]) else "")) if parts else ""
            out.append(finding("tier.mixed-sum", f"{f.text} (p{f.page}) adds bandwidths of different tiers{detail}; "
                               "it describes no usable link.", [f] + (list(parts) if parts else [])))
    return out


def _bits(f) -> bool:
    return "b" in f.unit.replace("bytes", "") and "B/" not in f.unit
