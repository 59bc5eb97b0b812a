"""What a figure's surroundings say: its own clause, its row label, its sentence, its record, the sheet.

A figure's clause is the text from the previous figure's clause boundary to the next separator, so that in
"Storage: 2x IB 400Gb/s, Compute: 8x IB 400Gb/s" each rate keeps its own "Storage:" or "Compute:".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .s1_find import BULLET_MARKS, INLINE_BULLET
from .. import regex_cache
from ..records import Document, Mention
from ..naming import is_model_code
from ..rules import load_rules, rx
from ..technologies import load as knowledge, technology

# Clause boundaries; "NVLink: 900GB/s PCIe Gen5: 128GB/s" has none but the next label's colon, so a run of
# one to three capitalised words ending in a colon starts a new clause too.
SEPARATORS = regex_cache.compile(
    rf",|;|，|；|、|\+|\band\b|\bor\b|。|\.\s|\s[{BULLET_MARKS}–—]\s|\s(?=(?:[A-Z][\w\-.]*\s?){{1,3}}:)"
)

# Figures printed with no separator between them share a clause start ("IB HDR100 100 Gb/s": two spellings of one
# figure); a clause reaches back over at most this many of them, so that a run of thousands of bare figures costs
# each figure a bounded clause, not the whole run (time and memory linear in the run; real sheets join at most ~10).
JOINED_REACH = 32


@dataclass
class Clause:
    """The text left and right of a figure within its clause."""

    left: str
    right: str
    lead: str = ""  # the words of its sentence before the clause, where no other figure stands ("Each chip provides")

    @property
    def text(self) -> str:
        return f"{self.left} {self.right}"


@dataclass
class SheetContext:
    """What the whole sheet says that reading one figure needs: its kind, accelerators, domain, networks."""

    kind: str
    accelerators: int | None
    block_text: dict[int, str] = field(default_factory=dict)
    record_text: dict[int, str] = field(default_factory=dict)
    block_accelerators: dict[int, int] = field(default_factory=dict)
    footnotes: dict[str, str] = field(default_factory=dict)
    scale_up_technology: str = ""
    kind_reason: str = ""
    edge_device: bool = False  # a board with its own peripherals (USB, HDMI, SD): power is the device's
    scale_up_in_node: bool = False  # the sheet says its scale-up links join the accelerators of one box
    # what a switch's or adapter's ports carry when nothing beside a figure says: the AI back-end fabric
    # ("scale-out"), or the general data-centre, storage or WAN network the sheet describes ("front-end")
    network_role: str = "scale-out"
    network_role_reason: str = ""

    block_models: dict[int, list[str]] = field(default_factory=dict)
    model_accelerators: dict[tuple[int, str], int] = field(default_factory=dict)
    # per model of a grid, the row labels of its cells that print a number ("NeuronLink-v2 chip-to-chip (GiB/sec/chip)"
    # where the model has the link, not where its cell reads "N/A")
    model_rows: dict[tuple[int, str], str] = field(default_factory=dict)
    scale_up_links: tuple[str, ...] = ()  # link names the sheet itself says join its scale-up domain ("CumuloLink")
    scale_up_named: bool = False  # the sheet says its accelerators are joined ("芯片间互联", "chip-to-chip links")
    scale_up_over_host_bus: bool = False  # its accelerators talk over a PCIe fabric ("PCIe switches for chip-to-chip")
    prose_models: dict[int, str] = field(default_factory=dict)  # id(segment) -> the model its sentence follows
    # the direction the document states for all its bandwidths ("all bandwidth figures ... are Full Duplex"), and where
    stated_direction: str = ""
    stated_direction_text: str = ""

    def accelerators_for(self, block: int, model: str = "") -> int | None:
        return self.model_accelerators.get((block, model)) or self.block_accelerators.get(block, self.accelerators)

    def model_of(self, seg) -> str:
        """The product model of a cell in a table whose columns (or rows) are two or more models."""
        if seg.column and len(self.block_models.get(seg.block, ())) >= 2:
            return seg.column
        return self.prose_models.get(id(seg), "")


def _most_common(values: list):
    """The most frequent value, ties going to the one printed first (set order would vary between runs)."""
    from collections import Counter

    return Counter(values).most_common(1)[0][0] if values else None


def clauses(mentions: list[Mention]) -> dict[int, Clause]:
    """Clause of each numeric mention (keyed by id), split between neighbours in the same segment."""
    out: dict[int, Clause] = {}
    by_seg: dict[int, list[Mention]] = {}
    for m in mentions:
        by_seg.setdefault(id(m.segment), []).append(m)
    for ms in by_seg.values():
        ms = sorted((m for m in ms if m.quantity in ("bandwidth", "latency", "power", "weight")), key=lambda m: m.start)
        text = ms[0].segment.text if ms else ""
        bounds, joined = [], []
        for a, b in zip(ms, ms[1:]):
            between = text[a.end : b.start]
            sep = SEPARATORS.search(between)
            cut = a.end + (sep.start() if sep else len(between))
            bounds.append(cut)
            joined.append(sep is None)  # "IB HDR100 100 Gb/s": two spellings of one clause share its start
        starts = [0]
        for i in range(1, len(ms)):
            start = starts[i - 1] if joined[i - 1] else bounds[i - 1]
            starts.append(max(start, bounds[i - JOINED_REACH]) if i >= JOINED_REACH else start)
        for i, m in enumerate(ms):
            lo = starts[i]
            hi = bounds[i] if i < len(bounds) else len(text)
            item = [b.end() for b in INLINE_BULLET.finditer(text, lo, m.start)]
            # a clause starts at its own inline bullet, and never before its sentence
            stops = [b.end() for b in _FULL_STOP.finditer(text, item[-1] if item else lo, m.start)]
            left = text[stops[-1] if stops else item[-1] if item else lo : m.start]
            right = text[m.end : hi]
            if i == len(ms) - 1:
                sep = SEPARATORS.search(right)
                right = right[: sep.start()] if sep else right
            out[id(m)] = Clause(left, right, _lead(text, lo, ms[i - 1].end if i else 0))
    return out


_SENTENCE_END = regex_cache.compile(r"[.;!?。；！？](?:\s|$)|\n")
# a full stop, but not an abbreviation's ("i.e. 525 GB/s", "e.g.", "vs.", "approx.")
_FULL_STOP = regex_cache.compile(r"[。！？]|[!?]\s|(?<!\bi\.e)(?<!\be\.g)(?<!\bvs)(?<!\bapprox)(?<!\bFig)(?<!\bNo)\.\s")
LEAD_REACH = 200


def _lead(text: str, lo: int, prev_end: int) -> str:
    """The words of a clause's sentence before it (at most LEAD_REACH characters), "" where another figure stands there."""
    start = max(0, lo - LEAD_REACH)
    for cut in _SENTENCE_END.finditer(text, start, lo):
        start = cut.end()
    return "" if prev_end > start else text[start:lo]


