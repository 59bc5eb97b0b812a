"""Plain-text, Markdown and HTML spec pages -> segments, through the same segment model as PDFs.

Vendors publish spec pages on the web; a "Label: value" line, a Markdown table row or an HTML table row
becomes a labelled cell, anything else a sentence.
"""
from __future__ import annotations

import html
import re
from html.parser import HTMLParser

from ..model import Document, Segment
from .layout import FOOTNOTE_MARKERS, split_sentences

KV_LINE = re.compile(r"^\s*(?P<label>[^:：|]{1,48}?)\s*[:：]\s+(?P<value>.+)$")
KV_DOTS = re.compile(r"^\s*(?P<label>\S.{0,46}?\S)\s*(?:\.\s*){3,}\s*(?P<value>\S.*)$")
KV_GAP = re.compile(r"^\s*(?P<label>\S.{0,46}?\S)(?:\t+| {3,})(?P<value>\S.*)$")


def read_text(data: bytes, kind: str) -> Document:
    text = _decode(data)
    if kind == "html":
        lines = _html_lines(text)
    else:
        lines = text.splitlines()
    doc = Document(path="", sha256="", pages=1, kind=kind)
    _segments_from_lines(lines, doc, markdown=(kind in ("markdown", "html")))
    if doc.segments:
        doc.title = next((s.text for s in doc.segments if s.kind == "heading"), doc.segments[0].text)[:200]
    return doc


def _decode(data: bytes) -> str:
    for enc in ("utf-8-sig", "gb18030"):
        try:
            return data.decode(enc)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def _segments_from_lines(lines: list[str], doc: Document, markdown: bool) -> None:
    heading, block, header = "", 0, []
    para: list[str] = []

    def flush():
        nonlocal para, block
        if para:
            block += 1
            for s in split_sentences(" ".join(para)):
                doc.segments.append(Segment(s, 1, "sentence", heading=heading, block=block))
            para = []

    for i, raw in enumerate(lines):
        line = raw.rstrip()
        if not line.strip():
            flush()
            header = []
            continue
        m_head = re.match(r"^\s*#{1,6}\s+(.*)$", line) if markdown else None
        if m_head or (not markdown and line.isupper() and len(line) < 60):
            flush()
            heading = (m_head.group(1) if m_head else line).strip()
            block += 1
            doc.segments.append(Segment(heading, 1, "heading", heading=heading, block=block))
            continue
        if line.lstrip().startswith("|"):
            flush()
            cells = [re.sub(r"(\*\*|__|`)", "", c).strip() for c in line.strip().strip("|").split("|")]
            if all(re.fullmatch(r":?-{2,}:?", c) for c in cells if c):
                continue
            # A header row is the one a Markdown separator (|---|) follows; HTML <th> rows are written that way.
            nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
            if nxt.startswith("|") and all(re.fullmatch(r":?-{2,}:?", c.strip()) for c in nxt.strip("|").split("|") if c.strip()):
                header = cells
                block += 1
                continue
            _row(doc, cells, header, heading, block)
            continue
        if line.lstrip()[:1] in FOOTNOTE_MARKERS:
            flush()
            marker = line.lstrip()[0]
            doc.footnotes[marker] = line.lstrip()[1:].strip()
            doc.segments.append(Segment(line.strip(), 1, "footnote", heading=heading, block=block))
            continue
        line = re.sub(r"(\*\*|__|`)", "", line)
        m = KV_DOTS.match(line) or KV_LINE.match(line) or KV_GAP.match(line)
        if m and len(m.group("label").split()) <= 6 and not m.group("label").rstrip().endswith("."):
            flush()
            block += 1
            value = re.sub(r"^[-*]\s+", "", m.group("value").strip())
            label = re.sub(r"^\s*[-*]\s+", "", m.group("label")).strip("*_ ")
            doc.segments.append(Segment(value, 1, "cell", label=label, heading=heading, block=block))
            continue
        para.append(re.sub(r"^\s*[-*]\s+", "", line).strip())
    flush()


GENERIC_HEADER = re.compile(r"^(?:feature|item|spec(?:ification)?s?|parameter|property|attribute|name|参数|项目|规格|指标)?$", re.I)


def _row(doc, cells, header, heading, block):
    label = cells[0]
    if header and not GENERIC_HEADER.match(header[0].strip()):
        label = f"{label} {header[0].strip()}"   # "Compute" under "Network": the compute network
    for k, c in enumerate(cells[1:], start=1):
        if c:
            col = header[k] if k < len(header) else ""
            doc.segments.append(Segment(c, 1, "cell", label=label, column=col, heading=heading, block=block))


class _HTMLLines(HTMLParser):
    """Flattens HTML into Markdown-like lines: headings as '#', table rows as '| a | b |', blocks as lines."""
    BLOCK = {"p", "div", "li", "br", "section", "article", "dt", "dd", "tr", "h1", "h2", "h3", "h4", "h5", "h6",
             "table", "ul", "ol", "dl", "header", "footer", "caption"}
    SKIP = {"script", "style", "noscript", "template", "head"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.cur = ""
        self.cells: list[str] | None = None
        self.skip = 0
        self.prefix = ""
        self.th = False

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self.skip += 1
            return
        if tag == "tr":
            self._end()
            self.cells = []
            self.th = True
        elif tag in ("td", "th") and self.cells is not None:
            self.cur = ""
            self.th = self.th and tag == "th"
        elif tag in ("dt",):
            self._end()
        elif tag == "dd":
            self.cur = self.cur.rstrip() + ": "
            return
        elif tag in self.BLOCK:
            self._end()
            if tag[0] == "h" and tag[1:].isdigit():
                self.prefix = "#" * int(tag[1:]) + " "

    def handle_endtag(self, tag):
        if tag in self.SKIP:
            self.skip = max(0, self.skip - 1)
            return
        if tag in ("td", "th") and self.cells is not None:
            self.cells.append(re.sub(r"\s+", " ", self.cur).strip())
            self.cur = ""
        elif tag == "tr" and self.cells is not None:
            if any(self.cells):
                self.lines.append("| " + " | ".join(c.replace("|", "/") for c in self.cells) + " |")
                if self.th:
                    self.lines.append("|" + "---|" * len(self.cells))
            self.cells = None
        elif tag == "dd":
            self._end()
        elif tag in self.BLOCK:
            self._end()

    def handle_data(self, data):
        if not self.skip:
            self.cur += data

    def _end(self):
        t = re.sub(r"\s+", " ", self.cur).strip()
        if t and self.cells is None:
            self.lines.append(self.prefix + t)
            self.lines.append("")
        self.prefix = ""
        if self.cells is None:
            self.cur = ""

    def close(self):
        super().close()
        self._end()


def _html_lines(text: str) -> list[str]:
    p = _HTMLLines()
    p.feed(text)
    p.close()
    return [html.unescape(x) if "&" in x else x for x in p.lines]
