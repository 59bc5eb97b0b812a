#!/usr/bin/env python3
"""Build the PDFs that hold the reader to how real vendor PDFs are made (tests/test_read_words.py,
tests/test_read_pages.py, tests/test_read_command.py):

    python tests/read/make_read_pdfs.py

- no-space-glyphs.pdf: a press release whose text layer has no space character at all, words placed by their
  position only, three ways real producers do it: every glyph its own text object (converters), one text
  object a line with the word gaps as TJ kerning (LaTeX), one text object a word at computed x (a browser's
  print). The gaps are 0.18-0.25 em of 9-point type, under pdfplumber's fixed 3 points.
- two-column-spec-table.pdf: a brochure page with body text in the left column and a spec table beside it in
  the right column (rows parted by thin rules only; a value wraps over two lines), and a page with a ruled
  table beside body text.
- model-grid.pdf: a switch data sheet: a "PRODUCT BRIEF" tag in a ruled box over the product's name, a bulleted
  sidebar beside running text, and a table of four models ruled only around the last model's column, each row
  label set against the middle of its values; and specifications as bulleted lists in three columns.
- spec-box-beside-text.pdf: a server page whose spec box sits beside body text under a caption that runs across
  its columns, two variants side by side.
- title-over-photo.pdf: a cover whose text layer holds only a title over a full-page photo, a page of specs,
  and a page whose spec table is a picture under its heading (that one is a page without text to read).
- pictures-not-tables.pdf: pages mostly picture with a little text whose pictures hold no table: a user guide's
  cover (title in display type), a 16:9 slide (heading and a sentence above a diagram), a photograph's captions
  printed over it.
- spec-box-card.pdf, spec-box-models.pdf, spec-box-flush-right.pdf: borderless spec boxes in three vendors'
  styles, each value on the baseline of its label: a card's datasheet, the box in a right-hand column beside
  running text under a caption, labels wrapping over two lines, values over two or three, memory variants as
  indented sub-rows of a label of their own, a footer across the page under it; a server's sheet, three models
  heading centred value columns, values wrapping, a section heading inside the box, set glyph by glyph (no space
  glyph); a NIC's sheet, labels set flush right against the gutter in the left-hand column beside running text,
  words placed one by one (no space glyph), a label and a value wrapping.

The sheets are the project's own (fictional products); nothing is downloaded. ReportLab runs in invariant
mode and the pictures come from fixed seeds, so re-running gives identical bytes.
"""

import io
import random
from pathlib import Path

from reportlab import rl_config

rl_config.invariant = 1  # fixed dates and document ids: byte-identical output

from PIL import Image, ImageDraw, ImageFilter, ImageFont  # noqa: E402
from reportlab.lib.pagesizes import A4  # noqa: E402
from reportlab.lib.utils import ImageReader  # noqa: E402
from reportlab.pdfbase.pdfmetrics import stringWidth  # noqa: E402
from reportlab.pdfgen import canvas  # noqa: E402

HERE = Path(__file__).resolve().parent
W, H = A4
BODY, BOLD = "Helvetica", "Helvetica-Bold"


def lines_of(text: str, font: str, size: float, width: float, gap: float) -> list[list[str]]:
    """Words wrapped into lines no wider than width, GAP (in em) between words."""
    out: list[list[str]] = [[]]
    used = 0.0
    for word in text.split():
        w = stringWidth(word, font, size)
        if out[-1] and used + gap * size + w > width:
            out.append([])
            used = 0.0
        used += (gap * size if out[-1] else 0) + w
        out[-1].append(word)
    return out


def glyph_by_glyph(c, x, y, words, font, size, gap):
    """Every character its own text object (BT ... ET), no space drawn: a converter's output."""
    for word in words:
        for ch in word:
            c.setFont(font, size)
            c.drawString(x, y, ch)
            x += stringWidth(ch, font, size)
        x += gap * size


def word_by_word(c, x, y, words, font, size, gap):
    """Every word its own text object at a computed x, no space drawn: a browser's print."""
    for word in words:
        c.setFont(font, size)
        c.drawString(x, y, word)
        x += stringWidth(word, font, size) + gap * size


