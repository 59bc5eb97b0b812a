#!/usr/bin/env python3
"""Render the real labelled text documents as PDFs in several vendors' layouts (tests/layouts).

    python samples/make_layouts.py           # (re)write tests/layouts: LAYOUT-NAME.pdf + LAYOUT-NAME.expected.json

Each Markdown / reStructuredText / plain-text document of tests/real/dev and tests/real/fresh is parsed into
blocks (headings, paragraphs, bullets, tables, code lines) and drawn in at least two layouts seen in real
datasheets. The figures of a document do not depend on its layout, so its labels are copied unchanged (only
"sheet" names the PDF): a layout that scores below the text original is the PDF reader's fault.

Layouts (LAYOUTS below): a borderless spec box (labels left, values right, both wrapping), a two-column page with
the spec tables in a narrow side column, a model grid (wide tables turned so models run across), tables with rules,
and text drawn glyph by glyph with no space glyphs and tight kerning. Every page has a header, a footer with its
page number, and the first a title block with the product name; headings are small caps or letter-spaced.

Output is deterministic: ReportLab runs in invariant mode, so running the script twice gives identical bytes.
"""

import html
import json
import re
import zlib
from pathlib import Path

from reportlab import rl_config

rl_config.invariant = 1  # fixed creation date and document id: byte-identical output

from reportlab.lib.pagesizes import A4  # noqa: E402
from reportlab.pdfbase import pdfmetrics  # noqa: E402
from reportlab.pdfbase.cidfonts import UnicodeCIDFont  # noqa: E402
from reportlab.pdfgen import canvas  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SOURCES = (ROOT / "tests" / "real" / "dev", ROOT / "tests" / "real" / "fresh")
OUT = ROOT / "tests" / "layouts"
TEXT_SUFFIXES = (".md", ".txt")
CJK = "STSong-Light"
pdfmetrics.registerFont(UnicodeCIDFont(CJK))

# ---------------------------------------------------------------------------------------------------
# source documents -> blocks: ("h", level, text) ("p", text) ("li", text) ("pre", text) ("table", rows)

_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)(\{[^}]*\})?")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_ROLE = re.compile(r":[a-z]+:`([^`<]*?)\s*(<[^>]*>)?`")
_ATTR = re.compile(r"\{:[^}]*\}")
_TAG = re.compile(r"<[^>]+>")
_BULLET = re.compile(r"^\s*(?:[-*+\u2022\u25cf]|\d+[.)])\s+")
_ADORN = re.compile(r"^\s*([=\-#~^*+`])\1{2,}\s*$")
_MD_SEP = re.compile(r"^\s*\|?[\s:|-]+\|?\s*$")
_CODE_LINE = re.compile(r"^(?:[+@]|diff |index |--- |\+\+\+ |\t|    \S)")
_CELL_BULLET = re.compile(r"\s*[\u25cf\u2022]\s+")  # bullets inside a cell: one line each, as a PDF prints them
_SKIP_DIRECTIVES = ("image", "figure", "contents", "meta", "toctree", "raw", "include")


def inline(s):
    """Markup of one line or cell to plain text; <br> becomes a line break."""
    s = _IMAGE.sub("", s)
    s = _LINK.sub(r"\1", s)
    s = _ROLE.sub(r"\1", s)
    s = _ATTR.sub("", s)
    s = re.sub(r"<br\s*/?>", "\n", s, flags=re.I)
    s = _TAG.sub("", s)
    s = re.sub(r"\*\*|__|`|(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])", "", s)
    s = html.unescape(s).replace("\\|", "|")
    return "\n".join(re.sub(r"[ \t]+", " ", part).strip() for part in s.split("\n")).strip()


def md_cells(line):
    line = line.strip()
    if line.startswith("|"):
        line = line[1:]
    if line.endswith("|") and not line.endswith("\\|"):
        line = line[:-1]
    return [inline(_CELL_BULLET.sub("\n\u2022 ", c)) for c in re.split(r"(?<!\\)\|", line)]


