"""One PDF page through pdfium: its words, the edges of its ruled tables, and how much of it is a picture.

Words are grouped as pdfplumber's extract_words (x and y tolerance 3, split on size and font) grouped
pdfminer's characters, so read.layout sees the pages it was written for:

- a word is a run of non-space characters of pdfium's page text, taken with bulk calls (the page's text in
  one call; per word, the text object of its first and last character and their loose boxes) instead of
  ~4 ctypes calls per character. A run that crosses text objects (a superscript set in the same run) is
  read character by character;
- words are parted by their geometry, not only by printed spaces: many PDFs (LaTeX, a browser's print,
  converters) print no space glyph between words. Two pieces on one line in one font are one word only when
  the gap between them is at most WORD_GAP of the font size (poppler and pdfminer part words at a tenth of
  it); pdfplumber's fixed 3 points is 0.3 em of 10-point type, wider than the space of most fonts, and
  glued such words ("NVLinkdelivers1.8TB/s"). pdfium puts a space of its own (not printed) where a gap
  inside a text object reaches about half its font's space width (at most ~0.15 em), and the reader asks
  only between its runs: a run pdfium gave no space is one word unless it crosses text objects (then it is
  read character by character), so the common page costs no call more. Pieces pdfium parted with its own
  space that stand closer than WORD_GAP (a ligature's box, a letter-spaced date) are joined again;
- a word's size is its text object's font size scaled by the object's matrix, and its box runs from the
  baseline plus the font's descent up one size, as pdfminer sizes a character;
- edges are the horizontal and vertical segments of path objects (lines, rectangles, cell borders).
"""

from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass

from ..regex_cache import cached as compiled
from . import pdfium_c as R  # pdfium's C API (pypdfium2's helper layer costs ~20 ms of imports a run)
from .layout import Item

Y_TOLERANCE = 3.0  # pdfplumber's default line tolerance
# Where a word ends, as a share of the font size: real PDFs set words without a space glyph 0.16 em apart and
# more (a 16-point 'Data|Sheet' 0.159, a bullet and its text 0.175-0.185); pieces of one word that pdfium
# parts with a space of its own stand at most 0.12 em apart (a ligature 'confi|g' 0.081, a letter-spaced
# 6-point date 'J|u' 0.116), measured on every PDF of the corpus.
WORD_GAP = 0.13
LONG_RUN = 12  # a run of one text object this long (in characters, less one) is parted by its geometry
MAX_PATH_SEGMENTS = 50_000  # segments of path objects read for edges on one page (corpus pages: at most 2,219)
_WORD = compiled(r"[^\s\x00\ufffe\uffff]+")


@dataclass(slots=True)
class Word(Item):
    """A word as read.layout places it (an Item: the page is laid out from the words themselves, with no copy
    per word), with what pdfium tells of it. Its bold flag is set by the reader, which knows bold fonts."""

    fontname: str = ""
    first: int = 0  # index of its first character on pdfium's text page
    last: int = 0  # ... and of its last
    last_x0: float = 0.0  # where its last character starts

    def __getitem__(self, key):  # pdfplumber-style access: w["x0"] (layout.overlaps, the evidence crops)
        return getattr(self, key)


def _addr(handle) -> int:
    return ctypes.cast(handle, ctypes.c_void_p).value or 0


def _bare(fn, restype=ctypes.c_int):
    """pdfium's function fn without the binding's argument types: called with its handles (ctypes objects) and
    plain ints, ctypes converts nothing and a call costs ~0.25 us instead of ~0.5-0.65 us. A page of prose makes
    about five calls a word, most of the time of reading its words."""
    f = ctypes.CFUNCTYPE(restype)(_addr(fn))
    f.argtypes = None
    return f


