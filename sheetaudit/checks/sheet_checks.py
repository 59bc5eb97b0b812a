"""Checks on the sheet itself: pages without text, sheets without figures."""
from __future__ import annotations

from . import finding


def run(figs, sheet, doc, facility):
    out = []
    if doc.no_text_pages:
        pages = ", ".join(str(p) for p in doc.no_text_pages)
        whole = len(doc.no_text_pages) == doc.pages
        ocr = " They were read by OCR; check the OCR-read figures." if doc.ocr_pages else (
            " Install the OCR extra to read them." if not doc.ocr_pages else "")
        what = "The whole file has" if whole else f"Page{'s' if len(doc.no_text_pages) > 1 else ''} {pages} ha{'ve' if len(doc.no_text_pages) > 1 else 's'}"
        out.append(finding("sheet.no-text", f"{what} no text layer (scanned or image-only); figures printed there "
                           f"were not audited.{ocr}"))
        out[-1].pages = list(doc.no_text_pages)
    if not any(f.quantity in ("bandwidth", "latency", "power") for f in figs):
        out.append(finding("sheet.no-figures", "No bandwidth, latency or power figure was found in the sheet."))
    return out
