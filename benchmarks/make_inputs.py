"""Inputs for bench_speed.py, generated here (nothing is downloaded; ReportLab invariant mode, fixed seeds).

    guide(path, pages=200, figure_pages=(12, 97, 173))   a product guide: prose, ruled tables, running
                                                          header and footer; figures only on figure_pages
    sheet(path)                                           a 2-page spec sheet: spec table, prose, footnotes
    manual(path, pages=400)                               a service manual: a small dimensions and weight
                                                          table on every page (figure-like, but no audit figure)

The filler pages read like a product guide (installation, firmware, warranty, part numbers, dimensions,
memory capacities, dates, version numbers) but print no bandwidth, latency, power, accelerator count or
cooling method, so the figures of the guide are exactly those of its figure pages.
"""

from __future__ import annotations

import random
from pathlib import Path

from reportlab import rl_config

rl_config.invariant = 1

from reportlab.lib import colors  # noqa: E402
from reportlab.lib.pagesizes import A4  # noqa: E402
from reportlab.lib.styles import ParagraphStyle  # noqa: E402
from reportlab.lib.units import mm  # noqa: E402
from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle  # noqa: E402

BODY = ParagraphStyle("body", fontName="Helvetica", fontSize=9.5, leading=12.5, spaceAfter=5)
CELL = ParagraphStyle("cell", fontName="Helvetica", fontSize=8.5, leading=10.5)
CELLB = ParagraphStyle("cellb", parent=CELL, fontName="Helvetica-Bold")
H1 = ParagraphStyle("h1", fontName="Helvetica-Bold", fontSize=20, leading=24, spaceAfter=8)
H2 = ParagraphStyle("h2", fontName="Helvetica-Bold", fontSize=13, leading=16, spaceBefore=4, spaceAfter=6)
SMALL = ParagraphStyle("small", fontName="Helvetica", fontSize=7.5, leading=9.5)
GRID = TableStyle(
    [
        ("GRID", (0, 0), (-1, -1), 0.5, colors.grey),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8e8e8")),
    ]
)

TOPICS = [
    "Unpacking the system",
    "Rail kit installation",
    "BMC first login",
    "Firmware update procedure",
    "BIOS settings",
    "Operating system installation",
    "Drive bay population",
    "Memory population rules",
    "Front panel controls",
    "Rear panel connectors",
    "Service and replacement",
    "Warranty terms",
    "Regulatory notices",
    "Event log messages",
    "Troubleshooting boot failures",
    "Redfish API usage",
    "Secure boot and attestation",
    "Shipping and handling",
    "Cable management",
    "Spare parts",
]
SUBJECTS = [
    "The baseboard management controller",
    "The installer",
    "The service technician",
    "The system",
    "Each drive carrier",
    "The firmware image",
    "The accelerator tray",
    "The rail kit",
    "The operator",
    "The management network port",
    "The chassis lid",
    "Every field-replaceable unit",
]
VERBS = [
    "must be checked against",
    "is described in",
    "should be recorded in",
    "can be replaced without",
    "is shipped with",
    "is verified by",
    "stays compatible with",
    "is listed in",
    "requires",
    "is reset by",
]
OBJECTS = [
    "the release notes of version {v}",
    "section {s} of this guide",
    "the asset tag on the front bezel",
    "Table {t} in chapter {c}",
    "a T{n} Torx screwdriver",
    "the {g} GB DIMM population order",
    "part number {pn}",
    "the service label inside the lid",
    "firmware {v} or later",
    "a {d} mm clearance at the rear",
    "the {y} edition of the site survey",
    "step {n} of the procedure",
    "the {g} GB boot drive",
    "the {n}-pin auxiliary header",
    "Figure {t}",
    "the event log of {y}",
]


def _sentence(rng: random.Random) -> str:
    obj = rng.choice(OBJECTS).format(
        v=f"{rng.randint(1, 9)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}",
        s=f"{rng.randint(1, 20)}.{rng.randint(1, 9)}",
        t=rng.randint(1, 60),
        c=rng.randint(1, 20),
        n=rng.randint(2, 30),
        g=rng.choice([16, 32, 64, 128, 480, 960]),
        pn=f"{rng.choice('KMPQ')}{rng.randint(100, 999)}-{rng.randint(10000, 99999)}",
        d=rng.choice([150, 200, 600]),
        y=rng.randint(2019, 2025),
    )
    return f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {obj}."


def _paragraph(rng: random.Random, n: int) -> str:
    return " ".join(_sentence(rng) for _ in range(n))


def _filler_table(rng: random.Random) -> Table:
    rows = [[Paragraph("Part number", CELLB), Paragraph("Description", CELLB), Paragraph("Qty", CELLB)]]
    for _ in range(6):
        rows.append(
            [
                Paragraph(f"{rng.choice('KMPQ')}{rng.randint(100, 999)}-{rng.randint(10000, 99999)}", CELL),
                Paragraph(
                    rng.choice(
                        [
                            "Rail kit, 700 mm",
                            "Drive carrier, 2.5-inch",
                            "Bezel with lock",
                            f"DIMM, {rng.choice([32, 64, 96])} GB DDR5",
                            "Torx screw set",
                            "Cable arm",
                            "Lid gasket",
                        ]
                    ),
                    CELL,
                ),
                Paragraph(str(rng.randint(1, 16)), CELL),
            ]
        )
    t = Table(rows, colWidths=[40 * mm, 100 * mm, 20 * mm])
    t.setStyle(GRID)
    return t


