"""PDF pages -> words and ruled tables -> segments (pdfplumber lives here and nowhere else).

Pages are taken from the page tree one at a time and closed after use, and pdfminer's object cache is
emptied between pages, so a 10,000-page file is read in bounded memory; the per-file deadline
(sheetaudit.limits) is checked between pages.
"""
from __future__ import annotations

import io
import logging
import re
from pathlib import Path

from ..errors import EncryptedInput, MemoryLimitExceeded, SheetAuditError, UnreadableInput
from ..limits import check_deadline, set_progress
from ..model import Document
from .layout import Item, build_page, overlaps, table_rows

log = logging.getLogger(__name__)
BOLD = re.compile(r"bold|black|heavy|semibold", re.I)
# pdfminer warns on every damaged object it repairs; the audit reports the file, not each object.
for _name in ("pdfminer", "pdfplumber"):
    logging.getLogger(_name).setLevel(logging.ERROR)


def _unwrap(exc: BaseException) -> BaseException:
    """pdfplumber wraps pdfminer's exceptions in PdfminerException(original)."""
    for _ in range(3):
        if type(exc).__name__ == "PdfminerException" and exc.args and isinstance(exc.args[0], BaseException):
            exc = exc.args[0]
        else:
            break
    return exc


def _unreadable(exc: BaseException, data: bytes, password: str | None) -> UnreadableInput:
    """One line that says what is wrong with the file, from whatever pdfminer raised."""
    from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect
    from pdfminer.psexceptions import PSEOF
    exc = _unwrap(exc)
    name = type(exc).__name__
    if isinstance(exc, SheetAuditError):        # the time limit's alarm, raised inside pdfminer and wrapped by it
        return exc
    if isinstance(exc, PDFPasswordIncorrect) or "Password" in name:
        if password:
            return EncryptedInput("encrypted PDF: wrong password")
        return EncryptedInput("encrypted PDF, password needed (use --password)")
    if isinstance(exc, PDFEncryptionError) or "Encrypt" in name:
        return EncryptedInput(f"encrypted PDF with an unsupported encryption scheme ({_detail(exc)})")
    if isinstance(exc, RecursionError):
        return UnreadableInput("damaged PDF, not repairable (objects nested without end)")
    if isinstance(exc, MemoryError):
        return out_of_memory()
    truncated = isinstance(exc, PSEOF) or b"%%EOF" not in data[-4096:]
    what = "damaged or truncated PDF" if truncated else "damaged PDF, not repairable"
    detail = _detail(exc)
    return UnreadableInput(f"{what} ({detail})" if detail else what)


def out_of_memory() -> MemoryLimitExceeded:
    """A limit of this run, not damage: the same file may read in full under a larger --max-memory."""
    return MemoryLimitExceeded("out of memory while reading the PDF (the memory limit was reached); "
                               "raise --max-memory")


