"""A PDF's compressed streams measured before pdfium decodes any of them.

A deflate stream shrinks zeros a thousandfold: a 1 MB file can hold a font or a content stream of a gigabyte,
which pdfium decodes whole into memory the moment a page uses it. The file is refused, naming the limit, when
one stream decodes past MAX_STREAM_BYTES or all of them past MAX_INFLATED_BYTES.

Every filter pdfium applies to a stream it reads is followed, alone or chained (/Filter [/A85 /Fl]: a deflate bomb
wrapped in ASCII85 text is still one): FlateDecode, LZWDecode, RunLengthDecode, ASCIIHexDecode, ASCII85Decode.
Each has a most it can expand one byte to (RATIO), so a stream whose compressed extent is known and small is
counted at the product of its filters' ratios without decoding it (a real sheet's streams all are: the scan
costs a few finds); the others are decoded once, in chunks, counting and discarding what comes out. The extent is
known when the stream's /Length is a number: pdfium reads that many bytes, or up to the first 'endstream' when
they do not end there; an indirect /Length could point past a planted 'endstream', so such a stream is decoded
(deflate to its own end; the other filters, which run on past a missing end-of-data mark, to that 'endstream').

The picture codecs (DCT, JPX, CCITT fax, JBIG2) end the chain: pdfium hands their data over undecoded unless it
draws the picture, and pictures (/Subtype /Image) are skipped: reading text never decodes them (read.pdf bounds
the one place that draws a page, by its pictures' pixel count). Streams this scan cannot decode (encryption,
damage) are left to pdfium as before.
"""

from __future__ import annotations

import base64
import binascii
import re
import zlib

from ..errors import InputTooLarge
from ..limits import MAX_INFLATED_BYTES, MAX_STREAM_BYTES

DEFLATE_RATIO = 1032  # the most one byte of deflate data inflates to
# The most one input byte of each filter decodes to: LZW's 12-bit code stands for at most 4,096 bytes; a run-length
# pair of 2 bytes for 128; ASCII85's 'z' for 4; two hexadecimal digits for one.
RATIO = {"flate": DEFLATE_RATIO, "lzw": 2731, "rl": 64, "a85": 4, "ahx": 1}
FILTERS = {
    b"FlateDecode": "flate",
    b"Fl": "flate",
    b"LZWDecode": "lzw",
    b"LZW": "lzw",
    b"RunLengthDecode": "rl",
    b"RL": "rl",
    b"ASCII85Decode": "a85",
    b"A85": "a85",
    b"ASCIIHexDecode": "ahx",
    b"AHx": "ahx",
}
_IMAGE = re.compile(rb"/Subtype\s*/Image\b")
_FILTER = re.compile(rb"/Filter\s*(\[[^\]]*\]|/[^\s/\[\]<>()]+)")
_NAME = re.compile(rb"/([^\s/\[\]<>()]+)")
_LENGTH = re.compile(rb"/Length\s+(\d{1,12})(\s+\d+\s+R)?")
_HEAD = 4096  # how far before 'stream' its dictionary is looked for
_IN = 1 << 14  # compressed bytes fed at a time
_OUT = 1 << 22  # decoded bytes taken at a time (and discarded)


def check_streams(data: bytes, stream_limit: int = MAX_STREAM_BYTES, total_limit: int = MAX_INFLATED_BYTES) -> int:
    """At most how many bytes DATA's filtered streams (pictures aside) decode to; InputTooLarge past a limit."""
    view = memoryview(data)
    total, bounded = 0, []  # bounded: (data offset, keyword offset, chain, ratio x extent) not decoded
    for at, body in _streams(data):
        head = data[max(0, at - _HEAD) : at]
        head = head[head.rfind(b"obj") + 1 :]  # from this object's 'N 0 obj' (endobj comes before it)
        chain = chain_of(head)
        if not chain or _IMAGE.search(head):
            continue
        extent = _extent(data, head, body)
        ratio = 1
        for f in chain:
            ratio *= RATIO[f]
        if extent is not None and extent * ratio <= stream_limit:
            bounded.append((body, at, chain, extent * ratio))
            continue
        total = _count(view, body, at, chain, total, stream_limit, total_limit)
    if total + sum(b[3] for b in bounded) > total_limit:  # the bounds alone do not settle it: decode them
        for body, at, chain, _ in bounded:
            total = _count(view, body, at, chain, total, stream_limit, total_limit)
    else:
        total += sum(b[3] for b in bounded)
    return total


def chain_of(head: bytes) -> list[str]:
    """The filters of the stream whose dictionary is HEAD, in the order pdfium applies them, up to the first it
    does not decode to read text (a picture codec, or a name it does not know)."""
    m = _FILTER.search(head)
    chain = []
    for name in _NAME.findall(m.group(1)) if m else ():
        if name not in FILTERS:
            break
        chain.append(FILTERS[name])
    return chain