def kerned_line(c, x, y, words, font, size, gap):
    """One text object a line, the word gaps as TJ kerning (thousandths of an em), no space: LaTeX's way."""
    c.setFont(font, size)  # puts the font in the page's resources
    name = c._doc.getInternalFontName(font)
    esc = [w.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") for w in words]
    shown = f" {-gap * 1000:.0f} ".join(f"({w})" for w in esc)
    c._code.append(f"BT {name} {size} Tf 1 0 0 1 {x:.2f} {y:.2f} Tm [{shown}] TJ ET")


def paragraph(c, draw, x, y, text, font=BODY, size=9.0, width=480.0, gap=0.22, leading=13.0) -> float:
    for line in lines_of(text, font, size, width, gap):
        draw(c, x, y, line, font, size, gap)
        y -= leading
    return y - 6


def no_space_glyphs():
    c = canvas.Canvas(str(HERE / "no-space-glyphs.pdf"), pagesize=A4, invariant=1)
    c.setTitle("Halyard HX72 press release (fictional, for tests)")
    x, y = 56, H - 80
    glyph_by_glyph(c, x, y, "Halyard HX72 rack-scale system ships".split(), BOLD, 18, 0.25)
    y -= 34
    y = paragraph(
        c,
        glyph_by_glyph,
        x,
        y,
        "SAN MARCO, 3 March - Halyard Systems today began shipping the HX72, a liquid-cooled rack that joins "
        "72 accelerators in a single NVLink domain. NVLink delivers 1.8 TB/s bidirectional throughput per "
        "GPU, and every compute tray carries four 800 Gb/s ports for the cluster network.",
    )
    y = paragraph(
        c,
        kerned_line,
        x,
        y,
        "The companion HL-6400 leaf switch moves up to 1.6 Tbps of bidirectional traffic on each of its 64 "
        "ports, with a port-to-port latency of 450 ns measured at the switch ASIC.",
        gap=0.18,
    )
    y = paragraph(
        c,
        word_by_word,
        x,
        y,
        "Each HX72 rack draws 132 kW and is cooled by direct liquid cooling: a hall built for 40 kW "
        "air-cooled racks cannot host it without a coolant distribution unit.",
        gap=0.2,
    )
    y -= 8
    glyph_by_glyph(c, x, y, ["Specifications"], BOLD, 11, 0.25)
    y -= 18
    for label, value in (
        ("Scale-up domain", "72 GPUs, NVLink 5"),
        ("GPU-to-GPU bandwidth", "1.8 TB/s per GPU, bidirectional"),
        ("Cluster network", "4x 800 Gb/s per tray"),
        ("Rack power", "132 kW"),
        ("Cooling", "direct liquid cooling"),
    ):
        word_by_word(c, x, y, label.split(), BOLD, 9, 0.22)
        word_by_word(c, x + 150, y, value.split(), BODY, 9, 0.22)
        y -= 14
    c.showPage()
    c.save()


OVERVIEW = (
    "The Merlin M8 is a 6U server for training and inference at scale. Eight accelerators sit on one "
    "baseboard and talk to each other over a switched fabric, so that tensor-parallel work never leaves the "
    "box. Each accelerator has its own network adapter for the cluster fabric, placed next to it on the "
    "same PCIe switch, and the host processors stay out of the data path. The chassis takes two power "
    "shelves at the rear and draws cold air from the front. Management runs over a dedicated port with "
    "Redfish and IPMI, and firmware updates are signed. Field service replaces a fan, a power supply or a "
    "drive without tools, and the accelerator tray slides out on rails for the rest."
)
SPECS = [
    ("Accelerators", "8x M-500 OAM, fully connected"),
    ("Scale-up bandwidth", "896 GB/s per accelerator, bidirectional"),
    ("Cluster network", "8x 400 Gb/s RoCE v2 adapters, one per accelerator"),
    ("Host link", "PCIe Gen5 x16 per adapter"),
    ("System power", "10.2 kW maximum"),
    ("Cooling", "Air, front-to-rear airflow"),
]


def two_columns():
    c = canvas.Canvas(str(HERE / "two-column-spec-table.pdf"), pagesize=A4, invariant=1)
    c.setTitle("Merlin M8 brochure (fictional, for tests)")
    # page 1: body text left, a table of label and value right, its rows parted by thin rules only
    c.setFont(BOLD, 20)
    c.drawString(40, H - 70, "Merlin M8 GPU Server")
    c.setFont(BOLD, 11)
    c.drawString(40, H - 105, "Overview")
    c.drawString(320, H - 105, "Specifications")
    y = H - 124
    for line in lines_of(OVERVIEW, BODY, 9, 255, 0.28):
        c.setFont(BODY, 9)
        c.drawString(40, y, " ".join(line))
        y -= 12.5
    y = H - 124
    c.setLineWidth(0.4)
    for label, value in SPECS:
        vlines = lines_of(value, BODY, 8.5, 130, 0.28)
        c.setFont(BOLD, 8.5)
        c.drawString(320, y, label)
        for k, vl in enumerate(vlines):
            c.setFont(BODY, 8.5)
            c.drawString(425, y - 11 * k, " ".join(vl))
        y -= 11 * len(vlines) + 7
        c.line(320, y + 8, 555, y + 8)
    c.showPage()
    # page 2: a ruled table left, body text right
    c.setFont(BOLD, 14)
    c.drawString(40, H - 70, "Merlin M8 networking")
    rows = [("Port", "Speed", "Count")] + [
        ("Cluster", "400 Gb/s", "8"),
        ("Front-end", "200 Gb/s", "2"),
        ("Management", "1 Gb/s", "1"),
    ]
    x0, widths, top, rh = 40, (90, 70, 50), H - 100, 18
    c.setLineWidth(0.6)
    for r, row in enumerate(rows):
        x = x0
        for k, cell in enumerate(row):
            c.rect(x, top - rh * (r + 1), widths[k], rh)
            c.setFont(BOLD if r == 0 else BODY, 8.5)
            c.drawString(x + 4, top - rh * (r + 1) + 6, cell)
            x += widths[k]
    y = H - 100
    for line in lines_of(
        "The cluster ports are RoCE v2 adapters, one beside each accelerator, and reach any other "
        "accelerator of the cluster through a two-tier leaf-spine fabric. The front-end ports carry "
        "storage and tenant traffic; the management port is out of band.",
        BODY,
        9,
        280,
        0.28,
    ):
        c.setFont(BODY, 9)
        c.drawString(280, y, " ".join(line))
        y -= 12.5
    c.showPage()
    c.save()


def photo(seed: int, size=(300, 424)) -> Image.Image:
    """A photograph-like picture: smooth colour fields, shapes and grain (no text in it)."""
    rnd = random.Random(seed)
    img = Image.new("RGB", size)
    px = img.load()
    w, h = size
    for yy in range(h):
        for xx in range(w):
            px[xx, yy] = (40 + 120 * xx // w, 60 + 100 * yy // h, 140 - 80 * xx // w)
    draw = ImageDraw.Draw(img)
    for _ in range(40):
        x, y, r = rnd.randrange(w), rnd.randrange(h), rnd.randrange(10, 90)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=(rnd.randrange(256), rnd.randrange(256), rnd.randrange(256)))
    img = img.filter(ImageFilter.GaussianBlur(6))
    grain = img.load()
    for yy in range(0, h):
        for xx in range(0, w):
            n = rnd.randrange(-18, 19)
            r, g, b = grain[xx, yy]
            grain[xx, yy] = (max(0, min(255, r + n)), max(0, min(255, g + n)), max(0, min(255, b + n)))
    return img


def table_picture() -> Image.Image:
    """A spec table as a picture (black on white): what a scanned or pasted-in table looks like."""
    img = Image.new("L", (900, 660), 255)
    draw = ImageDraw.Draw(img)
    font = ImageFont.load_default()
    rows = [("Rack power", "132 kW"), ("Cooling", "Liquid"), ("GPU-to-GPU", "1.8 TB/s per GPU")]
    for r, (a, b) in enumerate(rows):
        y = 20 + 200 * r
        draw.rectangle((20, y, 880, y + 180), outline=0, width=3)
        draw.line((420, y, 420, y + 180), fill=0, width=3)
        draw.text((40, y + 80), a, fill=0, font=font)
        draw.text((440, y + 80), b, fill=0, font=font)
    return img


def diagram_picture(width=1200, height=520) -> Image.Image:
    """A drawing on white (boxes joined by lines, a few labels): a topology diagram, no table."""
    img = Image.new("RGB", (width, height), (255, 255, 255))
    draw = ImageDraw.Draw(img)
    font = ImageFont.load_default()
    for i in range(6):
        x = 60 + i * (width - 120) // 6
        draw.rectangle((x, 60, x + 120, 140), outline=(30, 90, 160), width=4)
        draw.text((x + 20, 90), f"Spine {i + 1}", fill=(30, 90, 160), font=font)
        for j in range(6):
            xj = 60 + j * (width - 120) // 6
            draw.line((x + 60, 140, xj + 60, height - 140), fill=(120, 120, 120), width=2)
    for j in range(6):
        x = 60 + j * (width - 120) // 6
        draw.rectangle((x, height - 140, x + 120, height - 60), outline=(200, 90, 30), width=4)
    return img


def pictures_not_tables():
    """Pages that are mostly picture with a little text, where the picture holds no table: a user guide's cover
    (title in display type beside a drawing of the product), a 16:9 slide (heading and one sentence above a
    topology diagram), and a photograph of two products on white with each product's name printed over it."""
    c = canvas.Canvas(str(HERE / "pictures-not-tables.pdf"), pagesize=A4, invariant=1)
    c.setTitle("Pictures that are not tables (fictional, for tests)")
    c.drawImage(jpeg(diagram_picture(900, 700)), 60, 220, 475, 370)
    c.setFont(BOLD, 36)
    c.drawString(60, H - 110, "Petrel PX4")
    c.setFont(BODY, 22)
    c.drawString(60, H - 140, "User Guide")
    c.setFont(BODY, 10)
    c.drawString(60, 80, "www.example.com    May 2026")
    c.showPage()
    c.setPageSize((1440, 810))
    c.drawImage(jpeg(diagram_picture()), 120, 40, 1200, 520)
    c.setFont(BOLD, 60)
    c.drawString(120, 700, "Case 02")
    c.setFont(BODY, 18)
    c.drawString(120, 640, "A leaf-spine fabric of 6 spines and 6 leaves joins 48 GPU servers with 400Gbps links.")
    c.showPage()
    c.setPageSize(A4)
    c.drawImage(jpeg(diagram_picture(900, 1200)), 0, 0, W, H)
    c.setFont(BODY, 11)
    c.setFillColorRGB(0.1, 0.1, 0.1)
    c.drawString(80, 300, "PETREL PX4 STATION")
    c.drawString(360, 300, "PETREL PX8")
    c.showPage()
    c.save()


def jpeg(img: Image.Image, quality=70) -> ImageReader:
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=quality)
    buf.seek(0)
    return ImageReader(buf)


