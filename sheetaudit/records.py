"""Plain data passed from stage to stage: read -> find -> context -> classify -> normalise -> check -> report.

Every stage takes and returns these classes; no stage reaches back into an earlier one's internals.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

BBox = tuple[float, float, float, float]  # x0, top, x1, bottom in PDF points, page-relative


@dataclass
class Segment:
    """A unit of text with its context: a sentence of prose, or one cell of a table / key-value row."""

    text: str
    page: int
    kind: str = "sentence"  # sentence | cell | heading | footnote | line | page (a PDF page kept as plain
    # text: it gave no figure, read.pdf and triage)
    label: str = ""  # row header of a table or key-value list
    column: str = ""  # column header (a product variant) where the table has one
    heading: str = ""  # nearest section heading above
    section: str = ""  # the headings above, outermost first ("AI chip / Server 1"), where known
    row: str = ""  # the other cells of a table row ("8 卡，1 GB 消息，MCCL"): weaker evidence
    block: int = 0  # segments of one table / one paragraph / one record share a block id
    bbox: Optional[BBox] = None
    ocr: bool = False


@dataclass
class Document:
    """A sheet as read: its segments in reading order, footnotes, and what the reader could not read."""

    path: str
    sha256: str
    pages: int
    kind: str  # pdf | text | markdown | html
    segments: list[Segment] = field(default_factory=list)
    footnotes: dict[str, str] = field(default_factory=dict)  # marker -> footnote text
    no_text_pages: list[int] = field(default_factory=list)
    ocr_pages: list[int] = field(default_factory=list)
    title: str = ""
    # What names the product, as the reader found it (sheetaudit.naming picks the name from these):
    cover: list[tuple[str, float, int]] = field(default_factory=list)  # display lines: (text, type size, page)
    meta_title: str = ""  # the file's own title (PDF Info dictionary, an HTML <title>)
    product: str = ""  # the product's name, one per sheet for every output
    notes: list[str] = field(default_factory=list)  # reader remarks (page limit reached, OCR absent)
    # What the reader could not read, as data (the notes word it for people; decisions read these):
    unread_pages: dict[int, str] = field(default_factory=dict)  # page -> why ('out of memory', an exception's name)
    pages_read: Optional[int] = None  # the first N pages only (--max-pages), when fewer than the file has
    ocr_problem: str = ""  # why OCR that was asked for gave nothing (the first such note)
    limited: bool = False  # something was left unread for this run's memory or time limit
    page_sizes: dict[int, tuple[float, float]] = field(default_factory=dict)
    ocr_hint: str = ""  # how to have no_text_pages read (the pipeline asks the reader)


@dataclass
class Mention:
    """A number with a unit (or a counted noun, or a cooling phrase) found in a segment."""

    quantity: str  # bandwidth | latency | power | domain_size | cooling
    text: str  # as printed
    value: Any  # float, or a cooling method string
    unit: str  # canonical spelling of the printed unit (e.g. 'Gb/s', 'GB/s', 'GbE', 'us')
    segment: Segment
    start: int = 0  # character span inside segment.text
    end: int = 0
    bound: str = ""  # up-to | below | about | at-least | over | ''
    count: Optional[int] = None  # "8x 400 Gb/s" -> 8
    marker: str = ""  # footnote marker printed right after the figure
    flags: set = field(default_factory=set)  # e.g. {'rate-list', 'bare-G', 'bytes-for-bits'}


@dataclass
class Figure:
    """A mention classified and normalised: tier, direction, scope, basis and its value on the contract's basis."""

    id: str
    quantity: str
    text: str
    value: Any
    unit: str
    page: int
    context: str
    tier: Optional[str] = None
    direction: Optional[str] = None
    scope: Optional[str] = None
    basis: Optional[str] = None
    normalized: Optional[dict] = None
    technology: str = ""
    arithmetic: str = ""  # how the normalised value was reached, in words
    reading: str = ""  # why direction / basis was read this way
    direction_by: str = ""  # what decided an unstated direction (normalise): port-speed | technology (its
    # rates are per direction by convention) | ports (a switch total against its ports)
    label: str = ""
    heading: str = ""
    bbox: Optional[BBox] = None
    count: Optional[int] = None
    bound: str = ""
    flags: set = field(default_factory=set)
    ocr: bool = False
    model: str = ""  # the product model a variant table's column (or row) gives the figure
    segment: Optional[Segment] = None
    technology_match: Optional[dict] = None  # the generation it matches and its reference rate (checks.plausibility)
    certainty: Optional[str] = None  # stated | inferred (stages.s6_certainty): how sure the reading is
    certainty_reason: str = ""  # what the sheet says for it, or what was inferred and from what
    inferred: dict = field(default_factory=dict)  # aspect (tier, scope, direction, technology, value, model) -> why
    precision: str = ""  # compute: the number format it is printed at (fp8, bf16, fp16, tf32, fp64...)
    accelerator: str = ""  # compute and memory: the accelerator the sheet names (H100, MI300X)

    def to_json(self) -> dict:
        d = {
            "id": self.id,
            "quantity": self.quantity,
            "text": self.text,
            "value": self.value,
            "unit": self.unit,
            "tier": self.tier,
            "direction": self.direction,
            "scope": self.scope,
            "basis": self.basis,
            "normalized": self.normalized,
            "page": self.page,
            "context": self.context,
        }
        extra = {
            "technology": self.technology or None,
            "arithmetic": self.arithmetic or None,
            "reading": self.reading or None,
            "label": self.label or None,
            "bound": self.bound or None,
            "column": (self.segment.column or None) if self.segment else None,
            "heading": self.heading or None,
            "count": self.count,
            "bbox": [round(v, 1) for v in self.bbox] if self.bbox else None,
            "ocr": self.ocr or None,
            "flags": sorted(self.flags) or None,
            "model": self.model or None,
            "technology_match": self.technology_match,
            "certainty": self.certainty,
            "certainty_reason": self.certainty_reason or None,
            "inferred": dict(self.inferred) or None,
            "precision": self.precision or None,
            "accelerator": self.accelerator or None,
        }
        d.update({k: v for k, v in extra.items() if v is not None})
        return d