def grid_table(lines):
    """An RST grid table (+---+ borders): the cells of each row joined over its lines."""
    bounds = [i for i, ch in enumerate(lines[0]) if ch == "+"]
    rows, cur = [], None
    for ln in lines[1:]:
        if ln.strip().startswith("+"):
            if cur:
                rows.append([inline(" ".join(c)) for c in cur])
            cur = None
            continue
        cur = cur or [[] for _ in bounds[:-1]]
        for k, (a, b) in enumerate(zip(bounds, bounds[1:])):
            cur[k].append(ln[a + 1 : b])
    return rows


def list_table(lines):
    """An RST list-table: '* - cell' starts a row, '- cell' a cell, deeper lines continue it."""
    rows = []
    for ln in lines:
        s = ln.strip()
        if not s or s.startswith(":"):
            continue
        if s.startswith("*"):
            rows.append([])
            s = s[1:].strip()
        if s.startswith("- ") or s == "-":
            rows[-1].append(s[1:].strip())
        elif rows and rows[-1]:
            rows[-1][-1] += " " + s
    return [[inline(c) for c in r] for r in rows if r]


_KEY = re.compile(r"^(\s*)([\w-]+):\s*(.*)$")


def front_matter(lines):
    """What a product page shows of its front matter: the title, the description, free text lines and the JSON
    values (spec grids, feature lists); ids, images, SEO fields and the like are not shown."""
    blocks = []
    for ln in lines:
        m = _KEY.match(ln)
        if not m:
            if ln.strip() and not ln.startswith(" "):
                blocks.append(("p", inline(ln)))
            continue
        indent, key, value = m.groups()
        if value[:1] in "[{":
            try:
                blocks += json_blocks(json.loads(value))
            except ValueError:
                pass
        elif not indent and key == "title" and value:
            blocks.append(("h", 1, inline(value.strip("'\""))))
        elif not indent and key == "description" and value:
            blocks.append(("p", inline(value.strip("'\""))))
    return blocks


def json_blocks(v):
    """A JSON value as a page shows it: a list of rows of {"text": ...} cells is a table, a "title" a heading."""
    if isinstance(v, list) and v and all(isinstance(r, list) for r in v):
        return [
            (
                "table",
                [[inline(str(c.get("text") or "")) if isinstance(c, dict) else inline(str(c)) for c in r] for r in v],
            )
        ]
    if isinstance(v, list):
        return [b for x in v for b in json_blocks(x)]
    if isinstance(v, dict):
        out = []
        for k, x in v.items():
            if k in ("images", "img", "org"):
                continue
            if k in ("title", "name") and isinstance(x, str):
                out.append(("h", 3, inline(x)))
            else:
                out += json_blocks(x)
        return out
    if isinstance(v, str) and v.strip() and not v.strip().lower().endswith((".png", ".jpg", ".svg")):
        return [("li", inline(v.lstrip("\u2022 ")))] if v.lstrip().startswith("\u2022") else [("p", inline(v))]
    return []