def _figure_page(k: int) -> list:
    """The three pages that print figures: a spec table, a latency paragraph, a rack-planning note."""
    if k == 0:
        spec = [
            ("GPUs", "8x Cormorant A1 accelerators, fully connected, one NVLink domain"),
            ("GPU-to-GPU interconnect", "NVLink, 900 GB/s bidirectional per GPU"),
            ("Compute network", "8x 400 Gb/s InfiniBand NDR, one per GPU"),
            ("Front-end network", "2x 100GbE"),
            ("System power", "10.2 kW max"),
            ("Cooling", "Air-cooled"),
        ]
        t = Table(
            [[Paragraph("Component", CELLB), Paragraph("Specification", CELLB)]]
            + [[Paragraph(a, CELLB), Paragraph(b, CELL)] for a, b in spec],
            colWidths=[50 * mm, 120 * mm],
        )
        t.setStyle(GRID)
        return [
            Paragraph("System specifications", H2),
            Paragraph("The table below lists the interconnect and power of the C8 system.", BODY),
            t,
        ]
    if k == 1:
        return [
            Paragraph("Network latency", H2),
            Paragraph(
                "The leaf switch forwards a packet port-to-port in 130 ns. Measured end to end with "
                "NCCL over the compute network, an 8-byte all-reduce completes in 2.1 µs.",
                BODY,
            ),
        ]
    return [
        Paragraph("Rack planning", H2),
        Paragraph("A rack of four C8 systems draws 41 kW¹ and needs a facility that can feed it.", BODY),
        Paragraph("¹ Measured at 35 °C inlet with every GPU at full load.", SMALL),
    ]


def guide(path: str | Path, pages: int = 200, figure_pages: tuple[int, ...] = (12, 97, 173), seed: int = 6) -> Path:
    rng = random.Random(seed)
    path = Path(path)
    title = "Cormorant C8 Product Guide"

    def header_footer(c, doc):
        c.saveState()
        c.setFont("Helvetica", 7)
        c.drawString(18 * mm, A4[1] - 10 * mm, title)
        c.drawRightString(A4[0] - 18 * mm, 10 * mm, f"Page {c.getPageNumber()} of {pages}")
        c.restoreState()

    story: list = []
    for p in range(1, pages + 1):
        if p == 1:
            story += [
                Paragraph(title, H1),
                Paragraph("Installation, operation and service", H2),
                Paragraph(_paragraph(rng, 6), BODY),
            ]
        elif p in figure_pages:
            story += _figure_page(list(figure_pages).index(p) % 3)
            story.append(Paragraph(_paragraph(rng, 8), BODY))
        else:
            story.append(Paragraph(f"{(p // 10) + 1}.{p % 10} {rng.choice(TOPICS)}", H2))
            for _ in range(4):
                story.append(Paragraph(_paragraph(rng, 6), BODY))
            if p % 4 == 0:
                story += [Spacer(1, 4), _filler_table(rng)]
            else:
                story.append(Paragraph(_paragraph(rng, 6), BODY))
        if p < pages:
            story.append(PageBreak())
    doc = SimpleDocTemplate(
        str(path),
        pagesize=A4,
        leftMargin=18 * mm,
        rightMargin=18 * mm,
        topMargin=16 * mm,
        bottomMargin=18 * mm,
        title=title,
        author="Cormorant Systems (fictional)",
        invariant=1,
    )
    doc.build(story, onFirstPage=header_footer, onLaterPages=header_footer)
    return path


