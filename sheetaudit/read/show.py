"""What the reader read, for a person (`sheetaudit read FILE`) or a script (`--format json`): page by page, every
segment with its kind, the heading it sits under, its row label and its column header. A user who wonders why a
figure was missed starts here: a word glued to its neighbour, a value parted from its row label, a page kept as
plain text or not read at all all show.

    render(read_document("vendor.pdf"), "text")
"""

from __future__ import annotations

import json

from ..records import Document, Segment

SCHEMA = "sheetaudit-read/1"


def as_data(doc: Document) -> dict:
    """The document as plain data: its source, then its pages, each with its segments in reading order."""
    pages: dict[int, list[dict]] = {n: [] for n in range(1, doc.pages + 1)}
    for s in doc.segments:
        pages.setdefault(s.page, []).append(_segment(s))
    return {
        "schema": SCHEMA,
        "source": {"path": doc.path, "sha256": doc.sha256, "pages": doc.pages, "kind": doc.kind},
        "title": doc.title,
        "no_text_pages": list(doc.no_text_pages),
        "notes": list(doc.notes),
        "footnotes": dict(doc.footnotes),
        "pages": [{"page": n, "segments": segs} for n, segs in sorted(pages.items())],
    }


def _segment(s: Segment) -> dict:
    return {
        "text": s.text,
        "kind": s.kind,
        "page": s.page,
        "heading": s.heading,
        "label": s.label,
        "column": s.column,
        "row": s.row,
        "block": s.block,
        "bbox": [round(v, 1) for v in s.bbox] if s.bbox else None,
    }


def as_text(doc: Document) -> str:
    """One line a segment (kind, then text), and under it what it carries: its row label and column header, and
    its heading where that changes."""
    data = as_data(doc)
    src = data["source"]
    out = [
        f"{src['path']}: {src['pages']} page{'s' if src['pages'] != 1 else ''} ({src['kind']})"
        + (f", title: {doc.title}" if doc.title else "")
    ]
    heading = None
    for page in data["pages"]:
        note = "  (no text layer read)" if page["page"] in doc.no_text_pages else ""
        out.append(f"\n--- page {page['page']}{note}")
        for s in page["segments"]:
            out.append(f"{s['kind']:<9} {s['text']}")
            carried = [f"{k}: {s[k]}" for k in ("label", "column", "row") if s[k]]
            if s["heading"] != heading and s["kind"] != "heading":
                carried.append(f"heading: {s['heading'] or '(none)'}")
            heading = s["text"] if s["kind"] == "heading" else s["heading"]
            if carried:
                out.append(" " * 10 + " | ".join(carried))
    if doc.footnotes:
        out.append("\n--- footnotes")
        out += [f"{marker} {text}" for marker, text in doc.footnotes.items()]
    for n in doc.no_text_pages:
        out.append(f"\npage {n}: no text layer was read (a picture, or a scan)")
    for note in doc.notes:
        out.append(f"note: {note}")
    return "\n".join(out) + "\n"


def render(doc: Document, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(as_data(doc), ensure_ascii=False, indent=1) + "\n"
    return as_text(doc)