def title_over_photo():
    c = canvas.Canvas(str(HERE / "title-over-photo.pdf"), pagesize=A4, invariant=1)
    c.setTitle("Halyard HX72 brochure (fictional, for tests)")
    # page 1: a full-page photo, and over it only a title
    c.drawImage(jpeg(photo(19)), 0, 0, W, H)
    c.setFillColorRGB(1, 1, 1)
    c.setFont(BOLD, 30)
    c.drawString(48, H - 120, "Halyard HX72")
    c.setFont(BODY, 16)
    c.drawString(48, H - 146, "Rack-scale AI system")
    c.showPage()
    # page 2: the specifications as text
    c.setFont(BOLD, 14)
    c.drawString(48, H - 70, "Specifications")
    y = H - 100
    for label, value in (
        ("Scale-up domain", "72 GPUs in one NVLink domain"),
        ("GPU-to-GPU bandwidth", "1.8 TB/s per GPU, bidirectional"),
        ("Cluster network", "4x 800 Gb/s InfiniBand XDR per compute tray"),
        ("Rack power", "132 kW"),
        ("Cooling", "Direct liquid cooling"),
    ):
        c.setFont(BOLD, 9)
        c.drawString(48, y, label)
        c.setFont(BODY, 9)
        c.drawString(200, y, value)
        y -= 15
    c.showPage()
    # page 3: a heading over a picture of a table: its figures are in the picture, not in the text
    c.setFont(BOLD, 14)
    c.drawString(48, H - 70, "Power and cooling")
    c.drawImage(jpeg(table_picture(), 85), 48, H - 460, 500, 370)
    c.showPage()
    c.save()


