"""A fast first pass over a long PDF that picks the pages pdfplumber must read for the audit to come out the same.

pdfplumber's layout analysis costs 0.1-0.3 s a page here; pypdfium2 (installed with pdfplumber) extracts a
page's text in about a millisecond. So every page's text is read with pdfium first, and pdfplumber reads:

- pages whose text holds what find.py looks for, loosely matched (never less than find.py matches): a number
  before a unit spelling of rules/units.yaml (any quantity, weight included), a port-rate name (NDR400), a
  count of accelerators, an accelerator-count label before a number, a cooling phrase or a cooling row; and
  a rack footprint ("600 mm W x 1,200 mm D"), which the floor-load check reads;
- pages without a text layer, or with little text over a picture (so sheet.no-text fires and OCR runs);
- the pages the audit of those pages depends on (`Plan.required`): the pages holding the sheet's first three
  headings and, when those name no kind of sheet, its first twelve segments (title and sheet kind,
  context.sheet_context); the page whose heading is still in force at the top of a page whose figures or
  table cells come before its own first heading (a figure's heading; cells under one heading are one record);
  every page printing a footnote marker that a figure carries; and the pages naming a scale-up technology,
  unless the segments read already settle which one the sheet names most (its fabric).

Which unread pages hold headings, and how many segments, is predicted by running read.layout over words built
from pdfium's characters (sizes and descents as pdfminer computes them) and ruled tables found by pdfplumber's
table finder over pdfium's path edges; a page on which no run of text is bold or larger than the body is not
analysed at all. After each read the plan is checked against what pdfplumber found, and the pipeline reads
again with the pages it still lacks (up to MAX_ROUNDS, then every page).

When find.py learns a new kind of figure, or a later stage starts to read something of the whole document,
teach it to this module: tests/test_speed_equivalence.py holds the text filter to every mention in the samples
and corpus, and compares this reading with a full one on every sample and on generated long files.
"""
from __future__ import annotations

import math
import re
import stat
from collections import defaultdict
from functools import lru_cache
from pathlib import Path

MIN_PAGES = 4          # files shorter than this are read whole: the pass would save less than it costs
MAX_ROUNDS = 3         # reads with a growing page set before falling back to reading every page
HEAD_HEADINGS = 3      # sheet_context reads the kind of sheet from the title and the first three headings
HEAD_SEGMENTS = 12     # ... and, when they name none, from the first twelve segments
SNIFF_BYTES = 8 * 2**20  # a file this small is searched for its page count before pdfium is loaded
LITTLE_TEXT = 250      # pdf.py: a page mostly covered by a picture with under 200 characters is "no text"
FOOTNOTE_MARKERS = "¹²³⁴⁵⁶⁷⁸⁹*†‡§"
BOLD = re.compile(r"bold|black|heavy|semibold", re.I)     # as read/pdf.py marks a word bold


def _check_deadline() -> None:
    from ..limits import check_deadline
    check_deadline()


# ---------------------------------------------------------------------------------------------------------
# What a page must show to hold a figure: loose versions of find.py's patterns, built from the same rules.

class _Loose:
    """A case-insensitive rule pattern, run on lower-cased text without re.I when that is safe (~5x faster)."""

    def __init__(self, pattern: str):
        self.ci = re.compile(pattern, re.I)
        safe = not re.search(r"\\[A-Z]|\\u|\(\?-i|\[[^\]]*[A-Z]", pattern)
        self.rx = re.compile(pattern.lower()) if safe else self.ci

    def search(self, text: str, low: str | None):
        """low: text.lower(), or None when lower-casing changed the text's length."""
        if low is None or self.rx is self.ci:
            return self.ci.search(text)
        return self.rx.search(low)

    def finditer(self, text: str, low: str | None):
        if low is None or self.rx is self.ci:
            return self.ci.finditer(text)
        return self.rx.finditer(low)


