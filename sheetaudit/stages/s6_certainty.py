"""How sure is each reading? A figure is `stated` when its own cell or sentence gives this product's quantity with
its unit and what it belongs to, and `inferred` when its tier, scope, direction, technology, unit or model came from
a convention, a neighbouring sentence, a comparison or the kind of sheet. Decided from what the figure already
carries (its segment, row label, column, the reading normalise wrote, its flags), after normalising and before the
checks, which then know what each conclusion rests on.

Severity follows: an error rests only on stated figures (and on arithmetic the document sets up itself). A check
lists in rules/checks.yaml (`rests_on`) the aspects of a reading its conclusion depends on; what it already tries
both ways (a direction it holds under either reading) is left out. `temper` turns an error resting on an inferred
aspect into a warning worded as a question.

A port speed's direction is not an inference: Ethernet and InfiniBand define a port's rate per direction, and every
vendor prints it so. Nor is a measured bus bandwidth: it is per direction as measured.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .s4_classify import is_bytes
from .. import regex_cache
from ..records import Figure, Finding
from ..rules import check_words as words, load_rules, rx
from ..technologies import load as knowledge

ASPECTS = ("comparison", "technology", "tier", "scope", "direction", "value", "model")


CLAUSE_END = regex_cache.compile(r"[,;，；。:：]|\s[-–—]\s")


def near(f: Figure, window: int = 40) -> str:
    """The figure's own clause: its row label and the words of its sentence up to the nearest clause boundary
    (at most WINDOW characters each side)."""
    seg = f.segment
    if seg is None:
        return f.label
    text = seg.text
    i = text.find(f.text)
    if i < 0:
        return f"{seg.label} {text[:window]}"
    left = text[max(0, i - window) : i]
    right = text[i + len(f.text) : i + len(f.text) + window]
    cuts = list(CLAUSE_END.finditer(left))
    left = left[cuts[-1].end() :] if cuts else left
    cut = CLAUSE_END.search(right)
    right = right[: cut.start()] if cut else right
    return f"{seg.label} {left} {f.text} {right}"


@lru_cache(maxsize=4096)
def _named_in(keys: tuple, field: str, text: str) -> frozenset:
    """Every value (a tier, a scope) the vocabulary lists KEYS find in TEXT. Cached: the figures of one long
    paragraph ask it of the same text, which would cost time quadratic in its length."""
    v = load_rules().vocab
    return frozenset(e[field] for key in keys for e in (v.get(key) or []) if rx(e["pattern"]).search(text))


@lru_cache(maxsize=4096)
def _spans(pattern: str, text: str, comparisons: bool = False) -> tuple:
    found = (comparator() if comparisons else re.compile(pattern, re.I)).finditer(text)
    return tuple(m.span() for m in found)


def own_text(f: Figure) -> str:
    """The figure's own words: its row label, column header and cell or sentence."""
    seg = f.segment
    if seg is None:
        return f"{f.label} {f.context}"
    return _joined(str(seg.label), str(seg.column), seg.text)


@lru_cache(maxsize=1024)
def _joined(*parts: str) -> str:
    """The parts joined by spaces, one string object per distinct joining. The figures of one long paragraph
    share it, so each cache below keyed by it hashes it once and finds it by identity; a new copy per figure
    made them quadratic in the paragraph's length."""
    return " ".join(parts)


@lru_cache(maxsize=1024)
def _names_any(names: tuple, text: str) -> bool:
    return any(n in text for n in names)


@lru_cache(maxsize=1024)
def _found(pattern, text: str) -> bool:
    return pattern.search(text) is not None


def assess(figs: list[Figure], sheet=None) -> list[Figure]:
    """Set certainty, certainty_reason and the inferred aspects of every figure."""
    for f in figs:
        inferred: dict[str, str] = {}
        said: list[str] = []
        _comparison(f, inferred)
        _technology(f, inferred)
        if f.quantity == "bandwidth" and f.tier != "memory":
            _tier(f, sheet, inferred)
            _direction(f, inferred, said)
            _scope(f, sheet, inferred, "scope")
            _value(f, inferred)
        elif f.quantity == "power":
            _scope(f, sheet, inferred, "power_scope")
        _model(f, inferred)
        f.inferred = inferred
        f.certainty = "inferred" if inferred else "stated"
        if inferred:
            f.certainty_reason = "; ".join(inferred[a] for a in ASPECTS if a in inferred)
        else:
            where = {"cell": "a table cell", "heading": "a heading", "footnote": "a note"}.get(
                f.segment.kind if f.segment else "", "its sentence"
            )
            f.certainty_reason = f"{where} gives it with its unit" + ("; " + "; ".join(said) if said else "")
    return figs


