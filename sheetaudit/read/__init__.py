"""Read a spec sheet (PDF, plain text, Markdown or HTML) into a Document of context-carrying segments.

The PDF library (pypdfium2) is used only in this package; later stages see Segments, never pages (the
report's evidence images ask read.pdfium_page for a page's picture and words).

Every file is untrusted: whatever is wrong with it (missing, unreadable, a directory, a FIFO, empty, too large,
not what its name says, damaged, encrypted) ends as one UnreadableInput with a one-line reason, never as
another exception.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from pathlib import Path
from typing import Callable

from .. import regex_cache
from ..errors import UnreadableInput
from ..records import Document

TEXT_SUFFIXES = {
    ".txt": "text",
    ".text": "text",
    ".rst": "text",  # reStructuredText and AsciiDoc: documentation sites' sources, read as the plain text they are
    ".adoc": "text",
    ".asciidoc": "text",
    ".md": "markdown",
    ".markdown": "markdown",
    ".html": "html",
    ".htm": "html",
}
READABLE_SUFFIXES = {".pdf", *TEXT_SUFFIXES}
MAX_FILE_BYTES = 512 * 1024 * 1024  # a spec sheet is a few MB; anything this big is not one
# C0/C1 control characters (not tab or newline) in extracted text: they mean nothing in a spec sheet and an
# escape sequence printed to a terminal is an attack on the reader's screen.
_CONTROL = regex_cache.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")

_SIGNATURES = [
    (b"\x89PNG", "PNG image"),
    (b"\xff\xd8\xff", "JPEG image"),
    (b"PK\x03\x04", "ZIP archive"),
    (b"PK\x05\x06", "ZIP archive"),
    (b"GIF8", "GIF image"),
    (b"\xd0\xcf\x11\xe0", "OLE/Office document"),
    (b"II*\x00", "TIFF image"),
    (b"MM\x00*", "TIFF image"),
    (b"\x1f\x8b", "gzip archive"),
    (b"7z\xbc\xaf", "7-Zip archive"),
    (b"Rar!", "RAR archive"),
    (b"\x7fELF", "program (ELF)"),
    (b"{\\rtf", "RTF document"),
    (b"%!PS", "PostScript file"),
]


def sniff(data: bytes, suffix: str) -> str:
    """Decide the reader from the bytes first and the name second, so a renamed file is read for what it is
    and a file named .pdf that is not a PDF (an error page, an image, an archive) is refused."""
    head = data[:1024]
    html = _looks_like_html(head)
    if head.lstrip(b"\xef\xbb\xbf \t\r\n\x00").startswith(b"%PDF-"):
        return "pdf"
    if b"%PDF-" in head and not html and suffix not in TEXT_SUFFIXES:  # junk before the header is allowed
        return "pdf"
    binary = _known_binary(data)
    if suffix == ".pdf":
        if html:
            raise UnreadableInput("not a PDF (looks like HTML, e.g. a web page saved under a .pdf name)")
        raise UnreadableInput(f"not a PDF ({binary or 'no %PDF- header'})")
    if suffix in TEXT_SUFFIXES:
        if binary or (b"\x00" in data[:8192] and not data.startswith((b"\xff\xfe", b"\xfe\xff"))):
            raise UnreadableInput(f"not a text file ({binary or 'binary data'})")
        if html and TEXT_SUFFIXES[suffix] != "text":
            return "html"
        return TEXT_SUFFIXES[suffix]
    if html:
        return "html"
    raise UnreadableInput(
        f"unsupported file type {suffix or '(no extension)'}"
        f"{f' ({binary})' if binary else ''}: expected .pdf, .txt, .md or .html"
    )


def _looks_like_html(head: bytes) -> bool:
    h = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    return h.startswith((b"<!doctype html", b"<html")) or (h.startswith(b"<") and b"<html" in h)


def _known_binary(data: bytes) -> str:
    for sig, name in _SIGNATURES:
        if data.startswith(sig):
            return name
    return ""


def ocr_hint() -> str:
    """How to have pages without a text layer read: rerun with --ocr, or first install what OCR needs."""
    from . import ocr

    ok, _ = ocr.status()
    if ok:
        return "Rerun with --ocr to read them by OCR (tesseract is installed)"
    return f"To read them by OCR: {ocr.HOW_TO_ENABLE}"


def _stat(p: Path) -> os.stat_result:
    try:
        return p.stat()
    except FileNotFoundError:
        if p.is_symlink():
            try:
                target = os.readlink(p)
            except OSError:
                target = "?"
            raise UnreadableInput(f"broken symbolic link (its target {target} does not exist)") from None
        raise UnreadableInput("no such file") from None
    except PermissionError:
        raise UnreadableInput("permission denied") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UnreadableInput("symbolic link loop") from None
        if exc.errno == errno.ENAMETOOLONG:
            raise UnreadableInput("file name too long") from None
        raise UnreadableInput(f"cannot read: {exc.strerror or exc}") from None


def read_bytes(path: str | Path, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The file's bytes, or UnreadableInput saying in one line why not."""
    p = Path(path)
    st = _stat(p)
    if stat.S_ISDIR(st.st_mode):
        raise UnreadableInput("is a directory")
    if not stat.S_ISREG(st.st_mode):
        what = (
            "a FIFO"
            if stat.S_ISFIFO(st.st_mode)
            else "a socket"
            if stat.S_ISSOCK(st.st_mode)
            else "a device"
            if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)
            else "special"
        )
        raise UnreadableInput(f"not a regular file ({what})")
    if st.st_size > max_bytes:
        raise UnreadableInput(
            f"file too large ({st.st_size / 2**20:,.0f} MB; the limit is {max_bytes / 2**20:,.0f} MB)"
        )
    try:
        with open(p, "rb") as fh:
            # Read in chunks: fh.read(max_bytes + 1) would reserve the whole limit up front and fail under a
            # memory cap smaller than it; the file may also grow after stat().
            chunks, total = [], 0
            while total <= max_bytes:
                chunk = fh.read(min(1 << 22, max_bytes + 1 - total))
                if not chunk:
                    break
                chunks.append(chunk)
                total += len(chunk)
            data = b"".join(chunks)
    except IsADirectoryError:
        raise UnreadableInput("is a directory") from None
    except PermissionError:
        raise UnreadableInput("permission denied") from None
    except OSError as exc:
        raise UnreadableInput(f"cannot read: {exc.strerror or exc}") from None
    if len(data) > max_bytes:
        raise UnreadableInput(f"file too large (over {max_bytes / 2**20:,.0f} MB)")
    return data