@lru_cache(maxsize=1)
def _patterns():
    from ..find import MARKERS, NUM, WORD_NUMBERS, _unit_alt
    from ..rules import load_rules
    r = load_rules()
    v = r.vocab
    spellings = {s for q, table in r.units.items() if q != "needs_network_word" and isinstance(table, dict)
                 for s in table}      # every quantity find.py reads: bandwidth, latency, power, weight, ...
    nets = r"HDR|NDR|EDR|XDR|InfiniBand|Infiniband|IB|Ethernet"
    count_words = "|".join(sorted((k for k in WORD_NUMBERS if k.isascii()), key=len, reverse=True))
    label = v["accelerator_count_label"].replace("^", "").replace("$", "")
    exact = [
        # a number, then a unit spelling (find.py: one optional space; here any run of space or line break)
        re.compile(rf"\d\s*(?:{_unit_alt(spellings)})[{MARKERS}]?(?![A-Za-z0-9])"),
        re.compile(rf"\d\s*(?:{_unit_alt(r.units.get('needs_network_word', {}))})\s*(?:{nets})\b"),
        re.compile(r.conventions["rate_names"].replace(r"\b", "")),
        re.compile(r"\d+\s*(?:[颗张块枚]|卡)"),       # "8 颗昇腾处理器", "8 卡"
        # a rack's footprint, which the floor-load check reads from the first segment printing one
        re.compile(r"\d\s*mm\s*W\s*[x×]", re.I),
    ]
    loose = [_Loose(rf"(?:{label})\s*[:：]?\s*\d"),      # an accelerator-count row: its label, then a number
             _Loose(v["cooling_phrase"])]
    # accelerators counted ("8x H100 GPUs", "72-GPU", "eight accelerators"): find each noun, then look left
    nouns = _Loose(rf"(?:{v['accelerator_nouns']})\b")
    count = re.compile(rf"(?:{NUM}|{count_words})(?![\d.])\s*-?\s*(?:[xX×]\s*)?"
                       rf"(?-i:(?:(?:[A-Z0-9\u4e00-\u9fff][\w\-]*|®|™)\s*){{0,6}}?)\Z", re.I)
    rows = (_Loose(v["cooling_label"]), _Loose("|".join(f"(?:{e['pattern']})" for e in v["cooling"])))
    return exact, loose, nouns, count, rows


@lru_cache(maxsize=1)
def _fabrics() -> list[tuple[str, re.Pattern]]:
    """The scale-up technologies whose count across the sheet's segments picks its fabric (context.py)."""
    from ..context import SCALE_UP_TECHNOLOGIES
    from ..rules import load_rules
    return [(t["name"], re.compile(t["pattern"])) for t in load_rules().conventions["technologies"]
            if t["name"] in SCALE_UP_TECHNOLOGIES]


def _normal(text: str) -> str:
    """pdfium's page text as the reader would join it: hyphenated line ends closed, whitespace collapsed."""
    text = text.replace("\x02", "-").replace("\u00ad", "-").replace("\ufffe", "")
    text = re.sub(r"(?<! )-\r?\n\s*(?=[a-z])", "", text)
    return re.sub(r"\s+", " ", text)


def may_hold_figures(raw: str) -> bool:
    """Whether a page's plain text can hold a figure find.py would report (never False when it would)."""
    text = _normal(raw)        # (pdfium drops a glyph printed twice for fake bold, as pdf.py's dedupe_chars does)
    exact, loose, nouns, count, (label, value) = _patterns()
    if any(p.search(text) for p in exact):
        return True
    low = text.lower()
    if len(low) != len(text):
        low = None
    if any(p.search(text, low) for p in loose):
        return True
    if label.search(text, low) and value.search(text, low):
        return True
    return any(count.search(text, max(0, m.start() - 160), m.start()) for m in nouns.finditer(text, low))


# ---------------------------------------------------------------------------------------------------------
# pdfium access

def _text_of(textpage) -> str:
    try:
        return textpage.get_text_range()
    except Exception:
        return ""


def _c_float(n=1):
    import ctypes
    return [ctypes.c_float() for _ in range(n)]