def _count(view, body: int, at: int, chain: list[str], total: int, stream_limit: int, total_limit: int) -> int:
    size = decoded_size(view, body, chain, stream_limit + 1)
    if size > stream_limit:
        raise InputTooLarge(
            f"a stream of this PDF decompresses to more than {stream_limit // 2**20} MiB "
            f"(at byte {at}), over sheetaudit's limit for one stream: not read"
        )
    total += size
    if total > total_limit:
        raise InputTooLarge(
            f"this PDF's streams decompress to more than {total_limit // 2**20} MiB in all, "
            "over sheetaudit's limit: not read"
        )
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
        if data[at - 3 : at] != b"end" and data[end : end + 1] in (b"\r", b"\n"):
            yield at, end + (2 if data[end : end + 2] == b"\r\n" else 1)
        at = data.find(b"stream", end)


def decoded_size(view: memoryview, start: int, chain: list[str], limit: int) -> int:
    """Bytes the stream at START decodes to through CHAIN, counted up to LIMIT; what it gave before an error for
    what is damaged or not of that filter after all (pdfium decides what it can read of it)."""
    end = len(view)
    if chain[0] != "flate":
        stop = view.obj.find(b"endstream", start)
        end = stop if stop >= 0 else end
    chunks = (view[pos : min(pos + _IN, end)] for pos in range(start, end, _IN))
    for f in chain:
        chunks = _DECODERS[f](chunks)
    out = 0
    try:
        for chunk in chunks:
            out += len(chunk)
            if out >= limit:
                break
    except (zlib.error, ValueError):
        pass
    return out


def _flate(chunks):
    d = zlib.decompressobj()
    for chunk in chunks:
        yield d.decompress(chunk, _OUT)
        while d.unconsumed_tail and not d.eof:
            yield d.decompress(d.unconsumed_tail, _OUT)
        if d.eof:
            return


def _ahx(chunks):
    odd = b""
    for chunk in chunks:
        text = bytes(chunk)
        done = b">" in text
        digits = odd + re.sub(rb"[^0-9A-Fa-f]", b"", text.split(b">", 1)[0])
        odd = digits[len(digits) & ~1 :]
        yield binascii.unhexlify(digits[: len(digits) & ~1])
        if done:
            break
    if odd:
        yield b"\0"


def _a85(chunks):
    rest = b""
    for chunk in chunks:
        text = bytes(chunk)
        done = b"~>" in text or (rest.endswith(b"~") and text.startswith(b">"))
        text = re.sub(rb"\s", b"", rest + text.split(b"~>", 1)[0]).rstrip(b"~")
        if text.startswith(b"<~"):
            text = text[2:]
        cut = len(text) if done else _a85_cut(text)
        if cut:
            yield base64.a85decode(text[:cut])
        rest = text[cut:]
        if done:
            return


def _a85_cut(text: bytes) -> int:
    """Where TEXT can be cut with whole groups on the left ('z' stands for one group of its own)."""
    n = last = 0
    for i, c in enumerate(text):
        if c == 0x7A and n % 5 == 0:
            continue
        n += 1
        if n % 5 == 0:
            last = i + 1
    return len(text) if n == 0 else last


def _rl(chunks):
    pending = b""
    for chunk in chunks:
        data, i, out = pending + bytes(chunk), 0, bytearray()
        while i < len(data):
            n = data[i]
            if n == 128:
                yield bytes(out)
                return
            if n < 128:
                if i + 1 + n + 1 > len(data):
                    break
                out += data[i + 1 : i + 2 + n]
                i += n + 2
            else:
                if i + 1 >= len(data):
                    break
                out += data[i + 1 : i + 2] * (257 - n)
                i += 2
        pending = data[i:]
        yield bytes(out)


def _lzw(chunks):
    """PDF's LZW (early change 1: codes widen one code early), strings kept as their lengths' worth of bytes."""
    table = [bytes((i,)) for i in range(256)] + [b"", b""]
    width, prev, bits, nbits = 9, None, 0, 0
    for chunk in chunks:
        out = []
        for byte in bytes(chunk):
            bits = (bits << 8) | byte
            nbits += 8
            while nbits >= width:
                nbits -= width
                code = (bits >> nbits) & ((1 << width) - 1)
                bits &= (1 << nbits) - 1
                if code == 256:
                    del table[258:]
                    width, prev = 9, None
                    continue
                if code == 257:
                    yield b"".join(out)
                    return
                if code < len(table):
                    entry = table[code]
                elif prev is not None and code == len(table):
                    entry = prev + prev[:1]
                else:
                    raise ValueError("bad LZW code")
                out.append(entry)
                if prev is not None and len(table) < 4096:
                    table.append(prev + entry[:1])
                prev = entry
                if len(table) + 1 >= (1 << width) and width < 12:
                    width += 1
        yield b"".join(out)


_DECODERS = {"flate": _flate, "ahx": _ahx, "a85": _a85, "rl": _rl, "lzw": _lzw}
