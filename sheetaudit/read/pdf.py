"""PDF pages -> words and ruled tables -> segments (pdfplumber lives here and nowhere else)."""
from __future__ import annotations

import io
import logging
import re
from pathlib import Path

from ..errors import EncryptedInput, UnreadableInput
from ..model import Document
from .layout import Item, build_page

log = logging.getLogger(__name__)
BOLD = re.compile(r"bold|black|heavy|semibold", re.I)
# pdfminer warns on every damaged object it repairs; the audit reports the file, not each object.
for _name in ("pdfminer", "pdfplumber"):
    logging.getLogger(_name).setLevel(logging.ERROR)


def _open(data: bytes, password: str | None):
    import pdfplumber
    from pdfminer.pdfdocument import PDFPasswordIncorrect, PDFEncryptionError
    from pdfminer.pdfparser import PDFSyntaxError
    from pdfminer.psparser import PSException
    try:
        pdf = pdfplumber.open(io.BytesIO(data), password=password or "")
        pdf.pages  # forces the page tree to be parsed, where most damage shows
        return pdf
    except PDFPasswordIncorrect:
        if password:
            raise EncryptedInput("encrypted PDF: the password given is wrong") from None
        raise EncryptedInput("encrypted PDF: password needed (use --password)") from None
    except PDFEncryptionError as exc:
        raise EncryptedInput(f"encrypted PDF with an unsupported scheme: {exc}") from None
    except (PDFSyntaxError, PSException) as exc:
        raise UnreadableInput(f"damaged PDF, not repairable: {exc}") from None
    except Exception as exc:  # pdfminer raises bare exceptions of many kinds on broken files
        name = type(exc).__name__
        if "Password" in name or "Encrypt" in name:
            raise EncryptedInput("encrypted PDF: password needed (use --password)") from None
        raise UnreadableInput(f"damaged PDF, not repairable ({name}: {str(exc)[:120]})") from None


def _page_items(page) -> list[Item]:
    page = page.dedupe_chars(tolerance=1)
    items: list[Item] = []
    try:
        tables = page.find_tables()
    except Exception:   # a malformed drawing must not cost the page its text
        tables = []
    boxes = []
    for t in tables:
        try:
            rows = []
            for row in t.rows:
                cells = []
                for cell in row.cells:
                    if cell is None:
                        continue
                    text = page.crop(cell, strict=False).extract_text() or ""
                    cells.append((text.strip(), cell))
                if any(c for c, _ in cells):
                    rows.append(cells)
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
             only_pages: set[int] | None = None, ocr: bool = True) -> Document:
    pdf = _open(data, password)
    with pdf:
        n = len(pdf.pages)
        doc = Document(path=str(path), sha256="", pages=n, kind="pdf")
        limit = n if not max_pages else min(n, max_pages)
        if limit < n:
            doc.notes.append(f"read the first {limit} of {n} pages (--max-pages)")
        block, heading = 0, ""
        for idx in range(limit):
            page_no = idx + 1
            if only_pages is not None and page_no not in only_pages:
                continue
            page = pdf.pages[idx]
            try:
                doc.page_sizes[page_no] = (float(page.width), float(page.height))
                has_chars = bool(page.chars)
                has_images = bool(page.images)
                if not has_chars:
                    doc.no_text_pages.append(page_no)
                    continue
                if has_images and _mostly_image(page) and len(page.chars) < 200:
                    # A page that is mostly a picture with a little text: its spec table may be the picture.
                    doc.no_text_pages.append(page_no)
                items = _page_items(page)
                text, block, heading = build_page(items, page_no, block, heading)
                doc.segments.extend(text.segments)
                doc.footnotes.update(text.footnotes)
            except UnreadableInput:
                raise
            except Exception as exc:
                doc.notes.append(f"page {page_no} could not be read ({type(exc).__name__})")
            finally:
                page.close()
        if doc.segments:
            doc.title = next((s.text for s in doc.segments if s.kind == "heading"), doc.segments[0].text)[:200]
    return doc


def _mostly_image(page) -> bool:
    area = float(page.width * page.height) or 1.0
    covered = sum(max(0.0, (im["x1"] - im["x0"]) * (im["bottom"] - im["top"])) for im in page.images)
    return covered / area > 0.35