def sheet_kind(doc: Document) -> tuple[str, str]:
    """The kind of sheet and why (rules/vocabulary.yaml sheet_kinds). The title decides when it names one kind.
    When it names a system and its accelerators ("Accelerator Platform"), the system is what is sold; when it
    names several others, or none, the kind the headings and opening text name most wins, so a pod brochure
    that names its leaf switches stays a pod sheet."""
    r = load_rules()
    head = " ".join([s.text for s in doc.segments if s.kind == "heading"][:3])
    # a row label repeated in every model's column is one word of the sheet, not one per model
    labels = dict.fromkeys(s.label for s in doc.segments[:30])
    body = " ".join(list(labels) + [s.text for s in doc.segments[:30]])
    kinds = r.vocab["sheet_kinds"]
    # in a title even a generic word names the product ("Accelerator Platform", "a system description")
    found = {e["kind"]: rx(e["pattern"] + (f"|{e['weak']}" if e.get("weak") else "")).findall(doc.title) for e in kinds}
    titled = [k for k, hits in found.items() if hits]
    if len(titled) > 1 and set(titled) & {"server", "rack", "pod"}:
        titled = [k for k in titled if k != "accelerator"]
    if len(titled) == 1:
        return titled[0], f"its title names {_words(found[titled[0]])}"
    best, best_score, best_hits = "unknown", 0.0, []
    for e in kinds:
        if titled and e["kind"] not in titled:
            continue
        hits = rx(e["pattern"]).findall(head), rx(e["pattern"]).findall(body)
        score = 2 * min(len(hits[0]), 6) + min(len(hits[1]), 6)
        if e.get("weak"):  # a generic word: a heading's ("SYSTEM SPECIFICATIONS") counts; the body's only a little
            weak_head, weak_body = rx(e["weak"]).findall(head), rx(e["weak"]).findall(body)
            score += min(len(weak_head), 6) + 0.25 * min(len(weak_body), 3)
            hits = (hits[0] + weak_head + weak_body, hits[1])
        if score > best_score:
            best, best_score, best_hits = e["kind"], score, hits[0] + hits[1]
    why = f"its headings and text name {_words(best_hits)} most" if best != "unknown" else "no kind named"
    if best == "accelerator" and not titled:
        server = next(e for e in kinds if e["kind"] == "server")
        several = rx(r.vocab["accelerators_in_a_box"]).search(f"{head} {body}")
        if several and (
            rx(server["pattern"]).search(f"{head} {body}")
            or rx(server["weak"]).search(head)
            or rx(r.vocab["box_words"]).search(f"{head} {body}")
        ):
            # "8X Vega V2" under "SYSTEM SPECIFICATIONS": a box of several accelerators is what is sold
            return "server", f"it counts several accelerators in one system ({several.group(0)!r})"
    report = rx(r.vocab["test_report_evidence"]).search(f"{doc.title} {head} {body}")
    if report and best in ("unknown", "accelerator", "server"):
        return "server", f"a vendor's test report of a system ({report.group(0)!r}): read as a system sheet"
    return best, why