# FPDFText_GetTextObject answering with the object's address as an int (the binding's pointer result would
# need a ctypes.cast per character to compare: a tenth of the time of reading a page of prose)
_object_at = _bare(R.FPDFText_GetTextObject, ctypes.c_size_t)
_loose_box = _bare(R.FPDFText_GetLooseCharBox)
_is_generated = _bare(R.FPDFText_IsGenerated)
# page objects, fonts and path segments come back as addresses (ints) and go in as c_void_p handles
_page_object = _bare(R.FPDFPage_GetObject, ctypes.c_size_t)
_form_object = _bare(R.FPDFFormObj_GetObject, ctypes.c_size_t)
_form_count = _bare(R.FPDFFormObj_CountObjects)
_object_type = _bare(R.FPDFPageObj_GetType)
_object_matrix = _bare(R.FPDFPageObj_GetMatrix)
_font_size = _bare(R.FPDFTextObj_GetFontSize)
_font_of = _bare(R.FPDFTextObj_GetFont, ctypes.c_size_t)
_segment_count = _bare(R.FPDFPath_CountSegments)
_segment = _bare(R.FPDFPath_GetPathSegment, ctypes.c_size_t)
_segment_point = _bare(R.FPDFPathSegment_GetPoint)
_segment_type = _bare(R.FPDFPathSegment_GetType)
_segment_closes = _bare(R.FPDFPathSegment_GetClose)
_image_size = _bare(R.FPDFImageObj_GetImagePixelSize)
_filter_count = _bare(R.FPDFImageObj_GetImageFilterCount)
_filter_name = _bare(R.FPDFImageObj_GetImageFilter, ctypes.c_ulong)
BILEVEL_CODECS = (b"CCITTFaxDecode", b"JBIG2Decode")  # black and white by their codec: a scan, never a photo


