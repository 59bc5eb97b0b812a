"""Every filter pdfium applies to a stream it reads is measured before it decodes any: a deflate bomb wrapped in
ASCII85 text, or zeros packed by LZW, is refused naming the limit as a plain deflate bomb is; each decoder the
measure runs counts exactly what the filter gives."""

import base64
import binascii
import random
import zlib

import pytest

from test_amplification import GIB, PAGE, RAW_LINES, _check_with_peak, _zeros, raw_pdf, raw_stream, text_ops

from sheetaudit.read.inflate import chain_of, decoded_size


def lzw(data: bytes) -> bytes:
    """PDF's LZW (early change 1), as a writer packs DATA."""
    table = {bytes((i,)): i for i in range(256)}
    codes, w, size = [], b"", 258
    widths = []
    width = 9
    for byte in data:
        wc = w + bytes((byte,))
        if wc in table:
            w = wc
            continue
        codes.append(table[w])
        widths.append(width)
        if size < 4096:
            table[wc] = size
            size += 1
        if size >= (1 << width) and width < 12:  # the reader's table is one entry behind the writer's
            width += 1
        if size >= 4096:  # full: start again, as writers do
            codes.append(256)
            widths.append(width)
            table = {bytes((i,)): i for i in range(256)}
            size, width = 258, 9
        w = bytes((byte,))
    codes += [table[w], 257] if w else [257]
    widths += [width, width] if w else [width]
    return _pack(codes, widths)


def _pack(codes, widths) -> bytes:
    bits = "".join(format(c, f"0{n}b") for c, n in zip(codes, widths))
    bits += "0" * (-len(bits) % 8)
    return int(bits, 2).to_bytes(len(bits) // 8, "big") if bits else b""


def lzw_zeros(codes_at_full_width: int) -> tuple[bytes, int]:
    """LZW codes that a reader turns into ever longer runs of zeros: 0, 258, 259, ... until the table is full,
    then its longest entry again and again. Returns the stream and how many bytes it decodes to."""
    codes, widths, size, width, out = [0], [9], 258, 9, 1
    while size < 4096:
        codes.append(size)
        widths.append(width)
        out += size - 256
        size += 1
        if size + 1 >= (1 << width) and width < 12:
            width += 1
    codes += [4095] * codes_at_full_width + [257]
    widths += [12] * (codes_at_full_width + 1)
    return _pack(codes, widths), out + codes_at_full_width * (4095 - 256)


def _size(data: bytes, chain: list[str]) -> int:
    return decoded_size(memoryview(data), 0, chain, 1 << 40)


RAW = bytes(random.Random(7).getrandbits(8) for _ in range(40_000)) + bytes(90_000) + b"spec sheet " * 3000


@pytest.mark.parametrize(
    "chain,encode",
    [
        (["flate"], zlib.compress),
        (["lzw"], lzw),
        (["a85"], lambda d: base64.a85encode(d, wrapcol=72) + b"~>"),
        (["ahx"], lambda d: binascii.hexlify(d) + b">"),
        (["a85", "flate"], lambda d: b"<~" + base64.a85encode(zlib.compress(d)) + b"~>"),
        (["ahx", "lzw"], lambda d: binascii.hexlify(lzw(d)) + b">"),
    ],
    ids=lambda x: "-".join(x) if isinstance(x, list) else "",
)
def test_each_filter_and_chain_is_counted_exactly(chain, encode):
    assert _size(encode(RAW), chain) == len(RAW)


def test_lzw_runs_of_zeros_are_counted_and_run_length_too():
    stream, n = lzw_zeros(100)
    assert _size(stream, ["lzw"]) == n
    runs = b"".join(bytes((257 - 128,)) + b"\0" for _ in range(50)) + b"\x05abcdef\x80"
    assert _size(runs, ["rl"]) == 50 * 128 + 6


def test_the_filters_pdfium_applies_are_read_in_order_up_to_a_picture_codec():
    assert chain_of(b"<< /Length 9 /Filter [/A85 /FlateDecode] >>") == ["a85", "flate"]
    assert chain_of(b"<< /Filter/LZWDecode/Length 3 >>") == ["lzw"]
    assert chain_of(b"<< /Filter [/FlateDecode /DCTDecode] >>") == ["flate"]
    assert chain_of(b"<< /Filter /JBIG2Decode >>") == [] and chain_of(b"<< /Length 3 >>") == []


def _font_pdf(path, stream: bytes, filters: bytes) -> None:
    font = b"<< /Type /Font /Subtype /TrueType /BaseFont /Bomb /FirstChar 32 /LastChar 126 /FontDescriptor 6 0 R >>"
    path.write_bytes(
        raw_pdf(
            [
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                PAGE % b"",
                font,
                raw_stream(text_ops(RAW_LINES)),
                b"<< /Type /FontDescriptor /FontName /Bomb /Flags 32 /FontFile2 7 0 R >>",
                b"<< /Length %d /Filter %s /Length1 %d >>\nstream\n" % (len(stream), filters, GIB)
                + stream
                + b"\nendstream",
            ]
        )
    )


def test_a_deflate_bomb_wrapped_in_ascii85_is_refused_before_the_work(tmp_path):
    pdf = tmp_path / "a85-bomb.pdf"
    _font_pdf(pdf, base64.a85encode(_zeros(GIB)) + b"~>", b"[/ASCII85Decode /FlateDecode]")
    code, _, err, peak = _check_with_peak(pdf)
    assert code == 2 and "256 MiB" in err and "decompress" in err, err
    assert peak < 600, f"{peak:.0f} MB"


def test_zeros_packed_by_lzw_are_refused_before_the_work(tmp_path):
    stream, n = lzw_zeros(300 * 2**20 // 3839)
    assert n > 256 * 2**20
    pdf = tmp_path / "lzw-bomb.pdf"
    _font_pdf(pdf, stream, b"/LZWDecode")
    code, _, err, peak = _check_with_peak(pdf)
    assert code == 2 and "256 MiB" in err and "decompress" in err, err
