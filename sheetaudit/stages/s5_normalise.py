"""Normalise classified figures to the contract's basis with pint and the conventions in rules/:
bandwidth in GB/s (10^9 bytes/s) per direction in the figure's own scope, latency in ns, power in kW.

Every conversion records its arithmetic in words, so the report can show how a printed figure became the
number that is compared.
"""

from __future__ import annotations

import math
from bisect import bisect_left

from .s4_classify import is_bytes
from ..records import Figure
from ..numfmt import fmt
from ..rules import load_rules
from ..technologies import load as knowledge
from ..units import convert


def _round(x: float) -> float:
    return float(f"{x:.6g}") if math.isfinite(x) else 0.0


def normalise(figs: list[Figure]) -> list[Figure]:
    conv = load_rules().conventions
    ports = _Ports([f for f in figs if f.quantity == "bandwidth" and f.scope == "per-port" and f.count])
    for f in figs:
        if f.quantity == "bandwidth":
            _bandwidth(f, conv, ports)
        elif f.quantity == "latency":
            ns = convert("latency", f.value, f.unit)
            f.normalized = {"value": _round(ns), "unit": "ns"}
            f.arithmetic = f"{f.text} = {fmt(ns)} ns"
        elif f.quantity == "power":
            kw = convert("power", f.value, f.unit)
            f.normalized = {"value": _round(kw), "unit": "kW"}
            f.arithmetic = f"{f.text} = {fmt(kw)} kW"
        elif f.quantity == "weight":
            kg = convert("weight", f.value, f.unit)
            f.normalized = {"value": _round(kg), "unit": "kg"}
            f.arithmetic = f"{f.text} = {fmt(kg)} kg"
        elif f.quantity == "domain_size":
            f.normalized = {"value": float(f.value), "unit": "accelerators"}
        elif f.quantity == "cooling":
            f.normalized = {"value": f.value, "unit": None}
    _one_reading(figs)
    return figs


def _evidence(f: Figure) -> int:
    """How much the sheet itself says about this printing of a figure: a stated direction, a cross-check
    against the ports, a stated scope and tier."""
    return (
        4 * (f.direction in ("bidirectional", "unidirectional") and "direction-from-twin" not in f.flags)
        + 2 * (getattr(f, "direction_by", "") == "ports")
        + (f.scope not in ("unspecified", None))
        + (f.tier not in ("unknown", None))
    )


def _one_reading(figs: list[Figure]) -> None:
    """One printed figure gets one reading in one audit: a total printed twice ("throughput of 6.4Tb/s" in the
    text and "6.4Tb/s" in a sidebar list) takes the reading of the printing the sheet says most about (the first
    printed of equals), so it is not 400 GB/s per direction in one place and 800 in another. A printing that states
    its own direction keeps it: two stated readings that disagree are the sheet's contradiction, not ours."""
    from .s4_classify import PORT_UNITS

    # above this a rate is a total, not one port's speed (rules/thresholds.yaml): printed twice, it is the same
    # figure; port speeds repeat on a sheet for different ports and keep their own readings
    total_above = load_rules().threshold("total_above_gbs")
    groups: dict[tuple, list[Figure]] = {}
    for f in figs:
        if (
            f.quantity != "bandwidth"
            or f.tier == "memory"
            or f.unit in PORT_UNITS
            or not f.normalized
            or {"comparison", "measured", "rate-name"} & f.flags
        ):
            continue
        gbs = convert("bandwidth", f.value, f.unit)
        if gbs > total_above:
            groups.setdefault((_round(float(f.value)), f.unit, f.model), []).append(f)
    for group in groups.values():
        if len({(g.tier, g.scope, g.normalized["value"]) for g in group}) < 2:
            continue
        best = max(group, key=_evidence)
        for g in group:
            if g is best or g.direction in ("bidirectional", "unidirectional"):
                continue
            g.tier, g.scope, g.direction = best.tier, best.scope, best.direction
            g.normalized, g.arithmetic = dict(best.normalized), best.arithmetic
            g.reading = f"{best.reading} (read as where it is printed on page {best.page})"
            g.flags.add("one-reading")