# A model code leading a sentence or a label, after the maker's name if any ("SN5610 is a 51.2Tbps switch",
# "NVIDIA SN5610 Features:"): what follows describes that model
_LEAD = re.compile(r"^\W*(?:(\S+)\s+)?([A-Za-z0-9][\w.-]*[A-Za-z0-9])\b")


def _prose_models(doc: Document, r) -> dict[int, str]:
    """The model each prose segment describes, where the sheet describes two or more models of one family one
    after the other ("SN5640 is a 51.2Tbps switch ... SN5640 Features: 64 OSFP ports ... SN5610 is ..."): the
    figures after a sentence or label led by a model code belong to that model until the next one, so each
    model's capacity is checked against its own ports. Codes of one family share their letters ("SN5640",
    "SN5610"); a sheet whose sentences open with its parts ("H100 GPUs ...", "ConnectX-7 adapters ...") names
    no second model of one family and is left as one product."""
    vendor = rx(r.vocab["name_vendor"])
    current, out, leads = "", {}, {}
    for s in doc.segments:
        if s.kind == "cell" and s.column:
            continue  # a model grid's cell has its column's model
        m = _LEAD.match(s.text)
        if m:
            code = m.group(2) if m.group(1) and vendor.match(m.group(1)) else (m.group(1) or m.group(2))
            code = code.strip(":,;.")
            # a code in capitals that something follows: not a key alone ("other2:") nor a lower-case word
            if is_model_code(code) and code.lower() != code and s.text.strip(" :：") != code:
                current = code
                leads.setdefault(re.match(r"[A-Za-z]*", code).group(0).upper(), set()).add(code)
        if current:
            out[id(s)] = current
    families = [codes for prefix, codes in leads.items() if prefix and len(codes) >= 2]
    if len(families) != 1:
        return {}
    family = families[0]
    return {k: v for k, v in out.items() if v in family}


def _words(found: list[str]) -> str:
    return ", ".join(repr(w) for w in list(dict.fromkeys(x.strip().lower() for x in found if x.strip()))[:3])


