"""Step 2, bandwidth basis: one basis (bytes, per direction) for every link figure; how each unstated
direction was read; totals checked against ports x rate; scale-out : scale-up per accelerator."""
from __future__ import annotations

import re

from ..model import Derived
from ..normalise import same_model
from ..numfmt import ratio as ratio_text
from . import bw, finding, fmt, named

LINK_TIERS = ("scale-up", "scale-out", "front-end", "host", "mixed", "unknown")


def run(figs, sheet, doc, facility):
    out = []
    links = bw(figs, *LINK_TIERS)
    unspecified = [f for f in links if f.direction == "unspecified"]
    if unspecified:
        lines = [f"{f.text} (p{f.page}, {f.tier}) read as {fmt(f.normalized['value'])} GB/s per direction: {f.reading}"
                 for f in _unique(unspecified)]
        out.append(finding("bandwidth.direction-unspecified",
                           f"{len(lines)} bandwidth figure(s) state no direction. " + "; ".join(lines) + ".", unspecified))
    bidir = [f for f in links if f.direction == "bidirectional"]
    if bidir:
        out.append(finding("bandwidth.bidirectional", "Stated as both directions added, halved: " + "; ".join(
            f"{f.text} (p{f.page}) = {fmt(f.normalized['value'])} GB/s per direction" for f in _unique(bidir)) + ".", bidir))
    ambiguous = [f for f in links if {"bare-unit", "bytes-for-bits"} & f.flags]
    if ambiguous:
        out.append(finding("bandwidth.unit-ambiguous", "The unit does not say bits or bytes: " + "; ".join(
            f"{f.text} (p{f.page}) read as {'bits written as bytes' if 'bytes-for-bits' in f.flags else 'a bit rate'}"
            f" = {fmt(f.normalized['value'])} GB/s" for f in _unique(ambiguous)) + ".", ambiguous))
    out.extend(_aggregate_mismatch(figs))
    signalling = [f for f in links if "signaling" in f.flags]
    if signalling:
        out.append(finding("bandwidth.signaling-rate", "Signalling rate, not payload: " + "; ".join(
            f"{f.text} (p{f.page}): {f.arithmetic}" for f in _unique(signalling)) + ".", signalling))
    out.extend(_ratio(figs, sheet))
    return out


def _unique(figs):
    seen, out = set(), []
    for f in figs:
        k = (f.text, f.tier, f.normalized["value"] if f.normalized else None)
        if k not in seen:
            seen.add(k)
            out.append(f)
    return out


def _aggregate_mismatch(figs):
    from ..normalise import base_gbs
    from ..rules import load_rules
    tol = load_rules().threshold("aggregate_tolerance")
    out = []
    ports = [p for p in figs if p.quantity == "bandwidth" and p.scope == "per-port" and p.count and p.tier == "scale-out"]
    for f in bw(figs, "scale-out", scopes={"per-switch"}):
        if not ports or "comparison" in f.flags:
            continue
        gbs, _ = base_gbs(f)
        totals = [(p, base_gbs(p)[0] * p.count) for p in same_model(f, ports)]
        if any(abs(gbs - t) <= tol * t or abs(gbs - 2 * t) <= tol * 2 * t for _, t in totals):
            continue
        p, t = totals[0]
        out.append(finding("bandwidth.aggregate-mismatch",
                           f"{named(f)}{f.text} (p{f.page}) equals neither {p.count} x {p.text} = {fmt(t)} GB/s per "
                           f"direction nor twice that ({fmt(2 * t)} GB/s).", [f, p], models=[f.model] if f.model else []))
    return out


def _per_acc(f, sheet):
    """Per-accelerator, per-direction GB/s of a figure, with its arithmetic; None when it cannot be known."""
    v = f.normalized["value"]
    acc = sheet.accelerators_for(f.segment.block if f.segment else 0, f.model)
    if f.scope == "per-accelerator":
        return v, f"{f.text} = {fmt(v)} GB/s per direction"
    if f.scope == "per-node" and acc:
        return v / acc, f"{f.text} = {fmt(v)} GB/s per node / {acc} accelerators = {fmt(v / acc)} GB/s"
    count = f.count
    if f.scope == "per-port" and not count and f.segment:
        lead = re.findall(r"(?<![\w.])(\d{1,3})\s*[x×]", f.segment.text[:f.segment.text.find(f.text)] if f.text in f.segment.text else "")
        count = int(lead[-1]) if lead else None
    if f.scope == "per-port" and f.segment and re.search(r"one (?:\w+ )?per (?:GPU|accelerator|NPU|card)|每颗|每卡",
                                                      f.segment.text, re.I):
        return v, f"{f.text} per port, one port per accelerator = {fmt(v)} GB/s"
    if f.scope == "per-port" and count and acc:
        return v * count / acc, (f"{count} x {f.text} = {fmt(v * count)} GB/s per node / {acc} accelerators = "
                                 f"{fmt(v * count / acc)} GB/s")
    return None


def _ratio(figs, sheet):
    out, seen = [], set()
    blocks = {}
    for f in bw(figs, "scale-up", "scale-out"):
        blocks.setdefault(f.segment.block if f.segment else 0, []).append(f)
    groups = [g for g in blocks.values() if {f.tier for f in g} == {"scale-up", "scale-out"}]
    groups.append(bw(figs, "scale-up", "scale-out"))   # the sheet as a whole, when no record holds both
    for group in groups:
        if out and group is groups[-1] and len(groups) > 1:
            break
        up = [(f, r) for f in group if f.tier == "scale-up" for r in [_per_acc(f, sheet)] if r]
        so = [(f, r) for f in group if f.tier == "scale-out" for r in [_per_acc(f, sheet)] if r]
        if not up or not so:
            continue
        fu, (vu, au) = max(up, key=lambda x: x[1][0])
        fs, (vs, as_) = max(so, key=lambda x: x[1][0])
        if not vu or (round(vu, 3), round(vs, 3)) in seen:
            continue
        seen.add((round(vu, 3), round(vs, 3)))
        ratio = vs / vu
        d = Derived("scale-out : scale-up per accelerator, per direction", ratio, "ratio",
                    f"scale-out {as_}; scale-up {au}; {fmt(vs)} / {fmt(vu)} = {ratio:.3f} ({ratio_text(ratio)})" if vs else
                    f"scale-out {as_}; scale-up {au}", [fu.id, fs.id])
        out.append(finding("bandwidth.scale-ratio",
                           f"Per accelerator, per direction: scale-up {fmt(vu)} GB/s, scale-out {fmt(vs)} GB/s; "
                           f"scale-out is {ratio_text(ratio)} of scale-up." if vs else "Scale-out bandwidth is zero.",
                           [fu, fs], [d, Derived("scale-up per accelerator, per direction", vu, "GB/s", au, [fu.id]),
                                      Derived("scale-out per accelerator, per direction", vs, "GB/s", as_, [fs.id])]))
    return out