def parse(text, plain):
    """Blocks of a document; `plain` text keeps its line structure (one line, one paragraph or code line)."""
    lines = text.replace("\r\n", "\n").split("\n")
    blocks, para, i = [], [], 0
    if lines and lines[0].strip() == "---":  # front matter: a product page keeps its specs there
        end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), 0)
        blocks = front_matter(lines[1:end])
        lines = lines[end + 1 :]

    def flush():
        if para:
            t = inline(" ".join(para))
            if t:
                blocks.append(("p", t))
            para.clear()

    def indented_block(j):
        k = j
        while k < len(lines) and (not lines[k].strip() or lines[k].startswith((" ", "\t"))):
            k += 1
        return k

    in_fence = False
    while i < len(lines):
        ln = lines[i].rstrip()
        s = ln.strip()
        nxt = lines[i + 1].rstrip() if i + 1 < len(lines) else ""
        if s.startswith("```"):
            flush()
            in_fence = not in_fence
        elif in_fence:
            if s:
                blocks.append(("pre", ln))
        elif not s:
            flush()
        elif s.startswith(".. ") and "::" in s:
            flush()
            name = s[3:].split("::")[0].strip()
            end = indented_block(i + 1)
            if name == "list-table":
                blocks.append(("table", list_table(lines[i + 1 : end])))
            elif name not in _SKIP_DIRECTIVES:
                blocks.extend(
                    ("p", inline(x)) for x in lines[i + 1 : end] if x.strip() and not x.strip().startswith(":")
                )
            i = end
            continue
        elif s.startswith(".. "):
            flush()
            i = indented_block(i + 1)
            continue
        elif _ADORN.match(s) and not para:
            pass  # an overline, or a horizontal rule
        elif _ADORN.match(nxt) and not s.startswith("|") and len(s) < 120:
            flush()
            blocks.append(("h", 2 if nxt.strip()[0] in "=#" else 3, inline(s)))
            i += 2
            continue
        elif s.startswith("#"):
            flush()
            level = len(s) - len(s.lstrip("#"))
            t = inline(s.lstrip("#"))
            if t:
                blocks.append(("h", min(level, 4), t))
        elif s.startswith("+-") and s.endswith("+"):
            flush()
            j = i
            while j < len(lines) and lines[j].strip().startswith(("+", "|")):
                j += 1
            blocks.append(("table", grid_table([x.rstrip() for x in lines[i:j]])))
            i = j
            continue
        elif s.startswith("|") or ("|" in s and ("|" in nxt or _MD_SEP.match(nxt) and "-" in nxt)):
            # (rows of "label | value" with no separator line are a table too: a converted page's table)
            flush()
            rows = []
            while i < len(lines) and "|" in lines[i] and (lines[i].strip().startswith("|") or not s.startswith("|")):
                if not _MD_SEP.match(lines[i]):
                    rows.append(md_cells(lines[i]))
                i += 1
            blocks.append(("table", rows))
            continue
        elif _ATTR.fullmatch(s):
            pass
        elif _BULLET.match(ln):
            flush()
            para.append(_BULLET.sub("", ln))
            j = i + 1
            while j < len(lines) and lines[j].startswith("  ") and lines[j].strip() and not _BULLET.match(lines[j]):
                para.append(lines[j].strip())
                j += 1
            blocks.append(("li", inline(" ".join(para))))
            para.clear()
            i = j
            continue
        elif plain and _CODE_LINE.match(ln):
            flush()
            blocks.append(("pre", ln.replace("\t", "    ")))
        else:
            para.append(s.lstrip("> ").strip() if s.startswith(">") else s)
            if plain and (len(s) < 60 or s.endswith((".", ":", "!", "?", "\u3002"))):
                flush()
        i += 1
    flush()
    return [b for b in blocks if b[0] != "table" or b[1]]


# ---------------------------------------------------------------------------------------------------
# text drawing: fonts, widths and the ways a vendor's PDF draws a string


def needs_cjk(s):
    try:
        s.encode("cp1252")
        return False
    except UnicodeEncodeError:
        return True


def font_for(s, bold=False, mono=False):
    if needs_cjk(s):
        return CJK
    if mono:
        return "Courier"
    return "Helvetica-Bold" if bold else "Helvetica"


GAP = 0.2  # the gap left for a space when text is drawn glyph by glyph, in ems (pdfplumber joins below 3 pt)
KERN = 0.03  # tight kerning: glyphs drawn this much (ems) closer than their advance
SPACED = 0.3  # letter-spaced headings: extra room between letters, in ems
SMALL = 0.78  # small caps: lower-case letters drawn as capitals at this share of the size


_CJK_RUN = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]+\S?|\S")