BRIEF = (
    "The Tern T4 family is the fourth generation of Tern leaf switches and the first to bring 400G to the top "
    "of the rack. As enterprises move applications to containers and emerging AI clusters, the demand for high "
    "capacity, low latency networking keeps growing, and the T4 answers it with wire speed on every port. "
    "It supports a wide range of interface speeds on one platform, from legacy server links to the newest "
    "optics, and runs the same operating system as every other Tern product, so existing tools keep working."
)
SIDEBAR = [
    (
        "Performance",
        ["T4-32Q: 32 QSFP-DD 400G", "T4-48S: 48 SFP-DD 100G & 8 QSFP-DD 400G", "Up to 12.8 terabits per second"],
    ),
    (
        "Efficient design",
        ["Up to 32 x 400G with under 9W/port", "1+1 redundant & hot-swappable power", "N+1 redundant fans"],
    ),
]
MODELS = ["T4-48S", "T4-48P", "T4-24C", "T4-32Q"]
GRID = [
    (
        "Ports",
        [
            ["48x SFP-DD 100G", "8x QSFP-DD 400G"],
            ["48x DSFP 100G", "8x QSFP-DD 400G"],
            ["24x QSFP56 200G", "8x QSFP-DD 400G"],
            ["32x QSFP-DD 400G", "2x SFP+"],
        ],
    ),
    ("Max 400GbE Ports", [["8"], ["8"], ["8"], ["32"]]),
    ("Throughput (FDX)", [["8.0 (16) Tbps"], ["8.0 (16) Tbps"], ["8.0 (16) Tbps"], ["12.8 (25.6) Tbps"]]),
    ("Latency", [["800ns"], ["800ns"], ["800ns"], ["850ns"]]),
    ("Typical/Max Power", [["160W / 510W"], ["150W / 510W"], ["210W / 455W"], ["380W / 730W"]]),
    ("Rack Units", [["1RU"], ["1RU"], ["1RU"], ["2RU"]]),
]