def comparator():
    """The comparison phrases of a text ('5x the bandwidth of PCIe Gen5', 'than InfiniBand HDR')."""
    return rx(load_rules().vocab["comparator_phrase"])


def _comparison(f: Figure, inferred: dict) -> None:
    if "comparison" in f.flags:
        inferred["comparison"] = "quoted for comparison (another product's or generation's figure, or the market's)"


def _technology(f: Figure, inferred: dict) -> None:
    """A technology named only inside a comparison ('5x the bandwidth of PCIe Gen5') is the comparator, not the
    figure's link; one named nowhere in the figure's own words came from elsewhere on the sheet."""
    if not f.technology or f.quantity not in ("bandwidth", "domain_size"):
        return
    tech = knowledge().get(f.technology)
    if tech is None:
        return
    text = own_text(f)
    names = _spans(tech.pattern, text)
    if not names:
        if f.quantity == "bandwidth":
            inferred["technology"] = f"{f.technology} is not named with the figure (read from elsewhere on the sheet)"
        return
    spans = _spans("", text, comparisons=True)
    if all(any(a <= s and e <= b for a, b in spans) for s, e in names):
        phrase = next(text[a:b] for a, b in spans if any(a <= s and e <= b for s, e in names))
        inferred["technology"] = f"{f.technology} is named only as a comparison ('{phrase.strip()[:60]}')"


def _tier(f: Figure, sheet, inferred: dict) -> None:
    if f.tier in ("unknown", None):
        inferred["tier"] = "its tier could not be decided"
        return
    text = _joined(own_text(f), f.heading or "")
    named = _named_in(("tier_explicit", "tier_technology", "tier_label"), "tier", text)
    if f.tier in named:
        return
    if f.tier == "front-end" and "scale-out" in named:
        return  # a slow Ethernet port read as front-end by its speed: a network port either way
    kind = getattr(sheet, "kind", "")
    if kind in ("switch", "nic") and f.tier == "scale-out":
        return  # a switch's or adapter's own ports
    if sheet is not None and _names_any(tuple(getattr(sheet, "scale_up_links", ())), text):
        return
    if f.tier == "front-end" and f.unit and not is_bytes(f.unit):
        return  # a slow port read as front-end by its speed: no check rests on it as scale-out
    inferred["tier"] = f"no word beside it says which network it is ({f.tier} read from the rest of the sheet)"


def _direction(f: Figure, inferred: dict, said: list) -> None:
    if f.direction in ("bidirectional", "unidirectional"):
        said.append(f"stated {f.direction}")
        return
    if "measured" in f.flags:
        said.append("a measured throughput, per direction as measured")
        return
    if "twin-single" in f.flags:
        said.append("printed beside its double in brackets ('12.8 (25.6) Tbps'): the rate per direction")
        return
    if f.scope == "per-switch" and f.direction_by == "ports":
        said.append(f"the sheet's own ports give its direction ({f.reading})")
        return
    # the networks whose standards make a port rate per direction: a rate of theirs read by that convention is certain
    if (
        f.direction_by == "port-speed"
        or (f.direction_by == "technology" and f.technology in knowledge().standard_networks())
    ) and not is_bytes(f.unit):
        said.append("a port speed: per direction by the Ethernet/InfiniBand standard")
        return
    if f.direction == "unspecified":
        inferred["direction"] = f"no direction stated ({f.reading})" if f.reading else "no direction stated"