def _matrix(obj, parent: tuple | None, m) -> tuple:
    """The object's matrix (a, b, c, d, e, f) to page space: its own (read into m, an FS_MATRIX), then its
    enclosing form's."""
    own = (m.a, m.b, m.c, m.d, m.e, m.f) if _object_matrix(obj, ctypes.byref(m)) else (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    if parent is None:
        return own
    a1, b1, c1, d1, e1, f1 = own
    a2, b2, c2, d2, e2, f2 = parent
    return (
        a1 * a2 + b1 * c2,
        a1 * b2 + b1 * d2,
        c1 * a2 + d1 * c2,
        c1 * b2 + d1 * d2,
        e1 * a2 + f1 * c2 + e2,
        e1 * b2 + f1 * d2 + f2,
    )


# pdfminer sizes the characters of a standard-14 font (and of the Arial, Courier New and Times New Roman names
# it maps to them) from the font's AFM metrics, not from the font program: their descents, per point of size.
_AFM_DESCENT = {
    **{f"Courier{s}": -0.194 for s in ("", "-Bold", "-BoldOblique", "-Oblique")},
    **{f"Helvetica{s}": -0.207 for s in ("", "-Bold", "-BoldOblique", "-Oblique")},
    **{f"Times-{s}": -0.217 for s in ("Roman", "Bold", "BoldItalic", "Italic")},
    **{
        f"{family}{s}": d
        for family, d in (("Arial", -0.207), ("CourierNew", -0.194), ("TimesNewRoman", -0.217))
        for s in ("", ",Italic", ",Bold", ",BoldItalic")
    },
}


class PdfiumError(Exception):
    """pdfium refused a document or a page; err_code is FPDF_GetLastError()'s (R.FPDF_ERR_PASSWORD, ...)."""

    def __init__(self, what: str, err_code: int):
        super().__init__(f"{what} (pdfium error {err_code})")
        self.err_code = err_code


_initialised = False


class Pdf:
    """A PDF document held by pdfium, read from bytes (kept alive here while pdfium reads them)."""

    def __init__(self, data: bytes, password: str | None = None):
        global _initialised
        if not _initialised:
            R.FPDF_InitLibrary()
            _initialised = True
        self._data = data
        self.raw = R.FPDF_LoadMemDocument64(data, len(data), (password or "").encode("utf-8") or None)
        if not self.raw:
            raise PdfiumError("cannot load the document", R.FPDF_GetLastError())

    def __len__(self) -> int:
        return max(0, R.FPDF_GetPageCount(self.raw))

    def page(self, index: int) -> "PdfiumPage":
        handle = R.FPDF_LoadPage(self.raw, index)
        if not handle:
            raise PdfiumError(f"cannot load page {index + 1}", R.FPDF_GetLastError())
        return PdfiumPage(handle)

    def meta(self, key: str) -> str:
        """An entry of the document's Info dictionary ("Title"), '' where it has none."""
        try:
            tag = key.encode("ascii")
            n = R.FPDF_GetMetaText(self.raw, tag, None, 0)
            if n <= 2:
                return ""
            buf = ctypes.create_string_buffer(n)
            R.FPDF_GetMetaText(self.raw, tag, buf, n)
            return buf.raw[: n - 2].decode("utf-16-le", "replace").strip()
        except Exception:  # noqa: BLE001 - a damaged Info dictionary names nothing
            return ""

    def close(self) -> None:
        if self.raw:
            R.FPDF_CloseDocument(self.raw)
            self.raw = None


def _box(getter, page) -> tuple[float, float, float, float] | None:
    box = [ctypes.c_float() for _ in range(4)]
    if not getter(page, *(ctypes.byref(v) for v in box)):
        return None
    return tuple(float(v.value) for v in box)


def _pixels(image) -> int:
    """Width x height of an image object, read from its dictionary (the picture is not decoded)."""
    w, h = ctypes.c_uint(), ctypes.c_uint()
    if not _image_size(image, ctypes.byref(w), ctypes.byref(h)):
        return 0
    return w.value * h.value


def _bilevel(image) -> bool:
    """The picture is black and white by its codec (fax, JBIG2), read from its dictionary (not decoded)."""
    name = ctypes.create_string_buffer(32)
    for i in range(max(0, _filter_count(image))):
        if _filter_name(image, i, name, 32) and name.value in BILEVEL_CODECS:
            return True
    return False


class PdfiumPage:
    """A pdfium page's content in pdfplumber's coordinates (x from the left, top from the media box's top)."""

    def __init__(self, page):
        self.page = page
        self.textpage = None
        try:
            self._open(page)
        except BaseException:
            self.close()
            raise

    def _open(self, page) -> None:
        left, bottom, right, top = _box(R.FPDFPage_GetMediaBox, page) or (0.0, 0.0, 612.0, 792.0)
        if not (right > left and top > bottom) or not all(math.isfinite(v) for v in (left, bottom, right, top)):
            # pdfium lays out a page without a usable media box on its default page size
            left, bottom, right, top = 0.0, 0.0, R.FPDF_GetPageWidthF(page), R.FPDF_GetPageHeightF(page)
        self.top = top
        self.bbox = (left, 0.0, right, top - bottom)
        self.objects: dict[int, tuple] = {}  # text object address -> (size, font name, bottom or None)
        self.h_edges: list[tuple[float, float, float]] = []  # (top, x0, x1) of each horizontal segment
        self.v_edges: list[tuple[float, float, float]] = []  # (x, top, bottom) of each vertical one
        self.image_area = 0.0
        self.image_pixels = 0  # the pictures' pixels, from their dictionaries (none decoded)
        self.images = self.bilevel_images = 0  # pictures, and those black and white by their codec
        self.image_boxes: list[tuple[float, float, float, float]] = []  # each picture's (x0, top, x1, bottom)
        self._fonts: dict[int, tuple[str, float]] = {}
        self._segments = 0
        self._seen: set[tuple] = set()  # characters read one by one, to drop those printed twice in place
        self._rect = R.FS_RECTF()
        self._matrix = R.FS_MATRIX()
        self._rect_ref = ctypes.byref(self._rect)
        self.textpage = R.FPDFText_LoadPage(page)
        if not self.textpage:
            raise PdfiumError("cannot read the page's text", R.FPDF_GetLastError())
        self._scanned = False

    def scan(self) -> None:
        """Walk the page objects once: text sizes and fonts (for words), path edges (for tables), the area of
        pictures. words() does it first; a page kept as plain text (read.pdf) never needs it."""
        if not self._scanned:
            self._scanned = True
            self._scan(self.page)

    @property
    def crop(self) -> tuple[float, float, float, float]:
        """The crop box (what a viewer shows, and what render() draws) in the words' coordinates."""
        left, bottom, right, top = (
            _box(R.FPDFPage_GetCropBox, self.page)
            or _box(R.FPDFPage_GetMediaBox, self.page)
            or (self.bbox[0], 0.0, self.bbox[2], self.top)
        )
        return left, self.top - top, right, self.top - bottom

    def render(self, resolution: float, grey: bool = False):
        """The page at `resolution` dpi, with the position (x, top) of its top-left corner in the words' coordinates:
        (image, x, top). The image is a PIL image (RGB), or with grey=True pdfium's own 8-bit grey bitmap as
        (pixels, width, height, stride), for callers that need no colour and should not pay for importing PIL."""
        scale = resolution / 72.0
        width = max(1, round(R.FPDF_GetPageWidthF(self.page) * scale))
        height = max(1, round(R.FPDF_GetPageHeightF(self.page) * scale))
        bitmap = R.FPDFBitmap_CreateEx(width, height, R.FPDFBitmap_Gray if grey else R.FPDFBitmap_BGRx, None, 0)
        if not bitmap:
            raise MemoryError(f"no bitmap of {width} x {height} pixels")
        try:
            R.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, 0xFFFFFFFF)
            R.FPDF_RenderPageBitmap(
                bitmap, self.page, 0, 0, width, height, 0, R.FPDF_ANNOT | (R.FPDF_GRAYSCALE if grey else 0)
            )
            stride = R.FPDFBitmap_GetStride(bitmap)
            pixels = ctypes.string_at(R.FPDFBitmap_GetBuffer(bitmap), stride * height)
        finally:
            R.FPDFBitmap_Destroy(bitmap)
        x0, top, _, _ = self.crop
        if grey:
            return (pixels, width, height, stride), x0, top
        from PIL import Image

        return Image.frombuffer("RGBX", (width, height), pixels, "raw", "BGRX", stride, 1).convert("RGB"), x0, top

    def close(self) -> None:
        if self.textpage:
            R.FPDFText_ClosePage(self.textpage)
            self.textpage = None
        if self.page:
            R.FPDF_ClosePage(self.page)
            self.page = None

    # -- page objects: text sizes and fonts, path edges, image area
    def _objects(self, parent, count: int, get, outer: tuple | None = None, depth: int = 0):
        """(address, object, type, matrix to page space) of every page object, those of a form object (to a depth
        of 8) right after their form."""
        for i in range(max(0, count)):
            addr = get(parent, i)
            if not addr:
                continue
            obj = ctypes.c_void_p(addr)
            kind, m = _object_type(obj), _matrix(obj, outer, self._matrix)
            yield addr, obj, kind, m
            if kind == R.FPDF_PAGEOBJ_FORM and depth < 8:
                yield from self._objects(obj, _form_count(obj), _form_object, m, depth + 1)

    def _scan(self, page) -> None:
        size_ = ctypes.c_float()
        size_ref = ctypes.byref(size_)
        for addr, raw, kind, m in self._objects(page, R.FPDFPage_CountObjects(page), _page_object):
            if kind == R.FPDF_PAGEOBJ_TEXT:
                size = round(size_.value * (math.hypot(m[2], m[3]) or 1.0), 3) if _font_size(raw, size_ref) else 0.0
                font, descent = self._font(raw)
                # pdfminer's character box: from the baseline plus the font's descent, one font size high
                bottom = self.top - (m[5] + descent * size) if m[3] > 0 and abs(m[1]) < 1e-6 else None
                self.objects[addr] = (size, font, bottom)
            elif kind == R.FPDF_PAGEOBJ_PATH:
                self._path_edges(raw, m)
            elif kind == R.FPDF_PAGEOBJ_IMAGE:
                xs, ys = (
                    (m[0] + m[4], m[2] + m[4], m[4], m[0] + m[2] + m[4]),
                    (m[1] + m[5], m[3] + m[5], m[5], m[1] + m[3] + m[5]),
                )
                self.image_area += max(0.0, (max(xs) - min(xs)) * (max(ys) - min(ys)))
                self.image_boxes.append((min(xs), self.top - max(ys), max(xs), self.top - min(ys)))
                self.image_pixels += _pixels(raw)
                self.images += 1
                self.bilevel_images += _bilevel(raw)

    def _font(self, obj) -> tuple[str, float]:
        """The font's base name and its descent per point of size, as pdfminer reads it."""
        key = _font_of(obj)
        if key not in self._fonts:
            name, descent = "", -0.2
            if key:
                font = ctypes.cast(key, R.FPDF_FONT)
                n = R.FPDFFont_GetBaseFontName(font, None, 0)
                if n > 0:
                    buf = ctypes.create_string_buffer(n)
                    R.FPDFFont_GetBaseFontName(font, buf, n)
                    name = buf.value.decode("utf-8", "replace")
                afm = _AFM_DESCENT.get(name)
                if afm is not None:
                    descent = afm
                else:
                    d = ctypes.c_float()
                    if R.FPDFFont_GetDescent(font, ctypes.c_float(1.0), ctypes.byref(d)):
                        descent = d.value
            self._fonts[key] = (name, descent)
        return self._fonts[key]

    def _path_edges(self, obj, m: tuple) -> None:
        n = _segment_count(obj)
        self._segments += max(0, n)
        if n <= 0 or self._segments > MAX_PATH_SEGMENTS:
            return
        x, y = ctypes.c_float(), ctypes.c_float()
        px_, py_ = ctypes.byref(x), ctypes.byref(y)
        prev = start = None
        for i in range(n):
            seg = ctypes.c_void_p(_segment(obj, i))
            if not _segment_point(seg, px_, py_):
                continue
            pt = (m[0] * x.value + m[2] * y.value + m[4], m[1] * x.value + m[3] * y.value + m[5])
            if _segment_type(seg) == R.FPDF_SEGMENT_MOVETO:
                start = pt
            elif prev is not None:
                self._edge(prev, pt)
            prev = pt
            if start is not None and _segment_closes(seg):
                self._edge(pt, start)

    def _edge(self, a, b) -> None:
        (x0, y0), (x1, y1) = a, b
        if abs(y0 - y1) < 0.01 and abs(x0 - x1) >= 1:
            self.h_edges.append((self.top - y0, min(x0, x1), max(x0, x1)))
        elif abs(x0 - x1) < 0.01 and abs(y0 - y1) >= 1:
            self.v_edges.append((x0, self.top - max(y0, y1), self.top - min(y0, y1)))

    # -- text
    def text(self) -> str:
        """The page's characters, one per index of pdfium's text page ('' for an empty page)."""
        tp = self.textpage
        n = R.FPDFText_CountChars(tp)
        if n <= 0:
            return ""
        buf = (ctypes.c_ushort * (n + 1))()
        got = R.FPDFText_GetText(tp, 0, n, buf)
        text = bytes(memoryview(buf).cast("B")[: 2 * max(0, got - 1)]).decode("utf-16-le", "surrogatepass")
        if len(text) != n:  # pdfium left out or added a character, or a pair of surrogates joined: ask each
            text = "".join(chr(R.FPDFText_GetUnicode(tp, i)) for i in range(n))
        if "\ufffe" in text:  # pdfium's mark for a hyphen that ends a line (and for nothing else we read)
            text = "".join(
                "-" if ch == "\ufffe" and R.FPDFText_IsHyphen(tp, i) == 1 else ch for i, ch in enumerate(text)
            )
        return text

    def words(self) -> list[Word]:
        self.scan()
        text = self.text()
        if not text:
            return []
        tp, rect, ref, objects = self.textpage, self._rect, self._rect_ref, self.objects
        object_at, loose_box = _object_at, _loose_box
        words: list[Word] = []
        last: Word | None = None
        prev_end = -1
        for m in _WORD.finditer(text):
            s, e = m.span()
            e -= 1
            # Most runs are one text object drawn left to right: read here with four calls (written out, not
            # through _run and _piece: a page of prose has a few hundred of them). Any other run goes to _run.
            obj = object_at(tp, s)
            info = objects.get(obj) if s == e or obj == object_at(tp, e) else None
            if info is not None and info[2] is not None and loose_box(tp, s, ref):
                x0 = last_x0 = rect.left
                x1 = rect.right
                size, font, bottom = info
                if s == e or (
                    loose_box(tp, e, ref) and rect.left > x0 and rect.right - x0 >= 0.33 * size * (e - s + 1)
                ):
                    if s != e:
                        x1, last_x0 = rect.right, rect.left
                    if e - s < LONG_RUN:
                        w = Word(x0, bottom - size, x1, bottom, text[s : e + 1], size, False, None, font, s, e, last_x0)
                        if last is not None and _continues(last, w) and self._generated(prev_end, s):
                            _absorb(last, w)
                        else:
                            words.append(w)
                            last = w
                    else:
                        for k, w in enumerate(self._split(text, s, e, size, font, bottom)):
                            if last is not None and _continues(last, w) and (k > 0 or self._generated(prev_end, s)):
                                _absorb(last, w)
                            else:
                                words.append(w)
                                last = w
                    prev_end = e
                    continue
            for k, w in enumerate(self._run(text, s, e)):
                # a run parted from the previous one by pdfium's own space only (not a printed one) may join it
                if last is not None and _continues(last, w) and (k > 0 or self._generated(prev_end, s)):
                    _absorb(last, w)
                else:
                    words.append(w)
                    last = w
            prev_end = e
        return _dedupe(words)

    def _split(self, text: str, s: int, e: int, size: float, font: str, bottom: float) -> list[Word]:
        """A long run of one text object (LONG_RUN characters or more) as words parted by their geometry: a
        character more than WORD_GAP of the size right of the previous one's end, or left of its start, starts a
        word. pdfium's own spaces inside a text object come at about half the font's space width; this finds
        the words it leaves glued when a line is set without space glyphs at a tighter gap (one call a
        character, only for runs this long: most words are shorter)."""
        tp, rect, ref = self.textpage, self._rect, self._rect_ref
        tol = WORD_GAP * (size or 10.0)
        out: list[Word] = []
        start, x0 = s, None
        for i in range(s, e + 1):
            if not _loose_box(tp, i, ref):
                continue
            left, right = rect.left, rect.right
            if x0 is None:
                x0, prev_left, x1 = left, left, right
                continue
            if left < prev_left or left > x1 + tol:
                out.append(
                    Word(x0, bottom - size, x1, bottom, text[start:i], size, False, None, font, start, i - 1, prev_left)
                )
                start, x0, x1 = i, left, right
            prev_left = left
            if right > x1:
                x1 = right
        if x0 is not None:
            out.append(
                Word(x0, bottom - size, x1, bottom, text[start : e + 1], size, False, None, font, start, e, prev_left)
            )
        return out

    def _generated(self, prev_end: int, s: int) -> bool:
        """The characters between two runs are all pdfium's own (a space it put in, not one printed)."""
        tp = self.textpage
        if s - prev_end == 2:
            return _is_generated(tp, s - 1) == 1
        return all(_is_generated(tp, i) == 1 for i in range(prev_end + 1, s))

    def _piece(self, text: str, a: int, b: int, obj: int) -> Word | None:
        """Characters a..b of one text object, as one word."""
        tp, rect, ref = self.textpage, self._rect, self._rect_ref
        if not _loose_box(tp, a, ref):
            return None
        x0, x1, box_bottom, last_x0 = rect.left, rect.right, rect.bottom, rect.left
        if b != a and _loose_box(tp, b, ref):
            x1, last_x0 = rect.right, rect.left
        info = self.objects.get(obj)
        size, font, bottom = info if info else (float(R.FPDFText_GetFontSize(tp, a)), "", None)
        if bottom is None:
            bottom = self.top - box_bottom
        return Word(x0, bottom - size, x1, bottom, text[a : b + 1], size, False, None, font, a, b, last_x0)

    def _run(self, text: str, s: int, e: int) -> list[Word]:
        """A run of non-space characters as words: one, read with a handful of calls, when it is one text object
        drawn left to right; else character by character (a superscript in another object, a word printed twice
        in place for a bold look), as pdfplumber would group the characters after dropping repeated ones."""
        tp = self.textpage
        obj = _object_at(tp, s)
        if s == e or obj == _object_at(tp, e):
            w = self._piece(text, s, e, obj)
            # a run half as wide as its characters need is printed twice over (or is all narrow letters)
            if w is None or s == e or (w.last_x0 > w.x0 and w.x1 - w.x0 >= 0.33 * w.size * (e - s + 1)):
                return (w,) if w else ()
        out: list[Word] = []
        for i in range(s, e + 1):
            w = self._piece(text, i, i, _object_at(tp, i) or 0)
            if w is None:
                continue
            key = (w.text, round(w.x0), round(w.top), w.size, w.fontname)  # pdfplumber's dedupe_chars
            if key in self._seen:
                continue
            self._seen.add(key)
            if out and _continues(out[-1], w):
                _absorb(out[-1], w)
            else:
                out.append(w)
        return out

    def chars(self, word: Word) -> list[dict]:
        """A word's characters with their boxes (for the evidence crops: one call per character, few words)."""
        tp = self.textpage
        rect = R.FS_RECTF()
        out = []
        for i in range(word.first, word.last + 1):
            u = R.FPDFText_GetUnicode(tp, i)
            if u in (0, 0xFFFE, 0xFFFF) or chr(u).isspace() or not R.FPDFText_GetLooseCharBox(tp, i, rect):
                continue
            out.append(
                {
                    "text": "-" if u == 2 else chr(u),
                    "x0": rect.left,
                    "x1": rect.right,
                    "top": word.top,
                    "bottom": word.bottom,
                }
            )
        return out


