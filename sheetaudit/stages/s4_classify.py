"""Classify each mention: tier, scope, direction (bandwidth), basis (latency), technology.

Evidence is weighed nearest first: the figure's own clause, its row label, its footnote, its sentence or
cell, its record (a table or key/value block), then the kind of sheet. An explicit word ("scale-up",
"storage", "per GPU", "bidirectional") outranks a technology name, because Ethernet can be the scale-up
fabric and InfiniBand can carry storage.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import replace
from functools import lru_cache

from .s3_context import Clause, SheetContext, clauses
from .s1_find import INLINE_BULLET
from .. import regex_cache
from ..records import Figure, Mention
from ..rules import load_rules, rx
from ..technologies import load as knowledge, technology

# Scopes a sheet states in words right beside a figure ("per compute node", "per rack", "to the server", and a sum the
# contract has no scope for: "per chassis", "for 8 compute nodes"): they win over the conventions of port speeds and
# sheet kinds. Per-accelerator is left out: "one 400G NIC per GPU" states the NIC's port speed, and the port is its scope.
SUMS_SAID = {"per-node", "per-rack", "per-domain", "per-switch", "per-device", "unspecified"}
STATED_SCOPE_REACH = 30
# how near a tier word must stand to a figure that names its own fabric to override it
OWN_TECH_REACH = 40
_ASIDE_CUT = regex_cache.compile(r"[;；()（）]")
# a table cell this short is one statement, whatever full stops it holds ("32x QSFP-DD 800G (4x per card). Connects to
# other processors only."); a longer one is prose, read sentence by sentence
CELL_STATEMENT = 200
# a port speed ("1 GbE per blade") names the port each device has; only a sum word makes it the device's total
_SUM_WORD = regex_cache.compile(r"aggregate|total|combined|bandwidth|throughput|capacity|合计|总", re.I)
_PORT_AFTER = regex_cache.compile(
    r"\s*(?:[\w/-]+\s){0,3}(?:NIC|port|adapter|HCA|SuperNIC|link|lane|interface)s?\b", re.I
)
# "3*8*200Gbps = 600 GB/s": a factor of a product the sheet works out is one port's rate, not the result's scope
_FACTOR = regex_cache.compile(r"\d\s*[*×]\s*$")
_PORTS_TIMES = regex_cache.compile(r"\bports?\s*(?:[x×*]|of)\s*$", re.I)
# a port or an adapter named beside a counted rate ("Scale-out NIC: 4 x 200 Gb/s per node"): its ports, not links
_PORT_WORD = regex_cache.compile(r"\bNICs?\b|\bports?\b|adapters?|\bHCAs?\b|SuperNICs?|网卡|端口|网口", re.I)
PORT_UNITS = {"GbE", "TbE", "Gbe", "GBE", "GE", "GBASE-T", "GBASE", "GBase-T", "GBase", "Gigabit", "G", "Gb", "Gib"}


def is_bytes(unit: str) -> bool:
    """A canonical rate in bytes ("GB/s", "TiB/s"), as opposed to bits, port speeds and transfers."""
    return unit.endswith("B/s")


def _for_kind(entries: list[dict], kind: str) -> list[dict]:
    """The entries that hold on this kind of sheet (an entry's `kinds`; none: every kind)."""
    return [e for e in entries if kind in e.get("kinds", (kind,))]


def _first(entries: list[dict], key: str, *texts: str) -> str | None:
    table = tuple((e["pattern"], e[key]) for e in entries)
    for text in texts:
        if text:
            found = _first_in(table, text)
            if found is not None:
                return found
    return None


@lru_cache(maxsize=8192)
def _first_in(table: tuple, text: str) -> str | None:
    """The first entry matching text. Cached because every figure of a segment asks the same of that segment's
    text: without it, a page printed as one 300,000-character paragraph costs time quadratic in its length
    (tests/test_pathological_pages.py). A str caches its own hash, so a long text is hashed once."""
    for pattern, value in table:
        if rx(pattern).search(text):
            return value
    return None


def _nearest(entries: list[dict], key: str, c: Clause, within: int | None = None) -> str | None:
    """The entry whose words stand closest to the figure in its clause: in "Each node holds eight GPUs ...,
    900 GB/s per GPU" the figure's own "per GPU" beats the sentence's opening "Each node". Ties: list order.
    `within`: only words that many characters from the figure or closer."""
    best, best_d = None, None
    for e in entries:
        pat = rx(e["pattern"])
        d = min(
            [len(c.left) - m.end() for m in pat.finditer(c.left)] + [m.start() for m in pat.finditer(c.right)],
            default=None,
        )
        if d is not None and (best_d is None or d < best_d) and (within is None or d <= within):
            best, best_d = e[key], d
    return best


def classify(mentions: list[Mention], ctx: SheetContext) -> list[Figure]:
    cl = clauses(mentions)
    figs: list[Figure] = []
    per_seg_bw: dict[int, int] = {}
    for m in mentions:
        if m.quantity == "bandwidth":
            per_seg_bw[id(m.segment)] = per_seg_bw.get(id(m.segment), 0) + 1
    for m in mentions:
        seg = m.segment
        f = Figure(
            id="",
            quantity=m.quantity,
            text=m.text,
            value=m.value,
            unit=m.unit,
            page=seg.page,
            context=_context_text(seg),
            label=seg.label,
            heading=seg.heading,
            bbox=seg.bbox,
            count=m.count,
            bound=m.bound,
            flags=set(m.flags),
            ocr=seg.ocr,
            segment=seg,
            model=ctx.model_of(seg),
        )
        c = cl.get(id(m), Clause("", ""))
        m = _own_item(m)
        if m.quantity == "bandwidth":
            _bandwidth(f, m, c, ctx, alone=per_seg_bw[id(seg)] == 1)
        elif m.quantity == "latency":
            _latency(f, m, c, ctx)
        elif m.quantity == "power":
            _power(f, m, c, ctx)
        elif m.quantity == "weight":
            rackish = rx(r"rack|整柜|机柜").search(f"{seg.label} {seg.text}")
            f.scope = (
                "per-rack"
                if rackish or (ctx.kind == "rack" and rx(r"weight|重量").search(seg.label))
                else "unspecified"
            )
            if rx(r"packag|shipping|crate").search(f"{seg.label} {seg.text}"):
                continue  # shipping weight does not load the floor
        elif m.quantity == "domain_size":
            if not _domain(f, m, ctx):
                continue
        elif (
            m.quantity == "cooling"
            and ctx.kind == "nic"
            and rx(load_rules().vocab["cooling_of_component"]).search(m.text)
        ):
            continue
        figs.append(f)
    _tier_from_twins(figs)
    _tier_from_column(figs)
    _direction_from_twins(figs)
    _direction_from_sheet(figs, ctx)
    _power_beyond_accelerator(figs, ctx)
    for i, f in enumerate(figs, start=1):
        f.id = f"f{i}"
    return figs


def _printed_gbs(f: Figure) -> float | None:
    """A bandwidth as printed, in GB/s (no direction applied): what makes two printings twins."""
    from ..units import convert

    try:
        return round(convert("bandwidth", f.value, f.unit), 3)
    except (KeyError, ValueError, TypeError):
        return None


def _tier_from_twins(figs: list[Figure]) -> None:
    """A bandwidth whose own words decide no tier takes the tier of the same printed rate elsewhere on the sheet
    ("Connectivity | 4x QSFP-DD 800G" in the spec table, "each port provides 800 Gbps" in the prose): where every
    twin whose tier was decided agrees. Memory is left to its own words."""
    decided: dict = {}
    for f in figs:
        if (
            f.quantity == "bandwidth"
            and f.tier not in ("unknown", "memory", "mixed", None)
            and "comparison" not in f.flags
        ):
            decided.setdefault(_printed_gbs(f), set()).add(f.tier)
    for f in figs:
        if f.quantity == "bandwidth" and f.tier == "unknown" and "comparison" not in f.flags:
            tiers = decided.get(_printed_gbs(f), set())
            if len(tiers) == 1:
                f.tier = next(iter(tiers))
                f.flags.add("tier-from-twin")


def _tier_from_column(figs: list[Figure]) -> None:
    """A table cell whose own words decide no tier takes the tier of the other figures in its column, where all of them
    agree ("Max total bandwidth | 3,600 Gbps" in a row that names GPUDirect RDMA, "400 Gbps" in one that says "N/A")."""

    decided: dict = {}
    for f in figs:
        seg = f.segment
        if f.quantity == "bandwidth" and seg is not None and seg.kind == "cell" and seg.column:
            if f.tier not in ("unknown", "memory", "mixed", None) and "comparison" not in f.flags:
                decided.setdefault((seg.block, seg.column), set()).add(f.tier)
    management = float(load_rules().vocab.get("management_max_gbps", 1))
    for f in figs:
        seg = f.segment
        if f.quantity == "bandwidth" and f.tier == "unknown" and seg is not None and seg.kind == "cell":
            tiers = decided.get((seg.block, seg.column), set())
            gbps = _printed_gbs(f)
            if len(tiers) == 1 and (gbps is None or gbps * 8 > management):  # a management port keeps its own
                f.tier = next(iter(tiers))
                f.flags.add("tier-from-column")


def _direction_from_twins(figs: list[Figure]) -> None:
    """A bandwidth printed with no direction takes the direction the sheet states elsewhere for the same figure: the
    same value and unit, tier and scope ("NVLink: 900GB/s" in the table, "900 gigabytes per second (GB/s) bidirectional
    per GPU" in the text). Only where every stated twin agrees, and never for a list or span of supported speeds
    ("ports supporting 10Gbps - 800Gbps"): the speeds a port can run at are not the bandwidth stated for it."""

    def key(f):
        return (_printed_gbs(f), f.tier, f.scope)

    stated: dict = {}
    for f in figs:
        if (
            f.quantity == "bandwidth"
            and f.direction in ("bidirectional", "unidirectional")
            and "twin-double" not in f.flags
        ):
            stated.setdefault(key(f), set()).add((f.direction, f.page))
    for f in figs:
        if f.quantity != "bandwidth" or f.direction != "unspecified" or {"comparison", "rate-list"} & f.flags:
            continue
        if "rate-name" in f.flags and f.text.strip().isalpha():
            continue  # "144 XDR ports": a generation named alone is read against its table, per direction
        twins = stated.get(key(f), set())
        if len({d for d, _ in twins}) == 1:
            direction, page = sorted(twins, key=lambda t: t[1])[0]
            f.direction = direction
            f.flags.add("direction-from-twin")
            f.reading = f"the same figure is stated as {direction} on page {page}"


def _direction_from_sheet(figs: list[Figure], ctx: SheetContext) -> None:
    """A bandwidth with no direction of its own takes the one the document states for all its figures ("all bandwidth
    Figures expressed in this article are Full Duplex"), where it states one."""
    if not ctx.stated_direction:
        return
    for f in figs:
        if f.quantity == "bandwidth" and f.direction == "unspecified" and "comparison" not in f.flags:
            f.direction = ctx.stated_direction
            f.flags.add("direction-from-sheet")
            f.reading = f"the document says of all its figures: '{ctx.stated_direction_text}'"


def _context_text(seg) -> str:
    text = seg.text[:400]  # cut first: every figure of a long paragraph would copy all of it
    text = f"{seg.label}: {text}" if seg.label else text
    if seg.column:
        text = f"[{seg.column}] {text}"
    return text[:400]


def _own_item(m: Mention) -> Mention:
    """The mention with its segment's text blanked outside the figure's own item, where the segment is a run of two
    or more inline bullets; offsets are kept, so the figure's clause is unchanged."""
    text = m.segment.text
    cuts = _bullets(text)
    if len(cuts) < 2:
        return m
    i = bisect_left(cuts, m.start)
    lo = cuts[i - 1] if i else 0
    j = bisect_left(cuts, m.end)
    hi = cuts[j] if j < len(cuts) else len(text)
    return replace(m, segment=replace(m.segment, text=_item_text(text, lo, hi)))


@lru_cache(maxsize=256)
def _bullets(text: str) -> tuple:
    """Where the inline bullets of a text start; cached: every figure of a long paragraph asks."""
    return tuple(x.start() for x in INLINE_BULLET.finditer(text))


@lru_cache(maxsize=1024)
def _item_text(text: str, lo: int, hi: int) -> str:
    """The text blanked outside [lo, hi): one string per item, shared by its figures, so the lookups that cache by
    text find it again."""
    return " " * lo + text[lo:hi] + " " * (len(text) - hi)


@lru_cache(maxsize=4096)
def _aside_spans(text: str) -> tuple:
    v = load_rules().vocab
    spans = []
    for key in ("comparator_phrase", "form_factor_phrase", "tier_both_phrase"):
        spans.extend((x.start(), x.end()) for x in rx(v[key]).finditer(text))
    return tuple(spans)


def _set_aside(m: Mention, c: Clause) -> tuple[Mention, Clause, bool]:
    """The mention and clause as the tier and technology read them: "5x the bandwidth of PCIe Gen5", "9X higher
    than InfiniBand HDR" (the comparator) and "H100 PCIe cards" (a form factor) blanked, so the technology they name
    is not taken for this figure's link, nor "scale-up and scale-out networks" for its tier (rules: comparator_phrase,
    form_factor_phrase, tier_both_phrase). Offsets are kept. Also
    whether the figure itself sits inside a comparator ("2x faster than PCIe Gen4's 64 GB/s")."""
    text = m.segment.text
    spans = _aside_spans(text)
    if not spans and not _aside_spans(m.segment.label):
        return m, c, False
    inside = next(((a, b) for a, b in spans if a <= m.start < b), None)
    plain = _blanked(text, inside)
    lo = m.start - len(c.left)
    c2 = Clause(plain[lo : m.start], plain[m.end : m.end + len(c.right)])
    label = _blanked(m.segment.label, None)
    return replace(m, segment=replace(m.segment, text=plain, label=label)), c2, inside is not None


@lru_cache(maxsize=1024)
def _blanked(text: str, keep: tuple | None) -> str:
    """text with its comparators and form factors blanked (same length), but for the span `keep`; one string per
    text, shared by the figures of a long paragraph."""
    chars = list(text)
    for a, b in _aside_spans(text):
        if (a, b) != keep:
            chars[a:b] = " " * (b - a)
    return "".join(chars)


def _market(m: Mention, v: dict) -> bool:
    """The figure describes the market or networks in general ("the radix of 100Gbps networks")."""
    text = m.segment.text
    return bool(
        rx(v["market_before"]).search(text[max(0, m.start - 60) : m.start])
        or rx(v["market_after"]).match(text[m.end : m.end + 40])
    )


def _bandwidth(f: Figure, m: Mention, c: Clause, ctx: SheetContext, alone: bool) -> None:
    v = load_rules().vocab
    original = m.segment
    m, c, compared = _set_aside(m, c)
    seg = m.segment
    foot = ctx.footnotes.get(_marker(m), "")
    clause = c.text
    f.technology = technology(clause, seg.label, seg.text if alone else "") or technology(seg.text)
    f.tier = _tier(f, m, c, ctx, clause)
    if f.tier == "scale-up" and not f.technology:
        # "Peer bandwidth: 896 GB/s" on an Infinity Fabric sheet: the sheet's scale-up fabric is the technology.
        named = technology(ctx.block_text.get(seg.block, ""))
        f.technology = named if named in knowledge().names("scale-up") else ctx.scale_up_technology
    if f.tier == "memory":
        f.direction = None
        f.scope = None
        return
    # a table's column header is evidence too where the columns are fields ("单向 | 双向"), after its row label
    f.direction = (
        _first(v["direction"], "direction", clause, foot, seg.label, seg.text if alone else "", seg.column)
        or "unspecified"
    )
    if rx(v["measured_cue"]).search(f"{clause} {seg.label} {seg.row}"):
        f.flags.add("measured")  # a benchmark's throughput: as measured, whatever the link's convention
    if compared or rx(v["comparison_cue"]).search(original.text[max(0, m.start - 100) : m.start]) or _market(m, v):
        f.flags.add("comparison")  # another product's figure, quoted for comparison, or the market's
    if "twin-double" in m.flags and f.direction == "unspecified":
        f.direction = "bidirectional"
        f.reading = "printed in brackets at twice the rate before it ('12.8 (25.6) Tbps'): both directions added"
    half = _half_per_direction(m, v)
    if half and f.direction == "unspecified":
        f.direction = "bidirectional"
        f.reading = f"its own bracket gives half of it per direction ('{half}'): both directions added"
    f.scope = _scope(f, m, c, ctx, foot)


def _half_per_direction(m: Mention, v: dict) -> str:
    """The bracket right after a figure that gives half of it per direction ("300 GB/s between pairs of GPUs (150 GB/s
    per direction)"; rules: half_twin_after), "" where none does."""
    from ..units import convert

    x = rx(v["half_twin_after"]).match(m.segment.text[m.end : m.end + 120])
    if not x:
        return ""
    try:
        half = convert("bandwidth", float(x.group("n").replace(",", "")), x.group("u"))
        whole = convert("bandwidth", m.value, m.unit)
    except (KeyError, ValueError, TypeError):
        return ""
    return x.group(0).strip(" (（)）") if abs(2 * half - whole) <= 0.02 * whole else ""


def _tier(f: Figure, m: Mention, c: Clause, ctx: SheetContext, clause: str) -> str:
    v = load_rules().vocab
    seg = m.segment
    if rx(r"memory bandwidth|内存带宽|显存带宽").search(clause + " " + seg.label):
        return "memory"
    if is_bytes(m.unit) and rx(v["host_path"]).search(" ".join(_sentence_around(seg.text, m.start, m.end))):
        return "host"  # "49 GB/s per GPU ... P2P transfers between the NIC and the GPUs": the GPU's host link
    foot = ctx.footnotes.get(_marker(m), "")
    # the figure's own words may name its fabric ("HDR200", "25 GbE"): nearer than any other link in its clause, and
    # beaten only by a tier word right beside it ("Storage: 2x 400GbE"), not by one further along ("512 GB DDR5, 4 x
    # H100 (80 GB HBM3), one NDR200 HCA")
    own_tech = (m.unit in PORT_UNITS or "rate-name" in m.flags) and knowledge().get(technology(m.text) or "")
    if own_tech:
        # a bracket or a semicolon between a word and the figure puts the word in another aside
        near = Clause(_ASIDE_CUT.split(c.left)[-1], _ASIDE_CUT.split(c.right)[0])
        explicit = _nearest(v["tier_explicit"], "tier", near, within=OWN_TECH_REACH)
    else:
        explicit = _first(v["tier_explicit"], "tier", clause)
    explicit = explicit or _first(v["tier_explicit"], "tier", foot)
    if explicit:
        return explicit
    tech = own_tech.tier if own_tech else _first(v["tier_technology"], "tier", clause)
    explicit = _first(v["tier_explicit"], "tier", seg.label)
    if explicit and not (explicit == "scale-up" and _names_host_link_only(c, seg)):
        # the figure's own clause naming a host link ("Speed 32GT/s, Width x16 (PCIE5)") says more than a row
        # label's in-node word ("机内总线协议"): an in-node bus need not be the accelerators' scale-up fabric
        return explicit
    label_tier = _first(v["tier_label"], "tier", seg.label)
    if tech is None:
        # its own sentence, not the whole paragraph ("This card provides additional local memory ... It also features
        # four passive 800 Gbps QSFP-DD ports")
        own = (
            seg.text
            if seg.kind == "cell" and len(seg.text) <= CELL_STATEMENT
            else _full_sentence(seg.text, m.start, m.end)
        )
        sentence_tier = _first(v["tier_explicit"], "tier", own, seg.row)
        own_port = ctx.kind in ("switch", "nic") and (m.unit in PORT_UNITS or "rate-name" in m.flags)
        if sentence_tier and not (own_port and sentence_tier == "front-end"):
            # a switch's or adapter's own port speed is not made front-end by a BMC or storage named elsewhere in
            # its sentence ("200GbE / NDR200 IB; Dual-port QSFP112; ...; integrated BMC"): only its own clause can
            return sentence_tier
        if label_tier is None:
            tech = _first(v["tier_technology"], "tier", seg.label, seg.text, seg.row)
    if (
        tech == "host"
        and (m.unit in PORT_UNITS or "rate-name" in m.flags or ("rate-list" in m.flags and m.unit in ("Mb/s", "Gb/s")))
        and not explicit_host(clause)
    ):
        # "200GbE", "NDR200", "10/100/1000Mbps RGMII": a port speed (or a port's list of speeds) is never a host link,
        # whatever PCIe is named nearby
        tech = "scale-out"
    if (
        tech == "host"
        and not is_bytes(m.unit)
        and not m.unit.endswith("T/s")
        and rx(r"\bNIC\b|network interface|network adapter|Ethernet|InfiniBand|\bports?\b").search(clause)
        and not rx(r"host interface|host bandwidth|GPU-PCIe|PCIe-NIC|data bandwidth").search(clause + " " + seg.label)
    ):
        tech = "scale-out"  # "400 Gb/s ... PCIe 5.0 x16 Ethernet NIC": the NIC's port speed, not its host link
    if (
        tech in ("scale-out",)
        or (tech is None and label_tier == "scale-out")
        or (tech is None and label_tier is None and ctx.kind in ("switch", "nic"))
    ):
        return _network_tier(f, m, c, ctx, label_tier)
    if tech == "host" and ctx.scale_up_over_host_bus and _chip_link_on_host_bus(m, seg):
        return "scale-up"  # "five PCIe Gen6 x8 links to the inter-server switch, 320 GB/s per chip": the chip fabric
    if tech:
        return tech
    if label_tier:
        return label_tier
    if ctx.scale_up_links and any(n in f"{clause} {seg.label}" for n in ctx.scale_up_links):
        return "scale-up"  # the vendor's own link, which the sheet says forms its scale-up domain
    # "The ConnectX-7 VPI Adapter is the latest ConnectX line. It can provide 25/50/100/200/400G": a sentence that
    # names nothing continues the one before it in its paragraph; and "Each port provides 800 Gbps. These ports connect
    # exclusively to other cards" is said of it by the one after, which points back at it
    for near in (_said_before(seg, ctx), _said_after(seg, ctx)):
        said = near and (_first(v["tier_explicit"], "tier", near) or _first(v["tier_technology"], "tier", near))
        if said == "scale-out":
            return _network_tier(f, m, c, ctx, label_tier)
        if said:
            return said
    record = ctx.record_text.get(seg.block, "")
    if rx(r"\bper\s+(?:[\w-]+\s)?" + f"(?:{v['pod_label']})").search(f"{clause} {seg.label}") and rx(
        v["pod_fabric"]
    ).search(record):
        return "scale-up"  # "All-reduce bandwidth per Pod" in a table whose pod is one ICI torus: that fabric's
    if ctx.network_role == "front-end" and not is_bytes(m.unit) and not m.unit.endswith("T/s"):
        return "front-end"  # a bit rate on a sheet whose product serves the general network ("4x 25 Gbps per node")
    return "unknown"


def _chip_link_on_host_bus(m: Mention, seg) -> bool:
    """On a sheet whose chips talk over a PCIe fabric, a host-bus figure stated per chip (in its sentence, row or
    column) and tied to no host, CPU or NIC is a chip's link to that fabric."""
    v = load_rules().vocab
    words = f"{seg.label} {seg.column} {seg.row} {' '.join(_sentence_around(seg.text, m.start, m.end, reach=200))}"
    scopes = [e for e in v["scope"] if not e.get("weak")]
    return _first(scopes, "scope", words) == "per-accelerator" and not rx(v["host_words"]).search(words)


def _names_host_link_only(c: Clause, seg) -> bool:
    """The technology nearest the figure in its clause is a host link (PCIe), or its cell names one and no other."""
    techs = load_rules().vocab["tier_technology"]
    own = _nearest(techs, "tier", c)
    if own is not None or seg.kind != "cell":
        return own == "host"
    return {e["tier"] for e in techs if rx(e["pattern"]).search(seg.text)} == {"host"}


def _said_before(seg, ctx: SheetContext, reach: int = 240) -> str:
    """The words of the figure's paragraph before its sentence, or of the block before it where the sentence opens
    its paragraph (a reach of `reach` characters)."""
    if seg.kind != "sentence":
        return ""
    block = ctx.block_text.get(seg.block, "")
    i = block.find(seg.text)
    if i > 0 and block[:i].strip():
        return block[max(0, i - reach) : i]
    return ctx.block_text.get(seg.block - 1, "")[-reach:]  # the list's lead-in: "The control plane needs: ▶ ..."


_POINTS_BACK = regex_cache.compile(r"\s*(?:These|Those|They|Such|Both)\b|\s*(?:这些|上述|该等)")


def _said_after(seg, ctx: SheetContext) -> str:
    """The sentence after the figure's in its paragraph, where it opens by pointing back at it ("These ports connect
    exclusively to other Blackhole cards"); "" otherwise."""
    if seg.kind != "sentence":
        return ""
    block = ctx.block_text.get(seg.block, "")
    i = block.find(seg.text)
    rest = block[i + len(seg.text) :] if i >= 0 else ""
    if not _POINTS_BACK.match(rest):
        return ""
    return re.split(r"[.;!?。；！？]\s", rest, maxsplit=1)[0]


_NUMBERED_NOTE = regex_cache.compile(r"\s*(\(\d{1,2}\))(?!\s*\w)")


def _marker(m: Mention) -> str:
    """The figure's footnote marker: printed right after it, or closing its table cell ("200G (Active)*")."""
    if m.marker:
        return m.marker
    numbered = _NUMBERED_NOTE.match(m.segment.text, m.end)  # "0.62 us (1)", with "(1) ..." under the table
    if numbered:
        return numbered.group(1)
    if m.segment.kind != "cell":
        return ""
    for text in (m.segment.text, m.segment.label, m.segment.column):  # the cell's, else its header's marker
        tail = text.rstrip()[-1:] if text else ""
        if tail in "*†‡¹²³⁴⁵":
            return tail
    return ""


def explicit_host(text: str) -> bool:
    return _first(load_rules().vocab["tier_explicit"], "tier", text) == "host"


def _network_tier(f: Figure, m: Mention, c: Clause, ctx: SheetContext, label_tier: str | None) -> str:
    """A NIC or port rate: scale-out fabric, unless it is the scale-up fabric or a front-end link."""
    v = load_rules().vocab
    seg = m.segment
    block = ctx.block_text.get(seg.block, "")
    if label_tier == "scale-up" and not rx(r"rail|fat tree|infiniband|\bIB\b").search(c.text):
        if rx(r"rail[- ]optimi[sz]ed").search(block):
            return "scale-out"
        return "scale-up"
    gbps = _gbps(m)
    if gbps is not None and gbps <= float(v.get("front_end_max_gbps", 25)) and ctx.kind not in ("switch", "nic"):
        return "front-end"
    if gbps is not None and gbps <= float(v.get("management_max_gbps", 1)):
        return "front-end"
    acc = ctx.accelerators_for(seg.block)
    if "rate-list" in m.flags and ctx.kind not in ("switch", "nic") and rx(r"Ethernet").search(c.text + seg.text):
        return "front-end"  # "10/25/50/100/200 Gb/s Ethernet": a general-purpose NIC, not the AI fabric
    if ctx.kind not in ("switch", "nic") and label_tier != "scale-up":
        if (
            m.count is not None
            and acc
            and m.count < acc
            and m.count <= 2
            and _first(v["tier_explicit"], "tier", f.segment.text[max(0, m.start - 60) : m.start]) != "scale-out"
            and not _cluster_network_named(ctx.record_text.get(seg.block, "").replace(seg.text, " "))
        ):
            # one or two ports on a box of eight accelerators, unless "East-West NIC - (1x400G)", or a table whose
            # other rows say its network is the cluster's ("Data center network bandwidth per Pod")
            return "front-end"
        if (
            m.count is None
            and rx(r"Ethernet NIC|\bNIC\b$").search(c.right.strip())
            and rx(r"InfiniBand|\bIB\b").search(seg.text)
        ):
            return "front-end"
    return ctx.network_role


def _cluster_network_named(record: str) -> bool:
    """A table's other rows name the cluster's network (rules: cluster_network_row) but no ports of its own, nor a
    front-end network (tier_explicit): the figure's ports are that network's ("Per-host NIC configuration | 2 x 100
    Gbps NIC" beside "Data center network bandwidth per Pod | 6.4 Tbps", not beside "RDMA Cluster Network | 8 x 400")."""
    v = load_rules().vocab
    front = next(e["pattern"] for e in v["tier_explicit"] if e["tier"] == "front-end")
    return bool(
        rx(v["cluster_network_row"]).search(record)
        and not rx(front).search(record)
        and not _COUNTED_PORTS.search(record)
    )


_COUNTED_PORTS = regex_cache.compile(r"(?<![\w.])\d{1,3}\s*[x×]\s*\d")


def _gbps(m: Mention) -> float | None:
    from ..units import convert

    try:
        # rounded: 1.6 Tb/s is 1600 Gb/s, not 1600.0000000000002 (a port at the fastest speed is still a port)
        return round(convert("bandwidth", m.value, m.unit) * 8, 6) if m.unit != "GB" else m.value
    except KeyError:
        return None


def _scope(f: Figure, m: Mention, c: Clause, ctx: SheetContext, foot: str) -> str:
    v = load_rules().vocab
    seg = m.segment
    scopes = [e for e in v["scope"] if not e.get("weak")]
    if re.search(r"\(\s*max(?:imum)?\s*$", c.left, re.I) or (m.bound == "max" and re.search(r"\(\s*$", c.left)):
        # "(Max 2800GB HDR)" after a list of NIC options: the node's total
        return "per-node"
    if "signaling" in m.flags and not re.search(r"per[- ]port|per[- ]link", c.text, re.I):
        return "per-lane"  # "100G PAM4 SerDes", "32 GT/s": one lane's signalling rate
    if _FACTOR.search(c.left) and c.right.lstrip().startswith("="):
        f.flags.add("factor")
        return "per-port"  # "21*25 GB/s = 525 GB/s": a factor of the sheet's own product is a port's rate
    if m.count and _PORTS_TIMES.search(c.left):
        return "per-port"  # '72 ports x 800 Gb/s': the port's speed, whatever the sentence totals
    if _lane_rate(m, c, v):
        f.flags.add("signaling")
        return "per-lane"  # "PAM4 (50G, 100G)", "160x 112Gbps": one SerDes lane's signalling rate
    said = _nearest(scopes, "scope", c, within=STATED_SCOPE_REACH)
    if (
        said in SUMS_SAID
        and not _PORT_AFTER.match(c.right)
        and "rate-name" not in m.flags
        and (m.unit not in PORT_UNITS or _SUM_WORD.search(c.text))
    ):
        # "200G aggregate bandwidth per compute node", "7.42 Tbps per FI", "14.84 Tbps per unified fabric domain",
        # "320 Gbps per chassis": words beat conventions; but "4x 25 Gbps per compute node" counts the node's links
        if m.count is None:
            return said
        if not _PORT_WORD.search(f"{c.text} {seg.label}"):
            return "per-link"
    gbps = _gbps(m)
    counted_port = m.count and gbps is not None and gbps <= float(v["port_max_gbps"])
    noun = (
        not {"rate-list", "rate-name"} & m.flags
        and m.unit not in PORT_UNITS
        # a counted port speed ("Quantum-3 36x800Gb/s Switch") is its ports', whatever device follows it
        and not counted_port
        and (
            _first_at(v["scope_of_noun_after"], "scope", c.right)
            or next((e["scope"] for e in v["scope_of_subject_before"] if rx(e["pattern"]).search(c.left[-80:])), None)
        )
    )
    if noun:
        return noun  # "an 800GB/s Ethernet switch": the switch's; "the X-chiplet offers 14.4Tbps": the part's
    if (
        ctx.kind == "switch"
        and f.unit in ("Tb/s", "T", "TB/s")
        and not counted_port  # "64 x 1.6T Ethernet interfaces": a port speed, counted
        and not re.match(r"\s*(?:[\w/-]+\s){0,2}ports?\b", c.right, re.I)
    ):
        return "per-switch"  # no port of a switch runs at terabits: the switch's capacity
    if ctx.kind == "nic" and rx(v["device_total"]).search(
        f"{seg.label} {seg.column} {seg.text[max(0, m.start - 30) : m.start]}"
    ):
        return (
            "per-device"  # "Maximum total bandwidth: 800Gb/s", "总带宽最高 400Gb/s": the adapter's, over all its ports
        )
    if (
        m.unit in PORT_UNITS
        or "rate-name" in m.flags
        or (
            not is_bytes(m.unit)
            and re.match(r"\s*(?:[\w/-]+\s){0,2}(?:NIC|port|adapter|HCA|SuperNIC|connection)s?\b", c.right, re.I)
        )
    ):
        return "per-port"  # "one 200 Gb/s NIC per GPU", "40-Gbps fabric connections": a port's speed
    found = _nearest(scopes, "scope", c) or _first(scopes, "scope", foot, seg.label, seg.column)
    if not found and _nearest([e for e in v["scope"] if e.get("weak")], "scope", c):
        # "Each chip provides four links, delivering a total of 256 GB/s": a sum, whose its sentence's subject says
        found = _first(scopes, "scope", c.lead) or _nearest([e for e in v["scope"] if e.get("weak")], "scope", c)
    if (
        found == "per-accelerator"
        and f.tier == "host"
        and "measured" not in f.flags
        and not rx(v["several_links"]).search(seg.text)
    ):
        return "per-link"  # "host link per card: PCIe Gen5 x16, 64 GB/s": one accelerator's host link
        # (but "five PCIe Gen6 x8 links ... 320 GB/s per chip" is the chip's total over its links, and "measured
        # 49 GB/s per GPU" what one accelerator moved, over however many links)
    if found:
        return found
    if "signaling" in m.flags:
        return "per-lane"
    found = _first(scopes, "scope", seg.text, seg.row)
    if found and not (found == "per-accelerator" and f.tier in ("host",)):
        return found
    if f.tier == "host":
        # a measured host-path throughput is what the accelerator under test moved ("If only one GPU was under
        # test, the bandwidth was over 22 GB/s")
        return "per-accelerator" if "measured" in f.flags else "per-link"
    if f.tier == "scale-up" and is_bytes(f.unit):
        return _scale_up_scope(f, m)
    if f.tier == "mixed" and ctx.kind in ("server", "pod", "rack"):
        return "per-node"
    if f.tier in ("scale-out", "front-end"):
        if ctx.kind == "switch" and m.value and f.unit in ("Tb/s", "T") and not counted_port:
            return "per-switch"
        return _sum_of_ports(m, c, seg, ctx, v) or "per-port"
    if f.tier == "scale-up":
        return "per-port" if m.count else "per-accelerator"
    return "unspecified"


def _sum_of_ports(m: Mention, c: Clause, seg, ctx: SheetContext, v: dict) -> str | None:
    """A network rate faster than any port runs ("EFA bandwidth (Gbps): 12,800") is a sum over ports: the scope of
    what it is printed for: a switch its words name, the model heading its column, else the sheet's kind (rules:
    port_max_gbps, domain_product)."""
    gbps = _gbps(m)
    if gbps is None or gbps <= float(v["port_max_gbps"]):
        return None
    own = seg.text if seg.kind == "cell" else c.text  # a cell is short: all of it is the figure's
    if rx(r"\bswitch(?:es|ing)?\b|交换").search(f"{own} {seg.label} {seg.column}"):
        return "per-switch"  # "12x 64-port 400GbE switches (25.6 Tb/s each)" on a pod's sheet
    if rx(v["domain_product"]).search(f"{seg.column} {seg.label}"):
        return "per-domain"  # an UltraServer's, an NVL72's, a pod's
    return {"server": "per-node", "nic": "per-device", "rack": "per-domain", "pod": "per-cluster"}.get(ctx.kind)


def _lane_rate(m: Mention, c: Clause, v: dict) -> bool:
    """A rate that is one SerDes lane's: named with SerDes or a line coding in its clause ("100G/200G SerDes", "PAM4
    (50G, 100G)"), or at a rate only a lane runs at ("112Gbps"); never above the fastest lane (rules: lane_words,
    lane_rate_figure, lane_max_gbps). A rate in bytes is payload, not a lane's signalling."""
    gbps = _gbps(m)
    if gbps is None or is_bytes(m.unit) or m.unit == "GB" or gbps > float(v["lane_max_gbps"]):
        return False
    return bool(
        rx(v["lane_rate_figure"]).match(m.text)
        # a span or list of rates whose top is a rate only a lane runs at ("from 10Gbps to 106Gbps")
        or ("rate-list" in m.flags and rx(v["lane_rate_figure"]).match(f"{float(m.value):g} {m.unit}"))
        or rx(v["lane_words"]).search(f"{c.text} {_bracket_head(m.segment.text, m.start)}")
    )


def _bracket_head(text: str, start: int) -> str:
    """The words just before the bracket a figure stands in ("PAM4" of "PAM4 (50G, 100G)"), "" outside brackets."""
    left = text[max(0, start - 60) : start]
    i = max(left.rfind("("), left.rfind("（"))
    if i < 0 or ")" in left[i:] or "）" in left[i:]:
        return ""
    return left[max(0, i - 20) : i]


def _first_at(entries: list[dict], key: str, text: str) -> str | None:
    """The first entry whose pattern matches at the start of text (the words right after a figure)."""
    return next((e[key] for e in entries if rx(e["pattern"]).match(text)), None)


def _scale_up_scope(f: Figure, m: Mention) -> str:
    """A counted figure at a scale-up generation's per-link rate (either direction reading) is per link; above
    every generation's per-accelerator total (both directions added) it is a node's sum. The generations are
    those of the scale-up fabrics whose totals add both directions (rules/technologies.yaml)."""
    from ..units import convert

    gens = [
        g
        for t in knowledge().technologies
        if t.tier == "scale-up" and t.bytes_totals == "bidirectional"
        for g in t.generations
    ]
    gbs = convert("bandwidth", m.value, m.unit)
    links = {float(g.get("per_link_gbs")) for g in gens if g.get("per_link_gbs")}
    if m.count and (gbs in links or gbs / 2 in links):
        return "per-link"
    top = max((2 * float(g.get("per_accelerator_gbs")) for g in gens if g.get("per_accelerator_gbs")), default=0)
    return "per-node" if gbs > top else "per-accelerator"


def _latency(f: Figure, m: Mention, c: Clause, ctx: SheetContext) -> None:
    v = load_rules().vocab
    seg = m.segment
    bases = _for_kind(v["latency_basis"], ctx.kind)
    # the basis words nearest the figure first: "300nsec for 100GbE port-to-port" in a list that also says
    # "end-to-end solution" is the port-to-port figure; then its row, its cell or its own sentence (a paragraph's
    # other sentences speak of other things: "时延<10us；支持高性能 RDMA ... 端到端可靠性")
    own = seg.text if seg.kind == "cell" else " ".join(_sentence_around(seg.text, m.start, m.end, reach=200))
    f.basis = _nearest(
        bases, "basis", Clause(c.left, re.split(r"[;；。]|\.\s", seg.text[m.end : m.end + 80])[0])
    ) or _first(bases, "basis", seg.label, own, seg.row)
    marker = _marker(m)
    foot = ctx.footnotes.get(marker, "")  # "Latency (ns)¹ ... ¹ Port-to-port, cut-through"
    if f.basis is None and foot:
        f.basis = _first(bases, "basis", foot)
        if f.basis:
            f.reading = f"its note {marker}: {foot}"
    if (
        f.basis is None
        and ctx.kind == "switch"
        and not rx(r"network|fabric|cluster|system|网络|集群").search(f"{c.text} {seg.label}")
    ):
        f.basis = "hardware"
        f.reading = "a switch sheet's own latency is its port-to-port (ASIC) latency: nothing else is inside the box"
        f.flags.add("basis-by-kind")
    f.basis = f.basis or "unspecified"
    tier = (
        _first(v["tier_explicit"], "tier", c.text, seg.label)
        or _first(v["tier_technology"], "tier", c.text, seg.label)
        or _first(v["tier_explicit"], "tier", seg.heading)
    )  # a latency under a "Scale-up domain" heading
    # a latency through the sheet's network: the fabric its ports serve (a fabric interconnect's is the front end's)
    f.tier = "scale-up" if tier == "scale-up" else ctx.network_role
    f.technology = technology(c.text, seg.label, seg.text)


def _power(f: Figure, m: Mention, c: Clause, ctx: SheetContext) -> None:
    v = load_rules().vocab
    seg = m.segment
    own = _power_clause(c)
    lead, before = _lead_in(seg, ctx)
    sentence = _power_sentence(m, before)
    tdp = rx(r"\bTDP\b|thermal design|热设计功耗").search(f"{seg.label} {seg.column} {own}")
    if tdp and rx(v["host_cpu"]).search(f"{seg.label} {own}"):
        scope = "per-device"  # a host CPU's TDP (its row may be headed "Processors", as an AI processor's is)
    elif rx(v["power_each_of_counted"]).search(c.left[-120:]) and rx(v["accelerator_nouns"]).search(
        f"{seg.label} {_item_of(m)}"
    ):
        scope = "per-accelerator"  # "up to three RTX PRO 6000 at 450W Max power": each accelerator's
    elif (
        rx(v["power_group_racks"]).search(own)
        and not rx(v["power_group_one_rack"]).search(own)
        and _group_sum(seg, own, v)
    ):
        scope = "per-cluster"  # "sixteen servers in two racks draw 9200 W": over the racks, whatever "rack" says
    else:
        scope = _first(v["power_scope"], "scope", own, seg.label, seg.column, lead)
    if scope is None:  # a total over counted systems in its own clause ("a rack holds four nodes (42 kW)")
        scope = _group_sum(seg, f"{before} {own}", v)
    if scope is None:
        scope = _first(v["power_scope"], "scope", sentence)
    if scope is None:
        scope = _group_sum(seg, sentence, v)
    if scope is None and tdp:
        # a TDP is a component's: the accelerator's under an accelerator heading, else the device's
        scope = (
            "per-accelerator"
            if rx(rf"{v['accelerator_nouns']}|单卡|每卡").search(f"{seg.section or seg.heading} {seg.label}")
            or ctx.kind == "accelerator"
            else "per-device"
        )
    if scope is None:
        # the heading it sits under names a component ("MX304 LMIC (FRU)", "Fan trays")
        scope = _first(v["power_scope_heading"], "scope", seg.heading, seg.section)
    if scope is None:
        # in the figure's own sentence: the whole segment would be read again for each figure of a long page
        table = ctx.block_text.get(seg.block, "")[:600] if seg.kind == "cell" else ""  # a power table's header
        powerish = rx(r"power|consumption|draw|功耗|耗电|\bTDP\b|thermal design").search(
            f"{seg.label} {seg.column} {lead} {m.segment.text[max(0, m.start - 200) : m.end + 200]} {table}"
        )
        default = {
            "switch": "per-switch",
            "nic": "per-device",
            "server": "per-node",
            "rack": "per-rack",
            "pod": "per-node",
            "accelerator": "per-accelerator",
        }.get(ctx.kind)
        if ctx.edge_device and ctx.kind == "accelerator":
            default = "per-device"
        scope = default if (powerish and default) else "unspecified"
        if scope != "unspecified":
            f.flags.add("power-scope-by-kind")
    if (
        ctx.kind == "accelerator"
        and scope in ("per-device", "unspecified")
        and not ctx.edge_device
        and not rx(r"\bCPU|\bNIC|adapter").search(f"{seg.label} {own}")
        and not rx(v["power_component"]).search(f"{seg.label} {own} {sentence} {seg.heading}")
    ):
        scope = "per-accelerator"  # a GPU datasheet's TDP is the accelerator's
        f.flags.add("power-scope-by-kind")
    # "整机功耗" (whole-unit power) on a switch or NIC sheet is the device's own power, not a server node's; a
    # server named in the figure's own header ("2U机架式服务器") keeps its node.
    if (
        scope == "per-node"
        and ctx.kind in ("switch", "nic")
        and not rx(v["power_names_server"]).search(f"{seg.label} {seg.column} {own}")
    ):
        scope = "per-switch" if ctx.kind == "switch" else "per-device"
    f.scope = scope


KW = {
    "W": 0.001,
    "w": 0.001,
    "watts": 0.001,
    "Watts": 0.001,
    "瓦": 0.001,
    "kW": 1.0,
    "KW": 1.0,
    "kw": 1.0,
    "Kw": 1.0,
    "kilowatts": 1.0,
    "千瓦": 1.0,
    "MW": 1000.0,
}


def _power_beyond_accelerator(figs: list[Figure], ctx: SheetContext) -> None:
    """On an accelerator's sheet, a wattage read as the accelerator's only by the sheet's kind, at twice or more the
    power the sheet states for one accelerator, is the system's that holds them (a workstation's "Peak Power
    Consumption 1.5 kW" beside its cards' "Total Board Power 600W"). On a rack's or a pod's sheet, a "system" power
    above every rack's is the whole supernode's or pod's ("整系统功耗 约 560 kW" beside "计算柜功耗 ≤ 42 kW")."""
    power = [f for f in figs if f.quantity == "power" and f.unit in KW]
    if ctx.kind in ("rack", "pod"):
        racks = [f.value * KW[f.unit] for f in power if f.scope == "per-rack"]
        for f in power:
            if racks and f.scope == "per-node" and f.value * KW[f.unit] > max(racks):
                f.scope = "per-domain" if ctx.kind == "rack" else "per-cluster"
    if ctx.kind != "accelerator":
        return
    stated = [
        f.value * KW[f.unit] for f in power if f.scope == "per-accelerator" and "power-scope-by-kind" not in f.flags
    ]
    if not stated:
        return
    for f in power:
        if (
            "power-scope-by-kind" in f.flags
            and f.scope == "per-accelerator"
            and f.value * KW[f.unit] >= 2 * max(stated)
        ):
            f.scope = "per-node"


def _power_clause(c: Clause) -> str:
    """The figure's clause cut at a flattened table's cell rules: in "Power supplies | 1100W (AC) Typical operating
    power | 348W Maximum power (AC) | 800W", the 800W's own words are its label cell and its own cell."""
    # a clause that opens inside a bracket ("eight GPUs at rated TGP); 11.6 kW typical"): its close ends an aside
    left = re.sub(r"^[^()（）]*[)）]", " ", c.left[-300:])
    left, right = BRACKETED_COUNT.sub(" ", left), BRACKETED_COUNT.sub(" ", c.right[:300])
    if "|" in left:
        left = "|".join(left.split("|")[-2:])
    if "|" in right:
        right = right.split("|")[0]
    return f"{left} {right}"


# A bracketed aside that counts things is the figure's condition, not its owner: "fully loaded (16 line cards,
# 6 fabrics)", "max (full load, eight GPUs at rated TGP)".
BRACKETED_COUNT = regex_cache.compile(
    r"[(（][^()（）]*?(?:\d+|two|three|four|five|six|eight|sixteen)\s+[\w-]+s\b[^()（）]*[)）]?"
)
SENTENCE_END = regex_cache.compile(r"[.;!?。；！？]\s|\s\|\s")
BRACKETED = regex_cache.compile(r"[(（][^()（）]*[)）]")


def _lead_in(seg, ctx: SheetContext) -> tuple[str, str]:
    """What the text before a segment lends it: a lead-in that labels it ("System power" then ": 14.3 kW max",
    "Power requirement:" then "Approximately 410 W at 46°C"), or the start of its sentence where a line break split
    it ("a standard rack holds" then "four nodes (42 kW)"). Returns (label-like lead, sentence start)."""
    if seg.kind not in ("sentence", "line"):
        return "", ""
    prev = ctx.block_text.get(seg.block - 1, "").strip()
    if not prev:
        return "", ""
    text = seg.text.lstrip()
    if text[:1] in (":", "：") or (prev[-1:] in (":", "：") and len(prev) <= 60):
        return prev.rstrip(":： "), ""
    if text[:1].islower():
        return "", re.split(r"[.;!?。；！？]\s", prev)[-1]
    return "", ""


def _power_sentence(m: Mention, before: str = "") -> str:
    """The sentence (or flattened table cell) around the figure, at most 200 characters either side, with its
    bracketed asides blanked: "14.3 kW max (full load, eight GPUs at rated TGP)" is the node's, whatever the
    bracket names; the whole segment would lend a long page's every word to each of its figures. `before`: the
    start of the sentence on the line before."""
    text = m.segment.text
    left = before[-200:] + " " + text[max(0, m.start - 200) : m.start]
    right = text[m.end : m.end + 200]
    cut = None
    for cut in SENTENCE_END.finditer(left):
        pass
    if cut is not None:
        left = left[cut.end() :]
    nxt = SENTENCE_END.search(right)
    right = right[: nxt.start()] if nxt else right
    return BRACKETED.sub(" ", f"{left}{text[m.start : m.end]}{right}")


def _item_of(m: Mention) -> str:
    """The figure's own item: the words before it back to an inline bullet or a table rule, within 200 characters."""
    left = m.segment.text[max(0, m.start - 200) : m.start]
    return re.split(r"\s[•▪●◦■►]\s|\s\|\s", left)[-1]


def _group_sum(seg, sentence: str, v) -> str | None:
    """A total over a group of systems, printed in a row or sentence that counts them ("24*2U服务器 | 2个42U标准机柜 |
    8400W", "three servers, 24 cards and a switch draw 3390 W in all"): the cluster's. Where one rack is named and its
    count is of the nodes it holds ("a rack holds four nodes (42 kW)"), the rack's."""
    words = f"{seg.row} {sentence}"
    if not rx(v["power_group_count"]).search(words):
        return None
    if rx(v["power_group_racks"]).search(words):
        return "per-cluster"
    return "per-rack" if rx(v["power_group_one_rack"]).search(words) else "per-cluster"


def _distance(pat, text: str, m: Mention) -> int:
    """Characters between the mention and the nearest match of pat in text (a large number when none)."""
    spans = _spans(pat, text)
    k = bisect_left([e for _, e in spans], m.start + 1)  # spans[:k] end at or before the mention
    near = ([m.start - spans[k - 1][1]] if k else []) + ([max(0, spans[k][0] - m.end)] if k < len(spans) else [])
    return min(near, default=10**6)


# Every count in one long paragraph asks the same questions of the whole paragraph: asked once per text, not once
# per count (a dense 80,000-character page was quadratic here).
@lru_cache(maxsize=256)
def _spans(pat, text: str) -> tuple:
    return tuple(x.span() for x in pat.finditer(text))


@lru_cache(maxsize=1024)
def _in(pat, text: str) -> bool:
    return pat.search(text) is not None


@lru_cache(maxsize=256)
def _label_and_text(label: str, text: str) -> str:
    """One string per segment, so that _in finds it by identity instead of hashing a new copy per count."""
    return f"{label} {text}"


_RESTATING = regex_cache.compile(r"\bfor a total of\b|\btotall?ing\b|，共|,\s*共", re.I)
_TIMES_BEFORE = regex_cache.compile(r"[x×]\s*$")
_EQUALS_AFTER = regex_cache.compile(r"\s*=")


def _factor(text: str, start: int, end: int) -> bool:
    """'8 nodes x 8 GPUs = 64': the count is a factor of a product, looking only at what touches it."""
    before = start
    while before > 0 and text[before - 1].isspace():
        before -= 1
    return bool(_TIMES_BEFORE.search(text, max(0, before - 1), start)) or bool(_EQUALS_AFTER.match(text, end))


def _domain(f: Figure, m: Mention, ctx: SheetContext) -> bool:
    """A counted group of accelerators is a domain size only where the sheet says they are one fabric."""
    v = load_rules().vocab
    seg = m.segment
    if m.value < 2:
        return False
    if "model-count" in m.flags:
        # "PowerEdge XE9680 (8)" in a table of GPUs: the server's count, a domain where its row names the scale-up link
        if _scale_up_named(f"{seg.label} {seg.row} {seg.column}", ctx):
            f.tier = "scale-up"
            return True
        return False
    before = re.split(r"[,，;；。:：]", seg.text[max(0, m.start - 30) : m.start])[-1]
    total = rx(v["multi_domain_total"]).search(seg.text[max(0, m.start - 40) : m.start])
    if total and int(re.sub(r"\D", "", total.group("n")) or 0) >= 2:
        f.tier = "scale-out"  # "432 个超节点、共 165,888 颗 NPU": the sum over many domains, joined by the network
        return True
    if rx(v["comparison_cue"]).search(before):
        return False  # "以 64 卡互联域替代传统 8 卡服务器": the product it replaces
    if ctx.kind in ("rack", "pod") and rx(v["per_node_count"]).search(before) and not _join_after(seg.text, m):
        # "48 个计算节点（每节点 8 颗 NPU）": one node's share of a rack's or pod's domain; but "each node holds eight
        # GPUs joined by NVLink" says the node's GPUs are a domain of their own
        return False
    if _factor(seg.text, m.start, m.end):
        return False  # "8 nodes x 8 GPUs = 64 GPUs total": the factors are not domains
    if "restated" in m.flags:  # "two cards for a total of four chips": that total is the chips', not a cluster's
        seg = replace(seg, text=_RESTATING.sub(lambda x: " " * len(x.group(0)), seg.text))
    up = rx(v["scale_up_domain"])
    out = rx(v["scale_out_domain"])
    own = _label_and_text(seg.label, seg.text)
    from_record = bool({"from-label", "from-label-row"} & m.flags)
    record = ctx.record_text.get(seg.block, ctx.block_text.get(seg.block, "")) if from_record else ""
    if "from-column" in m.flags:
        # a column of accelerator counts: the row's own link decides ("| 16 | 2 | NVLink + InfiniBand |" is joined by the
        # cluster network, "| 8 | 1 | NVLink only |" by NVLink), else the table's words (scalable units, spines)
        row = f"{seg.label} {seg.row}"
        if rx(v["domain_network"]).search(row) or (not _scale_up_named(row, ctx) and _in(out, record)):
            f.tier = "scale-out"
        elif _scale_up_named(row, ctx) or _in(up, record):
            f.tier = "scale-up"
        else:
            return False
        return True
    spans = re.findall(r"\bNVL(\d+)\b", record)
    if from_record and any(int(n) != int(m.value) for n in spans):
        return False  # the domain spans several nodes (an NVL72 rack); the per-node count is not it
    if (
        from_record
        and m.value <= 72
        and rx(v["accelerator_count_label"]).search(seg.label)
        and _scale_up_named(ctx.model_rows.get((seg.block, seg.column), ""), ctx)
    ):
        # a model grid whose model states a rate of its own scale-up link ("# of Inferentia2 chips | 6" beside
        # "NeuronLink-v2 chip-to-chip (GiB/sec/chip) | 192"): that model's accelerators are joined by it
        f.tier = "scale-up"
        return True
    if from_record and rx(v["count_label_container"]).search(seg.label) and not _in(up, seg.text):
        # "GPUs per cabinet: 512": the cabinet's count, joined by its network; but "TPU Pod size: 256 chips" in a
        # table of ICI links and a torus is the chips' own fabric (rules: pod_label, pod_fabric)
        pod = _in(rx(v["pod_label"]), seg.label) and _in(rx(v["pod_fabric"]), record)
        f.tier = "scale-up" if pod else "scale-out"
        return True
    up_sentence = rx(v["scale_up_domain_sentence"])
    stated_total = _in(rx(v["domain_stated"]), seg.text) and all(
        rx(v["domain_total_only"]).match(x.group(0)) for x in out.finditer(seg.text)
    )
    if (_in(up, own) or _in(up_sentence, own)) and _in(out, seg.text) and not from_record and not stated_total:
        # a sentence naming both: the words nearest the count decide ("1,024 GPUs (128 nodes) on a fat tree")
        d_up = min(_distance(up, seg.text, m), _distance(up_sentence, seg.text, m))
        f.tier = "scale-out" if _distance(out, seg.text, m) < d_up else "scale-up"
        return True
    if _in(up, own) or _in(up_sentence, own) or (record and _in(up, record)):
        f.tier = "scale-up"
        return True
    joined = None if from_record else _joined_by(seg.text, m, ctx)
    if joined:
        f.tier = joined  # "4个昇腾AI处理器通过HCCS互联", "72 GPUs through NVLink": the sheet names what joins them
        return True
    node_rx = rx(v["node_count_phrase"])
    if ctx.scale_up_in_node and (
        node_rx.search(seg.text[max(0, m.start - 60) : m.start]) or node_rx.search(seg.text[m.end : m.end + 40])
    ):
        f.tier = "scale-up"  # the box's accelerators, which the sheet says its scale-up links join
        return True
    if (
        ctx.kind in ("server", "accelerator")
        and (ctx.scale_up_technology or ctx.scale_up_named)
        and m.value <= 16
        and not _in(out, own)
        and not rx(v["per_node_count"]).search(before)
        and (not from_record or re.match(r"\s*\d+\s*[xX×]\s*[A-Za-z]", seg.text))
        and (
            node_rx.search(seg.text[max(0, m.start - 60) : m.start])
            or m.start == 0
            or (seg.kind == "cell" and rx(v["accelerator_count_label"]).search(seg.label))
            or rx(v["scale_up_module"]).search(m.text)
        )
    ):
        # "GPUs: 8X Tesla V100", "systems with 4 or 8 GPUs", "搭载8颗…", "8 SXM2 GPUs" on a server sheet whose accelerators the sheet
        # says its scale-up link joins (NVLink named in its prose): the box's accelerators form the domain. A bare
        # number under a count label ("accelerators_per_node: 4") counts the box, not a fabric; nor is one box's share
        # of a system of several ("four servers with 16 devices per server") the domain.
        f.tier = "scale-up"
        f.flags.add("domain-by-sheet")
        return True
    fabric = rx(knowledge().tier_pattern("scale-up"))
    if (
        _in(out, own)
        and not from_record
        and not (_in(fabric, own) and not _in(rx(r"pod|cluster|集群"), own))
        and (_distance(out, seg.text, m) <= 120 or _in(out, seg.label))
        and not rx(v["per_box_after"]).match(seg.text, m.end)
    ):
        # the cluster's words near the count ("a cluster of 20,000 GPUs"), not a sentence's far end ("8 GPUs ... to scale
        # training across a cluster of servers"), and never a box's own count ("up to four GPUs per compute node")
        f.tier = "scale-out"
        return True
    return False


_SENTENCE_END = regex_cache.compile(r"[。；;!?！？\n]|\.\s")
_CLAUSE_CUT = regex_cache.compile(r"[,，、:：(（]")
_CLAUSE_END = regex_cache.compile(r"[,，、；;。]|\.\s")
_JOIN_BETWEEN = regex_cache.compile(r"间|之间|between|across|nodes?\b|servers?\b|服务器|节点|机柜|机架", re.I)


_FULL_STOP = regex_cache.compile(r"[。!?！？\n]|(?<!\bi\.e)(?<!\be\.g)(?<!\bvs)(?<!\bapprox)(?<!\bFig)(?<!\bNo)\.\s")


def _full_sentence(text: str, start: int, end: int, reach: int = 300) -> str:
    """The figure's sentence to its full stops (a semicolon or a comma does not end it), at most `reach` characters
    either side."""
    left = text[max(0, start - reach) : start]
    cuts = list(_FULL_STOP.finditer(left))
    if cuts:
        left = left[cuts[-1].end() :]
    right = text[end : end + reach]
    cut = _FULL_STOP.search(right)
    return f"{left} {right[: cut.start()] if cut else right}"


def _sentence_around(text: str, start: int, end: int, reach: int = 100) -> tuple[str, str]:
    """The words of the count's own sentence before and after it, at most `reach` characters each way."""
    left = text[max(0, start - reach) : start]
    cuts = list(_SENTENCE_END.finditer(left))
    if cuts:
        left = left[cuts[-1].end() :]
    right = text[end : end + reach]
    cut = _SENTENCE_END.search(right)
    return left, right[: cut.start()] if cut else right


def _joined_by(text: str, m: Mention, ctx: SheetContext) -> str | None:
    """The tier of the link the sheet names as joining a counted group of accelerators (rules: domain_join,
    domain_network): a join phrase right after the count ("通过HCCS互联", "connected by NVLink"), or a scale-up
    technology named in the count's sentence ("每个HCCS存在4颗处理器"). None where nothing joins them."""
    v = load_rules().vocab
    left, right = _sentence_around(text, m.start, m.end)
    if rx(v["domain_to_host"]).match(right):
        return None  # "connects two B200 GPUs to the Grace CPU over NVLink-C2C": a superchip's host link
    aside = _OWN_BRACKET.match(text, m.end)
    if aside and _scale_up_named(aside.group(1), ctx) and not rx(v["domain_network"]).search(aside.group(1)):
        return "scale-up"  # "four Nvidia A100 (each 40 GB HBM2; DGX board with NVLink; ...)": the count's own aside
    tail = _join_after(text, m)
    if tail:
        if rx(v["domain_host_link"]).search(tail):
            return None
        if _scale_up_named(tail, ctx):
            return "scale-up"
        return "scale-out" if rx(v["domain_network"]).search(tail) else "scale-up"
    up = _scale_up_named(f"{left} {right}", ctx)
    if up and not rx(v["domain_network"]).search(f"{left} {right}"):
        return "scale-up"
    return None


# the bracket right after a count, which describes what it counts (semicolons inside it end no sentence)
_OWN_BRACKET = regex_cache.compile(r"\s*[(（]([^()（）]{1,300})[)）]")


def _join_after(text: str, m: Mention) -> str:
    """The join phrase right after a count, to its clause's end ("通过HCCS互联", "joined by NVLink 4 through four
    NVSwitch chips"; rules: domain_join); "" where none follows it."""
    _, right = _sentence_around(text, m.start, m.end)
    join = rx(load_rules().vocab["domain_join"]).search(right[:60])
    if (
        not join
        or join.start() > 24
        or _JOIN_BETWEEN.search(right[: join.start()])
        or _CLAUSE_CUT.search(right[: join.start()])
    ):
        return ""
    tail = right[join.start() :]
    cut = _CLAUSE_END.search(tail, join.end() - join.start())
    return tail[: cut.start()] if cut else tail[: join.end() - join.start() + 30]


def _scale_up_named(text: str, ctx: SheetContext) -> bool:
    """Whether text names a scale-up link: a known technology (rules: tier_technology) or the sheet's own."""
    v = load_rules().vocab
    pattern = next(e["pattern"] for e in v["tier_technology"] if e["tier"] == "scale-up")
    text = rx(v["domain_host_link"]).sub(" ", text)  # "NVLink-C2C" is a host link, not NVLink's domain
    negated = rx(v["link_negated"])
    named = [x for x in rx(pattern).finditer(text) if not negated.search(text[max(0, x.start() - 14) : x.start()])]
    return bool(named) or any(n in text for n in ctx.scale_up_links)
