"""Checks on the sheet itself: pages without text, sheets without figures."""

from __future__ import annotations

from . import finding


def _pages(pages: list[int]) -> str:
    return f"page{'s' if len(pages) > 1 else ''} {', '.join(str(p) for p in pages)}"


def no_text_message(doc) -> str:
    """Which pages have no text layer, whether OCR read them, and how to have them read when it did not."""
    missing = list(doc.no_text_pages)
    whole = len(missing) == doc.pages
    n = len(missing)
    what = "The whole file has" if whole else f"{_pages(missing).capitalize()} ha{'ve' if n > 1 else 's'}"
    msg = f"{what} no text layer (scanned or image-only)"
    ocr_read = [p for p in missing if p in doc.ocr_pages]
    unread = [p for p in missing if p not in doc.ocr_pages]
    if ocr_read:
        msg += (
            f"; {_pages(ocr_read)} {'were' if len(ocr_read) > 1 else 'was'} read by OCR and "
            f"{'their' if len(ocr_read) > 1 else 'its'} figures are marked OCR-read: check them against "
            f"the page"
        )
    if unread:
        msg += (
            f"; figures printed on {_pages(unread)} were not audited and nothing was guessed"
            if ocr_read
            else "; figures printed there were not audited and nothing was guessed"
        )
        if doc.ocr_problem:
            msg += f" ({doc.ocr_problem})"
        elif not ocr_read:
            msg += f". {doc.ocr_hint}" if doc.ocr_hint else ""
    return msg + "."


def run(figs, sheet, doc, facility):
    out = []
    if doc.no_text_pages:
        out.append(
            finding(
                "sheet.no-text",
                data={
                    "said": no_text_message(doc),
                    "no_text_pages": list(doc.no_text_pages),
                    "ocr_pages": list(doc.ocr_pages),
                },
            )
        )
        out[-1].pages = list(doc.no_text_pages)
    # a scale-up domain's size is a figure of the interconnect too (a table of how many processors each product joins)
    if not any(f.quantity in ("bandwidth", "latency", "power", "domain_size") for f in figs):
        out.append(finding("sheet.no-figures"))
    return out