def glyph_units(s):
    """What glyph-by-glyph drawing puts in one string: one glyph, or a run of CJK glyphs with the glyph after it
    (pdfium reads no text from a lone CJK glyph of a non-embedded CID font, ReportLab's STSong-Light: drawn one
    by one, every Chinese character would vanish from the page, a fault of that font, not of a layout)."""
    out = []
    for u in re.findall(r"\s|" + _CJK_RUN.pattern, s):
        if out and len(u) == 1 and _CJK_RUN.fullmatch(u + "x"):  # a lone CJK glyph at the end: with the one before
            out[-1] += u
        else:
            out.append(" " if u.isspace() else u)
    return out


def width(s, font, size, mode="plain"):
    if mode == "glyphs":
        return sum(
            GAP * size if u == " " else pdfmetrics.stringWidth(u, font, size) - KERN * size for u in glyph_units(s)
        )
    if mode == "smallcaps":
        return sum(pdfmetrics.stringWidth(ch.upper(), font, size * (SMALL if ch.islower() else 1)) for ch in s)
    if mode == "spaced":
        return pdfmetrics.stringWidth(s, font, size) + SPACED * size * len(s)
    return pdfmetrics.stringWidth(s, font, size)


def draw(c, x, y, s, font, size, mode):
    if font == CJK and len(s) == 1:
        s += " "  # a string of one CJK glyph is lost to pdfium (see glyph_units); a trailing space keeps it
    if mode == "plain":
        c.setFont(font, size)
        c.drawString(x, y, s)
    elif mode == "spaced":
        c.setFont(font, size)
        c.drawString(x, y, s, charSpace=SPACED * size)
    else:
        for ch in glyph_units(s) if mode == "glyphs" else s:
            if ch == " ":
                x += GAP * size if mode == "glyphs" else pdfmetrics.stringWidth(" ", font, size)
                continue
            sz = size * SMALL if mode == "smallcaps" and ch.islower() else size
            g = ch.upper() if mode == "smallcaps" else ch
            c.setFont(font, sz)
            c.drawString(x, y, g)
            x += pdfmetrics.stringWidth(g, font, sz) - (KERN * size if mode == "glyphs" else 0)


_TOKEN = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]|[^\s\u2e80-\u9fff\uff00-\uffef]+|\s+")


def wrap(text, font, size, w, mode="plain"):
    """Lines of at most w points; CJK breaks between any two characters, Latin at spaces (or inside an overlong word)."""
    out = []
    for part in text.split("\n"):
        line = ""
        for tok in _TOKEN.findall(part):
            if tok.isspace():
                tok = " "
            trial = line + tok
            if line and width(trial.rstrip(), font, size, mode) > w:
                out.append(line.rstrip())
                line = "" if tok == " " else tok
            else:
                line = trial
            while width(line, font, size, mode) > w and len(line) > 1:
                cut = len(line) - 1
                while cut > 1 and width(line[:cut], font, size, mode) > w:
                    cut -= 1
                out.append(line[:cut])
                line = line[cut:]
        out.append(line.strip())
    return [ln for ln in out if ln] or [""]


# ---------------------------------------------------------------------------------------------------
# a flow: text laid out down a sequence of frames (columns) over pages, drawn once every page is known

W, H = A4
MARGIN, TOP, BOTTOM = 50, H - 60, 50