def _scale_up_links(doc: Document, r) -> tuple[str, ...]:
    """Names of links (rules: link_name) printed in the sentences that form the scale-up domain ("connected inside
    the instance by CumuloLink in a 4x4 torus", "卡间通过星链总线（XLB）全互联"): a vendor's own fabric, unknown to
    the knowledge base, is its scale-up tier wherever the sheet names it again."""
    domain = [rx(r.vocab["scale_up_domain"]), rx(r.vocab["scale_up_domain_sentence"])]
    name = rx(r.vocab["link_name"])
    found: dict[str, None] = {}
    for s in doc.segments:  # the names first: most segments name no link, and the domain patterns cost more
        names = [m.group(0) for m in name.finditer(s.text)] if s.kind != "page" else []
        if names and any(p.search(s.text) for p in domain):
            found.update(dict.fromkeys(names))
    return tuple(found)


_NEGATED = regex_cache.compile(r"(?:\bno\b|\bnot\b|\bwithout\b|\bnon-|不|无|未|没有)[^.;。；]{0,16}$", re.I)


def _says_joined(texts, r) -> bool:
    """Whether the sheet says its accelerators are joined to one another (rules: scale_up_sheet_words), and not that
    they are not ("there is no accelerator-to-accelerator bridge", "推理卡间不互联")."""
    words = rx(r.vocab["scale_up_sheet_words"])
    for t in texts:
        for m in words.finditer(t):
            if not _NEGATED.search(t[max(0, m.start() - 24) : m.start()]) and not re.match(
                r"\s*(?:不|无)", t[m.end() :]
            ):
                return True
    return False


def sheet_context(doc: Document, mentions: list[Mention]) -> SheetContext:
    r = load_rules()
    kind, kind_reason = sheet_kind(doc)
    block_text: dict[int, str] = {}
    for s in doc.segments:
        block_text[s.block] = block_text.get(s.block, "") + f" {s.label} {s.text}"
    # A spec table that the layout split into several blocks is still one record: cells on one page under
    # one heading belong together.
    record: dict[tuple, str] = {}
    for s in doc.segments:
        if s.kind == "cell":
            record[(s.page, s.heading)] = record.get((s.page, s.heading), "") + f" {s.label} {s.text}"
    record_text = {s.block: record[(s.page, s.heading)] for s in doc.segments if s.kind == "cell"}
    label_rx = rx(r.vocab["accelerator_count_label"])
    block_acc: dict[int, int] = {}
    model_acc: dict[tuple[int, str], int] = {}
    models: dict[int, list[str]] = {}
    model_rows: dict[tuple[int, str], str] = {}
    for s in doc.segments:
        if s.kind == "cell" and s.column and s.column not in models.setdefault(s.block, []):
            models[s.block].append(s.column)
        if s.kind == "cell" and s.column and s.label and re.search(r"\d", s.text):
            model_rows[(s.block, s.column)] = f"{model_rows.get((s.block, s.column), '')} | {s.label}"
    counts = []
    for s in doc.segments:
        if s.label and label_rx.search(s.label):
            m = re.match(r"\s*(\d{1,4})\b", s.text)
            if m:
                block_acc[s.block] = int(m.group(1))
                model_acc[(s.block, s.column)] = int(m.group(1))
                counts.append(int(m.group(1)))
    for m in mentions:
        if m.quantity == "domain_size" and m.segment.block not in block_acc and 2 <= m.value <= 16:
            counts.append(int(m.value))
    acc = _most_common(counts)
    # the sheet's scale-up fabric, for a figure whose own record names none: the one its segments name most
    scale_up = knowledge().names("scale-up")
    up = [t for t in (technology(s.text) for s in doc.segments) if t in scale_up]
    edge = len(
        {m.group(0).lower() for m in rx(r.vocab["edge_device_evidence"]).finditer(" ".join(block_text.values()))}
    )
    role, role_reason = _network_role(kind, doc, block_text, r)
    direction, direction_text = _stated_direction(doc, r)
    return SheetContext(
        stated_direction=direction,
        stated_direction_text=direction_text,
        kind=kind,
        kind_reason=kind_reason,
        accelerators=acc,
        block_text=block_text,
        record_text=record_text,
        scale_up_links=_scale_up_links(doc, r),
        scale_up_named=_says_joined(block_text.values(), r),
        scale_up_over_host_bus=any(rx(r.vocab["scale_up_over_host_bus"]).search(t) for t in block_text.values()),
        prose_models=_prose_models(doc, r),
        block_accelerators=block_acc,
        edge_device=edge >= 3,
        block_models=models,
        model_accelerators=model_acc,
        model_rows={k: v for k, v in model_rows.items() if len(models.get(k[0], ())) >= 2},
        scale_up_in_node=bool(rx(r.vocab["scale_up_in_node"]).search(" ".join(block_text.values()))),
        footnotes=doc.footnotes,
        scale_up_technology=_most_common(up) or "",
        network_role=role,
        network_role_reason=role_reason,
    )


