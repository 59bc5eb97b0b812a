"""Checks on the sheet itself: pages without text, sheets without figures."""

from __future__ import annotations

from . import finding


def _how_many(pages: list[int]) -> str | None:
    return None if not pages else "one" if len(pages) == 1 else "many"


def no_text(doc):
    """Which pages have no text layer, whether OCR read them, and how to have them read when it did not."""
    missing = list(doc.no_text_pages)
    ocr_read = [p for p in missing if p in doc.ocr_pages]
    unread = [p for p in missing if p not in doc.ocr_pages]
    parts = {
        "head": "file" if len(missing) == doc.pages else _how_many(missing),
        "ocr": _how_many(ocr_read),
        "unread": (_how_many(unread) if ocr_read else "alone") if unread else None,
        "problem": bool(unread and doc.ocr_problem),
        "hint": bool(unread and not doc.ocr_problem and not ocr_read and doc.ocr_hint),
    }
    data = {
        "missing": missing,
        "ocr_read": ocr_read,
        "unread": unread,
        "ocr_problem": doc.ocr_problem or "",
        "ocr_hint": doc.ocr_hint or "",
        "no_text_pages": missing,
        "ocr_pages": list(doc.ocr_pages),
    }
    return finding("sheet.no-text", data=data, parts=parts)


def run(figs, sheet, doc, facility):
    out = []
    if doc.no_text_pages:
        out.append(no_text(doc))
        out[-1].pages = list(doc.no_text_pages)
    # a scale-up domain's size is a figure of the interconnect too (a table of how many processors each product joins)
    if not any(f.quantity in ("bandwidth", "latency", "power", "domain_size") for f in figs):
        out.append(finding("sheet.no-figures"))
    return out