SERVER_PROSE = (
    "Inspired by the demands of research teams, the Vega V-8 server works out of the box: plug it in, power "
    "it up and train. Its eight accelerators talk to each other over NVLink, so a model split across them "
    "never leaves the box, and a tuned software stack saves months of integration. Management runs over "
    "a dedicated port, and firmware updates are signed and staged without downtime."
)
SERVER_SPECS = [
    ("GPUs", ["8X Vega V2", "8X Vega V1"]),
    ("GPU Memory", ["128 GB total system"]),
    ("Maximum Power", ["3,200 W"]),
    ("Network", ["Dual 10 GbE, 4 IB EDR"]),
    ("System Weight", ["134 lbs"]),
]

BULLET_COLUMNS = [
    (
        "Power Specifications",
        [
            "Typical power with passive cables (ATIS): 150W",
            "Input range: 100-127 VAC, 200-240VAC",
            "Frequency: 50-60Hz",
        ],
    ),
    ("Physical Characteristics", ["Dimensions: 1.72 in H x 16.84 in W x 27 in D", "Weight: 11.1kg (24.5lb)"]),
    (
        "Supported Modules",
        ["QSFP28 short and long range optics", "QSFP AOC", "1000BASE-T module", "QSFP breakout cables"],
    ),
]


def model_grid():
    """A switch data sheet's two pages as desktop publishing sets them: a small "PRODUCT BRIEF" tag in a ruled box
    above the product's name in large type; a bulleted sidebar beside running text; a table of four models whose
    only rules box the last model's column (its highlight), with each row label set against the middle of its
    values (a two-line value has its first line above the label)."""
    c = canvas.Canvas(str(HERE / "model-grid.pdf"), pagesize=A4, invariant=1)
    c.setTitle("Tern T4 data sheet (fictional, for tests)")
    c.setLineWidth(0.5)
    # the tag's rules: a top row of two cells and one cell under the first; "BRIEF" lies in the rules' box but in
    # no cell
    c.rect(400, H - 50, 150, 20)
    c.line(475, H - 50, 475, H - 30)
    c.rect(400, H - 70, 75, 20)
    c.setFont(BOLD, 12)
    c.drawString(410, H - 45, "SWITCH SYSTEM")
    c.drawString(410, H - 64, "PRODUCT")
    c.drawString(480, H - 64, "BRIEF")
    c.setFont(BOLD, 26)
    c.drawString(40, H - 130, "Tern T4 Ethernet Switch")
    y = H - 170
    for head, items in SIDEBAR:
        c.setFont(BOLD, 10)
        c.drawString(40, y, head)
        y -= 15
        for item in items:
            for k, line in enumerate(lines_of(item, BODY, 9, 150, 0.25)):
                c.setFont(BODY, 9)
                c.drawString(48, y, ("\u2022 " if k == 0 else "  ") + " ".join(line))
                y -= 12
        y -= 8
    y = H - 170
    for line in lines_of(BRIEF, BODY, 9.5, 330, 0.25):
        c.setFont(BODY, 9.5)
        c.drawString(220, y, " ".join(line))
        y -= 13
    c.showPage()
    # page 2: the models side by side
    c.setFont(BOLD, 14)
    c.drawString(300, H - 40, "Tern T4 | Technical Specifications")
    xs = [150, 240, 330, 450]  # each model's column starts here; the last is boxed
    pitch, top = 22.0, H - 80
    c.setFont(BOLD, 10)
    c.drawString(40, top, "Model")
    for x, name in zip(xs, MODELS):
        c.drawString(x, top, name)
    y = top
    bounds = [top + 14]
    for label, values in GRID:
        lines = max(len(v) for v in values)
        height = pitch + 11 * (lines - 1)
        mid = y - height / 2 - pitch / 2 + 5
        bounds.append(y - 8)
        c.setFont(BODY, 9)
        c.drawString(40, mid, label)
        for x, value in zip(xs, values):
            first = mid + 5.5 * (len(value) - 1)  # a value's lines centred on the label
            for k, line in enumerate(value):
                c.drawString(x, first - 11 * k, line)
        y -= height
    bounds.append(y - 8)
    c.setLineWidth(0.6)
    x0, x1 = xs[-1] - 8, xs[-1] + 110
    for b in bounds:  # the highlighted column: a box per row, nothing else ruled
        c.line(x0, b, x1, b)
    c.line(x0, bounds[0], x0, bounds[-1])
    c.line(x1, bounds[0], x1, bounds[-1])
    c.line(xs[-2] - 8, bounds[-2], xs[-2] - 8, bounds[-1])  # one more rule: a last row of two cells
    c.line(xs[-2] - 8, bounds[-2], x0, bounds[-2])
    c.line(xs[-2] - 8, bounds[-1], x0, bounds[-1])
    c.showPage()
    # page 3: specifications as three bulleted lists side by side, their lines on one baseline grid
    c.setFont(BOLD, 14)
    c.drawString(240, H - 60, "SPECIFICATIONS")
    for x, (head, items) in zip((40, 220, 400), BULLET_COLUMNS):
        y = H - 90
        c.setFont(BOLD, 9.5)
        c.drawString(x, y, head)
        for item in items:
            for k, line in enumerate(lines_of(item, BODY, 9, 140, 0.25)):
                y -= 12.4
                c.setFont(BODY, 9)
                c.drawString(x, y, ("\u2013 " if k == 0 else "   ") + " ".join(line))
    c.showPage()
    c.save()


