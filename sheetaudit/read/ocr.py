"""Optional OCR of image-only pages (the `ocr` extra: pytesseract, with Debian's tesseract-ocr and
tesseract-ocr-chi-sim for Chinese sheets).

An image-only page is rendered at 300 dpi, its words are read by tesseract with their boxes, and the words go
through the same layout as a text page (build_page), so a scanned spec table still yields labelled cells.
Every segment read this way is marked `ocr=True`, and the page is listed in `doc.ocr_pages`, so the
report can tell OCR-read figures from printed ones. OCR is opt-in (`sheetaudit check --ocr`): an OCR
misreading is a wrong figure, and the audit never guesses silently.
"""

from __future__ import annotations

import re
import shutil
from functools import lru_cache

from ..limits import remaining
from ..records import Document
from .layout import Item, build_page

RESOLUTION = 300
MIN_CONFIDENCE = 40  # tesseract's word confidence (0-100); below it a "word" is mostly noise
HOW_TO_ENABLE = (
    "pip install 'sheetaudit[ocr]' and Debian's tesseract-ocr and tesseract-ocr-chi-sim, then rerun with --ocr"
)


# tesseract's usual misreadings of spec-sheet words: a lower-case l for the I of PCIe, the letter O in a number.
_PCIE = re.compile(r"^PC[lI1|]e(?=$|[\s,.;:)])")
_NUMBERISH = re.compile(r"^[\dOo,.]*\d[\dOo,.]*$")


def fix_word(word: str) -> str:
    """Undo the OCR confusions that would cost a figure its meaning ('PCle Gen4' is not PCIe to the rules)."""
    word = _PCIE.sub("PCIe", word)
    if _NUMBERISH.match(word) and any(c in word for c in "Oo"):
        word = word.replace("O", "0").replace("o", "0")
    return word


@lru_cache(maxsize=1)
def status() -> tuple[bool, str]:
    """(available, why not): OCR needs the pytesseract module and the tesseract program."""
    try:
        import pytesseract
    except ImportError:
        return False, "the OCR extra is not installed"
    cmd = getattr(pytesseract.pytesseract, "tesseract_cmd", "tesseract")
    if not shutil.which(cmd):
        return False, "the tesseract program is not installed"
    try:
        pytesseract.get_tesseract_version()
    except Exception as exc:  # a broken install
        return False, f"tesseract does not run ({type(exc).__name__})"
    return True, ""


def available() -> bool:
    return status()[0]


@lru_cache(maxsize=1)
def languages() -> str:
    import pytesseract

    try:
        have = set(pytesseract.get_languages(config=""))
    except Exception:
        have = set()
    langs = [lang for lang in ("eng", "chi_sim") if lang in have]
    return "+".join(langs) or "eng"


def ocr_items(
    image, x_offset: float = 0.0, y_offset: float = 0.0, scale: float = 72.0 / RESOLUTION, timeout: float | None = None
) -> list[Item]:
    """Words tesseract reads in a PIL image, as layout Items in PDF points (scale: points per pixel)."""
    import pytesseract

    data = pytesseract.image_to_data(
        image.convert("L"),
        lang=languages(),
        config="--psm 3",
        output_type=pytesseract.Output.DICT,
        timeout=timeout or 0,
    )
    lines: dict[tuple, list[int]] = {}
    for i, word in enumerate(data["text"]):
        try:
            conf = float(data["conf"][i])
        except (TypeError, ValueError):
            conf = -1.0
        if not word or not word.strip() or conf < MIN_CONFIDENCE:
            continue
        key = (data["block_num"][i], data["par_num"][i], data["line_num"][i])
        lines.setdefault(key, []).append(i)
    items: list[Item] = []
    for idx in lines.values():
        # One font size per line: tesseract's word boxes hug the glyphs, so a word without ascenders is short.
        height = max(data["height"][i] for i in idx) * scale
        size = max(4.0, height / 0.9)
        for i in idx:
            x0 = x_offset + data["left"][i] * scale
            top = y_offset + data["top"][i] * scale
            items.append(
                Item(
                    x0,
                    top,
                    x0 + data["width"][i] * scale,
                    top + data["height"][i] * scale,
                    text=fix_word(data["text"][i].strip()),
                    size=round(size, 1),
                )
            )
    return items


def read_page(page, page_no: int, doc: Document, text_items: list[Item], block: int, heading: str):
    """OCR one image-only page into doc (segments marked ocr=True); returns (block, heading). `page` renders
    itself: page.render(resolution) -> (PIL image, x offset, top offset) in points (read.pdfium_page).

    Words that fall on words of the page's own text layer are dropped: those were read already.
    When OCR is not available, or fails, a note says so and the page stays listed in doc.no_text_pages.
    """
    ok, why = status()
    if not ok:
        note = f"OCR was asked for but {why}: {HOW_TO_ENABLE}"
        if note not in doc.notes:
            doc.notes.append(note)
        doc.ocr_problem = doc.ocr_problem or note
        return block, heading
    t = None
    try:
        image, x0, top = page.render(RESOLUTION)
        t = remaining()
        items = ocr_items(image, x0, top, timeout=max(1.0, t) if t is not None else None)
    except Exception as exc:
        note = f"OCR failed on page {page_no} ({type(exc).__name__}: {str(exc)[:80]})"
        doc.notes.append(note)
        doc.ocr_problem = doc.ocr_problem or note
        # cut short by this run's memory, or by the time left to the audit (tesseract's own timeout): not the file's
        doc.limited = (
            doc.limited
            or isinstance(exc, (MemoryError, TimeoutError))
            or (t is not None and "timeout" in str(exc).lower())
        )
        return block, heading
    finally:
        image = None
    boxes = [(i.x0, i.top, i.x1, i.bottom) for i in text_items]
    items = [
        i
        for i in items
        if not any(b[0] <= (i.x0 + i.x1) / 2 <= b[2] and b[1] <= (i.top + i.bottom) / 2 <= b[3] for b in boxes)
    ]
    doc.ocr_pages.append(page_no)
    if not items:
        return block, heading
    text, block, heading = build_page(items, page_no, block, heading)
    for seg in text.segments:
        seg.ocr = True
    doc.segments.extend(text.segments)
    for marker, note in text.footnotes.items():
        doc.footnotes.setdefault(marker, note)
    return block, heading
