#!/usr/bin/env python3
"""Generate hostile and odd inputs for sheetaudit into tests/hostile/files/.

    python tests/hostile/make_hostile.py

Nothing is downloaded: every file is built here, deterministically (fixed seeds, ReportLab in
invariant mode), so re-running gives identical bytes. See README.md beside this script for the
behaviour expected of the tool on each file. Needs reportlab and Pillow (Pillow comes with pdfplumber).
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


SCAN_LINES = ["Kite K4 Accelerator Node - scanned datasheet",
              "GPU-to-GPU bandwidth   900 GB/s per GPU",
              "Cluster network        4x 400 Gb/s InfiniBand",
              "Node power             6.8 kW max",
              "Cooling                Air-cooled",
              "Scanned copy: no text layer on this page."]


def tiny_png():
    """A real 8x8 PNG, built by hand so its bytes never depend on an imaging library."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + bytes((x * 32 + y * 4) % 256 for x in range(8)) for y in range(8))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 8, 8, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


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


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    good = good_sheet_bytes()

    write("empty.pdf", b"")
    write("html-named.pdf", b"<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head>\n"
                            b"<body><h1>Not Found</h1><p>The requested datasheet was not found on this "
                            b"server.</p></body></html>\n")
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
    draw_rows(c, [("Kite K4 Accelerator Node", None), ("Kite Compute | Datasheet page 1 of 2", None), ("", None),
                  ("Node power", "Node power 10.2 kW"),
                  ("Cluster network", "4x 400 Gb/s InfiniBand NDR"),
                  ("Cooling", "Air-cooled")])
    c.showPage()
    scanned_page(c, SCAN_LINES[1:])
    c.save()
    write("mixed-scanned.pdf", buf.getvalue())

    # long: 1,000 pages, figures only on pages 3, 500 and 998
    figures = {3: ["Cluster network: 8x 400 Gb/s InfiniBand NDR, one port per GPU"],
               500: ["Node power: 10.2 kW maximum"],
               998: ["GPU-to-GPU interconnect: NVLink 4, 900 GB/s per GPU"]}
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
    draw_rows(c, [("Injection Test Switch <script>alert(1)</script>", None),
                  ("Vendor: <img src=x onerror=alert(1)>  Template: {{ 7*7 }}  Shell: ${7*7}", None),
                  ("", None),
                  ('=HYPERLINK("http://x")', "400 Gb/s per port"),
                  ("<b>Typical power</b>", "650 W"),
                  ("Notes", "{{ 7*7 }} ${7*7} <script>alert(1)</script>"),
                  ("Cooling", "Air-cooled")])
    c.showPage()
    c.save()
    write("injection.pdf", buf.getvalue())

    # odd names: copies of a good sheet
    for name in ["-leading dash.pdf", "quote's \"name\".pdf", unicodedata.normalize("NFC", "规格 spec é.pdf"),
                 "nested/deeper/good-sheet.pdf"]:
        write(name, good)

    write("notes.txt", "Procurement meeting notes, 14 March 2025\n\n"
                       "- Ask the three vendors for updated quotes before Friday.\n"
                       "- Maria to book the data-hall tour (room 2.14).\n"
                       "- Next meeting: 21 March, 10:00.\n".encode("utf-8"))


if __name__ == "__main__":
    main()
