"""Step 2, bandwidth basis: one basis (bytes, per direction) for every link figure; how each unstated
direction was read; totals checked against ports x rate; scale-out : scale-up per accelerator."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from functools import lru_cache

from ...records import Derived
from ..s5_normalise import same_model
from ...numfmt import ratio as ratio_text
from ...rules import load_rules, rx
from ...numfmt import fmt
from . import ask_where, bw, finding, own, shown, words

LINK_TIERS = ("scale-up", "scale-out", "front-end", "host", "mixed", "unknown")


def run(figs, sheet, doc, facility):
    out = _contradictions(figs)
    links = bw(figs, *LINK_TIERS)
    unspecified = [f for f in own(links) if f.direction == "unspecified"]
    # a port speed read by the Ethernet/InfiniBand standard, or a measured bus bandwidth, raises no question
    doubtful = [f for f in unspecified if "direction" in f.inferred]
    if unspecified:
        items = [
            shown(f, tier=f.tier, gbs=f.normalized["value"], reading=f.reading)
            for f in _unique(doubtful or unspecified)
        ]
        x = finding(
            "bandwidth.direction-unspecified",
            doubtful or unspecified,
            data={"count": len(items), "items": items},
            message="doubtful" if doubtful else "by_convention",
        )
        if not doubtful:
            x.severity = "info"
        out.append(x)
    bidir = [f for f in links if f.direction == "bidirectional"]
    if bidir:
        out.append(
            finding(
                "bandwidth.bidirectional",
                bidir,
                data={"items": [shown(f, gbs=f.normalized["value"]) for f in _unique(bidir)]},
            )
        )
    # a rate written as a generation's name ("144 XDR ports", "NDR200") has its rate by the standard, in bits
    ambiguous = [f for f in own(links) if {"bare-unit", "bytes-for-bits"} & f.flags and "rate-name" not in f.flags]
    if ambiguous:
        # a bare '400G' on a port is one of the standard port speeds, in bits: a note, not a question
        doubtful = [f for f in ambiguous if "value" in f.inferred]
        x = finding(
            "bandwidth.unit-ambiguous",
            doubtful or ambiguous,
            parts={"port_speeds": not doubtful},
            data={
                "items": [
                    shown(
                        f,
                        read_as="bits written as bytes" if "bytes-for-bits" in f.flags else "a bit rate",
                        gbs=f.normalized["value"],
                    )
                    for f in _unique(doubtful or ambiguous)
                ]
            },
        )
        if not doubtful:
            x.severity = "info"
        out.append(x)
    out.extend(_aggregate_mismatch(figs, sheet.kind))
    signalling = [f for f in links if "signaling" in f.flags]
    if signalling:
        out.append(
            finding(
                "bandwidth.signaling-rate",
                signalling,
                data={
                    "items": [shown(f, arithmetic=f.arithmetic, gbs=f.normalized["value"]) for f in _unique(signalling)]
                },
            )
        )
    out.extend(_ratio(figs, sheet))
    return out


# Tiers where one product has one figure per link, per accelerator or per node: two different values for the same
# fabric and scope are the sheet disagreeing with itself. (Network ports come in several speeds on one sheet.)
CONTRADICTION_TIERS = ("scale-up", "host")
CONTRADICTION_SCOPES = ("per-accelerator", "per-link", "per-node", "per-device")
CONTRADICTION_GAP = 0.10


def _contradictions(figs):
    """The same link given two readings the sheet cannot both mean: "900 GB/s bidirectional" NVLink per GPU in
    the text and "600 Gbytes per second" in a table are 450 and 300 GB/s per direction. A warning naming both
    places and asking which holds; both figures stay, so requirements see both readings."""
    groups: dict[tuple, list] = {}
    for f in bw(figs, *CONTRADICTION_TIERS):
        if (
            not f.technology
            or f.scope not in CONTRADICTION_SCOPES
            or f.count
            or {"comparison", "measured", "rate-list", "signaling"} & f.flags
        ):
            continue
        groups.setdefault((f.technology, f.tier, f.scope, f.model), []).append(f)
    out = []
    for (tech, tier, scope, model), group in groups.items():
        values = sorted({round(f.normalized["value"], 3) for f in group})
        if len(values) != 2 or values[1] - values[0] <= CONTRADICTION_GAP * values[1]:
            continue
        low = next(f for f in group if round(f.normalized["value"], 3) == values[0])
        high = next(f for f in group if round(f.normalized["value"], 3) == values[1])
        several = rx(load_rules().vocab["several_links"])
        if low.segment is high.segment or any(several.search(f.segment.text) for f in (low, high) if f.segment):
            continue  # one sentence's twin ("25 GB/s per link, 50 GB/s bidirectional"), or a counted group
            # of links each ("five PCIe Gen6 x8 links ... 320 GB/s", "two ... links for inter-rack ... 128 GB/s")
        items = [shown(f, gbs=f.normalized["value"]) for f in (high, low)]
        out.append(
            finding(
                "bandwidth.self-contradiction",
                [high, low],
                models=[model] if model else [],
                asked={"high": ask_where(high), "low": ask_where(low), "tech": tech, "scope": scope.replace("-", " ")},
                data={"tech": tech, "scope": scope.replace("-", " "), "items": items},
            )
        )
    return out


def _unique(figs):
    seen, out = set(), []
    for f in figs:
        k = (f.text, f.tier, f.normalized["value"] if f.normalized else None)
        if k not in seen:
            seen.add(k)
            out.append(f)
    return out


def _option(p) -> bool:
    """A counted port the sheet offers as an option (a breakout, one of a choice of speeds): an option word in
    its row label, or before it in its sentence."""
    seg = p.segment
    if seg is None:
        return False
    if words("option_words").search(seg.label or ""):
        return True
    m = _counted(p.count, p.text).search(seg.text)
    at = m.start() if m else seg.text.find(p.text)
    return at > 0 and bool(words("option_words").search(seg.text[:at]))


@lru_cache(maxsize=1024)
def _counted(count, text: str) -> re.Pattern:
    """'8x 400G', '8 ports of 400G': the port printed with its count (compiled once per port spelling)."""
    return re.compile(rf"(?<![\d.]){count}\s*(?:[x×]\s*|ports? of\s*)?{re.escape(text)}")


def _terms(figs):
    """Counted ports of a switch (scale-out, per port, a count), comparisons left out."""
    return [
        p
        for p in figs
        if p.quantity == "bandwidth"
        and p.scope == "per-port"
        and p.count
        and p.tier == "scale-out"
        and "comparison" not in p.flags
        and "rate-list" not in p.flags
    ]


class _Ports:
    """A sheet's counted ports read once, so that each switch total looks its configurations up instead of
    reading every port again (once per total was quadratic on a long switch document). A total's configurations
    depend only on its model, whether its own words name a component, and whether it shares its sentence with
    totals of other values; each such reading is grouped once."""

    def __init__(self, figs):
        self.figs, self.terms = figs, _terms(figs)
        self.option: dict[tuple, bool] = {}
        self.component: dict[tuple, bool] = {}
        self.grouped: dict[tuple, list] = {}
        self.switch_values: dict[int, list] = {}  # segment -> (figure, value) of its switch totals
        for g in figs:
            if g.quantity == "bandwidth" and g.scope == "per-switch" and "paren-twin" not in g.flags:
                self.switch_values.setdefault(id(g.segment), []).append(g)

    def shared(self, f) -> bool:
        """Other switch totals of another value share the total's sentence or cell."""
        return any(g is not f and g.value != f.value for g in self.switch_values.get(id(f.segment), ()))

    def _is_option(self, p) -> bool:
        key = (id(p.segment), p.segment.label if p.segment else None, p.count, p.text)
        if key not in self.option:
            self.option[key] = _option(p)
        return self.option[key]

    def _component(self, key, text) -> bool:
        if key not in self.component:
            self.component[key] = bool(words("component").search(text()))
        return self.component[key]

    def of(self, f) -> tuple[list[tuple[list, float, object]], list[float]]:
        """(terms, GB/s per direction, segment) of each configuration total f may count, and their sums sorted."""
        whole = self._component(
            (f.label, f.heading, id(f.segment)), lambda: f"{f.label} {f.heading} {f.segment.text if f.segment else ''}"
        )
        shared = self.shared(f)
        key = (f.model, whole, shared)
        if key not in self.grouped:
            grouped = self._group(f, whole, shared)
            self.grouped[key] = grouped, sorted(t for _, t, _ in grouped if t)
        return self.grouped[key]

    def _group(self, f, whole: bool, shared: bool):
        from ..s5_normalise import base_gbs

        by_seg: dict[int, list] = {}
        for p in same_model(f, self.terms):
            if self._is_option(p):
                continue
            if not whole and self._component(
                ("part", p.heading, p.label, id(p.segment)),
                lambda: f"{p.heading} {p.label} {p.segment.section if p.segment else ''}",
            ):
                continue  # a line card's ports are not the chassis's configuration
            by_seg.setdefault(id(p.segment), []).append(p)
        out = []
        for terms in by_seg.values():
            seg = terms[0].segment
            if sum(p.count for p in terms) < 4:
                continue  # '1 x 400G per card': an attachment, not a switch's ports
            seen, unique = set(), []
            for p in terms:  # one term printed twice in a cell is one term (a term of each model, in a table
                key = (p.text, p.count)  # read as one line, is kept: _subset_matches tries them)
                if key not in seen or shared:
                    seen.add(key)
                    unique.append(p)
            out.append((unique, sum(base_gbs(p)[0] * p.count for p in unique), seg))
        return out


