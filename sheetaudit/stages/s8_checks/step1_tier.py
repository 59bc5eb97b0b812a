"""Step 1, tier and domain: every interconnect figure in a tier, the scale-up domain's size known, totals
over a node, domain or switch divided back to one accelerator (or one port)."""

from __future__ import annotations


from ...records import Derived
from ..s5_normalise import same_model
from ...numfmt import fmt
from . import ask_where, bw, finding, own, sentence, shown, twins, words
from ..s6_certainty import near as _near

AGGREGATE_SCOPES = {
    "per-node": "node",
    "per-domain": "domain",
    "per-switch": "switch",
    "per-rack": "rack",
    "per-cluster": "cluster",
}


def run(figs, sheet, doc, facility):
    out = []
    unknown = [f for f in own(figs) if f.quantity in ("bandwidth", "latency") and f.tier in ("unknown", None)]
    if unknown:
        out.append(
            finding(
                "tier.unclassified",
                unknown,
                data={"items": [shown(f) for f in unknown]},
            )
        )
    up = bw(figs, "scale-up")
    domain = [f for f in figs if f.quantity == "domain_size" and f.tier == "scale-up"]
    if up and not domain:
        out.append(
            finding(
                "tier.domain-size-missing",
                up,
                data={"stated": list(dict.fromkeys(f.text for f in up))},
            )
        )
    out.extend(_aggregates(figs, sheet, domain))
    out.extend(_mixed(figs))
    return out


def _aggregates(figs, sheet, domain):
    out = []
    totals = bw(own(figs), "scale-up", "scale-out", "front-end", "host", "mixed", scopes=set(AGGREGATE_SCOPES))
    paired = twins(totals)
    for f in totals:
        if f.scope == "per-switch" and sheet.kind == "switch":
            continue  # a switch's own capacity is its figure; bandwidth.aggregate-mismatch checks it
        if f.id in paired:
            continue  # the other direction of a figure already named ("600 GB/s ... or 1200 GB/s bidirectional")
        pair = [f] + [g for g in totals if paired.get(g.id) == f.id]
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
        derived, stated = [], whole_named(f)
        if divisor:
            per = v / divisor
            derived.append(
                Derived(
                    f"per-{what} equivalent of {f.text}",
                    per,
                    "GB/s",
                    f"{fmt(v)} GB/s per direction / {int(divisor)} {what}s = {fmt(per)} GB/s per {what}",
                    [f.id],
                )
            )
            message = "divided_as_stated" if stated else "divided"
            data = shown(f, over=where, unit=what, total_gbs=v, divisor=int(divisor), per_gbs=per)
        else:
            message = "undivided"
            data = shown(f, over=where, unit=what, total_gbs=v)
        out.append(
            finding(
                "tier.aggregate-figure",
                pair,
                derived,
                models=[f.model] if f.model else [],
                data=data,
                case="stated" if stated else "",
                message=message,
            )
        )
    return out


def whole_named(f) -> bool:
    """The figure's own sentence names the whole it is a total over ('delivering 80 Gbps to the server', 'of an
    HLS-3 box ... = 600 GB/s', 'per chassis'): its scope is a fact to divide out, not a doubt to ask about."""
    return "scope" not in f.inferred and bool(words("whole_named").search(sentence(f)))


# "aggregate bidirectional", "双向合计": both directions of one link added, not tiers
NOT_TOTALS = {"per-port", "per-lane", "per-link"}


def said_to_be_sum(f) -> bool:
    """The document ties the figure to a sum ('Total I/O bandwidth', 'a combined 6.4 TB/s', '合计'), not to both
    directions of one link."""
    if f.tier == "mixed":
        return True
    near = _near(f)
    return bool(words("sum_word").search(near)) and not words("direction_sum").search(near)


def _written_out(f, a, b) -> bool:
    """'4.8 TB/s NVLink plus 1.6 Tb/s Ethernet, 6.4 TB/s in all': the parts and the total in one sentence, the
    parts joined by a plus or an 'and'."""
    seg = f.segment
    if seg is None or a.segment is not seg or b.segment is not seg:
        return False
    i, j = sorted((seg.text.find(a.text), seg.text.find(b.text)))
    return i >= 0 and bool(words("plus").search(seg.text[i:j]))


def _part(a) -> bool:
    return (
        a.quantity == "bandwidth" and a.tier != "memory" and "rate-list" not in a.flags and "comparison" not in a.flags
    )


def _sums_to(a, b, f) -> bool:
    from ..s5_normalise import base_gbs

    tol = 1e-6 * max(1, float(f.value))
    if abs(float(a.value) + float(b.value) - float(f.value)) < tol:
        return True  # as printed ("7.2 TB/s ... 3.2 Tbps ... Total 10.4 TB/s": bytes and bits added)
    total, x, y = base_gbs(f)[0], base_gbs(a)[0], base_gbs(b)[0]
    # each part a real share of the total: 900 GB/s is not '900 GB/s + a 1 GbE management port'
    return min(x, y) >= 0.02 * total and abs(x + y - total) <= 1e-3 * total