def spec_box():
    """A server data sheet's page: body text in a wide left column and, beside it, a spec box whose caption runs
    across its label and value columns, rows set closer than a paragraph's gap, two variants side by side and the
    values both share centred across them."""
    c = canvas.Canvas(str(HERE / "spec-box-beside-text.pdf"), pagesize=A4, invariant=1)
    c.setTitle("Vega V-8 data sheet (fictional, for tests)")
    c.setFont(BOLD, 13)
    c.drawString(36, H - 60, "The Fastest Path to Training")
    y = H - 80
    for line in lines_of(SERVER_PROSE, BODY, 9, 320, 0.25):
        c.setFont(BODY, 9)
        c.drawString(36, y, " ".join(line))
        y -= 14
    c.setFont(BOLD, 8)
    c.drawString(392, H - 80, "SYSTEM SPECIFICATIONS")
    y = H - 92
    for label, values in SERVER_SPECS:
        c.setFont(BODY, 7.5)
        c.drawString(392, y, label)
        if len(values) == 1:
            middle = (472 + 528 + stringWidth(SERVER_SPECS[0][1][1], BODY, 7.5)) / 2  # both variants': centred
            c.drawString(middle - stringWidth(values[0], BODY, 7.5) / 2, y, values[0])
        else:
            c.drawString(472, y, values[0])
            c.drawString(528, y, values[1])
        y -= 12
    c.showPage()
    c.save()