class _PageLayout:
    """Words and ruled tables of one page from pdfium, in pdfplumber's coordinates, and read.layout's segments."""

    def __init__(self, page, textpage, page_no: int):
        import pypdfium2.raw as R
        self.R = R
        _, _, _, top = page.get_mediabox()
        self.top = float(top)
        self.objects: dict[int, tuple] = {}      # text object address -> (size, font name, bottom or None)
        self.runs: list[tuple[float, str, str]] = []          # (size, font name, text) of each text object
        self.edges: list[dict] = []
        self.textpage = textpage
        self.page_no = page_no
        fonts: dict[int, str] = {}
        forms: dict[int, tuple] = {}        # nesting level -> matrix of the form object open at that level
        for obj in page.get_objects(max_depth=8):
            kind, level = obj.type, getattr(obj, "level", 0)
            m = _matrix(obj, forms.get(level - 1) if level > 0 else None)
            if kind == R.FPDF_PAGEOBJ_FORM:
                forms[level] = m
            elif kind == R.FPDF_PAGEOBJ_TEXT:
                size = self._size(obj, m)
                font, descent = self._font(obj, fonts)
                # pdfminer's character box: from the baseline plus the font's descent, one font size high
                bottom = self.top - (m[5] + descent * size) if m[3] > 0 and abs(m[1]) < 1e-6 else None
                self.objects[_addr(obj.raw)] = (size, font, bottom)
                self.runs.append((size, font, self._text(obj)))
            elif kind == R.FPDF_PAGEOBJ_PATH:
                self._path_edges(obj, m)

    # -- page objects
    def _size(self, obj, m: tuple) -> float:
        """The text's height on the page (pdfminer's char size): font size times the vertical scale of the
        object's matrix composed with those of the forms it sits in."""
        import ctypes
        size = ctypes.c_float()
        if not self.R.FPDFTextObj_GetFontSize(obj.raw, ctypes.byref(size)):
            return 0.0
        return round(size.value * (math.hypot(m[2], m[3]) or 1.0), 3)

    def _text(self, obj) -> str:
        import ctypes
        R = self.R
        n = R.FPDFTextObj_GetText(obj.raw, self.textpage.raw, None, 0)
        if n <= 2:
            return ""
        buf = ctypes.create_string_buffer(n)
        R.FPDFTextObj_GetText(obj.raw, self.textpage.raw, ctypes.cast(buf, ctypes.POINTER(ctypes.c_ushort)), n)
        return buf.raw[:n - 2].decode("utf-16-le", "replace")

    def _font(self, obj, fonts: dict) -> tuple[str, float]:
        """The font's base name and its descent per point of size, as pdfminer reads it: from the AFM metrics
        for a standard-14 name, else from the font (pdfium)."""
        import ctypes
        R = self.R
        font = R.FPDFTextObj_GetFont(obj.raw)
        key = _addr(font)
        if key not in fonts:
            name, descent = "", -0.2
            if font:
                n = R.FPDFFont_GetBaseFontName(font, None, 0)
                if n > 0:
                    buf = ctypes.create_string_buffer(n)
                    R.FPDFFont_GetBaseFontName(font, buf, n)
                    name = buf.value.decode("utf-8", "replace")
                afm = _standard_descent(name)
                if afm is not None:
                    descent = afm
                else:
                    d = ctypes.c_float()
                    if R.FPDFFont_GetDescent(font, ctypes.c_float(1.0), ctypes.byref(d)):
                        descent = d.value
            fonts[key] = (name, descent)
        return fonts[key]

    def _path_edges(self, obj, m: tuple) -> None:
        import ctypes
        R = self.R
        points: list[tuple[float, float]] = []
        start = None
        for i in range(R.FPDFPath_CountSegments(obj.raw)):
            seg = R.FPDFPath_GetPathSegment(obj.raw, i)
            x, y = _c_float(2)
            if not R.FPDFPathSegment_GetPoint(seg, ctypes.byref(x), ctypes.byref(y)):
                continue
            px = m[0] * x.value + m[2] * y.value + m[4]
            py = m[1] * x.value + m[3] * y.value + m[5]
            if R.FPDFPathSegment_GetType(seg) == R.FPDF_SEGMENT_MOVETO:
                start = (px, py)
            elif points:
                self._edge(points[-1], (px, py))
            points.append((px, py))
            if R.FPDFPathSegment_GetClose(seg) and start is not None:
                self._edge((px, py), start)

    def _edge(self, a, b) -> None:
        (x0, y0), (x1, y1) = a, b
        if abs(y0 - y1) < 0.01 and abs(x0 - x1) >= 1:
            top = self.top - y0
            self.edges.append({"x0": min(x0, x1), "x1": max(x0, x1), "top": top, "bottom": top,
                               "width": abs(x1 - x0), "height": 0.0, "orientation": "h", "object_type": "line"})
        elif abs(x0 - x1) < 0.01 and abs(y0 - y1) >= 1:
            top, bottom = self.top - max(y0, y1), self.top - min(y0, y1)
            self.edges.append({"x0": x0, "x1": x0, "top": top, "bottom": bottom, "width": 0.0,
                               "height": bottom - top, "orientation": "v", "object_type": "line"})

    @property
    def may_hold_heading(self) -> bool:
        """False when no line can open a heading paragraph (layout.PageBuilder.prose): a heading's lines are all
        bold or 1.15x the body size, and its first line starts with no digit. Checked per text object, against
        the lower quartile of word sizes (at most the body size, the median); a run that starts with a digit
        still counts when a wide space inside it could part the digit from the words after it."""
        sizes = sorted(size for size, _, text in self.runs for _ in text.split())
        if not sizes:
            return False
        low = sizes[len(sizes) // 4]
        for size, font, text in self.runs:
            t = text.strip()
            if t and (BOLD.search(font) or size >= 1.15 * low * 0.98):
                if not re.match(r"[\d~<>≈]", t) or re.search(r"\s{2,}|\t", t):
                    return True
        return False

    # -- characters and words, as pdfplumber's extract_words(x_tolerance=3, y_tolerance=3) would group them
    def words(self) -> list[dict]:
        """Words as pdfplumber's extract_words (x_tolerance 3, y_tolerance 3, split on size and font) makes
        them from its deduplicated characters; sizes and fonts from the text objects, as pdfminer sees them."""
        import ctypes
        R, tp = self.R, self.textpage.raw
        get_unicode, get_object, get_box = R.FPDFText_GetUnicode, R.FPDFText_GetTextObject, R.FPDFText_GetLooseCharBox
        objects, page_top, as_address = self.objects, self.top, ctypes.c_void_p
        rect = R.FS_RECTF()
        chars = []          # (top, x0, x1, bottom, size, font, text, starts_after_space)
        seen = set()
        brk = True
        for i in range(R.FPDFText_CountChars(tp)):
            u = get_unicode(tp, i)
            if u == 0 or u == 0xFFFE or u == 0xFFFF or chr(u).isspace():
                brk = True
                continue
            info = objects.get(ctypes.cast(get_object(tp, i), as_address).value or 0)
            if not get_box(tp, i, rect):
                brk = True
                continue
            size, font, bottom = info if info else (float(R.FPDFText_GetFontSize(tp, i)), "", None)
            if bottom is None:
                bottom = page_top - rect.bottom
            top = bottom - size
            key = (u, round(rect.left), round(top), size, font)     # pdfplumber's dedupe_chars
            if key in seen:
                continue
            seen.add(key)
            chars.append((top, rect.left, rect.right, bottom, size, font, chr(u), brk))
            brk = False
        chars.sort()
        lines: list[list[tuple]] = []
        for c in chars:
            if lines and c[0] - lines[-1][0][0] <= 3:
                lines[-1].append(c)
            else:
                lines.append([c])
        words = []
        for line in lines:
            line.sort(key=lambda c: c[1])
            cur: list[tuple] = []
            for c in line:
                if cur and (c[7] or c[1] > cur[-1][2] + 3 or c[4] != cur[-1][4] or c[5] != cur[-1][5]):
                    words.append(_word(cur))
                    cur = []
                cur.append(c)
            if cur:
                words.append(_word(cur))
        return words

    def segments(self):
        """read.layout's segments of this page, from pdfium's words and the tables pdfplumber would find."""
        from .layout import Item, build_page
        words = self.words()
        boxes, items = [], []
        for bbox, rows in self._tables(words):
            boxes.append(bbox)
            items.append(Item(*bbox, table=rows))
        for w in words:
            cx, cy = (w["x0"] + w["x1"]) / 2, (w["top"] + w["bottom"]) / 2
            if any(b[0] <= cx <= b[2] and b[1] <= cy <= b[3] for b in boxes):
                continue
            items.append(Item(w["x0"], w["top"], w["x1"], w["bottom"], text=w["text"], size=float(w["size"]),
                              bold=bool(BOLD.search(w["fontname"] or ""))))
        text, _, _ = build_page(items, self.page_no, 0, "")
        return text.segments

    def _tables(self, words):
        if len(self.edges) < 4:
            return []
        from pdfplumber.table import TableFinder

        from .layout import overlaps, table_rows

        class _Edges:       # all TableFinder reads of a page under the default "lines" strategy
            edges = self.edges
            bbox = (0, 0, 1e6, 1e6)

        try:
            tables = TableFinder(_Edges()).tables
        except Exception:
            return []
        out = []
        for t in tables:
            rows = table_rows(t, lambda cell: " ".join(w["text"] for w in words if overlaps(w, cell)))
            if rows and max(len(r) for r in rows) >= 2:
                out.append((t.bbox, rows))
        return out


def _word(chars: list[tuple]) -> dict:
    return {"text": "".join(c[6] for c in chars), "x0": min(c[1] for c in chars), "x1": max(c[2] for c in chars),
            "top": min(c[0] for c in chars), "bottom": max(c[3] for c in chars), "size": chars[0][4],
            "fontname": chars[0][5]}


@lru_cache(maxsize=64)
def _standard_descent(name: str) -> float | None:
    try:
        from pdfminer.fontmetrics import FONT_METRICS
    except ImportError:     # pragma: no cover
        return None
    metrics = FONT_METRICS.get(name)
    if not metrics or "Descent" not in metrics[0]:
        return None
    return float(metrics[0]["Descent"]) / 1000


def _matrix(obj, parent: tuple | None) -> tuple:
    """The object's matrix (a, b, c, d, e, f) to page space: its own, then its enclosing form's."""
    try:
        m = obj.get_matrix()
        own = (m.a, m.b, m.c, m.d, m.e, m.f)
    except Exception:
        own = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    if parent is None:
        return own
    a1, b1, c1, d1, e1, f1 = own
    a2, b2, c2, d2, e2, f2 = parent
    return (a1 * a2 + b1 * c2, a1 * b2 + b1 * d2, c1 * a2 + d1 * c2, c1 * b2 + d1 * d2,
            e1 * a2 + f1 * c2 + e2, e1 * b2 + f1 * d2 + f2)


def _addr(handle) -> int:
    import ctypes
    return ctypes.cast(handle, ctypes.c_void_p).value or 0


# ---------------------------------------------------------------------------------------------------------
# The plan

class Plan:
    """pdfium's view of a PDF: which pages hold figures, which have no text, and (on demand) their headings."""

    def __init__(self, pdf, limit: int):
        self.pdf = pdf
        self.n = len(pdf)
        self.limit = limit
        self.figures: set[int] = set()
        self.no_text: set[int] = set()
        self.has_text: set[int] = set()
        self.markers: dict[str, set[int]] = defaultdict(set)
        self.fabrics: dict[int, dict[str, int]] = {}     # page -> scale-up technology -> times its pattern matches
        self._predicted: dict[int, list] = {}
        for idx in range(limit):
            _check_deadline()
            self._scan(idx + 1)

    def _scan(self, page_no: int) -> None:
        try:
            page = self.pdf[page_no - 1]
        except Exception:
            self.figures.add(page_no)          # pdfium cannot open it: let pdfplumber say what it holds
            return
        try:
            tp = page.get_textpage()
            try:
                raw = _text_of(tp)
            finally:
                tp.close()
            solid = len(re.sub(r"\s+", "", raw))
            if solid:
                self.has_text.add(page_no)
            if solid == 0 or (solid < LITTLE_TEXT and self._has_image(page)):
                self.no_text.add(page_no)
            if solid and may_hold_figures(raw):
                self.figures.add(page_no)
            for ch in set(raw) & set(FOOTNOTE_MARKERS):
                self.markers[ch].add(page_no)
            hits = {name: len(rx.findall(raw)) for name, rx in _fabrics()}
            if any(hits.values()):
                self.fabrics[page_no] = {k: v for k, v in hits.items() if v}
        except Exception:
            self.figures.add(page_no)
        finally:
            page.close()

    @staticmethod
    def _has_image(page) -> bool:
        import pypdfium2.raw as R
        try:
            return any(True for _ in page.get_objects(filter=(R.FPDF_PAGEOBJ_IMAGE,), max_depth=8))
        except Exception:
            return True

    # -- headings of pages pdfplumber has not read
    def predicted(self, page_no: int, full: bool = False) -> list:
        """read.layout's segments of an unread page as predicted from pdfium ([] for a page without text).
        A page that cannot hold a heading is one stub segment, unless `full` asks for its segments."""
        segs = self._predicted.get(page_no)
        if segs is None or (full and segs and isinstance(segs[0], _Stub) and segs[0].kind != "heading"):
            _check_deadline()
            segs = []
            if page_no in self.has_text:
                try:
                    page = self.pdf[page_no - 1]
                    tp = page.get_textpage()
                    try:
                        lay = _PageLayout(page, tp, page_no)
                        if full or lay.may_hold_heading:
                            segs = lay.segments() or [_Stub(page_no)]
                        else:       # no heading possible; one segment stands for the page's text
                            segs = [_Stub(page_no)]
                    finally:
                        tp.close()
                        page.close()
                except Exception:
                    segs = [_Stub(page_no, "heading")]     # unknown: assume it may hold a heading
            self._predicted[page_no] = segs
        return segs

    # -- what to read
    def initial(self) -> set[int]:
        pages = set(self.figures) | set(self.no_text) | {1}
        view = _View(self, None, pages)
        pages |= view.head_pages()
        for p in sorted(self.figures):
            segs = self.predicted(p)
            first = next((i for i, s in enumerate(segs) if s.kind == "heading"), None)
            if first is None or any(may_hold_figures(s.text) for s in segs[:first]):
                pages |= view.heading_before(p)
        # the fabric vote, estimated from pattern matches (required() settles it from the segments read)
        seen: dict[str, int] = defaultdict(int)
        for p in pages:
            for name, n in self.fabrics.get(p, {}).items():
                seen[name] += n
        pages |= self._fabric_pages(seen, pages)
        return {p for p in pages if 1 <= p <= self.limit}

    def _fabric_pages(self, counted: dict[str, int], read: set[int]) -> set[int]:
        """Unread pages that can change which scale-up technology the sheet's segments name most
        (context.SheetContext.scale_up_technology): none when the leader of `counted` (the segments read)
        stays ahead of every other technology given all its matches on the unread pages."""
        unread: dict[str, int] = defaultdict(int)
        pages = set()
        for p, hits in self.fabrics.items():
            if p not in read and p <= self.limit:
                pages.add(p)
                for name, n in hits.items():
                    unread[name] += n
        if not pages:
            return set()
        if counted:
            lead, votes = max(counted.items(), key=lambda kv: kv[1])
            if votes > 0 and all(votes > counted.get(name, 0) + unread.get(name, 0)
                                 for name in set(counted) | set(unread) if name != lead):
                return set()
        return pages

    def required(self, doc, mentions, read: set[int]) -> set[int]:
        """Pages not yet read that the audit of `doc` (read from `read`) depends on."""
        view = _View(self, doc, read)
        need = view.head_pages()
        firsts: dict[int, int] = {}
        index = {id(s): i for i, s in enumerate(doc.segments)}
        for i, s in enumerate(doc.segments):
            if s.kind == "heading":
                firsts.setdefault(s.page, i)
        # the heading carried onto a page is the heading of its figures and groups its table cells into one
        # record (context.record_text) until the page's own first heading
        early = {s.page for i, s in enumerate(doc.segments)
                 if s.kind == "cell" and i < firsts.get(s.page, len(doc.segments))}
        for m in mentions:
            seg = m.segment
            if index.get(id(seg), -1) < firsts.get(seg.page, len(doc.segments)):
                early.add(seg.page)
            if m.marker:
                need |= self.markers.get(m.marker, set())
        for p in early:
            need |= view.heading_before(p)
        from ..classify import technology
        from ..context import SCALE_UP_TECHNOLOGIES
        counted: dict[str, int] = defaultdict(int)
        for s in doc.segments:
            name = technology(s.text)
            if name in SCALE_UP_TECHNOLOGIES:
                counted[name] += 1
        need |= self._fabric_pages(counted, read)
        return {p for p in need if 1 <= p <= self.limit} - read

    def close(self) -> None:
        try:
            self.pdf.close()
        except Exception:
            pass


class _Stub:
    """A predicted segment standing for the text of a page that cannot hold a heading."""
    text = ""

    def __init__(self, page: int, kind: str = "sentence"):
        self.page = page
        self.kind = kind


class _View:
    """Headings and segments per page: as pdfplumber read them where it did, as predicted elsewhere."""

    def __init__(self, plan: Plan, doc, read: set[int]):
        self.plan = plan
        self.read = read if doc is not None else set()
        self.actual: dict[int, list] = defaultdict(list)
        if doc is not None:
            for s in doc.segments:
                self.actual[s.page].append(s)

    def segs(self, p: int, full: bool = False) -> list:
        return self.actual.get(p, []) if p in self.read else self.plan.predicted(p, full)

    def head_pages(self) -> set[int]:
        """Unread pages that can change the title and the first three headings, or the first twelve segments
        when those headings name no kind of sheet (context.sheet_context)."""
        from ..context import KINDS
        need: set[int] = set()
        headings: list[str] = []
        for p in range(1, self.plan.limit + 1):
            if len(headings) >= HEAD_HEADINGS:
                break
            if p not in self.read and p not in self.plan.has_text:
                continue
            hs = [s.text for s in self.segs(p) if s.kind == "heading"]
            if hs and p not in self.read:
                need.add(p)
            headings += hs
        head = " ".join(headings[:1] + headings[:HEAD_HEADINGS])
        if headings and any(re.search(pat, head, re.I) for _, pat in KINDS):
            return need
        segments = 0
        for p in range(1, self.plan.limit + 1):
            if segments >= HEAD_SEGMENTS:
                break
            if p not in self.read and p not in self.plan.has_text:
                continue
            segs = self.segs(p, full=True)
            if segs and p not in self.read:
                need.add(p)
            segments += len(segs)
        return need

    def heading_before(self, p: int) -> set[int]:
        """The page whose last heading is in force at the top of page p, if it is not read."""
        for q in range(p - 1, 0, -1):
            if q not in self.read and q not in self.plan.has_text:
                continue
            if any(s.kind == "heading" for s in self.segs(q)):
                return set() if q in self.read else {q}
        return set()


# ---------------------------------------------------------------------------------------------------------
# Entry point for the pipeline

def read_selected(path, password: str | None = None, max_pages: int | None = None):
    """Read a long PDF's pages that matter; (Document, mentions), or None when the whole file must be read
    (not a PDF, short, unreadable by pdfium, or a page count pdfium and pdfminer disagree on)."""
    plan = open_plan(path, password, max_pages)
    if plan is None:
        return None
    from ..find import find_mentions
    from . import read_document
    try:
        selected = plan.initial()
        for _ in range(MAX_ROUNDS):
            if len(selected) >= plan.limit:
                return None
            doc = read_document(path, password=password, max_pages=max_pages, pages=selected)
            if doc.kind != "pdf" or doc.pages != plan.n:
                return None
            mentions = find_mentions(doc)
            more = plan.required(doc, mentions, selected)
            if not more:
                return doc, mentions
            selected |= more
        return None
    finally:
        plan.close()


def _short(data: bytes) -> bool:
    """True when the page tree's /Count says the file has fewer than MIN_PAGES pages. Only trusted when no
    object is compressed in an object stream, where a /Count could hide; an outline's /Count only errs long."""
    if b"/ObjStm" in data:
        return False
    counts = [int(c) for c in re.findall(rb"/Count\s+(\d{1,9})", data)]
    return bool(counts) and max(counts) < MIN_PAGES


def open_plan(path, password: str | None = None, max_pages: int | None = None) -> Plan | None:
    p = Path(path)
    try:
        st = p.stat()
        if not stat.S_ISREG(st.st_mode) or st.st_size > 512 * 2**20:
            return None
        with open(p, "rb") as fh:
            head = fh.read(1024)
            if b"%PDF-" not in head:
                return None
            if st.st_size <= SNIFF_BYTES and _short(head + fh.read()):
                return None     # saves importing pdfium (~30 ms) for a short sheet
    except OSError:
        return None
    try:
        import pypdfium2 as pdfium
        pdf = pdfium.PdfDocument(str(p), password=password or None)
    except Exception:
        return None
    try:
        n = len(pdf)
        limit = min(n, max_pages) if max_pages else n
        if limit < MIN_PAGES:
            pdf.close()
            return None
        return Plan(pdf, limit)
    except Exception:
        pdf.close()
        raise