def base_gbs(f: Figure, conv: dict | None = None) -> tuple[float, str]:
    """Bytes per second as printed (no direction applied), with the step that got there."""
    conv = conv or load_rules().conventions
    if "bytes-for-bits" in f.flags:
        gbs = convert("bandwidth", f.value, f.unit)  # "GB" read as Gb/s, "TB" as Tb/s
        return gbs, f"{fmt(f.value)} {f.unit} next to a link rate read as {f.unit[0]}b/s: = {fmt(gbs)} GB/s"
    if f.unit.endswith("T/s"):
        raw = convert("bandwidth", f.value, f.unit)
        if (
            f.tier == "memory"
            or f.technology not in conv.get("encoded_transfer_technologies", ["PCIe", ""])
            or (not f.technology and f.tier == "scale-up")
        ):
            # GDDR, Infinity Fabric: no published line encoding to apply, one bit per transfer
            return raw, f"{fmt(f.value)} {f.unit} / 8 bits = {fmt(raw)} GB/s per lane"
        enc = conv["default_encoding"]
        if float(f.value) < float(conv["legacy_encoding_below_gts"]):
            enc = conv["legacy_encoding"]
        gbs = raw * enc[0] / enc[1]
        return gbs, (f"{fmt(f.value)} {f.unit} x {enc[0]}/{enc[1]} encoding / 8 bits = {fmt(gbs)} GB/s per lane")
    gbs = convert("bandwidth", f.value, f.unit)
    if abs(gbs - float(f.value)) < 1e-9:
        return gbs, f"{f.text} = {fmt(gbs)} GB/s"
    return gbs, f"{fmt(f.value)} {f.unit} = {fmt(gbs)} GB/s"


def _bandwidth(f: Figure, conv: dict, ports: _Ports) -> None:
    gbs, step = base_gbs(f, conv)
    if f.tier == "memory":
        f.normalized = {"value": _round(gbs), "unit": "GB/s"}
        f.arithmetic = step + " (memory bandwidth: not a link, no direction)"
        return
    value, reading = _per_direction(f, gbs, conv, ports)
    f.normalized = {"value": _round(value), "unit": "GB/s"}
    f.arithmetic = step if value == gbs else f"{step}; / 2 = {fmt(value)} GB/s per direction"
    f.reading = reading


def _per_direction(f: Figure, gbs: float, conv: dict, ports: _Ports) -> tuple[float, str]:
    if f.direction == "bidirectional":
        return gbs / 2, "stated as bidirectional (both directions added): halved"
    if f.direction == "unidirectional":
        return gbs, "stated per direction"
    tech = f.technology
    if "measured" in f.flags:
        return gbs, "a measured throughput (bus or algorithm bandwidth) is per direction as measured: taken as stated"
    if f.scope == "per-switch":
        return _switch_total(f, gbs, ports)
    rule = knowledge().get(tech or "")
    known = _known_rate(f, gbs, rule) if rule else None
    if known:
        return known
    if rule and rule.bytes_totals == "bidirectional" and is_bytes(f.unit):
        return gbs / 2, f"{tech} totals in bytes are the sum of both directions by convention: halved"
    if rule and rule.bytes_totals == "per-direction":
        f.direction_by = "technology"
        return gbs, f"{tech} rates are per direction by convention"
    if not is_bytes(f.unit) and not f.unit.endswith("T/s") and f.tier in ("scale-out", "front-end"):
        f.direction_by = "port-speed"
        return gbs, "network port speeds are per direction by convention"
    return gbs, "no direction stated and no convention applies: taken as stated"


def same_model(f: Figure, figs: list[Figure]) -> list[Figure]:
    """Of figs, those of f's product model where the sheet has several (a port count of one switch model
    says nothing of another's capacity); all of them on a one-model sheet."""
    if not f.model:
        return figs
    own = [g for g in figs if g.model == f.model]
    return own or [g for g in figs if not g.model]


