"""PDF pages -> words and ruled tables -> segments, every page read the same way, through pdfium (pypdfium2).

pdfium parses a page in C, and its text comes out in bulk (read.pdfium_page); ruled tables are found on the
edges pdfium draws by read.tables, pdfplumber's table-finding algorithm written out (pdfplumber itself is not
imported here: the tests hold read.tables to it, cell for cell). Pages are loaded one at a time and closed after use, so a 10,000-page file is
read in bounded memory; the per-file deadline (sheetaudit.limits) is checked between pages.

Long documents: the full layout (words, tables, reading order) costs about ten times pdfium's plain text of a
page. Given needs_layout (the pipeline passes one that runs the figure finder over the page's plain text), a
page past the opening ones whose plain text gives nothing is kept as one plain-text segment of kind "page"
(its words still reach the sheet-wide searches: technologies, RDMA, footprint; the finder skips it). The first
pages are always laid out (the title and the sheet's kind come from them); a laid-out page that follows plain
ones gets the heading in force from their layouts, read backwards until one sets a heading. The question is
asked only while it pays: while fewer than a quarter of the last eight pages asked about needed no layout (a
manual with a table on every page), only every eighth page, and the page after one that needed none, is asked
about: a stretch of pages without figures later in the document is still noticed.
"""

from __future__ import annotations

import re
from collections import deque
from pathlib import Path
from typing import Callable

from .. import regex_cache
from ..errors import EncryptedInput, InputTooLarge, MemoryLimitExceeded, SheetAuditError, UnreadableInput
from ..limits import MAX_PDF_PAGES, MAX_PHOTO_PIXELS, check_deadline, set_progress
from ..records import Document, Segment
from .layout import Item, build_page, display_lines

BOLD = regex_cache.compile(r"bold|black|heavy|semibold", re.I)
MOSTLY_IMAGE = 0.35  # a page this much covered by pictures, with little text, may print its table as a picture
LITTLE_TEXT = 200  # ... "little": fewer characters than this
DISPLAY_SIZE = 18.0  # points on a page as wide as A4: a title's type, not body text's or a datasheet's headings
A4_WIDTH = 595.0  # a slide 1440 points wide sets its body text at 18 points: type is judged against the page
PHOTO_DPI = 9  # a page drawn this small still tells a photograph from a document (read._photograph)
BACKGROUND_SHARE = 0.5  # a picture of a document: two neighbouring tones of sixteen cover at least this share
_TONE_BAND = bytes(v >> 4 for v in range(256))  # a grey level -> its band of sixteen
OPENING_PAGES = 3  # pages always laid out (title, first headings, what kind of sheet it is)
COVER_PAGES = 1  # of those, the first with text gives its display lines (where the product is named)
ASK_RECENT = 8  # asking pays while, of the last this many pages asked about, ...
ASK_PAYS = 2  # ... at least this many needed no layout; else only every ASK_RECENT-th page is asked
_NO_HEADING = "\x00"  # a heading no page prints: tells whether a page set one
# Stream filters are not encryption schemes: the name after /Filter that is neither names the security handler.
_STREAM_FILTERS = {
    b"FlateDecode",
    b"Fl",
    b"LZWDecode",
    b"ASCIIHexDecode",
    b"AHx",
    b"ASCII85Decode",
    b"A85",
    b"RunLengthDecode",
    b"DCTDecode",
    b"JPXDecode",
    b"CCITTFaxDecode",
    b"JBIG2Decode",
    b"Crypt",
    b"Standard",
}