@dataclass
class Derived:
    """A figure computed by the audit, never printed in the sheet; always shown with its arithmetic."""

    name: str
    value: float
    unit: str
    arithmetic: str
    figures: list[str] = field(default_factory=list)
    certainty: str = "stated"  # inferred when it rests on an inferred figure or on a count the sheet does not tie
    certainty_reason: str = ""
    inputs: dict = field(default_factory=dict)  # the numbers of its arithmetic a reader may want ({"nodes": 32})

    def to_json(self) -> dict:
        from .numfmt import significant  # significant digits: a 1/48 ratio keeps what its text says

        d = {
            "name": self.name,
            "value": significant(self.value),
            "unit": self.unit,
            "arithmetic": self.arithmetic,
            "figures": self.figures,
        }
        if self.inputs:
            d["inputs"] = self.inputs
        if self.certainty == "inferred":
            d["certainty"] = "inferred"
            d["certainty_reason"] = self.certainty_reason
        return d


@dataclass
class Finding:
    """A check's result on a sheet: the figures it rests on, its severity, message and the question to ask."""

    check: str
    step: Any
    severity: str
    message: str
    why: str = ""
    fix: str = ""
    figures: list[str] = field(default_factory=list)
    pages: list[int] = field(default_factory=list)
    derived: list[Derived] = field(default_factory=list)
    models: list[str] = field(default_factory=list)  # the models of a multi-model sheet it concerns
    title: str = ""  # the check's title as worded for this sheet (ports on a switch sheet)
    question: str = ""  # what to ask the vendor, in the vendor's words, with the page
    asked_in: str = ""  # the check whose question asks this one's too (one question per figure)
    buyer: str = ""  # what the buyer should check themselves (not a question for the vendor)
    certainty: str = "stated"  # inferred: the finding rests on a reading the sheet does not state
    certainty_reason: str = ""
    doubt: str = ""  # a check's own reason to doubt its conclusion (set before severity is decided)
    # What the message is rendered from (checks.wording): the values it speaks of, and its wording. Every later
    # stage (merging, charts, status, cache) reads `data`, never `message`.
    data: dict = field(default_factory=dict)  # {"rack_kw": 120, "limit_kw": 40, "pages": [3]}; "items": [{...}]
    template: str = ""  # str.format over data: "Rack power {figure} ({pages}) is above ..."
    each: str = ""  # the template of one of data["items"], joined with "; " into {items}

    def to_json(self) -> dict:
        d = {
            "check": self.check,
            "step": self.step,
            "severity": self.severity,
            "figures": self.figures,
            "message": self.message,
            "why": self.why,
            "fix": self.fix,
        }
        if self.data:
            d["data"] = self.data
        if self.title:
            d["title"] = self.title
        if self.question:
            d["question"] = self.question
        if self.asked_in:
            d["asked_in"] = self.asked_in
        if self.buyer:
            d["buyer"] = self.buyer
        if self.certainty == "inferred":
            d["certainty"] = "inferred"
            d["certainty_reason"] = self.certainty_reason
        if self.pages:
            d["pages"] = self.pages
        if self.derived:
            d["derived"] = [x.to_json() for x in self.derived]
        if self.models:
            d["models"] = self.models
        return d


@dataclass
class SheetResult:
    """One sheet's audit: the document, its figures and findings, and the checks that passed."""

    document: Document
    figures: list[Figure]
    findings: list[Finding]
    sheet_kind: str = "unknown"  # server | rack | pod | switch | nic | accelerator | unknown
    sheet_kind_reason: str = ""  # the evidence the kind was decided from ("its title names 'switch'")
    derived: list[Derived] = field(default_factory=list)
    passed: list[str] = field(default_factory=list)  # check codes evaluated and not raised
    facility: Optional[dict] = None
    requirements: Optional[dict] = None  # the buyer's requirements held against this sheet (sheetaudit.requirements)
    contract: Optional[dict] = field(default=None, repr=False, compare=False)  # kept by output.json_out.contract