def read_document(
    path: str | Path,
    password: str | None = None,
    max_pages: int | None = None,
    pages: set[int] | None = None,
    ocr: bool = False,
    needs_layout: Callable[[str], bool] | None = None,
) -> Document:
    """Read one file. Raises UnreadableInput (or a subclass) with a one-line reason.

    ocr: read image-only pages by OCR when the OCR extra is installed.
    needs_layout: given a PDF page's plain text, whether it may hold a figure and so needs its full layout (see
    read.pdf; the reader asks, it never decides what a figure is); None: every page is laid out.
    """
    p = Path(path)
    data = read_bytes(p)
    if not data:
        raise UnreadableInput("empty file (0 bytes)")
    sha = hashlib.sha256(data).hexdigest()
    kind = sniff(data, p.suffix.lower())
    if kind == "pdf":
        from .pdf import read_pdf

        doc = read_pdf(
            p, data, password=password, max_pages=max_pages, only_pages=pages, ocr=ocr, needs_layout=needs_layout
        )
    else:
        from .text import read_text

        if data.startswith((b"\xff\xfe", b"\xfe\xff")):  # UTF-16 with a byte-order mark
            try:
                data = data.decode("utf-16").encode("utf-8")
            except UnicodeDecodeError:
                raise UnreadableInput("not a text file (broken UTF-16)") from None
        doc = read_text(data, kind)
    _strip_controls(doc)
    doc.path = str(path)
    doc.sha256 = sha
    return doc


def _strip_controls(doc: Document) -> None:
    for seg in doc.segments:
        for attr in ("text", "label", "column", "heading"):
            value = getattr(seg, attr)
            if value and _CONTROL.search(value):
                setattr(seg, attr, _CONTROL.sub(" ", value))
    doc.footnotes = {_CONTROL.sub(" ", k): _CONTROL.sub(" ", v) for k, v in doc.footnotes.items()}
    doc.title = _CONTROL.sub(" ", doc.title)