def _counts_up_to(gbs: float, sums: list[float], tol: float) -> bool:
    """A configuration's sum (of the sorted non-zero sums) counts to the total, per direction or with both
    directions added. Only sums near gbs or gbs / 2 can: looked up, not tried one by one."""
    near = []
    for centre in (gbs, gbs / 2):
        reach = abs(centre) * tol * 1.1 / (1 - tol) + 1e-9
        near += sums[bisect_left(sums, centre - reach) : bisect_right(sums, centre + reach)]
    return any(abs(gbs - t) <= tol * t or abs(gbs - 2 * t) <= tol * 2 * t for t in near)


def _counted_by_another(t: float, gbs: float, totals: list[float], tol: float) -> bool:
    """Another total of the sheet (one not within tolerance of gbs) counts the configuration's sum t. Only the
    totals near t or 2t can: looked up in the sorted distinct totals, not tried one by one."""
    near = []
    for centre in (t, 2 * t):
        reach = abs(centre) * tol * 1.001 + 1e-9
        near += totals[bisect_left(totals, centre - reach) : bisect_right(totals, centre + reach)]
    return any(abs(o - gbs) > tol * gbs and (abs(o - t) <= tol * t or abs(o - 2 * t) <= tol * 2 * t) for o in near)


def _subset_matches(terms, gbs: float, tol: float) -> bool:
    from itertools import combinations

    from ..s5_normalise import base_gbs

    vals = [base_gbs(p)[0] * p.count for p in terms][:10]
    for n in range(1, len(vals) + 1):
        for combo in combinations(vals, n):
            t = sum(combo)
            if t and (abs(gbs - t) <= tol * t or abs(gbs - 2 * t) <= tol * 2 * t):
                return True
    return False


