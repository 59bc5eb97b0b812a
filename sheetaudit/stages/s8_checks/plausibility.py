"""Can the figure even be true? Each bandwidth and domain is held against the technology generation the
sheet names (rules/technologies.yaml): a rate above what the generation carries, a domain larger than it
joins, a NIC port faster than its PCIe slot, Ethernet scale-out with no RDMA transport named. Each bandwidth
also gets the generation it matches, or the generations it could belong to, for the report."""

from __future__ import annotations

import re
from functools import lru_cache

from ..s4_classify import is_bytes
from ..s5_normalise import base_gbs
from ...rules import compiled, load_rules, rx
from ...technologies import MATCH_TOLERANCE, Generation, load
from ...numfmt import fmt
from . import ask_where, bw, finding, own, sentence, shown, words

LINK_TIERS = ("scale-up", "scale-out", "front-end", "host")


def run(figs, sheet, doc, facility):
    kb = load()
    named_on_sheet = _sheet_generations(kb, doc)
    for f in bw(figs, *LINK_TIERS):
        f.technology_match = _match(kb, f, named_on_sheet)
    out = []
    out.extend(_exceeds(kb, figs, named_on_sheet))
    out.extend(_domain(kb, figs))
    out.extend(_host_bottleneck(kb, figs, sheet, doc))
    out.extend(_no_rdma(kb, figs, sheet, doc))
    return out


def _text(f) -> str:
    """The row label and the cell or sentence, kept apart ('NVLink' and '1,800 GB/s' are not 'NVLink 1')."""
    return (
        f"{f.label}: {f.segment.text if f.segment else f.context}"
        if f.label
        else (f.segment.text if f.segment else f.context)
    )


def _own_words(f) -> str:
    """The figure's row and sentence without its comparisons ('5x the bandwidth of PCIe Gen5' names the
    comparator, not the figure's generation)."""
    return _without_comparisons(_text(f))


@lru_cache(maxsize=4096)
def _without_comparisons(text: str) -> str:
    from ..s6_certainty import comparator

    return comparator().sub(" ", text)


@lru_cache(maxsize=4096)
def _generations(tech, text: str) -> tuple:
    """tech.named(text), cached: the figures of one long paragraph ask it of the same text."""
    return tuple(tech.named(text))


_CANDIDATES: dict = {}


def _candidates(kb, gbs: float, scope: str) -> list:
    """kb.candidates, once per knowledge base, rate and scope: a dense page repeats a few rates hundreds of times,
    and each question walks every generation's published rates."""
    key = (id(kb), gbs, scope)
    if key not in _CANDIDATES:
        if len(_CANDIDATES) > 4096:
            _CANDIDATES.clear()
        _CANDIDATES[key] = kb.candidates(gbs, scope)
    return _CANDIDATES[key]


class _SheetGenerations(dict):
    """Per technology, the generations the sheet names in any form (words, 'Gen4', a product that implies one),
    comparisons and pages without figures left out. Asked lazily, one technology at a time: only a figure whose own words name no
    generation asks, and reading a 1,000-page manual's text for every technology cost more than the audit."""

    def __init__(self, kb, doc):
        super().__init__()
        self.kb, self.doc, self._text = kb, doc, None

    def __bool__(self) -> bool:
        return self.doc is not None

    def __missing__(self, name: str) -> list[Generation]:
        from ..s6_certainty import comparator

        tech = self.kb.get(name)
        found: list[Generation] = []
        if tech is not None and tech.generations and self.doc is not None:
            if self._text is None:
                doc = self.doc
                # Pages kept as plain text (read.pdf: the finder found no figure on them) are left out: in a long
                # manual they are most of its text and lie far from every figure, and reading them for every
                # technology cost a 200-page guide a third of its audit.
                self._text = comparator().sub(
                    " ",
                    " ".join(f"{s.label} {s.text}" for s in doc.segments if s.kind != "page") + " " + (doc.title or ""),
                )
            found = tech.named(self._text)
        self[name] = found
        return found

    def get(self, name, default=None):
        return self[name] or default


def _sheet_generations(kb, doc) -> dict[str, list[Generation]]:
    return _SheetGenerations(kb, doc)


def _named(kb, f, on_sheet: dict | None = None) -> tuple[Generation | None, str]:
    """The one generation of the figure's own technology that its row or sentence names, else the one the sheet
    names elsewhere (with that said: an inference); None when none or several are named (a sentence listing PCIe
    Gen4 and Gen5 names neither for sure)."""
    tech = kb.get(f.technology or "")
    if tech is None:
        return None, ""
    found = _generations(tech, _own_words(f))
    if len(found) == 1:
        return found[0], ""
    if found or not on_sheet:
        return None, ""
    elsewhere = on_sheet.get(tech.name) or []
    if len(elsewhere) == 1:
        return elsewhere[0], f"the sheet names {elsewhere[0].label} elsewhere, not beside this figure"
    return None, ""