def _stated_direction(doc: Document, r) -> tuple[str, str]:
    """The direction the document states for every bandwidth it prints, and the words that state it (rules:
    sheet_direction); ("", "") where it states none."""
    for s in doc.segments:
        if s.kind == "page":
            continue
        for e in r.vocab["sheet_direction"]:
            m = rx(e["pattern"]).search(s.text)
            if m:
                return e["direction"], m.group(0)
    return "", ""


def _network_role(kind: str, doc: Document, block_text: dict[int, str], r) -> tuple[str, str]:
    """What the sheet's network ports carry where a figure's own words do not say, and why (rules: front_end_network,
    router_families, ai_fabric_words): what the product is for. Its title and opening decide when they name the
    general network (a router, a fabric interconnect, a packet broker, an NFV card; LAN and SAN, WAN, peering) or the
    AI/HPC fabric, and not both. Else a switch's or an adapter's whole text is weighed, each distinct word counted a
    few times at most, so that a term repeated in every row ("FCoE") does not outweigh the rest. A system sheet (a
    server, a chassis of compute nodes) sells compute: only its opening makes its ports front-end."""
    v = r.vocab
    general = rx(f"{v['front_end_network']}|{v['router_families']}")
    ai = rx(v["ai_fabric_words"])
    opening = _opening(doc, int(v.get("network_role_opening_chars", 600)))
    said_general, said_ai = general.findall(opening), ai.findall(opening)
    if said_general and not said_ai:
        return "front-end", f"its opening names {_words(said_general)}, not an AI or HPC fabric"
    if said_ai and (not said_general or kind == "switch"):
        # a switch or router whose opening names the AI or data-centre fabric among its uses ("core, WAN, and
        # AI-driven data-center deployments") serves that fabric: its ports are scale-out unless its words say
        # otherwise (an adapter's opening lists what it offloads, not where it sits)
        return "scale-out", f"its opening names {_words(said_ai)}"
    if kind not in ("switch", "nic"):
        return "scale-out", ""
    text = " ".join(block_text.values())
    cap = int(v.get("network_role_word_cap", 3))
    named_general, named_ai = general.findall(text), ai.findall(text)
    g, a = _capped(named_general, cap), _capped(named_ai, cap)
    if g >= 3 and g > 2 * a:
        return "front-end", f"it names {_words(named_general)} ({g}) far more than an AI or HPC fabric ({a})"
    return "scale-out", f"it names {_words(named_ai)} ({a})" if a else ""


def _capped(words: list[str], cap: int) -> int:
    """How many words, each distinct one (whatever its case) counted at most `cap` times."""
    from collections import Counter

    return sum(min(n, cap) for n in Counter(w.lower() for w in words).values())


def _opening(doc: Document, chars: int) -> str:
    """The words that say what the product is: its title, its first three headings and the start of its text."""
    heads = [s.text for s in doc.segments if s.kind == "heading"][:3]
    body, n = [], 0
    for s in doc.segments:
        if s.kind in ("heading", "page") or n >= chars:
            continue
        piece = f"{s.label} {s.text}".strip()[: chars - n]
        body.append(piece)
        n += len(piece)
    return " ".join([doc.title, *heads, *body])