def _unreadable(exc: BaseException, data: bytes, password: str | None) -> UnreadableInput:
    """One line that says what is wrong with the file, from pdfium's error code."""
    from . import pdfium_c as R

    code = getattr(exc, "err_code", None)
    if code == R.FPDF_ERR_PASSWORD:
        if password:
            return EncryptedInput("encrypted PDF: wrong password")
        return EncryptedInput("encrypted PDF, password needed (use --password)")
    if code == R.FPDF_ERR_SECURITY:
        handler = next(
            (
                m.group(1).decode("latin-1")
                for m in re.finditer(rb"/Filter\s*/([\w.#+-]+)", data)
                if m.group(1) not in _STREAM_FILTERS
            ),
            "",
        )
        return EncryptedInput(
            "encrypted PDF with an unsupported encryption scheme" + (f" ({handler})" if handler else "")
        )
    if isinstance(exc, MemoryError):
        return out_of_memory()
    if b"%%EOF" not in data[-4096:]:
        return UnreadableInput("damaged or truncated PDF (no end-of-file marker; pdfium cannot rebuild it)")
    if not re.search(rb"/Type\s*/Pages?\b", data):
        return UnreadableInput("damaged PDF, not repairable (no pages found)")
    return UnreadableInput("damaged PDF, not repairable (pdfium cannot parse its structure)")


def out_of_memory() -> MemoryLimitExceeded:
    """A limit of this run, not damage: the same file may read in full under a larger --max-memory."""
    return MemoryLimitExceeded("out of memory while reading the PDF (the memory limit was reached); raise --max-memory")


def _open(data: bytes, password: str | None):
    from .pdfium_page import open_pdf

    try:
        return open_pdf(data, password)
    except SheetAuditError:
        raise
    except Exception as exc:
        raise _unreadable(exc, data, password) from None


def read_pdf(
    path: Path,
    data: bytes,
    password: str | None = None,
    max_pages: int | None = None,
    only_pages: set[int] | None = None,
    ocr: bool = False,
    needs_layout: Callable[[str], bool] | None = None,
) -> Document:
    from .inflate import check_streams

    check_streams(data)  # a stream that inflates to gigabytes is refused before pdfium holds it
    pdf = _open(data, password)
    try:
        return _read(pdf, path, max_pages, only_pages, ocr, needs_layout)
    finally:
        set_progress("")
        try:
            pdf.close()
        except Exception:
            pass