def _lowest(f, gbs: float, kb) -> tuple[float, str]:
    """The smallest per-direction reading the figure allows: a stated direction is taken; an unstated byte total
    may be both directions added; a port or lane rate in bits is per direction by convention."""
    if f.direction == "bidirectional":
        return gbs / 2, f"stated as both directions: {fmt(gbs / 2)} GB/s per direction"
    if f.direction == "unidirectional":
        return gbs, f"{fmt(gbs)} GB/s per direction as stated"
    tech = kb.get(f.technology or "")
    if tech and tech.bytes_totals == "per-direction" and not is_bytes(f.unit):
        return gbs, f"{fmt(gbs)} GB/s per direction (port and lane rates are per direction)"
    return gbs / 2, f"even read as both directions added, {fmt(gbs / 2)} GB/s per direction"


def _exceeds(kb, figs, on_sheet=None):
    tol = load_rules().threshold("technology_rounding")
    out = []
    for f in bw(figs, *LINK_TIERS, scopes={"per-link", "per-accelerator", "per-port"}):
        if f.technology in ("Ethernet", "") or "rate-list" in f.flags:
            continue
        g, elsewhere = _named(kb, f, on_sheet)
        ref = g.ceiling(f.scope) if g else None
        if not ref:
            continue
        limit, how = ref
        gbs, _ = base_gbs(f)
        low, reading = _lowest(f, gbs, kb)
        if (
            elsewhere
            and f.scope == "per-port"
            and any(c.technology == f.technology for c, _, _ in _candidates(kb, low, f.scope))
        ):
            # the generation was named elsewhere on the sheet, and this port runs exactly at another generation's
            # standard speed ("400Gbps InfiniBand" on a sheet of case studies that names HDR for another cluster)
            continue
        if low > limit * (1 + tol):
            out.append(
                finding(
                    "bandwidth.exceeds-technology",
                    [f],
                    asked={
                        "figure": ask_where(f),
                        "generation": g.label,
                        "reference": how,
                        "unit": _unit_word(f),
                        "technology": g.technology,
                    },
                    doubt=elsewhere,
                    data=shown(
                        f,
                        generation=g.label,
                        reference=how,
                        reference_gbs=limit,
                        scope=f.scope,
                        reading=reading,
                        lowest_gbs=low,
                        times=low / limit,
                        source=g.citation,
                    ),
                )
            )
    return out


def _unit_word(f) -> str:
    return "accelerator" if f.scope == "per-accelerator" else "port" if f.scope == "per-port" else "accelerator"


def _match(kb, f, on_sheet=None) -> dict | None:
    v = (f.normalized or {}).get("value")
    if not isinstance(v, (int, float)) or not v:
        return None
    g, elsewhere = _named(kb, f, on_sheet)
    if g:
        ref = g.ceiling(f.scope)
        if not ref:
            return None
        limit, how = ref
        status = "matches" if abs(v - limit) <= MATCH_TOLERANCE * limit else ("above" if v > limit else "below")
        return {
            "generation": g.label,
            "reference_gbs": limit,
            "reference": how,
            "status": status,
            "source": g.citation,
            "text": f"{status} {g.label}: {how}" + (f" ({elsewhere})" if elsewhere else ""),
        }
    readings = [(float(v), "")]
    if f.direction == "unspecified" and is_bytes(f.unit):  # an unstated byte total could be either reading
        gbs = base_gbs(f)[0]
        readings = [(gbs, " (per direction)"), (gbs / 2, " (both directions added)")]
    cands = [
        (c, how, said)
        for value, said in readings
        for c, _, how in _candidates(kb, value, f.scope or "")
        if not f.technology or c.technology == f.technology
    ]
    if not cands:
        return None
    names = list(dict.fromkeys(c.label for c, _, _ in cands))
    shown = list(dict.fromkeys(c.label + (said if len(readings) > 1 else "") for c, _, said in cands))
    return {
        "candidates": names,
        "references": [how for _, how, _ in cands],
        "text": "could be " + " or ".join(shown[:6]),
    }


def _domain(kb, figs):
    out = []
    up = bw(figs, "scale-up")
    # What the bandwidth figures name is the same for every domain figure: worked out once, not once per domain
    # figure (a dense page has hundreds of each, and that was quadratic).
    techs = [kb.get(f.technology) for f in up if kb.get(f.technology or "")]
    usual = max(set(techs), key=techs.count) if techs else None
    beside: dict = {}
    for d in (f for f in figs if f.quantity == "domain_size" and f.tier == "scale-up"):
        own = _own_words(d)
        tech = next((t for t in kb.technologies if t.generations and rx(t.pattern).search(own)), None)
        doubt = ""
        if tech is None and usual is not None:
            tech = usual
            doubt = f"the count does not name its fabric ({tech.name} is named beside the sheet's bandwidth figures)"
        if tech is None:
            continue
        gens = list(_generations(tech, own))
        if not gens:
            if tech.name not in beside:
                beside[tech.name] = list(
                    dict.fromkeys(g for f in up if f.technology == tech.name for g in _generations(tech, _own_words(f)))
                )
            gens = beside[tech.name]
            if len(gens) == 1:
                doubt = doubt or f"the count does not name its generation ({gens[0].label} is named beside a bandwidth)"
        if len(gens) != 1 or not gens[0].get("max_domain"):
            continue
        g = gens[0]
        most = int(g.get("max_domain"))
        if float(d.value) > most:
            out.append(
                finding(
                    "tier.domain-exceeds-technology",
                    [d],
                    data=shown(
                        d,
                        generation=g.label,
                        most=most,
                        domain=float(d.value),
                        times=float(d.value) / most,
                        source=g.citation,
                    ),
                    asked={"figure": ask_where(d), "generation": g.label, "most": str(most)},
                    doubt=doubt,
                )
            )
    return out


