"""A PDF's compressed streams measured before pdfium inflates any of them.

A deflate stream shrinks zeros a thousandfold: a 1 MB file can hold a font or a content stream of a gigabyte,
which pdfium inflates whole into memory the moment a page uses it. The file is refused, naming the limit, when
one stream inflates past MAX_STREAM_BYTES or all of them past MAX_INFLATED_BYTES.

Deflate cannot inflate more than DEFLATE_RATIO times its input, so a stream whose compressed extent is known and
small is counted at that bound without inflating it (a real sheet's streams all are: the scan costs a few finds);
the others are inflated once, in chunks, counting and discarding what comes out. The extent is known when the
stream's /Length is a number: pdfium reads that many bytes, or up to the first 'endstream' when they do not end
there; an indirect /Length could point past a planted 'endstream', so such a stream is inflated.

Pictures (/Subtype /Image) are skipped: reading text never decodes them (read.pdf bounds the one place that draws a
page, by its pictures' pixel count). Streams this scan cannot inflate (another filter, encryption, damage) are left
to pdfium as before.
"""
from __future__ import annotations

import re
import zlib

from ..errors import InputTooLarge
from ..limits import MAX_INFLATED_BYTES, MAX_STREAM_BYTES

DEFLATE_RATIO = 1032     # the most one byte of deflate data inflates to
_IMAGE = re.compile(rb"/Subtype\s*/Image\b")
_FLATE = re.compile(rb"/(?:FlateDecode|Fl)\b")
_LENGTH = re.compile(rb"/Length\s+(\d{1,12})(\s+\d+\s+R)?")
_HEAD = 4096             # how far before 'stream' its dictionary is looked for
_IN = 1 << 14            # compressed bytes fed at a time
_OUT = 1 << 22           # inflated bytes taken at a time (and discarded)


def check_streams(data: bytes, stream_limit: int = MAX_STREAM_BYTES, total_limit: int = MAX_INFLATED_BYTES) -> int:
    """At most how many bytes DATA's deflate streams (pictures aside) inflate to; InputTooLarge past a limit."""
    view = memoryview(data)
    total, bounded = 0, []           # bounded: (data offset, keyword offset, DEFLATE_RATIO x extent) not inflated
    for at, body in _streams(data):
        head = data[max(0, at - _HEAD):at]
        head = head[head.rfind(b"obj") + 1:]      # from this object's 'N 0 obj' (endobj comes before it)
        if not _FLATE.search(head) or _IMAGE.search(head):
            continue
        extent = _extent(data, head, body)
        if extent is not None and extent * DEFLATE_RATIO <= stream_limit:
            bounded.append((body, at, extent * DEFLATE_RATIO))
            continue
        total = _count(view, body, at, total, stream_limit, total_limit)
    if total + sum(b[2] for b in bounded) > total_limit:      # the bounds alone do not settle it: inflate them
        for body, at, _ in bounded:
            total = _count(view, body, at, total, stream_limit, total_limit)
    else:
        total += sum(b[2] for b in bounded)
    return total


def _count(view, body: int, at: int, total: int, stream_limit: int, total_limit: int) -> int:
    size = _inflated(view, body, stream_limit + 1)
    if size > stream_limit:
        raise InputTooLarge(f"a stream of this PDF decompresses to more than {stream_limit // 2**20} MiB "
                            f"(at byte {at}), over sheetaudit's limit for one stream: not read")
    total += size
    if total > total_limit:
        raise InputTooLarge(f"this PDF's streams decompress to more than {total_limit // 2**20} MiB in all, "
                            "over sheetaudit's limit: not read")
    return total


def _extent(data: bytes, head: bytes, body: int) -> int | None:
    """The most compressed bytes pdfium can take for the stream at BODY: its direct /Length or the distance to the
    first 'endstream', whichever is more; None for an indirect or missing /Length."""
    m = _LENGTH.search(head)
    if m is None or m.group(2):
        return None
    end = data.find(b"endstream", body)
    return max(int(m.group(1)), (end if end >= 0 else len(data)) - body)


def _streams(data: bytes):
    """(offset of the keyword, offset of the data) of each 'stream' keyword followed by an end of line (a plain
    find: a regular expression with a look-behind crawls through binary data)."""
    at = data.find(b"stream")
    while at >= 0:
        end = at + 6
        if data[at - 3:at] != b"end" and data[end:end + 1] in (b"\r", b"\n"):
            yield at, end + (2 if data[end:end + 2] == b"\r\n" else 1)
        at = data.find(b"stream", end)


def _inflated(view: memoryview, start: int, limit: int) -> int:
    """Bytes the deflate stream at START inflates to, counted up to LIMIT; what it gave before an error for what
    is damaged or not deflate after all (pdfium decides what it can read of it)."""
    d = zlib.decompressobj()
    out = 0
    pos = start
    try:
        while pos < len(view) and not d.eof and out < limit:
            chunk = view[pos:pos + _IN]
            pos += len(chunk)
            out += len(d.decompress(chunk, _OUT))
            while d.unconsumed_tail and not d.eof and out < limit:
                out += len(d.decompress(d.unconsumed_tail, _OUT))
    except zlib.error:
        pass
    return out