_CLAUSE_END = re.compile(r"[;；。]|\.\s")


def _clause_terms(f, terms, ports) -> list | None:
    """The ports of the total's own clause, where a sentence gives each model its ports and its total clause by
    clause ('the TX-6400 has 64 ports of 800GbE for 51.2 Tb/s; the TX-7200 has 72 ports of 800GbE for 64.8
    Tb/s'): the clause holds this total alone and at least one counted port. None where it does not."""
    seg = f.segment
    if seg is None:
        return None
    text = seg.text
    at = text.find(f.text)
    if at < 0:
        return None
    cuts = [m.end() for m in _CLAUSE_END.finditer(text, 0, at)]
    start = cuts[-1] if cuts else 0
    end_m = _CLAUSE_END.search(text, at + len(f.text))
    end = end_m.start() if end_m else len(text)
    if any(g is not f and start <= text.find(g.text) < end for g in ports.switch_values.get(id(seg), ())):
        return None
    own = [p for p in terms if p.segment is seg and _counted(p.count, p.text).search(text, start, end)]
    return own or None


def _config_text(terms) -> str:
    return " + ".join(f"{p.count} x {p.text}" for p in terms)


def _aggregate_mismatch(figs, kind: str = "switch"):
    """A switch total against the sheet's own port configuration, under both readings (per direction, or both
    directions added). Silent where the sheet gives no configuration the total can count; on a sheet that sells no
    switch (a pod, a rack), only the ports printed beside the total count (the nodes' NICs are not the switch's)."""
    from ..s5_normalise import base_gbs
    from ...rules import load_rules

    tol = load_rules().threshold("aggregate_tolerance")
    out = []
    totals = bw(figs, "scale-out", scopes={"per-switch"})
    if not totals:
        return out
    ports = _Ports(figs)
    totals_gbs = [base_gbs(g)[0] for g in totals]
    # a line card's or a module's capacity counts its own ports too ('Capacity: 28.8 Tbps per line card')
    distinct_gbs = sorted(set(totals_gbs) | {base_gbs(g)[0] for g in bw(figs, "scale-out", scopes={"per-device"})})
    for f, gbs in zip(totals, totals_gbs):
        if "comparison" in f.flags:
            continue
        grouped, sums = ports.of(f)
        if _counts_up_to(gbs, sums, tol):
            continue  # a configuration the sheet gives adds up to the total (whatever other totals it also counts)
        # a configuration another total of the sheet counts ('Capacity: 28.8 Tbps per line card') is not this one's
        configs = [
            (terms, t, seg is f.segment)
            for terms, t, seg in grouped
            if not _counted_by_another(t, gbs, distinct_gbs, tol) and (kind == "switch" or seg is f.segment)
        ]
        rival = None
        if not configs and kind == "switch" and len({round(t, 3) for _, t, _ in grouped}) == 1:
            # one port configuration, which another total of the same switch counts: the sheet states two totals
            # for the same ports ("800GB/s switch" beside "51.2 Tbps", 64 x 800 Gb/s), and this one is not it
            rival = next(
                (
                    g
                    for g, g_gbs in zip(totals, totals_gbs)
                    if g is not f
                    and g in same_model(f, totals)
                    and abs(g_gbs - gbs) > tol * gbs
                    and _counts_up_to(g_gbs, [grouped[0][1]], tol)
                ),
                None,
            )
            if rival is not None:
                configs = [(terms, t, seg is f.segment) for terms, t, seg in grouped]
        if not configs:
            continue
        shared = ports.shared(f)
        if shared and any(_subset_matches(terms, gbs, tol) for terms, _, own in configs if own):
            continue  # a table read as one line: several totals beside several models' ports
        own = [c for c in configs if c[2]]
        distinct = {round(t, 3) for _, t, _ in configs}
        terms, t, _ = own[0] if own else configs[0]
        doubt = ""
        paired = _clause_terms(f, terms, ports) if own and shared else None
        if paired is not None:
            if _counts_up_to(gbs, [sum(base_gbs(p)[0] * p.count for p in paired)], tol) or _subset_matches(
                paired, gbs, tol
            ):
                continue  # the total's own clause gives the ports that make it
            terms, t = paired, sum(base_gbs(p)[0] * p.count for p in paired)
        elif own and shared:
            doubt = (
                "its sentence holds several totals and several port counts (a table of models read as one line): "
                "which ports this total counts is not certain"
            )
        if rival is not None:
            doubt = f"the sheet also states {rival.text} (page {rival.page}), which these ports add up to"
        if not own and len(distinct) > 1:
            doubt = (
                "the sheet gives several port configurations ("
                + "; ".join(_config_text(c[0]) for c in configs[:4])
                + ") and does not say which one this total counts"
            )
        out.append(
            finding(
                "bandwidth.aggregate-mismatch",
                [f] + terms,
                models=[f.model] if f.model else [],
                asked={
                    "figure": ask_where(f),
                    "ports": _config_text(terms),
                    "ports_gbs": t,
                    "ports_tbps": t * 8 / 1000,
                    "twice_tbps": 2 * t * 8 / 1000,
                },
                doubt=doubt,
                data=shown(f, total_gbs=gbs, ports=_config_text(terms), ports_gbs=t, twice_gbs=2 * t),
            )
        )
    return out