def _mixed(figs):
    """A figure the document itself calls a total, equal to two figures of different tiers (or bits and bytes)
    added. Two port speeds that happen to add up are not a sum: the sheet must say the figure is one."""
    out = []
    bws = [f for f in figs if _part(f)]
    anywhere_sums = _Sums(list(enumerate(bws)))
    by_sentence: dict = {}
    for i, f in enumerate(bws):
        by_sentence.setdefault(id(f.segment), []).append((i, f))
    sentence_sums: dict = {}
    for f in bws:
        if f.scope in NOT_TOTALS:
            continue
        said = said_to_be_sum(f)
        near = _near(f)
        # the document says it is a sum: the parts written out beside it, or its words call it a total and join
        # kinds of link ('Total I/O', 'combined GPU-fabric and network bandwidth')
        anywhere = said and (f.tier == "mixed" or bool(words("joins_kinds").search(near)))
        if anywhere:
            parts = anywhere_sums.last_pair(f, bws)
        else:  # only parts written out in the total's own sentence count
            key = id(f.segment)
            if key not in sentence_sums:
                sentence_sums[key] = _Sums(by_sentence[key])
            parts = sentence_sums[key].last_pair(f, bws, lambda a, b: _written_out(f, a, b))
        if f.tier == "mixed" or parts:
            message = (
                ("parts_in_bits_and_bytes" if _bits(parts[0]) != _bits(parts[1]) else "parts") if parts else "unnamed"
            )
            data = shown(
                f,
                **(
                    {"part_a": parts[0].text, "tier_a": parts[0].tier, "part_b": parts[1].text, "tier_b": parts[1].tier}
                    if parts
                    else {}
                ),
            )
            tiers = " and ".join(dict.fromkeys(p.tier for p in parts)) if parts else "scale-up and scale-out"
            out.append(
                finding(
                    "tier.mixed-sum",
                    [f] + (list(parts) if parts else []),
                    asked={"figure": ask_where(f), "tiers": tiers},
                    data=data,
                    message=message,
                )
            )
    return out


class _Sums:
    """Which two bandwidth figures add up to a third, found by value rather than by trying every pair for every
    figure (that was cubic in the figures: a dense page of 80,000 characters took minutes).

    Figures alike in everything the test reads (text, tier, unit, value, technology, flags) form one group; for a
    total, each group's partner groups are looked up by the value they must have. The pair returned is the one the
    plain nested loop over figures would have kept last, so the finding names the same figures."""

    def __init__(self, indexed):
        from ..s5_normalise import base_gbs

        groups: dict = {}
        for i, f in indexed:
            key = (f.text, f.tier, f.unit, repr(f.value), f.technology, frozenset(f.flags))
            groups.setdefault(key, []).append((i, f))
        self.groups = list(groups.values())
        self.reps = [(g[0][1], float(g[0][1].value), base_gbs(g[0][1])[0]) for g in self.groups]
        self.printed = sorted((v, k) for k, (_, v, _) in enumerate(self.reps))
        self.base = sorted((x, k) for k, (_, _, x) in enumerate(self.reps))

    @staticmethod
    def _within(table, lo, hi):
        from bisect import bisect_left, bisect_right

        return (k for _, k in table[bisect_left(table, (lo, -1)) : bisect_right(table, (hi, len(table)))])

    def last_pair(self, f, bws, accept=lambda a, b: True):
        from ..s5_normalise import base_gbs

        value, total = float(f.value), base_gbs(f)[0]
        tol = 1e-6 * max(1, value)
        best = None
        for ka, (a, va, xa) in enumerate(self.reps):
            if a.text == f.text:
                continue
            # the groups that could complete a to f's total, by either of _sums_to's two tests
            partners = set(self._within(self.printed, value - va - tol, value - va + tol)) | set(
                self._within(self.base, total - xa - 1e-3 * total, total - xa + 1e-3 * total)
            )
            for kb in partners:
                b = self.reps[kb][0]
                if b.text == f.text or not (a.tier != b.tier or _bits(a) != _bits(b)):
                    continue
                if not _sums_to(a, b, f) or not accept(a, b):
                    continue
                cand = _last(self.groups[ka], self.groups[kb], f)
                if cand and (best is None or cand > best):
                    best = cand
        return (bws[best[0]], bws[best[1]]) if best else None


def _last(A, B, f):
    """The last (a, b) of the nested loop over figures, a from group A and b from B: neither is the total itself,
    and a's id is not above b's (each unordered pair once, as the loop counted it)."""
    top = max((b.id for _, b in B if b is not f), default=None)
    for ia, a in reversed(A):
        if a is f or top is None or a.id > top:
            continue
        for ib, b in reversed(B):
            if b is not f and not a.id > b.id:
                return ia, ib
    return None


def _bits(f) -> bool:
    from ..s4_classify import is_bytes

    return not is_bytes(f.unit)