CARD_PROSE = (
    "The Kite K2, built on the Kite Aero architecture, brings accelerated graphics and compute to compact "
    "workstations. Featuring 768 shader cores and 4 GB or 8 GB of GDDR6 memory, the K2 fits a single slot "
    "and stays quiet under load. Native support for four displays gives designers room to work, and "
    "certified drivers keep professional applications stable from one release to the next."
)
CARD_SPECS = [  # label lines, value lines; an indented label is a sub-row of the label-only row above it
    (["GPU Memory"], []),
    (["  Kite K2"], ["4 GB GDDR6"]),
    (["  Kite K2 8GB"], ["8 GB GDDR6"]),
    (["Memory Interface"], ["128-bit"]),
    (["Memory Bandwidth"], ["Up to 160GB/s"]),
    (["Single-Precision", "Performance"], ["Up to 2.4 TFLOPS"]),
    (["System Interface"], ["PCI Express 4.0 x 8"]),
    (["Max Power", "Consumption"], ["45 W"]),
    (["Thermal Solution"], ["Active"]),
    (["Form Factor"], ["2.7 inches H x", "6.6 inches L,", "single slot"]),
    (["Display Connectors"], ["4x mDP 1.4a with latching", "mechanism"]),
    (["Max Simultaneous", "Displays"], ["4x 3840 x 2160 @ 120Hz", "2x 7680 x 4320 @ 60Hz"]),
]
SERVER_MODELS = ["C4-2S", "C4-4S", "C4-8L"]
SERVER_GRID = [  # label, each model's value lines (one entry: a value shared by all, centred across them)
    ("Accelerators", [["4x Corsac A2"], ["4x Corsac A2"], ["8x Corsac A2"]]),
    ("Accelerator memory bandwidth", [["3.2 TB/s"], ["3.2 TB/s"], ["4.0 TB/s"]]),
    (
        "Scale-up link",
        [
            ["A2 Link, 400 GB/s", "per accelerator"],
            ["A2 Link, 400 GB/s", "per accelerator"],
            ["A2 Link, 600 GB/s", "per accelerator"],
        ],
    ),
    ("Cluster network", [["4x 400 Gb/s RoCE v2"], ["4x 400 Gb/s RoCE v2"], ["8x 400 Gb/s RoCE v2"]]),
    ("Front-end network", [["Dual 25 GbE, OCP 3.0"]]),
    (None, "Power and cooling"),
    ("Maximum power", [["3.1 kW"], ["3.4 kW"], ["6.2 kW"]]),
    ("Cooling", [["Air"], ["Air"], ["Direct liquid", "cooling"]]),
    ("Power supplies", [["2x 2,000 W"], ["2x 2,400 W"], ["4x 3,000 W"]]),
]
NIC_PROSE = (
    "The Egret E1 adapter puts two 400 Gb/s ports on a half-height card for the cluster network of an AI "
    "server. RDMA over Converged Ethernet runs in hardware, congestion control is programmable, and the "
    "adapter reads and writes accelerator memory directly, so that the host processor stays out of the "
    "data path. A dedicated engine encrypts traffic at line rate, and firmware updates are signed and "
    "checked at boot."
)
NIC_SPECS = [
    (["Ports"], ["2x QSFP112"]),
    (["Data rate"], ["400 Gb/s per port,", "Ethernet and RoCE v2"]),
    (["Host interface"], ["PCIe Gen5 x16"]),
    (["Typical power", "(two ports active)"], ["25 W"]),
    (["Cooling"], ["Passive heatsink,", "300 LFM airflow"]),
    (["Port-to-port", "latency"], ["600 ns"]),
    (["Form factor"], ["Half height, half length"]),
]