# The port figures of one long paragraph ask the same of its whole text: read once per text, not once per figure
# (a dense 80,000-character page was quadratic here).
@lru_cache(maxsize=256)
def _counts(pattern, text: str) -> tuple:
    return tuple((m.end(), int(m.group(1))) for m in pattern.finditer(text))


def _count_before(text: str, where: int) -> int | None:
    """The last 'N x' before position `where` of the text ('8x 400 Gb/s': 8), None before none or where < 0."""
    if where < 0:
        return None
    counts = _counts(words("lead_count"), text)
    k = bisect_right([end for end, _ in counts], where)
    return counts[k - 1][1] if k else None


@lru_cache(maxsize=1024)
def _one_port_each(pattern, text: str) -> bool:
    return pattern.search(text) is not None


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
        count = _count_before(f.segment.text, f.segment.text.find(f.text))
    if f.scope == "per-port" and f.segment and _one_port_each(words("one_per_accelerator"), f.segment.text):
        return v, f"{f.text} per port, one port per accelerator = {fmt(v)} GB/s"
    if f.scope == "per-port" and count and acc:
        return v * count / acc, (
            f"{count} x {f.text} = {fmt(v * count)} GB/s per node / {acc} accelerators = {fmt(v * count / acc)} GB/s"
        )
    return None