def _pcie_links(kb, text: str) -> list[tuple[float, str]]:
    """(payload GB/s per direction, arithmetic) of each PCIe link a text names; a link of unstated width is
    taken at x16, the widest (the lenient reading)."""
    pcie = kb.get("PCIe")
    widths = [a or b for a, b in words("pcie_width").findall(text)] or ["16"]
    out = []
    for g in pcie.named(text):
        for w in widths:
            v = (g.get("payload_gbs") or {}).get(f"x{w}")
            if v:
                out.append((float(v), f"{g.label} x{w} carries {_how(g, w)}"))
    return out


def _how(g: Generation, width: str) -> str:
    return next(how for s, _, how in g.references() if s == f"pcie-x{width}")


def _host_bottleneck(kb, figs, sheet, doc):
    tol = load_rules().threshold("technology_rounding")
    ports = [
        f
        for f in bw(figs, "scale-out", "front-end", scopes={"per-port", "per-device"})
        if not is_bytes(f.unit) and f.normalized
    ]
    if not ports:
        return []
    whole = sheet.kind == "nic"  # a NIC sheet's host interface feeds its ports; elsewhere only the port's own row
    sheet_links = _pcie_links(kb, " ".join(s.text for s in doc.segments)) if whole else []
    out, seen, read = [], set(), {}
    for p in ports:
        # every port of a row or paragraph shares its text: read each text once, not once per port
        key = (p.label, id(p.segment)) if p.segment else p.context
        if key not in read:
            read[key] = _pcie_links(kb, _text(p))
        links = read[key] or sheet_links
        if not links:
            continue
        host, how = max(links)
        v = float(p.normalized["value"])
        if whole and p.count and p.scope == "per-port" and not _breakout(p):
            # an adapter's ports all draw on its one host link: "2 x 40/100-Gbps" is 25 GB/s through one slot
            v *= p.count
        if v > host * (1 + tol) and (p.text, how) not in seen:
            seen.add((p.text, how))
            out.append(
                finding(
                    "bandwidth.host-bottleneck",
                    [p],
                    asked={"port": ask_where(p), "link": how.split(" carries")[0], "host_gbs": host, "port_gbs": v},
                    data=shown(p, port_gbs=v, host_gbs=host, host_link=how, share=host / v),
                )
            )
    return out


def _breakout(f) -> bool:
    """A counted speed that splits one faster port ("4x10G breakout", "4x25Gb breakout connectivity"): one port's
    lanes, not ports of their own."""
    return bool(rx(load_rules().vocab["breakout_after"]).match(sentence(f)[sentence(f).find(f.text) + len(f.text) :]))


def _no_rdma(kb, figs, sheet, doc):
    out_figs = bw(figs, "scale-out")
    ether = [f for f in own(out_figs) if f.technology == "Ethernet"]  # the product's, not the market's
    if any(kb.get(f.technology or "") and kb.get(f.technology).rdma for f in out_figs):
        return []
    text = " ".join(s.text + " " + s.label for s in doc.segments) + " " + doc.title
    if not ether and sheet.kind == "switch" and not any(f.technology for f in out_figs) and _ethernet_switch(kb, text):
        # a switch sheet whose ports name no technology is an Ethernet switch where it names Ethernet only beside
        # another product ("double the bandwidth of any Ethernet switch") or names its Ethernet silicon ("SPC-5 ASIC")
        ether = own(out_figs)
    if not ether or any(compiled(p).search(text) for p in kb.rdma_transports):
        return []
    items: dict[str, dict] = {}  # one item a speed as printed, on every page it is printed on
    for f in ether:
        item = items.setdefault(f.text, shown(f, pages=[]))
        item["pages"] = sorted({*item["pages"], f.page})
    return [
        finding(
            "latency.no-rdma",
            ether,
            data={"items": list(items.values())},
        )
    ]


def _ethernet_switch(kb, text: str) -> bool:
    ethernet = kb.get("Ethernet")
    return bool(
        (ethernet and compiled(ethernet.pattern).search(text))
        or any(compiled(p, re.I).search(text) for p in kb.ethernet_products)
    )
