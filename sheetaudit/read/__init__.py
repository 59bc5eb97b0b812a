"""Read a spec sheet (PDF, plain text, Markdown or HTML) into a Document of context-carrying segments.

pdfplumber is used only in this package; later stages see Segments, never pages.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from ..errors import UnreadableInput
from ..model import Document

TEXT_SUFFIXES = {".txt": "text", ".text": "text", ".md": "markdown", ".markdown": "markdown",
                 ".html": "html", ".htm": "html"}
READABLE_SUFFIXES = {".pdf", *TEXT_SUFFIXES}


def sniff(data: bytes, suffix: str) -> str:
    """Decide the reader from the bytes first and the name second, so a renamed file is read for what it is."""
    head = data[:1024].lstrip()
    if data[:1024].find(b"%PDF-") != -1:
        return "pdf"
    if head[:5].lower() in (b"<!doc", b"<html") or b"<html" in head[:512].lower():
        return "html"
    if suffix in TEXT_SUFFIXES:
        return TEXT_SUFFIXES[suffix]
    if suffix == ".pdf":
        kind = _known_binary(data)
        raise UnreadableInput(f"not a PDF ({kind})" if kind else "not a PDF (no %PDF- header)")
    raise UnreadableInput(f"unsupported file type {suffix or '(no extension)'}")


def _known_binary(data: bytes) -> str:
    signatures = {b"\x89PNG": "a PNG image", b"\xff\xd8\xff": "a JPEG image", b"PK\x03\x04": "a ZIP archive",
                  b"GIF8": "a GIF image", b"\xd0\xcf\x11\xe0": "an OLE/Office document"}
    for sig, name in signatures.items():
        if data.startswith(sig):
            return name
    return ""


def read_document(path: str | Path, password: str | None = None, max_pages: int | None = None,
                  pages: set[int] | None = None, ocr: bool = True) -> Document:
    """Read one file. Raises UnreadableInput (or a subclass) with a one-line reason."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except IsADirectoryError:
        raise UnreadableInput("is a directory") from None
    except PermissionError:
        raise UnreadableInput("permission denied") from None
    except OSError as exc:
        raise UnreadableInput(f"cannot read: {exc.strerror or exc}") from None
    if not data:
        raise UnreadableInput("empty file (0 bytes)")
    sha = hashlib.sha256(data).hexdigest()
    kind = sniff(data, p.suffix.lower())
    if kind == "pdf":
        from .pdf import read_pdf
        doc = read_pdf(p, data, password=password, max_pages=max_pages, only_pages=pages, ocr=ocr)
    else:
        from .text import read_text
        doc = read_text(data, kind)
    doc.path = str(path)
    doc.sha256 = sha
    return doc
