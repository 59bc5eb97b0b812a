#!/usr/bin/env python3
"""Generate hostile and odd inputs for sheetaudit into tests/hostile/files/.

    python tests/hostile/make_hostile.py

Nothing is downloaded: every file is built here, deterministically (fixed seeds, ReportLab in
invariant mode), so re-running gives identical bytes. See README.md beside this script for the
behaviour expected of the tool on each file. Needs reportlab and Pillow (a dependency of sheetaudit).
No symlinks are written; tests that need symlink loops make them at test time.
"""

import io
import random
import re
import struct
import unicodedata
import zipfile
import zlib
from pathlib import Path

from reportlab import rl_config

rl_config.invariant = 1  # fixed dates and document ids: byte-identical output

from PIL import Image, ImageDraw, ImageFont  # noqa: E402
from reportlab.lib.pagesizes import A4  # noqa: E402
from reportlab.lib.pdfencrypt import StandardEncryption  # noqa: E402
from reportlab.lib.utils import ImageReader  # noqa: E402
from reportlab.pdfgen import canvas  # noqa: E402

HERE = Path(__file__).resolve().parent
OUT = HERE / "files"
W, H = A4

GOOD_LINES = [
    ("Heron H8 GPU Server", None),
    ("Heron Test Systems | Datasheet (fictional, for tests)", None),
    ("", None),
    ("GPUs", "8x accelerators, fully connected, one NVLink domain"),
    ("GPU-to-GPU interconnect", "NVLink 4, 900 GB/s per GPU"),
    ("Compute network", "8x 400 Gb/s InfiniBand NDR, one per GPU"),
    ("Front-end network", "2x 100GbE"),
    ("Node power", "10.2 kW max"),
    ("Power supplies", "6x 3,000 W, 3+3 redundant"),
    ("Cooling", "Air-cooled"),
]


def new_canvas(target, title="Heron H8 GPU Server", author="Heron Test Systems", **kw):
    c = canvas.Canvas(target, pagesize=A4, invariant=1, **kw)
    c.setTitle(title)
    c.setAuthor(author)
    c.setCreator("sheetaudit tests/hostile/make_hostile.py")
    return c


def draw_rows(c, rows, y=H - 72):
    for label, value in rows:
        if value is None:
            c.setFont("Helvetica-Bold" if y == H - 72 else "Helvetica", 16 if y == H - 72 else 10)
            c.drawString(60, y, label)
        else:
            c.setFont("Helvetica-Bold", 10)
            c.drawString(60, y, label)
            c.setFont("Helvetica", 10)
            c.drawString(220, y, value)
        y -= 18
    return y


def good_sheet_bytes(**kw):
    buf = io.BytesIO()
    c = new_canvas(buf, **kw)
    draw_rows(c, GOOD_LINES)
    c.showPage()
    c.save()
    return buf.getvalue()


def text_image(lines, size=(1240, 620)):
    """A greyscale 'scan' of some text: pixels only, no text layer."""
    img = Image.new("L", size, 255)
    d = ImageDraw.Draw(img)
    try:
        font = ImageFont.load_default(size=34)
    except TypeError:  # Pillow < 10.1: bitmap font only
        font = ImageFont.load_default()
    y = 30
    for line in lines:
        d.text((40, y), line, fill=0, font=font)
        y += 52
    return img


def scanned_page(c, lines):
    img = text_image(lines)
    w = W - 120
    h = w * img.height / img.width
    c.drawImage(ImageReader(img), 60, H - 60 - h, w, h)
    c.showPage()


SCAN_LINES = [
    "Kite K4 Accelerator Node - scanned datasheet",
    "GPU-to-GPU bandwidth   900 GB/s per GPU",
    "Cluster network        4x 400 Gb/s InfiniBand",
    "Node power             6.8 kW max",
    "Cooling                Air-cooled",
    "Scanned copy: no text layer on this page.",
]