def _continues(last: Word, w: Word) -> bool:
    """pdfplumber's rule with a tolerance relative to the font size: a character continues a word unless it
    starts left of the previous character's start or more than WORD_GAP of the size right of its end, or sits
    on another line, or changes size or font."""
    return (
        last.size == w.size
        and last.fontname == w.fontname
        and abs(last.top - w.top) <= Y_TOLERANCE
        and last.last_x0 <= w.x0 <= last.x1 + WORD_GAP * (last.size or 10.0)
    )


def _absorb(last: Word, w: Word) -> None:
    last.text += w.text
    last.x1, last.last_x0, last.last = max(last.x1, w.x1), w.last_x0, w.last
    last.top, last.bottom = min(last.top, w.top), max(last.bottom, w.bottom)


def _dedupe(words: list[Word]) -> list[Word]:
    """Words printed twice in place (a bold look, a layer drawn twice) kept once, as pdfplumber's dedupe_chars
    keeps one of the characters of the same text, font and size within a point of each other."""
    keys = [(w.text, round(w.x0), round(w.top), w.size, w.fontname) for w in words]
    if len(set(keys)) == len(keys):
        return words
    seen: set[tuple] = set()
    out = []
    for w in words:
        key = (w.text, round(w.x0), round(w.top), w.size, w.fontname)
        if key not in seen:
            seen.add(key)
            out.append(w)
    return out