def _read(pdf, path, max_pages, only_pages, ocr, needs_layout=None) -> Document:
    doc = Document(path=str(path), sha256="", pages=len(pdf), kind="pdf")
    n = doc.pages
    if n == 0:
        raise UnreadableInput("damaged PDF, not repairable (no pages found)")
    if n > MAX_PDF_PAGES and not max_pages and only_pages is None:
        raise InputTooLarge(
            f"the PDF has {n} pages, more than the {MAX_PDF_PAGES} sheetaudit reads whole; "
            "audit a part of it with --max-pages N"
        )
    limit = min(n, max_pages) if max_pages else n
    block, heading = 0, ""
    ocr_reader = None
    failed: list[int] = []
    plain_run: list[int] = []  # plain-text pages since the heading in force was last known
    known = ""  # ... the heading known before them (heading is _NO_HEADING meanwhile)
    title = ""  # the first page's heading in its largest type
    recent: deque[bool] = deque(maxlen=ASK_RECENT)  # the last pages asked about: was each kept as plain text?
    for page_no in range(1, limit + 1):
        check_deadline()
        if only_pages is not None and page_no not in only_pages:
            continue
        set_progress(f"reading page {page_no}")
        content = None
        try:
            content = pdf.page(page_no - 1)
            x0, top, x1, bottom = content.bbox
            doc.page_sizes[page_no] = (x1 - x0, bottom - top)
            if (
                needs_layout is not None
                and page_no > OPENING_PAGES
                and (len(recent) < ASK_RECENT or sum(recent) >= ASK_PAYS or recent[-1] or page_no % ASK_RECENT == 0)
            ):
                plain = _plain_text(content, needs_layout)
                recent.append(bool(plain))
                if plain:
                    if heading != _NO_HEADING:
                        known, heading = heading, _NO_HEADING
                    plain_run.append(page_no)
                    block += 1
                    doc.segments.append(Segment(text=plain, page=page_no, kind="page", heading=known, block=block))
                    continue
            words = content.words()
            image_only = not words
            if not image_only and sum(len(w.text) for w in words) < LITTLE_TEXT:
                # A page that is mostly a picture with a little text: its spec table may be the picture, unless
                # the picture is a photograph (a cover's title over a full-page photo is the whole page).
                # Telling draws the page, decoding its pictures: past MAX_PHOTO_PIXELS (a picture that inflates
                # to gigabytes) it is not drawn, and the page counts as one that may hold its table as a picture;
                # nor when every picture is black and white by its codec (a fax or JBIG2 scan is no photograph).
                # Neither is a page whose words are set in display type (a cover, a section divider, a slide)
                # or printed over its pictures (a background, a photograph's captions): its pictures illustrate
                # it, they are not a table printed as a picture under its heading.
                image_only = content.image_area / (((x1 - x0) * (bottom - top)) or 1.0) > MOSTLY_IMAGE and (
                    0 < content.images == content.bilevel_images
                    or (
                        max(w.size for w in words) * A4_WIDTH / ((x1 - x0) or A4_WIDTH) < DISPLAY_SIZE
                        and not _over_pictures(content.image_boxes, words)
                        and (content.image_pixels > MAX_PHOTO_PIXELS or not _photograph(content))
                    )
                )
            if image_only:
                doc.no_text_pages.append(page_no)
            items = _items(content, words)
            if items and page_no <= OPENING_PAGES and len({p for _, _, p in doc.cover}) < COVER_PAGES:
                doc.cover.extend((text, size, page_no) for text, size in display_lines(items))
            if items:
                text, block, end = build_page(items, page_no, block, heading)
                if heading == _NO_HEADING:
                    end = _settle(pdf, text.segments, end, plain_run, known, needs_layout)
                heading = end
                doc.segments.extend(text.segments)
                if text.title and not title:
                    title = text.title
                doc.footnotes.update(text.footnotes)
            if image_only and ocr:
                if ocr_reader is None:
                    from . import ocr as ocr_reader
                block, heading = ocr_reader.read_page(
                    content, page_no, doc, items, block, known if heading == _NO_HEADING else heading
                )
        except SheetAuditError:
            raise
        except Exception as exc:
            why = "out of memory" if isinstance(exc, MemoryError) else type(exc).__name__
            doc.notes.append(f"page {page_no} could not be read ({why})")
            doc.unread_pages[page_no] = why
            doc.limited = doc.limited or isinstance(exc, MemoryError)
            failed.append(page_no)
        finally:
            if content is not None:
                content.close()
    if only_pages is None and failed and len(failed) >= limit:
        last = doc.notes[-1].replace(" could not be read", "")
        if doc.unread_pages.get(failed[-1]) == "out of memory":
            raise out_of_memory()
        raise UnreadableInput(f"damaged PDF, not repairable (no page could be read; {last})")
    if limit < n:
        doc.notes.insert(0, f"read the first {limit} of {n} pages (--max-pages {max_pages})")
        doc.pages_read = limit
    doc.meta_title = pdf.meta("Title")
    if doc.segments:
        doc.title = (title or next((s.text for s in doc.segments if s.kind == "heading"), doc.segments[0].text))[:200]
    return doc


def _over_pictures(boxes, words) -> bool:
    """Most of the words (by characters) lie inside the pictures' boxes: they are printed over the pictures."""
    inside = sum(
        len(w.text)
        for w in words
        if any(a <= w.x0 and w.x1 <= c and b <= w.top and w.bottom <= d for a, b, c, d in boxes)
    )
    return 2 * inside > sum(len(w.text) for w in words)