def _detail(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    text = text.replace("Is this really a PDF?", "").strip(" -!")
    # "Invalid dictionary construct: [/'ID', [b'\xb0...": the words say it; the dump of the object does not
    head = re.match(r"([^:\[\]<>{}]{3,80}?):\s*(?:[\[<({]|b'|\w+=\{)", text)
    if head:
        text = head.group(1)
    if len(text) < 8 or text.replace("'", "").isdigit():
        return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return text[:120] + ("..." if len(text) > 120 else "")


def _open(data: bytes, password: str | None):
    import pdfplumber
    try:
        return pdfplumber.open(io.BytesIO(data), password=password or "")
    except SheetAuditError:
        raise
    except Exception as exc:  # pdfminer raises exceptions of many kinds on broken files
        raise _unreadable(exc, data, password) from None


def _iter_pages(pdf):
    """pdfplumber's PDF.pages, one page at a time (PDF.pages builds every page of the file up front).

    Yields (page_number, Page, None), or (page_number, None, exception) for a page that cannot be set up.
    An exception from the page tree itself ends the iteration by propagating.
    """
    from pdfminer.pdfpage import PDFPage
    from pdfplumber.page import Page
    doctop = 0
    for i, page_obj in enumerate(PDFPage.create_pages(pdf.doc)):
        try:
            page = Page(pdf, page_obj, page_number=i + 1, initial_doctop=doctop)
            doctop += page.height
        except Exception as exc:
            yield i + 1, None, exc
            continue
        yield i + 1, page, None


def _forget_objects(pdf) -> None:
    """Empty pdfminer's parsed-object caches: they would otherwise hold every page's decoded streams."""
    doc = getattr(pdf, "doc", None)
    for attr in ("_cached_objs", "_parsed_objs"):
        cache = getattr(doc, attr, None)
        if isinstance(cache, dict):
            cache.clear()


def _dedupe_chars(page, tolerance: float = 1):
    """page.dedupe_chars(tolerance=tolerance), in the same order, without its cost: pdfplumber puts the kept
    characters back in page order with list.index, which is quadratic in the characters of a page (a third
    of the time of reading a dense page)."""
    import itertools
    from operator import itemgetter

    from pdfplumber.utils import cluster_objects
    key = itemgetter("upright", "text", "fontname", "size")
    first = itemgetter("doctop", "x0")
    keep = set()
    for _, same in itertools.groupby(sorted(page.chars, key=key), key=key):
        for line in cluster_objects(list(same), itemgetter("doctop"), tolerance):
            for spot in cluster_objects(line, itemgetter("x0"), tolerance):
                keep.add(id(min(spot, key=first)))
    return page.filter(lambda obj: obj.get("object_type") != "char" or id(obj) in keep)


def _page_items(page) -> list[Item]:
    from pdfplumber.utils import extract_text
    page = _dedupe_chars(page, tolerance=1)
    items: list[Item] = []
    try:
        tables = page.find_tables()
    except Exception:   # a malformed drawing must not cost the page its text
        tables = []
    boxes = []
    for t in tables:
        try:
            # Each cell's text from the table's own characters that overlap it; cropping the page per cell
            # would clip every object on the page once per cell (the bulk of a short sheet's reading time).
            chars = page.crop(t.bbox, strict=False).chars

            def text_of(cell, chars=chars):
                inside = [c for c in chars if overlaps(c, cell)]
                return (extract_text(inside) if inside else "").strip()
            rows = table_rows(t, text_of)
        except Exception:
            continue
        if not rows or max(len(r) for r in rows) < 2:
            continue
        x0, top, x1, bottom = t.bbox
        boxes.append(t.bbox)
        items.append(Item(x0, top, x1, bottom, table=rows))
    for w in page.extract_words(extra_attrs=["size", "fontname"], keep_blank_chars=False):
        cx, cy = (w["x0"] + w["x1"]) / 2, (w["top"] + w["bottom"]) / 2
        if any(b[0] <= cx <= b[2] and b[1] <= cy <= b[3] for b in boxes):
            continue
        items.append(Item(w["x0"], w["top"], w["x1"], w["bottom"], text=w["text"], size=float(w["size"]),
                          bold=bool(BOLD.search(w.get("fontname") or ""))))
    return items


def read_pdf(path: Path, data: bytes, password: str | None = None, max_pages: int | None = None,
             only_pages: set[int] | None = None, ocr: bool = False) -> Document:
    pdf = _open(data, password)
    try:
        return _read(pdf, path, data, password, max_pages, only_pages, ocr)
    finally:
        set_progress("")
        try:
            pdf.flush_cache()
            _forget_objects(pdf)
            if not pdf.stream_is_external:
                pdf.stream.close()
        except Exception:
            pass


def _read(pdf, path, data, password, max_pages, only_pages, ocr) -> Document:
    doc = Document(path=str(path), sha256="", pages=0, kind="pdf")
    block, heading = 0, ""
    n = 0
    pages = _iter_pages(pdf)
    ocr_reader = None
    failed: list[int] = []
    while True:
        check_deadline()
        try:
            page_no, page, bad = next(pages)
        except StopIteration:
            break
        except SheetAuditError:
            raise
        except Exception as exc:
            if n == 0:
                raise _unreadable(exc, data, password) from None
            doc.notes.append(f"the page tree is damaged after page {n}; later pages were not read "
                             f"({type(_unwrap(exc)).__name__})")
            break
        n = page_no
        if max_pages and page_no > max_pages:
            _forget_objects(pdf) if page_no % 200 == 0 else None
            continue            # count the pages that are not read, nothing more
        if bad is not None:
            doc.notes.append(f"page {page_no} could not be read ({type(_unwrap(bad)).__name__})")
            failed.append(page_no)
            continue
        if only_pages is not None and page_no not in only_pages:
            continue
        set_progress(f"reading page {page_no}")
        try:
            doc.page_sizes[page_no] = (float(page.width), float(page.height))
            has_chars = bool(page.chars)
            has_images = bool(page.images)
            image_only = not has_chars
            if image_only:
                doc.no_text_pages.append(page_no)
            elif has_images and _mostly_image(page) and len(page.chars) < 200:
                # A page that is mostly a picture with a little text: its spec table may be the picture.
                doc.no_text_pages.append(page_no)
                image_only = True
            items = [] if not has_chars else _page_items(page)
            if items:
                text, block, heading = build_page(items, page_no, block, heading)
                doc.segments.extend(text.segments)
                doc.footnotes.update(text.footnotes)
            if image_only and ocr:
                if ocr_reader is None:
                    from . import ocr as ocr_reader
                block, heading = ocr_reader.read_page(page, page_no, doc, items, block, heading)
        except SheetAuditError:
            raise
        except Exception as exc:
            exc = _unwrap(exc)
            if isinstance(exc, SheetAuditError):    # the time limit's alarm inside pdfplumber: not this page's fault
                raise exc from None
            why = "out of memory" if isinstance(exc, MemoryError) else type(exc).__name__
            doc.notes.append(f"page {page_no} could not be read ({why})")
            failed.append(page_no)
        finally:
            page.close()
            del page
            _forget_objects(pdf)
    doc.pages = n
    if n == 0:
        raise UnreadableInput("damaged PDF, not repairable (no pages found)")
    tried = min(n, max_pages) if max_pages else n
    if only_pages is None and failed and len(failed) >= tried:
        last = doc.notes[-1].replace(" could not be read", "")
        if last.endswith("(out of memory)"):
            raise out_of_memory()
        raise UnreadableInput(f"damaged PDF, not repairable (no page could be read; {last})")
    limit = min(n, max_pages) if max_pages else n
    if limit < n:
        doc.notes.insert(0, f"read the first {limit} of {n} pages (--max-pages {max_pages})")
    if doc.segments:
        doc.title = next((s.text for s in doc.segments if s.kind == "heading"), doc.segments[0].text)[:200]
    return doc


def _mostly_image(page) -> bool:
    area = float(page.width * page.height) or 1.0
    covered = sum(max(0.0, (im["x1"] - im["x0"]) * (im["bottom"] - im["top"])) for im in page.images)
    return covered / area > 0.35