# The share of the words inside a ruled table's box that may lie in none of its cells (a stray footnote mark)
STRAY_WORDS = 0.05


def tables(page: PdfiumPage, words: list[Word]) -> list[tuple[tuple, list]]:
    """The page's ruled tables (read.tables): [(bbox, rows of (cell text, cell box))], rows without text and
    tables of one column left out."""
    from .tables import find_tables

    out = []
    for bbox, grid in find_tables(page.h_edges, page.v_edges):
        # a word belongs to the cell that holds its centre (pdfplumber, by character, may part a word that runs
        # over a cell's border between two cells)
        x0, top, x1, bottom = bbox
        centres = [
            ((w.x0 + w.x1) / 2, (w.top + w.bottom) / 2, w)
            for w in words
            if w.x1 > x0 and w.x0 < x1 and w.bottom > top and w.top < bottom
        ]
        rows = []
        placed = 0
        for row in grid:
            row = [c for c in row if c]
            row_top, row_bottom = min(c[1] for c in row), max(c[3] for c in row)
            band = [(x, y, w) for x, y, w in centres if row_top <= y <= row_bottom]
            cells = []
            for c in row:
                held = [w for x, y, w in band if c[0] <= x <= c[2] and c[1] <= y <= c[3]]
                placed += len(held)
                cells.append((cell_text(held), c))
            if any(text for text, _ in cells):
                rows.append(cells)
        # Rules that box only part of a grid (one model's column highlighted in a table of four) leave words
        # inside the box in no cell: the rules do not describe the table, so its words are laid out as words.
        if rows and max(len(r) for r in rows) >= 2 and len(centres) - placed <= STRAY_WORDS * len(centres):
            out.append((bbox, rows))
    return out


def cell_text(words: list[Word]) -> str:
    """A cell's words as pdfplumber's extract_text lays them out: lines top to bottom, words left to right."""
    lines: list[list[Word]] = []
    for w in sorted(words, key=lambda w: (w.top, w.x0)):
        if lines and w.top - lines[-1][0].top <= Y_TOLERANCE:
            lines[-1].append(w)
        else:
            lines.append([w])
    return "\n".join(" ".join(w.text for w in sorted(ln, key=lambda w: w.x0)) for ln in lines).strip()


def open_pdf(source, password: str | None = None) -> Pdf:
    """A document from a path or bytes (PdfiumError when pdfium refuses it)."""
    if not isinstance(source, (bytes, bytearray)):
        with open(source, "rb") as fh:
            source = fh.read()
    return Pdf(bytes(source), password)