class Flow:
    def __init__(self, frames, first_top=TOP, mode="plain"):
        self.frames, self.mode = frames, mode
        self.ops = {}  # page -> [op]
        self.page, self.frame, self.y = 0, 0, first_top

    @property
    def x(self):
        return self.frames[self.frame][0]

    @property
    def w(self):
        return self.frames[self.frame][1]

    def next_frame(self):
        self.frame += 1
        if self.frame == len(self.frames):
            self.frame, self.page = 0, self.page + 1
        self.y = TOP

    def room(self, h):
        if self.y - h < BOTTOM and self.y < TOP:
            self.next_frame()

    def op(self, *op):
        self.ops.setdefault(self.page, []).append(op)

    def text_lines(self, lines, font, size, x, leading, mode=None):
        for ln in lines:
            self.room(leading)
            self.y -= leading
            self.op("t", self.x + x, self.y, ln, font, size, mode or self.mode)

    def heading(self, text, level, style):
        size = {1: 15, 2: 13, 3: 11}.get(level, 10)
        font = font_for(text, bold=True)
        mode = "plain" if font == CJK else style
        self.room(size * 3)
        self.y -= size * 0.6
        self.text_lines(wrap(text, font, size, self.w, mode), font, size, 0, size * 1.3, mode)
        self.y -= size * 0.3

    def paragraph(self, text, size=9, bullet=False, mono=False):
        font = font_for(text, mono=mono)
        indent = 12 if bullet else 0
        lines = wrap(text, font, size, self.w - indent, self.mode)
        if bullet:
            self.room(size * 1.3)
            self.op("t", self.x + 3, self.y - size * 1.3, "\u2022", "Helvetica", size, "plain")
        self.text_lines(lines, font, size, indent, size * 1.3)
        self.y -= 0 if mono else size * 0.5

    def table(self, rows, rules, size=8.5, label_share=None, valign="top"):
        """rules: 'none' (spec box), 'rows' (a line under each row) or 'grid' (every cell boxed)."""
        n = max(len(r) for r in rows)
        rows = [r + [""] * (n - len(r)) for r in rows]
        size = max(5.5, size - 0.45 * max(0, n - 3))
        pad, leading = 3, size * 1.25
        natural = [
            max(min(width(ln, font_for(ln), size, self.mode), 260) for r in rows for ln in r[k].split("\n"))
            for k in range(n)
        ]
        natural = [max(v, 30) + 2 * pad for v in natural]
        if label_share and n == 2:
            widths = [self.w * label_share, self.w * (1 - label_share)]
        else:
            scale = self.w / sum(natural)
            widths = [v * scale for v in natural] if scale < 1 or n > 2 else [self.w * 0.4, self.w * 0.6]
        header = len(rows) > 1 and n > 1
        for ri, r in enumerate(rows):
            bold = [ri == 0 and header or k == 0 and label_share is not None for k in range(n)]
            cells = [wrap(t, font_for(t, bold=b), size, wd - 2 * pad, self.mode) for t, b, wd in zip(r, bold, widths)]
            while True:
                fit = int((self.y - BOTTOM - 2 * pad) // leading)
                tall = max(len(c) for c in cells)
                if fit < min(tall, 3) and self.y < TOP:
                    self.next_frame()
                    continue
                take = min(tall, max(fit, 1))
                top, height = self.y, take * leading + 2 * pad
                if rules == "grid" and ri == 0 and header:
                    self.op("r", self.x, top - height, self.w, height)
                x = self.x
                for k, (c, b, wd) in enumerate(zip(cells, bold, widths)):
                    part = c[:take]
                    shift = (take - len(part)) * leading / 2 if valign == "middle" and tall <= take else 0
                    for j, ln in enumerate(part):
                        self.op(
                            "t",
                            x + pad,
                            top - pad - shift - (j + 0.8) * leading,
                            ln,
                            font_for(ln, bold=b),
                            size,
                            self.mode,
                        )
                    cells[k] = c[take:]
                    if rules == "grid":
                        self.op("l", x, top, x, top - height)
                    x += wd
                if rules == "grid":
                    self.op("l", x, top, x, top - height)
                    self.op("l", self.x, top, self.x + self.w, top)
                if rules in ("grid", "rows"):
                    self.op("l", self.x, top - height, self.x + self.w, top - height)
                self.y = top - height
                if not any(cells):
                    break
        self.y -= 8


# ---------------------------------------------------------------------------------------------------
# layouts


def body(flow, blocks, heading_style, table_style):
    for b in blocks:
        if b[0] == "h":
            flow.heading(b[2], b[1], heading_style)
        elif b[0] == "p":
            flow.paragraph(b[1])
        elif b[0] == "li":
            flow.paragraph(b[1], bullet=True)
        elif b[0] == "pre":
            flow.paragraph(b[1], size=7.5, mono=True)
        else:
            table_style(flow, b[1])


def turned(rows):
    """A wide table turned so that its first column (the models) runs across and the specs run down."""
    n = max(len(r) for r in rows)
    if n < 3 or n <= len(rows):
        return rows
    rows = [r + [""] * (n - len(r)) for r in rows]
    return [list(col) for col in zip(*rows)]


def specbox(flow, rows):
    flow.table(rows, "none", label_share=0.3 if max(map(len, rows)) == 2 else None)


def ruled(flow, rows):
    flow.table(rows, "grid")


def grid(flow, rows):
    flow.table(turned(rows), "rows")


def single(mode="plain"):
    return [Flow([(MARGIN, W - 2 * MARGIN)], first_top=TOP - 70, mode=mode)]


def lay_specbox(blocks):
    flows = single()
    body(flows[0], blocks, "smallcaps", specbox)
    return flows


def lay_ruled(blocks):
    flows = single()
    body(flows[0], blocks, "plain", ruled)
    return flows


def lay_grid(blocks):
    flows = single()
    body(flows[0], blocks, "spaced", grid)
    return flows


def lay_glyphs(blocks):
    flows = single("glyphs")
    body(flows[0], blocks, "smallcaps", lambda f, rows: f.table(rows, "rows"))
    return flows


def lay_sidecol(blocks):
    """Prose in a wide column; tables of up to three columns in a narrow column beside it (two equal columns when
    the document has none)."""
    narrow = [b for b in blocks if b[0] == "table" and max(map(len, b[1])) <= 3]
    if not narrow:
        half = (W - 2 * MARGIN - 20) / 2
        flows = [Flow([(MARGIN, half), (MARGIN + half + 20, half)], first_top=TOP - 70)]
        body(flows[0], blocks, "spaced", ruled)
        return flows
    main = Flow([(MARGIN, 300)], first_top=TOP - 70)
    side = Flow([(MARGIN + 320, W - 2 * MARGIN - 320)], first_top=TOP - 70)
    body(main, [b for b in blocks if not (b[0] == "table" and b in narrow)], "spaced", ruled)
    for b in narrow:
        side.table(b[1], "none", size=7, label_share=0.38, valign="middle")
    return [main, side]


LAYOUTS = {
    "specbox": lay_specbox,
    "sidecol": lay_sidecol,
    "ruled": lay_ruled,
    "glyphs": lay_glyphs,
    "grid": lay_grid,
}
ROTATION = ("specbox", "sidecol", "ruled", "glyphs")


def layouts_for(index, blocks):
    """Two layouts for the index-th document: one from the rotation, and the model grid where the document has a
    wide table (else the rotation's next-but-one)."""
    first = ROTATION[index % len(ROTATION)]
    wide = any(b[0] == "table" and max(map(len, b[1])) >= 3 for b in blocks)
    return [first, "grid" if wide else ROTATION[(index + 2) % len(ROTATION)]]


# ---------------------------------------------------------------------------------------------------
# pages: title block, header, footer, page numbers


def title_of(blocks):
    """The product name for the title block: the first heading that is a name (not an address), else the first
    short paragraph; that block is then left out of the body."""
    for kinds in (("h",), ("p",)):
        for i, b in enumerate(blocks[:6]):
            if b[0] in kinds and "http" not in b[-1] and 3 < len(b[-1]) <= 90:
                return i, b[-1]
    return None, ""


def render(path, title, flows, layout):
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle(title)
    c.setAuthor("sheetaudit layout corpus")
    pages = max(max(f.ops, default=0) for f in flows) + 1
    hue = (zlib.crc32(layout.encode()) % 7) / 10
    short = title if width(title, font_for(title), 8) < 300 else wrap(title, font_for(title), 8, 300)[0]
    for p in range(pages):
        if p == 0:
            c.setFillColorRGB(0.1 + hue, 0.3, 0.45)
            c.rect(0, H - 36, W, 36, stroke=0, fill=1)
            c.setFillColorRGB(1, 1, 1)
            draw(c, MARGIN, H - 23, "PRODUCT DATASHEET", "Helvetica-Bold", 9, "spaced")
            c.setFillColorRGB(0, 0, 0)
            tf = font_for(title, bold=True)
            for k, ln in enumerate(wrap(title, tf, 17, W - 2 * MARGIN)[:2]):
                draw(c, MARGIN, H - 70 - 21 * k, ln, tf, 17, "plain")
        else:
            c.setFillColorRGB(0.35, 0.35, 0.35)
            draw(c, MARGIN, H - 32, short, font_for(short), 8, "plain")
            c.line(MARGIN, H - 38, W - MARGIN, H - 38)
            c.setFillColorRGB(0, 0, 0)
        c.setFillColorRGB(0.35, 0.35, 0.35)
        draw(c, MARGIN, 28, "Specifications are subject to change without notice.", "Helvetica", 7, "plain")
        draw(c, W - MARGIN - 40, 28, f"Page {p + 1}", "Helvetica", 7, "plain")
        c.setFillColorRGB(0, 0, 0)
        for f in flows:
            for op in f.ops.get(p, []):
                if op[0] == "t":
                    draw(c, *op[1:])
                elif op[0] == "l":
                    c.setLineWidth(0.5)
                    c.line(*op[1:])
                else:
                    c.setFillColorRGB(0.88, 0.9, 0.93)
                    c.rect(*op[1:], stroke=0, fill=1)
                    c.setFillColorRGB(0, 0, 0)
        c.showPage()
    c.save()


def documents():
    for folder in SOURCES:
        for src in sorted(folder.iterdir()):
            if src.suffix in TEXT_SUFFIXES and src.with_name(src.stem + ".expected.json").exists():
                yield src


def plan():
    """(source, title, blocks, layouts) of every document, in a fixed order."""
    for index, src in enumerate(documents()):
        blocks = parse(src.read_text(encoding="utf-8"), plain=src.suffix == ".txt" and not _is_rst(src))
        at, title = title_of(blocks)
        blocks = blocks[:at] + blocks[at + 1 :] if at is not None else blocks
        yield src, title, blocks, layouts_for(index, blocks)


def build(out=OUT, only=None):
    """Write LAYOUT-NAME.pdf and LAYOUT-NAME.expected.json for every document (or the names in only); the names."""
    out.mkdir(parents=True, exist_ok=True)
    if only is None:
        for old in [*out.glob("*.pdf"), *out.glob("*.expected.json")]:
            old.unlink()
    made = []
    for src, title, blocks, layouts in plan():
        labels = json.loads(src.with_name(src.stem + ".expected.json").read_text(encoding="utf-8"))
        for layout in layouts:
            name = f"{layout}-{src.stem}"
            if only is not None and name not in only:
                continue
            render(out / f"{name}.pdf", title, LAYOUTS[layout](blocks), layout)
            source = f"{labels.get('source', '')}; drawn as layout '{layout}' from {src.relative_to(ROOT)}"
            doc = dict(labels, sheet=f"{name}.pdf", source=source + " by samples/make_layouts.py")
            text = json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
            (out / f"{name}.expected.json").write_text(text, encoding="utf-8")
            made.append(name)
    return made


def _is_rst(src):
    head = src.read_text(encoding="utf-8")[:2000]
    return bool(re.search(r"^\.\. ", head, re.M))


if __name__ == "__main__":
    for name in build():
        print(name)