def spec_boxes():
    """Borderless spec boxes as three vendors set them; every value on its label's baseline, no rules."""
    c = canvas.Canvas(str(HERE / "spec-box-card.pdf"), pagesize=A4, invariant=1)
    c.setTitle("Kite K2 datasheet (fictional, for tests)")
    # (1) a card's datasheet: running text on the left, the box in a right-hand column under a caption
    c.setFont(BOLD, 20)
    c.drawString(36, H - 90, "Kite K2 | Kite K2 8GB")
    c.setFont(BOLD, 11.5)
    c.drawString(36, H - 130, "Power and Performance in a Small Form Factor")
    y = H - 148
    for line in lines_of(CARD_PROSE, BODY, 9, 300, 0.25):
        c.setFont(BODY, 9)
        c.drawString(36, y, " ".join(line))
        y -= 12
    c.setFont(BOLD, 9)
    c.drawString(376, H - 130, "SPECIFICATIONS")
    y = H - 146
    for labels, values in CARD_SPECS:
        for k, label in enumerate(labels):
            c.setFont(BODY, 8)
            c.drawString(380 + (9 if label.startswith("  ") else 0), y - 10 * k, label.strip())
        for k, value in enumerate(values):
            c.setFont(BOLD, 8)
            c.drawString(465, y - (10 if len(labels) == 1 else 12.5) * k, value)
        lines = max(len(labels), len(values))
        y -= 10 * lines + (4 if labels[0].startswith("  ") or not values else 6)
    c.setFont(BODY, 9)
    c.drawString(
        36, y - 30, "To learn more about the Kite K2 or the Kite K2 8GB, visit www.example.com/kite/k2/ (fictional)"
    )
    c.showPage()
    c.save()
    c = canvas.Canvas(str(HERE / "spec-box-models.pdf"), pagesize=A4, invariant=1)
    c.setTitle("Corsac C4 technical specifications (fictional, for tests)")
    # (2) a server's sheet: models head centred value columns; a section heading inside the box; glyph by glyph
    glyph_by_glyph(c, 40, H - 60, "Corsac C4 Technical Specifications".split(), BOLD, 16, 0.25)
    centres = [250, 370, 490]
    y = H - 100
    for centre, name in zip(centres, SERVER_MODELS):
        glyph_by_glyph(c, centre - stringWidth(name, BOLD, 10) / 2, y, [name], BOLD, 10, 0.25)
    y -= 20
    for label, values in SERVER_GRID:
        if label is None:
            y -= 6
            glyph_by_glyph(c, 40, y, values.split(), BOLD, 11, 0.25)
            y -= 20
            continue
        glyph_by_glyph(c, 40, y, label.split(), BOLD, 9, 0.25)
        if len(values) == 1:
            centre_of = [(centres[0] + centres[-1]) / 2]
        else:
            centre_of = centres
        for centre, lines in zip(centre_of, values):
            for k, line in enumerate(lines):
                width = (
                    stringWidth(line, BODY, 9)
                    + 0.25 * 9 * line.count(" ")
                    - stringWidth(" ", BODY, 9) * line.count(" ")
                )
                glyph_by_glyph(c, centre - width / 2, y - 11 * k, line.split(), BODY, 9, 0.25)
        y -= 11 * max(len(v) for v in values) + 9
    c.showPage()
    c.save()
    c = canvas.Canvas(str(HERE / "spec-box-flush-right.pdf"), pagesize=A4, invariant=1)
    c.setTitle("Egret E1 adapter (fictional, for tests)")
    # (3) a NIC's sheet: labels flush right against the gutter, the box left, running text right; word by word
    word_by_word(c, 40, H - 70, "Egret E1 400G Ethernet Adapter".split(), BOLD, 18, 0.22)
    y = H - 110
    for labels, values in NIC_SPECS:
        for k, label in enumerate(labels):
            word_by_word(
                c,
                150 - stringWidth(label, BOLD, 8.5) - label.count(" ") * (0.22 * 8.5 - stringWidth(" ", BOLD, 8.5)),
                y - 10.5 * k,
                label.split(),
                BOLD,
                8.5,
                0.22,
            )
        for k, value in enumerate(values):
            word_by_word(c, 162, y - 10.5 * k, value.split(), BODY, 8.5, 0.22)
        y -= 10.5 * max(len(labels), len(values)) + 7
    y = H - 110
    for line in lines_of(NIC_PROSE, BODY, 9, 250, 0.22):
        word_by_word(c, 310, y, line, BODY, 9, 0.22)
        y -= 12.5
    c.showPage()
    c.save()


if __name__ == "__main__":
    no_space_glyphs()
    two_columns()
    title_over_photo()
    pictures_not_tables()
    model_grid()
    spec_box()
    spec_boxes()
    for name in (
        "no-space-glyphs.pdf",
        "two-column-spec-table.pdf",
        "title-over-photo.pdf",
        "pictures-not-tables.pdf",
        "model-grid.pdf",
        "spec-box-beside-text.pdf",
        "spec-box-card.pdf",
        "spec-box-models.pdf",
        "spec-box-flush-right.pdf",
    ):
        print(HERE / name, (HERE / name).stat().st_size, "bytes")