def _scope(f: Figure, sheet, inferred: dict, vocab_key: str) -> None:
    if not f.scope or f.scope == "unspecified":
        if f.quantity == "power":
            inferred["scope"] = "nothing says whose power it is"
        return
    text = _joined(own_text(f), f.heading or "")
    if (
        f.quantity == "bandwidth"
        and f.scope in ("per-accelerator", "per-link", "per-port")
        and words("total_beside").search(near(f, 24).replace(f.label or "\0", " "))
    ):
        inferred["scope"] = f"'total' is printed beside it: it may be a sum over several ({f.scope} read)"
        return
    if f.scope in _named_in((vocab_key,), "scope", text):
        return
    if f.quantity == "bandwidth":
        from .s4_classify import PORT_UNITS

        if f.scope in ("per-port", "per-lane") and (
            f.unit in PORT_UNITS or {"rate-name", "signaling"} & f.flags or not is_bytes(f.unit)
        ):
            return  # a port or lane rate in bits: the unit names a port
        if f.scope == "per-port" and (f.count or "factor" in f.flags):
            return  # "8x 400 Gb/s": counted ports; "21*25 GB/s = 525 GB/s": a port's rate times its count
        if f.scope in ("per-port", "per-link") and _found(words("port_or_link"), text):
            return
        kind = getattr(sheet, "kind", "")
        if f.scope == "per-switch" and kind == "switch":
            return  # a switch sheet's total is the switch's capacity
        if f.scope == "per-device" and kind == "nic":
            return
        if f.scope == "per-accelerator" and kind == "accelerator":
            return  # an accelerator's own sheet
        inferred["scope"] = f"no word beside it says whose bandwidth it is ({f.scope} assumed)"
        return
    kind = getattr(sheet, "kind", "")
    own = {
        "rack": "per-rack",
        "switch": "per-switch",
        "nic": "per-device",
        "accelerator": "per-accelerator",
        "server": "per-node",
    }
    if own.get(kind) == f.scope:
        return  # the product the sheet sells: its power is the product's
    inferred["scope"] = f"no word beside it says whose power it is ({f.scope} assumed)"


def _value(f: Figure, inferred: dict) -> None:
    if "bytes-for-bits" in f.flags:
        inferred["value"] = f"'{f.text}' reads as bytes beside a link rate in bits (read as bits)"
        return
    if "bare-unit" in f.flags:
        try:
            # a port speed the standards define (rules/technologies.yaml): a bare "400G" port on a switch is one
            standard = float(f.value) in knowledge().port_speeds() and f.scope in ("per-port", "per-lane")
        except (TypeError, ValueError):
            standard = False
        if not standard:
            inferred["value"] = f"'{f.text}' does not say bits or bytes (read as bits)"


def _model(f: Figure, inferred: dict) -> None:
    seg = f.segment
    if f.model and seg is not None and f.model not in f"{seg.column} {seg.label} {seg.text}":
        inferred["model"] = f"its model ({f.model}) comes from the table's layout, not its own cell"


# ---- severity ----------------------------------------------------------------------------------------------


def rests_on(code: str) -> tuple[str, ...]:
    """The aspects of a reading an error of this check depends on (rules/checks.yaml `rests_on`)."""
    c = load_rules().checks.get(code) or load_rules().comparison.get(code) or {}
    return tuple(c.get("rests_on") or ())


def doubts(finding: Finding, by_id: dict[str, Figure]) -> list[str]:
    """Why an error cannot be certain: the inferred aspects it rests on, figure by figure, and the check's own."""
    aspects = rests_on(finding.check)
    out = []
    for fid in finding.figures:
        f = by_id.get(fid)
        if f is None:
            continue
        for a in aspects:
            if a in f.inferred:
                out.append(f"{f.text} (p{f.page}): {f.inferred[a]}")
    if finding.doubt:
        out.append(finding.doubt)
    return list(dict.fromkeys(out))


def temper(findings: list[Finding], figs: list[Figure]) -> list[Finding]:
    """An error resting on an inference becomes a warning worded as a question, saying what it rests on."""
    by_id = {f.id: f for f in figs}
    for x in findings:
        if x.severity != "error":
            if x.doubt:
                x.certainty, x.certainty_reason = "inferred", x.doubt
            continue
        why = doubts(x, by_id)
        if not why:
            continue
        x.severity = "warning"
        x.certainty = "inferred"
        x.certainty_reason = "; ".join(why)
        ask = x.question or "Is this reading of the sheet right?"
        x.message = f"{ask} Not certain: {x.certainty_reason}. Read that way: {x.message}"
    return findings


def derived_certainty(findings: list[Finding], figs: list[Figure]) -> None:
    """A derived value resting on an inferred figure is inferred too (never charted as the sheet's figure)."""
    by_id = {f.id: f for f in figs}
    for x in findings:
        for d in x.derived:
            why = [
                f"{by_id[i].text} (p{by_id[i].page}): {by_id[i].certainty_reason}"
                for i in d.figures
                if i in by_id and by_id[i].certainty == "inferred"
            ]
            if why and d.certainty != "inferred":
                d.certainty, d.certainty_reason = "inferred", "; ".join(why)