def tiny_png():
    """A real 8x8 PNG, built by hand so its bytes never depend on an imaging library."""

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + bytes((x * 32 + y * 4) % 256 for x in range(8)) for y in range(8))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", 8, 8, 8, 0, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def tiny_zip():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        info = zipfile.ZipInfo("spec-sheet.txt", date_time=(2025, 1, 1, 0, 0, 0))
        info.external_attr = 0o644 << 16
        z.writestr(info, "Node power 10.2 kW\n")
    return buf.getvalue()


def damage_xref(pdf):
    """Corrupt every xref offset and the startxref pointer: pdfminer must rebuild the table by scanning."""
    start = pdf.rindex(b"\nxref")
    head, tail = pdf[:start], pdf[start:]
    tail = re.sub(rb"(?m)^\d{10} (\d{5}) n", lambda m: b"0000000999 " + m.group(1) + b" n", tail)
    tail = re.sub(rb"startxref\s+\d+", b"startxref\n123", tail)
    return head + tail


def write(name, data):
    path = OUT / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


# ---------------------------------------------------------------------------------------------------------
# Hand-built PDFs: damage that ReportLab never writes (loops, lies, bombs, wrong types).

RAW_LINES = [b"Node power: 10.2 kW max", b"Cluster network: 8x 400 Gb/s InfiniBand NDR", b"Cooling: Air-cooled"]
HELVETICA = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