def sheet(path: str | Path, seed: int = 7) -> Path:
    """A two-page datasheet: a ruled spec table on page 1, networking, notes and footnotes on page 2."""
    rng = random.Random(seed)
    path = Path(path)
    spec = [
        ("Accelerators", "8x Heron H2 GPUs, fully connected by NVSwitch"),
        ("GPU memory", "8x 141 GB HBM3e, 4.8 TB/s memory bandwidth per GPU"),
        ("Scale-up interconnect", "NVLink, 900 GB/s per GPU (bidirectional)¹"),
        ("CPU", "2x 64-core processors"),
        ("System memory", "2 TB DDR5"),
        ("Storage", "8x 3.84 TB NVMe"),
        ("Compute network", "8x 400 Gb/s InfiniBand NDR or 400GbE RoCE v2"),
        ("Storage network", "2x 200 Gb/s"),
        ("Management", "1x 1GbE BMC"),
        ("System power", "10.2 kW max²"),
        ("Cooling", "Air-cooled"),
        ("Form factor", "8U, 800 mm deep"),
        ("Weight", "130 kg"),
    ]
    t = Table(
        [[Paragraph("Component", CELLB), Paragraph("Specification", CELLB)]]
        + [[Paragraph(a, CELLB), Paragraph(b, CELL)] for a, b in spec],
        colWidths=[50 * mm, 120 * mm],
    )
    t.setStyle(GRID)
    story = [
        Paragraph("Heron HX8 GPU Server", H1),
        Paragraph("Heron Systems (fictional) | Datasheet", SMALL),
        Spacer(1, 6),
        Paragraph("The HX8 is an eight-GPU training server. " + _paragraph(rng, 5), BODY),
        Paragraph("Specifications", H2),
        t,
        Paragraph(_paragraph(rng, 5), BODY),
        PageBreak(),
        Paragraph("Networking", H2),
        Paragraph(
            "Each GPU has its own 400 Gb/s port on the compute network, in a rail-optimised fat tree. "
            "Switch port-to-port latency is 130 ns; end-to-end latency is under 2 µs.",
            BODY,
        ),
        Paragraph("Power and facility", H2),
        Paragraph("A 42U rack holds four HX8 systems and draws about 41 kW. " + _paragraph(rng, 4), BODY),
        Paragraph(_paragraph(rng, 6), BODY),
        Paragraph("¹ Total of both directions; 450 GB/s in each direction.", SMALL),
        Paragraph("² At 35 °C inlet temperature with all GPUs at full load.", SMALL),
    ]
    doc = SimpleDocTemplate(
        str(path),
        pagesize=A4,
        leftMargin=18 * mm,
        rightMargin=18 * mm,
        topMargin=16 * mm,
        bottomMargin=18 * mm,
        title="Heron HX8 GPU Server",
        author="Heron Systems",
        invariant=1,
    )
    doc.build(story)
    return path


def manual(path: str | Path, pages: int = 400, seed: int = 8) -> Path:
    """A service manual of `pages` pages, each a procedure with a small ruled table of the parts it handles,
    their dimensions and weights: numbers with units on every page, none of them a bandwidth, latency, power,
    accelerator count or cooling method."""
    rng = random.Random(seed)
    path = Path(path)
    title = "Cormorant C8 Service Manual"
    parts = [
        "Fan module",
        "Drive carrier",
        "Power supply blank",
        "Riser card",
        "Rail kit",
        "Bezel",
        "Cable arm",
        "DIMM blank",
        "Air baffle",
        "Midplane cover",
    ]
    story: list = [Paragraph(title, H1)]
    for p in range(1, pages + 1):
        story += [
            Paragraph(f"{p}. Replacing the {rng.choice(parts).lower()} ({rng.choice(TOPICS).lower()})", H2),
            Paragraph(_paragraph(rng, 4), BODY),
        ]
        rows = [[Paragraph(h, CELLB) for h in ("Part", "Dimensions (W x D x H)", "Weight")]]
        for name in rng.sample(parts, 3):
            rows.append(
                [
                    Paragraph(name, CELL),
                    Paragraph(f"{rng.randint(20, 450)} x {rng.randint(20, 700)} x {rng.randint(5, 90)} mm", CELL),
                    Paragraph(f"{rng.randint(1, 90) / 10:.1f} kg", CELL),
                ]
            )
        t = Table(rows, colWidths=[50 * mm, 70 * mm, 30 * mm])
        t.setStyle(GRID)
        story += [t, Spacer(1, 4), Paragraph(_paragraph(rng, 3), BODY)]
        if p < pages:
            story.append(PageBreak())
    doc = SimpleDocTemplate(
        str(path),
        pagesize=A4,
        leftMargin=18 * mm,
        rightMargin=18 * mm,
        topMargin=16 * mm,
        bottomMargin=18 * mm,
        title=title,
        author="Cormorant Systems (fictional)",
        invariant=1,
    )
    doc.build(story)
    return path


def plain(path: str | Path, pages: int = 1000, figure_pages: tuple[int, ...] = (3, 500, 998)) -> Path:
    """A long file of short plain pages (a service manual's page headers and one line each): cheap to read in
    full, for measuring memory on 1,000 pages."""
    from reportlab.pdfgen import canvas

    path = Path(path)
    figures = [
        "Compute network: 8x 400 Gb/s InfiniBand NDR",
        "Node power: 10.2 kW max",
        "GPU-to-GPU bandwidth: 900 GB/s per GPU",
    ]
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    for p in range(1, pages + 1):
        c.setFont("Helvetica", 9)
        c.drawString(60, A4[1] - 60, f"Cormorant C8 service manual - page {p} of {pages}")
        line = figures[figure_pages.index(p) % 3] if p in figure_pages else "General information; no specification."
        c.drawString(60, A4[1] - 90, line)
        c.showPage()
    c.save()
    return path


if __name__ == "__main__":  # python benchmarks/make_inputs.py OUTDIR
    import sys

    out = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    out.mkdir(parents=True, exist_ok=True)
    print(
        guide(out / "guide-200.pdf"),
        sheet(out / "sheet-2.pdf"),
        guide(out / "guide-1000.pdf", pages=1000, figure_pages=(12, 497, 973)),
    )