def _photograph(content) -> bool:
    """The page, drawn small and in grey, is a photograph: no one tone covers most of it. A picture of a document
    (a scan, a pasted-in table) is mostly its background, white paper or a dark panel, whatever its text; a
    photograph's tones spread out. Drawn at PHOTO_DPI (an A4 page is 74 x 105 pixels) only for pages of little
    text that are mostly picture."""
    try:
        (pixels, width, height, stride), _, _ = content.render(PHOTO_DPI, grey=True)
    except Exception:  # noqa: BLE001 - a page pdfium cannot draw is taken as it was: maybe a document
        return False
    tones = b"".join(pixels[r * stride : r * stride + width] for r in range(height)) if stride != width else pixels
    tones = tones.translate(_TONE_BAND)
    counts = [tones.count(band) for band in range(16)]
    total = (width * height) or 1
    return max(a + b for a, b in zip(counts, counts[1:])) / total < BACKGROUND_SHARE


def _plain_text(content, needs_layout: Callable[[str], bool]) -> str:
    """The page's text on one line when it needs no layout, else ''. A page of little text is always laid out:
    it may be a picture of a table (doc.no_text_pages)."""
    text = content.text()
    plain = " ".join(text.split())
    if len(plain) < 2 * LITTLE_TEXT or needs_layout(text):
        return ""
    return plain


def _settle(pdf, segments, end: str, plain_run: list[int], known: str, needs_layout) -> str:
    """A page laid out after plain-text pages starts under a heading not known yet (_NO_HEADING). It is read
    from their layouts only where a segment that carries it can matter: a table cell (a page's cells under one
    heading are one record) or text that may hold a figure (a figure names its heading). The others get the
    heading known before the plain pages. Returns the heading in force at the end of the page (_NO_HEADING
    while still unknown; plain_run is emptied once it is known)."""
    inheriting = [s for s in segments if s.heading == _NO_HEADING]
    heading = None
    if any(s.kind == "cell" or needs_layout(s.text) for s in inheriting):
        heading = _heading_after(pdf, plain_run, known)
    for s in inheriting:
        s.heading = known if heading is None else heading
    if end == _NO_HEADING and heading is None:
        return _NO_HEADING
    plain_run.clear()
    return heading if end == _NO_HEADING else end


def _heading_after(pdf, pages: list[int], heading: str) -> str:
    """The heading in force after the plain-text pages: the last one set by the latest of them that sets one,
    read from its layout; else the one in force before them."""
    for page_no in reversed(pages):
        check_deadline()
        content = None
        try:
            content = pdf.page(page_no - 1)
            items = _items(content, content.words())
            if items:
                _, _, last = build_page(items, page_no, 0, _NO_HEADING)
                if last != _NO_HEADING:
                    return last
        except SheetAuditError:
            raise
        except Exception:  # noqa: BLE001 - a page that cannot be laid out sets no heading we can read
            continue
        finally:
            if content is not None:
                content.close()
    return heading


def _items(content, words) -> list[Item]:
    """The page's ruled tables, and its words outside them, as layout Items."""
    from .pdfium_page import tables

    items: list[Item] = []
    boxes = []
    for bbox, rows in tables(content, words):
        boxes.append(bbox)
        items.append(Item(*bbox, table=rows))
    if boxes:
        words = _outside(words, boxes)
    bold: dict[str, bool] = {}
    for w in words:  # the words are the layout's Items (read.pdfium_page.Word): only their bold flag is set
        font = w.fontname
        b = bold.get(font)
        if b is None:
            b = bold[font] = bool(BOLD.search(font or ""))
        w.bold = b
    items.extend(words)
    return items


def _outside(words, boxes: list[tuple]) -> list:
    """The words whose centre lies in none of the boxes (most lie above or below all of them: one test)."""
    top, bottom = min(b[1] for b in boxes), max(b[3] for b in boxes)
    out = []
    for w in words:
        cy = (w.top + w.bottom) / 2
        if top <= cy <= bottom:
            cx = (w.x0 + w.x1) / 2
            if any(b[0] <= cx <= b[2] and b[1] <= cy <= b[3] for b in boxes):
                continue
        out.append(w)
    return out