def raw_pdf(objects, root=1, trailer_extra=b""):
    """A PDF of the given object bodies (numbered 1..n) with a correct xref table."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root %d 0 R%s >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        root,
        trailer_extra,
        xref,
    )
    return bytes(out)


def raw_stream(data, compress=False, extra=b""):
    if compress:
        data = zlib.compress(data, 9)
        extra += b" /Filter /FlateDecode"
    return b"<< /Length %d%s >>\nstream\n" % (len(data), extra) + data + b"\nendstream"


def text_ops(lines, size=10):
    ops = b"BT /F1 %d Tf 60 780 Td 14 TL\n" % size
    for line in lines:
        ops += b"(" + line.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b") Tj T*\n"
    return ops + b"ET"


def one_page_pdf(content, compress=False, mediabox=b"[0 0 595 842]", font=HELVETICA, page_extra=b""):
    return raw_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox %s /Resources << /Font << /F1 4 0 R >> >> "
            b"/Contents 5 0 R%s >>" % (mediabox, page_extra),
            font,
            raw_stream(content, compress),
        ]
    )


def write_raw_pdfs():
    page = (
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> "
        b"/Contents 5 0 R >>"
    )
    # the page tree points back at itself (and at a second /Pages node that points back again)
    write(
        "page-tree-loop.pdf",
        raw_pdf(
            [
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [2 0 R 3 0 R 6 0 R] /Count 3 >>",
                page,
                HELVETICA,
                raw_stream(text_ops(RAW_LINES)),
                b"<< /Type /Pages /Kids [6 0 R 2 0 R] /Count 1 >>",
            ]
        ),
    )
    # /Count claims a billion pages; there is one
    write(
        "count-lies.pdf",
        raw_pdf(
            [
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [3 0 R] /Count 1000000000 >>",
                page,
                HELVETICA,
                raw_stream(text_ops(RAW_LINES)),
            ]
        ),
    )
    # 20,000 nested arrays in the page dictionary
    write("deep-nesting.pdf", one_page_pdf(text_ops(RAW_LINES), page_extra=b" /Junk " + b"[" * 20000 + b"]" * 20000))
    # a 64 KB content stream that inflates to 64 MB (spaces), then the text
    write("flate-bomb.pdf", one_page_pdf(b" " * (64 * 2**20) + text_ops(RAW_LINES), compress=True))
    # a form XObject that draws itself
    write(
        "xobject-loop.pdf",
        raw_pdf(
            [
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> "
                b"/XObject << /X1 6 0 R >> >> /Contents 5 0 R >>",
                HELVETICA,
                raw_stream(text_ops(RAW_LINES) + b"\n/X1 Do"),
                raw_stream(
                    b"/X1 Do",
                    extra=b" /Type /XObject /Subtype /Form /BBox [0 0 100 100] "
                    b"/Resources << /XObject << /X1 6 0 R >> >>",
                ),
            ]
        ),
    )
    # an empty media box: still readable
    write("zero-mediabox.pdf", one_page_pdf(text_ops(RAW_LINES), mediabox=b"[0 0 0 0]"))
    # a media box of infinities: the only page cannot be read
    write("bad-page.pdf", one_page_pdf(text_ops(RAW_LINES), mediabox=b"[0 0 1e999 -1e999]"))
    # /Root is a string: no page tree, no pages
    write("no-pages.pdf", raw_pdf([b"(just a string)"]))
    # /Kids is not an array, /MediaBox is a name, /Contents a number
    write(
        "bad-types.pdf",
        raw_pdf(
            [
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids 3 0 R /Count (x) >>",
                b"<< /Type /Page /Parent 2 0 R /MediaBox /Oops /Resources 7 /Contents 42 >>",
            ]
        ),
    )
    # encrypted with a public-key security handler (certificates, not a password)
    write(
        "encrypted-pubsec.pdf",
        raw_pdf(
            [
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                page,
                HELVETICA,
                raw_stream(text_ops(RAW_LINES)),
                b"<< /Filter /Adobe.PubSec /V 4 /R 4 /SubFilter /adbe.pkcs7.s5 >>",
            ],
            trailer_extra=b" /Encrypt 6 0 R /ID [<01> <01>]",
        ),
    )
    # terminal escape sequences and other control characters in the text
    write(
        "control-chars.pdf",
        one_page_pdf(
            text_ops([b"\x1b]0;pwned\x07\x1b[2J\x1b[31mNode power: 10.2 kW\x1b[0m", b"Cooling: Air-cooled\x00\x08"])
        ),
    )
    # 200,000 one-point characters on one page: a page that takes long to lay out (time-limit test)
    ops = (
        b"BT /F1 1 Tf\n"
        + b"".join(b"%d %d Td (8) Tj\n" % ((1, 0) if i % 500 else (-499, 1)) for i in range(200000))
        + b"ET"
    )
    write("many-chars.pdf", one_page_pdf(ops, compress=True))


def write_text_files():
    write("control-chars.txt", b"\x1b]0;pwned\x07\x1b[2JNode power: 10.2 kW\x1b[0m\nCooling: Air-cooled\n")
    write("utf16.txt", "Node power: 10.2 kW\nCooling: Air-cooled\n".encode("utf-16-le").join([b"\xff\xfe", b""]))
    write("png-named.txt", tiny_png())
    # a run of 100,000 digits: a quadratic regular expression over it would never end (time-limit test)
    write("digit-run.txt", b"1" * 100000 + b" Gb/s\n")
    write(
        "injection.html",
        b"<!DOCTYPE html><html><head><title><script>alert(1)</script> NIC</title></head><body>"
        b'<h1 onmouseover="alert(1)">Injection NIC {{ 7*7 }} ${7*7}</h1><table>'
        b'<tr><td>=HYPERLINK("http://x")</td><td>400 Gb/s per port</td></tr>'
        b"<tr><td>@SUM(A1)</td><td>650 W</td></tr>"
        b"<tr><td>+cmd|' /C calc'!A0</td><td>Air-cooled</td></tr></table>"
        b"<script>document.write('900 GB/s')</script></body></html>\n",
    )


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    good = good_sheet_bytes()

    write("empty.pdf", b"")
    write(
        "html-named.pdf",
        b"<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head>\n"
        b"<body><h1>Not Found</h1><p>The requested datasheet was not found on this "
        b"server.</p></body></html>\n",
    )
    write("png-named.pdf", tiny_png())
    write("zip-named.pdf", tiny_zip())
    write("truncated.pdf", good[: int(len(good) * 0.4)])
    write("garbage-after-header.pdf", b"%PDF-1.7\n" + random.Random(20250101).randbytes(20 * 1024))
    write("damaged-xref.pdf", damage_xref(good))

    # encrypted: a valid spec sheet with user password "s3cret" (RC4 128-bit, deterministic)
    buf = io.BytesIO()
    c = new_canvas(buf, encrypt=StandardEncryption("s3cret", ownerPassword="owner-s3cret", strength=128))
    draw_rows(c, GOOD_LINES)
    c.showPage()
    c.save()
    write("encrypted.pdf", buf.getvalue())

    # scanned: the only page is an image of text
    buf = io.BytesIO()
    c = new_canvas(buf, title="Kite K4 scanned datasheet", author="Kite Compute")
    scanned_page(c, SCAN_LINES)
    c.save()
    write("scanned.pdf", buf.getvalue())

    # mixed: page 1 has a text layer, page 2 is an image only
    buf = io.BytesIO()
    c = new_canvas(buf, title="Kite K4 datasheet", author="Kite Compute")
    draw_rows(
        c,
        [
            ("Kite K4 Accelerator Node", None),
            ("Kite Compute | Datasheet page 1 of 2", None),
            ("", None),
            ("Node power", "Node power 10.2 kW"),
            ("Cluster network", "4x 400 Gb/s InfiniBand NDR"),
            ("Cooling", "Air-cooled"),
        ],
    )
    c.showPage()
    scanned_page(c, SCAN_LINES[1:])
    c.save()
    write("mixed-scanned.pdf", buf.getvalue())

    # long: 1,000 pages, figures only on pages 3, 500 and 998
    figures = {
        3: ["Cluster network: 8x 400 Gb/s InfiniBand NDR, one port per GPU"],
        500: ["Node power: 10.2 kW maximum"],
        998: ["GPU-to-GPU interconnect: NVLink 4, 900 GB/s per GPU"],
    }
    buf = io.BytesIO()
    c = new_canvas(buf, title="Heron H8 service manual (1,000 pages)")
    for n in range(1, 1001):
        c.setFont("Helvetica", 10)
        c.drawString(60, H - 60, f"Heron H8 service manual - page {n} of 1000")
        for i, line in enumerate(figures.get(n, ["General information. This page lists no specifications."])):
            c.drawString(60, H - 90 - 14 * i, line)
        c.showPage()
    c.save()
    write("long-1000.pdf", buf.getvalue())

    # injection: markup and formula payloads in the text and in the metadata
    buf = io.BytesIO()
    c = new_canvas(buf, title="<script>alert(1)</script> Switch", author="<img src=x onerror=alert(1)>")
    draw_rows(
        c,
        [
            ("Injection Test Switch <script>alert(1)</script>", None),
            ("Vendor: <img src=x onerror=alert(1)>  Template: {{ 7*7 }}  Shell: ${7*7}", None),
            ("", None),
            ('=HYPERLINK("http://x")', "400 Gb/s per port"),
            ("<b>Typical power</b>", "650 W"),
            ("Notes", "{{ 7*7 }} ${7*7} <script>alert(1)</script>"),
            ("Cooling", "Air-cooled"),
        ],
    )
    c.showPage()
    c.save()
    write("injection.pdf", buf.getvalue())

    # odd names: copies of a good sheet
    for name in [
        "-leading dash.pdf",
        'quote\'s "name".pdf',
        unicodedata.normalize("NFC", "规格 spec é.pdf"),
        "nested/deeper/good-sheet.pdf",
    ]:
        write(name, good)

    write(
        "notes.txt",
        "Procurement meeting notes, 14 March 2025\n\n"
        "- Ask the three vendors for updated quotes before Friday.\n"
        "- Maria to book the data-hall tour (room 2.14).\n"
        "- Next meeting: 21 March, 10:00.\n".encode("utf-8"),
    )

    write_raw_pdfs()
    write_text_files()


if __name__ == "__main__":
    main()