class _Ports:
    """The sheet's counted port speeds in document order, indexed once for the switch totals checked against them
    (a long switch document prints hundreds of each: looking them up per total must not read them all)."""

    def __init__(self, ports: list[Figure]):
        self.ports = ports
        self.at = [(p.page, p.segment.block if p.segment is not None else -1) for p in ports]
        self.by_segment: dict[int, list[Figure]] = {}
        for p in ports:
            self.by_segment.setdefault(id(p.segment), []).append(p)
        self.pools: dict[str, tuple[list[Figure], list[int]]] = {}

    def of_segment(self, f: Figure) -> list[Figure]:
        return self.by_segment.get(id(f.segment), []) if f.segment is not None else []

    def pool(self, f: Figure) -> tuple[list[Figure], list[int]]:
        """The ports of f's model (same_model) in document order, and their places among all the ports; built
        once per model."""
        if f.model not in self.pools:
            place = {id(p): i for i, p in enumerate(self.ports)}
            own = same_model(f, self.ports)
            self.pools[f.model] = own, [place[id(p)] for p in own]
        return self.pools[f.model]

    def nearest(self, f: Figure):
        """The ports of f's model, nearest first in document order, the one after f before the one before it at
        the same distance: a sheet of two switches says "X is a 51.2Tbps switch ... 64 ports of 400G" and then
        the same of Y."""
        here = bisect_left(self.at, (f.page, f.segment.block)) if f.segment is not None else len(self.ports)
        own, places = self.pool(f)
        after = bisect_left(places, here)
        before = after - 1
        while after < len(own) or before >= 0:
            if before < 0 or (after < len(own) and places[after] - here <= here - 1 - places[before]):
                yield own[after]
                after += 1
            else:
                yield own[before]
                before -= 1


def _switch_total(f: Figure, gbs: float, ports: _Ports) -> tuple[float, str]:
    tol = load_rules().threshold("aggregate_tolerance")
    f.direction_by = "ports"  # undone at the end when no port configuration gives it
    groups = ports.of_segment(f)
    if len(groups) >= 2:  # "48 100G SFP-DD and 8 400G QSFP-DD ports ... up to 8.0 Tbps": one configuration
        total = sum(base_gbs(p)[0] * p.count for p in groups)
        terms = " + ".join(f"{p.count} x {p.text}" for p in groups)
        if abs(gbs - total) <= tol * total:
            return gbs, f"equals {terms} per direction ({fmt(total)} GB/s): per direction"
        if abs(gbs - 2 * total) <= tol * 2 * total:
            return gbs / 2, f"equals twice {terms} ({fmt(total)} GB/s): both directions added, halved"
    for p in ports.nearest(f):
        pg, _ = base_gbs(p)
        total = pg * p.count
        if abs(gbs - total) <= tol * total:
            return gbs, f"equals {p.count} ports x {p.text} per direction ({fmt(total)} GB/s): per direction"
        if abs(gbs - 2 * total) <= tol * 2 * total:
            return gbs / 2, (
                f"equals twice {p.count} ports x {p.text} ({fmt(total)} GB/s): both directions added, halved"
            )
    f.direction_by = ""
    return gbs, "switch capacity with no port count to check against: read per direction"


def _known_rate(f: Figure, gbs: float, tech) -> tuple[float, str] | None:
    """A figure equal to a generation's published rate is read against it (rules/technologies.yaml): a link's rate
    per direction ("25 GB/s" per NVLink 4 link), or the rounded x16 total of both directions vendors print for the
    generation named beside it ("PCIe Gen4: 64 GB/s")."""
    for g in tech.generations:
        per_link = g.get("per_link_gbs")
        if (
            f.scope == "per-link"
            and per_link
            and tech.bytes_totals == "bidirectional"
            and abs(gbs - per_link) < 0.01 * gbs
        ):
            return gbs, f"matches {g.label}'s {fmt(per_link)} GB/s per link per direction"
    quoted = [g for g in tech.generations if g.get("x16_quoted_bidirectional")]
    if quoted:
        named = tech.named(f"{f.label} {f.segment.text if f.segment else f.context}")
        g = named[0] if named else None
        if g in quoted and abs(gbs - g.get("x16_quoted_bidirectional")) < 0.02 * gbs:
            return gbs / 2, (
                f"matches {g.label} x16 total of both directions "
                f"({fmt(g.get('x16_quoted_bidirectional'))} GB/s): halved"
            )
    return None