def _ratio(figs, sheet):
    out, seen = [], set()
    blocks = {}
    for f in bw(figs, "scale-up", "scale-out"):
        blocks.setdefault(f.segment.block if f.segment else 0, []).append(f)
    groups = [g for g in blocks.values() if {f.tier for f in g} == {"scale-up", "scale-out"}]
    groups.append(bw(figs, "scale-up", "scale-out"))  # the sheet as a whole, when no record holds both
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
        d = Derived(
            "scale-out : scale-up per accelerator, per direction",
            ratio,
            "ratio",
            f"scale-out {as_}; scale-up {au}; {fmt(vs)} / {fmt(vu)} = {ratio:.3f} ({ratio_text(ratio)})"
            if vs
            else f"scale-out {as_}; scale-up {au}",
            [fu.id, fs.id],
        )
        out.append(
            finding(
                "bandwidth.scale-ratio",
                [fu, fs],
                [
                    d,
                    Derived("scale-up per accelerator, per direction", vu, "GB/s", au, [fu.id]),
                    Derived("scale-out per accelerator, per direction", vs, "GB/s", as_, [fs.id]),
                ],
                data={"scale_up_gbs": vu, "scale_out_gbs": vs, "ratio": ratio},
                message="ratio" if vs else "no_scale_out",
            )
        )
    return out
