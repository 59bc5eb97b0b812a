#!/usr/bin/env python3
"""Build the labelled sample spec sheets in this folder.

    python samples/make_samples.py            # (re)write every sample and its NAME.expected.json
    python samples/make_samples.py --verify   # also check that every label's text is printed on its page

All vendors and products are fictional; figures are modelled on public products. Each sheet has a
NAME.expected.json beside it in the corpus format (../../shared/corpus/README.md), labelled by the
conventions of CONTRACT.md: bandwidth normalised to GB/s per direction in the figure's own scope,
latency to ns, power to kW, domain size to accelerators, cooling to air/liquid/immersion.

Output is deterministic: ReportLab runs in invariant mode (fixed dates and document ids), so running
the script twice gives identical bytes. Needs reportlab (pip install reportlab); --verify needs pdfplumber.
"""

import argparse
import html
import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

from reportlab import rl_config

rl_config.invariant = 1  # fixed creation date and document id: byte-identical output

from reportlab.lib import colors  # noqa: E402
from reportlab.lib.pagesizes import A4, landscape, letter  # noqa: E402
from reportlab.lib.styles import ParagraphStyle  # noqa: E402
from reportlab.lib.units import mm  # noqa: E402
from reportlab.pdfbase import pdfmetrics  # noqa: E402
from reportlab.pdfbase.cidfonts import UnicodeCIDFont  # noqa: E402
from reportlab.pdfgen import canvas  # noqa: E402
from reportlab.platypus import (  # noqa: E402
    BaseDocTemplate,
    Frame,
    FrameBreak,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

HERE = Path(__file__).resolve().parent
CJK = "STSong-Light"
pdfmetrics.registerFont(UnicodeCIDFont(CJK))

# ---------------------------------------------------------------------------------------------------
# label helpers (key order follows the corpus files)


def bw(text, page, value, tier, direction, scope):
    return {
        "quantity": "bandwidth",
        "text": text,
        "page": page,
        "normalized": {"value": float(value), "unit": "GB/s"},
        "tier": tier,
        "direction": direction,
        "scope": scope,
    }


def mem(text, page, value):
    return {
        "quantity": "bandwidth",
        "text": text,
        "page": page,
        "normalized": {"value": float(value), "unit": "GB/s"},
        "tier": "memory",
        "direction": None,
        "scope": None,
    }


def lat(text, page, ns, tier, basis):
    return {
        "quantity": "latency",
        "text": text,
        "page": page,
        "normalized": {"value": float(ns), "unit": "ns"},
        "tier": tier,
        "basis": basis,
    }


def pw(text, page, kw, scope):
    return {
        "quantity": "power",
        "text": text,
        "page": page,
        "normalized": {"value": float(kw), "unit": "kW"},
        "scope": scope,
    }


def dom(text, page, n, tier):
    return {
        "quantity": "domain_size",
        "text": text,
        "page": page,
        "normalized": {"value": float(n), "unit": "accelerators"},
        "tier": tier,
    }


def cool(text, page, kind):
    return {"quantity": "cooling", "text": text, "page": page, "normalized": {"value": kind, "unit": None}}


def write_expected(sheet, description, figures, required, forbidden):
    doc = {
        "sheet": sheet,
        "description": description,
        "figures": figures,
        "checks": {"required": required, "forbidden": forbidden},
    }
    name = sheet.rsplit(".", 1)[0]
    (HERE / f"{name}.expected.json").write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def meta(c_or_doc, title, author):
    """Fixed metadata on a canvas."""
    c_or_doc.setTitle(title)
    c_or_doc.setAuthor(author)
    c_or_doc.setSubject("Product specification")
    c_or_doc.setCreator("sheetaudit samples/make_samples.py")


# shared paragraph styles
BODY = ParagraphStyle("body", fontName="Helvetica", fontSize=9.5, leading=12.5)
SMALL = ParagraphStyle("small", fontName="Helvetica", fontSize=7.5, leading=9.5, textColor=colors.HexColor("#444444"))
CELL = ParagraphStyle("cell", fontName="Helvetica", fontSize=8.5, leading=10.5)
CELLB = ParagraphStyle("cellb", parent=CELL, fontName="Helvetica-Bold")
H1 = ParagraphStyle("h1", fontName="Helvetica-Bold", fontSize=18, leading=22, spaceAfter=4)
H2 = ParagraphStyle("h2", fontName="Helvetica-Bold", fontSize=11.5, leading=14, spaceBefore=8, spaceAfter=4)
ZH_BODY = ParagraphStyle("zhbody", fontName=CJK, fontSize=10, leading=14, wordWrap="CJK")
ZH_CELL = ParagraphStyle("zhcell", fontName=CJK, fontSize=9, leading=12, wordWrap="CJK")
ZH_H1 = ParagraphStyle("zhh1", fontName=CJK, fontSize=17, leading=22, spaceAfter=6)
ZH_H2 = ParagraphStyle("zhh2", fontName=CJK, fontSize=12, leading=16, spaceBefore=6, spaceAfter=4)


def rows(pairs, style=CELL, head_style=CELLB):
    return [[Paragraph(a, head_style), Paragraph(b, style)] for a, b in pairs]


def footer(text):
    def draw(c, doc):
        c.saveState()
        c.setFont("Helvetica", 7)
        c.setFillColor(colors.HexColor("#666666"))
        c.drawString(18 * mm, 10 * mm, text)
        c.drawRightString(doc.pagesize[0] - 18 * mm, 10 * mm, str(c.getPageNumber()))
        c.restoreState()

    return draw


def simple_doc(path, title, author, pagesize=A4):
    return SimpleDocTemplate(
        str(path),
        pagesize=pagesize,
        leftMargin=18 * mm,
        rightMargin=18 * mm,
        topMargin=16 * mm,
        bottomMargin=18 * mm,
        title=title,
        author=author,
        subject="Product specification",
        creator="sheetaudit samples/make_samples.py",
        invariant=1,
    )


# ---------------------------------------------------------------------------------------------------
# a) 8-GPU server, ruled spec table, ordering page full of traps


def kestrel():
    sheet = "kestrel-k8x-gpu-server.pdf"
    doc = simple_doc(HERE / sheet, "Kestrel K8X-H GPU Server", "Kestrel Computing")
    story = [
        Paragraph("Kestrel K8X-H GPU Server", H1),
        Paragraph("Kestrel Computing | Product datasheet | 2024", SMALL),
        Spacer(1, 8),
        Paragraph(
            "The K8X-H is an 8U air-cooled training server built around an HGX-class baseboard with eight "
            "H200 SXM GPUs. Each GPU delivers up to 989 TFLOPS of dense FP16 compute and carries 141 GB of "
            "HBM3e, and a dedicated InfiniBand adapter for every GPU keeps the rail-optimised compute fabric "
            "out of the host's way.",
            BODY,
        ),
        Paragraph("Specifications", H2),
    ]
    spec = rows(
        [
            ("GPUs", "8x H200 SXM, 141 GB HBM3e and 4.8 TB/s memory bandwidth per GPU, up to 700 W each"),
            ("NVLink domain", "8 GPUs, fully connected through 4x NVSwitch"),
            ("GPU-to-GPU interconnect", "NVLink 4, 900 GB/s per GPU"),
            ("Compute network", "8x single-port 400 Gb/s InfiniBand NDR adapters (MCX75310AAS-NEAT), one per GPU"),
            ("Front-end network", "2x 200 Gb/s Ethernet (one dual-port DPU) for storage and in-band management"),
            ("Management", "1x 10GbE RJ45 BMC port"),
            ("CPU", "2x 64-core x86 processors, 2.25 GHz base, 360 W TDP each"),
            ("System memory", "2 TB DDR5-5600 (32x 64 GB RDIMM)"),
            ("Storage", "8x 3.84 TB NVMe U.2 data drives, 2x 960 GB M.2 boot drives"),
            ("Power supplies", "6x 3,000 W power supplies, 80 PLUS Titanium, 3+3 redundant"),
            ("System power", "10.2 kW max"),
            ("Cooling", "Air-cooled, 12x hot-swap fans, front-to-back airflow"),
            ("Form factor", "8U rack mount, 447 x 900 x 351 mm, 118 kg"),
            ("Operating temperature", "10 \u00b0C to 35 \u00b0C"),
        ]
    )
    t = Table(
        [[Paragraph("Component", CELLB), Paragraph("Specification", CELLB)]] + spec, colWidths=[45 * mm, 125 * mm]
    )
    t.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.5, colors.HexColor("#555555")),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#d9e2ec")),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("TOPPADDING", (0, 0), (-1, -1), 3),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
            ]
        )
    )
    story += [t, PageBreak(), Paragraph("Ordering information", H2)]
    order = rows(
        [
            ("K8X-H-8G141-AC", "K8X-H base system, eight H200 SXM GPUs, air-cooled chassis"),
            ("MCX75310AAS-NEAT", "NDR single-port OSFP adapter, PCIe Gen5 x16, factory installed"),
            ("KC-OSFP-400G-SR4", "OSFP multimode transceiver, up to 50 m"),
            ("KC-PSU-3000T", "Spare 3,000 W Titanium power supply"),
            ("KC-RAIL-2024", "Sliding rail kit (2024 revision) for racks 700 mm to 900 mm deep"),
        ]
    )
    t2 = Table(
        [[Paragraph("Part number", CELLB), Paragraph("Description", CELLB)]] + order, colWidths=[45 * mm, 125 * mm]
    )
    t2.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.5, colors.HexColor("#555555")),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#d9e2ec")),
            ]
        )
    )
    story += [t2, Paragraph("Environmental", H2)]
    env = rows(
        [
            ("Storage temperature", "-40 \u00b0C to 70 \u00b0C"),
            ("Relative humidity", "8% to 90%, non-condensing"),
            ("Altitude", "up to 3,048 m"),
            ("Acoustic noise", "92 dBA at 25 \u00b0C ambient"),
        ]
    )
    t3 = Table(env, colWidths=[45 * mm, 125 * mm])
    t3.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.HexColor("#555555"))]))
    story += [
        t3,
        Spacer(1, 10),
        Paragraph(
            "\u00a9 2024 Kestrel Computing. Document KC-DS-2024-017 rev 2, 12 June 2024. "
            "Specifications subject to change without notice.",
            SMALL,
        ),
    ]
    foot = footer("Kestrel Computing - K8X-H datasheet")
    doc.build(story, onFirstPage=foot, onLaterPages=foot)
    figures = [
        dom("8 GPUs", 1, 8, "scale-up"),
        mem("4.8 TB/s", 1, 4800),
        pw("700 W", 1, 0.7, "per-accelerator"),
        bw("900 GB/s", 1, 450, "scale-up", "unspecified", "per-accelerator"),
        bw("400 Gb/s", 1, 50, "scale-out", "unspecified", "per-port"),
        bw("200 Gb/s", 1, 25, "front-end", "unspecified", "per-port"),
        bw("10GbE", 1, 1.25, "front-end", "unspecified", "per-port"),
        pw("360 W", 1, 0.36, "per-device"),
        pw("10.2 kW", 1, 10.2, "per-node"),
        cool("Air-cooled", 1, "air"),
    ]
    write_expected(
        sheet,
        "8-GPU server, ruled spec table: NVLink total per GPU with no direction, one 400G NIC per "
        "GPU, node power only; traps: part numbers with digits+G, PSU ratings, HBM capacity, "
        "TFLOPS, DDR5-5600, mm, kg, temperatures, years.",
        figures,
        ["bandwidth.direction-unspecified", "bandwidth.scale-ratio", "power.per-node-only"],
        [
            "power.liquid-cooling-required",
            "power.rack-density",
            "tier.domain-size-missing",
            "power.missing",
            "tier.mixed-sum",
            "sheet.no-text",
        ],
    )


# ---------------------------------------------------------------------------------------------------
# b) rack-scale liquid-cooled system: two-column prose on page 1, spec table on page 2


def borealis():
    sheet = "borealis-bx72-rack.pdf"
    path = HERE / sheet
    W, H = A4
    m = 18 * mm
    gap = 8 * mm
    colw = (W - 2 * m - gap) / 2
    title_h = 38 * mm
    doc = BaseDocTemplate(
        str(path),
        pagesize=A4,
        leftMargin=m,
        rightMargin=m,
        topMargin=m,
        bottomMargin=m,
        title="Borealis BX-72 Liquid-Cooled AI Rack",
        author="Borealis Systems",
        subject="Product specification",
        creator="sheetaudit samples/make_samples.py",
        invariant=1,
    )
    f_title = Frame(m, H - m - title_h, W - 2 * m, title_h, id="title")
    f_left = Frame(m, m, colw, H - 2 * m - title_h, id="left")
    f_right = Frame(m + colw + gap, m, colw, H - 2 * m - title_h, id="right")
    f_one = Frame(m, m, W - 2 * m, H - 2 * m, id="one")
    foot = footer("Borealis Systems | BX-72 product brief | BS-PB-072 rev 1")
    doc.addPageTemplates(
        [PageTemplate("twocol", [f_title, f_left, f_right], onPage=foot), PageTemplate("onecol", [f_one], onPage=foot)]
    )
    col = ParagraphStyle("col", parent=BODY, fontSize=9.5, leading=13)
    story = [
        Paragraph("Borealis BX-72 Liquid-Cooled AI Rack", H1),
        Paragraph("One rack, one NVLink domain, trillion-parameter models without leaving the rack.", BODY),
        FrameBreak(),
        Paragraph("A single 72-GPU NVLink domain", H2),
        Paragraph(
            "The BX-72 joins 72 Blackwell-class GPUs and 36 Arm CPUs into one NVLink domain that spans 18 "
            "compute trays and 9 switch trays. Every GPU reaches every other GPU through fifth-generation "
            "NVLink at 1.8 TB/s of bidirectional bandwidth.",
            col,
        ),
        Spacer(1, 5),
        Paragraph(
            "Across the rack, the NVLink spine carries 130 TB/s in total, so tensor and expert parallelism "
            "can span all 72 GPUs at once.",
            col,
        ),
        Spacer(1, 5),
        Paragraph(
            "Each CPU is coupled to two GPUs over NVLink-C2C at 900 GB/s, giving them coherent access to "
            "480 GB of LPDDR5X. Each GPU carries 192 GB of HBM3e with 8 TB/s of memory bandwidth.",
            col,
        ),
        FrameBreak(),
        Paragraph("Scale-out and facility", H2),
        Paragraph(
            "For the scale-out network each GPU is paired with its own 800 Gb/s InfiniBand XDR or Ethernet "
            "port, so racks join clusters of tens of thousands of GPUs over a rail-optimised fabric. Two "
            "400GbE DPU ports per compute tray carry storage and management traffic.",
            col,
        ),
        Spacer(1, 5),
        Paragraph(
            "The rack is built for direct liquid cooling: cold plates take the heat from GPUs, CPUs and "
            "switch chips into a facility water loop at up to 40 \u00b0C. Rack power is about 120 kW, well "
            "beyond what an air-cooled hall can remove.",
            col,
        ),
        NextPageTemplate("onecol"),
        PageBreak(),
        Paragraph("Rack specifications", H2),
    ]
    spec = rows(
        [
            ("NVLink domain", "72 GPUs in one domain, 9 NVLink switch trays"),
            ("GPU-to-GPU bandwidth", "1.8 TB/s per GPU, bidirectional"),
            ("Compute trays", "18 trays, each with 2 CPUs and 4 GPUs; 5.6 kW max per tray"),
            ("Scale-out", "72x 800 Gb/s OSFP ports, one per GPU"),
            ("Rack power", "~120 kW typical, 135 kW peak"),
            ("Power delivery", "6 power shelves with 6x 5.5 kW PSUs each, N+1; 50 V DC busbar"),
            ("Cooling", "Direct liquid cooling (cold plates), facility water 25 \u00b0C to 40 \u00b0C, 1.2 l/s"),
            ("FP4 inference", "1.4 exaFLOPS (sparse)"),
            ("Dimensions", "600 x 1,200 x 2,300 mm (48U)"),
            ("Weight", "1,450 kg"),
        ]
    )
    t = Table(spec, colWidths=[48 * mm, 126 * mm])
    t.setStyle(
        TableStyle(
            [
                ("LINEBELOW", (0, 0), (-1, -1), 0.4, colors.HexColor("#7a8a99")),
                ("LINEABOVE", (0, 0), (-1, 0), 1.0, colors.HexColor("#1f3a5f")),
                ("BACKGROUND", (0, 0), (0, -1), colors.HexColor("#eef2f6")),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]
        )
    )
    story += [
        t,
        Spacer(1, 10),
        Paragraph(
            "Borealis and BX-72 are trademarks of Borealis Systems AB. All figures are preliminary (2025).", SMALL
        ),
    ]
    doc.build(story)
    figures = [
        dom("72 Blackwell-class GPUs", 1, 72, "scale-up"),
        bw("1.8 TB/s", 1, 900, "scale-up", "bidirectional", "per-accelerator"),
        bw("130 TB/s", 1, 65000, "scale-up", "unspecified", "per-domain"),
        bw("900 GB/s", 1, 450, "host", "unspecified", "per-link"),
        mem("8 TB/s", 1, 8000),
        bw("800 Gb/s", 1, 100, "scale-out", "unspecified", "per-port"),
        bw("400GbE", 1, 50, "front-end", "unspecified", "per-port"),
        cool("direct liquid cooling", 1, "liquid"),
        pw("120 kW", 1, 120, "per-rack"),
        pw("5.6 kW", 2, 5.6, "per-node"),
        pw("135 kW", 2, 135, "per-rack"),
    ]
    write_expected(
        sheet,
        "Rack-scale 72-GPU NVLink domain: two-column prose (interleaved by extract_text) then a "
        "table; bidirectional per-GPU figure, domain-wide total without direction, NVLink-C2C "
        "host link, rack power far above the air limit, liquid cooling; traps: PSU/power-shelf "
        "ratings, exaFLOPS, capacities, mm, kg, temperatures.",
        figures,
        [
            "tier.aggregate-figure",
            "power.liquid-cooling-required",
            "power.rack-density",
            "bandwidth.bidirectional",
            "bandwidth.scale-ratio",
        ],
        ["tier.domain-size-missing", "power.per-node-only", "power.missing", "tier.mixed-sum", "sheet.no-text"],
    )


# ---------------------------------------------------------------------------------------------------
# c) Ethernet switch: un-ruled key/value list drawn on a canvas, one label wraps onto two lines


def pelican():
    sheet = "pelican-pn5164-ethernet-switch.pdf"
    c = canvas.Canvas(str(HERE / sheet), pagesize=letter, invariant=1)
    meta(c, "Pelican PN-5164 AI Ethernet Switch", "Pelican Networks")
    W, H = letter
    x0, xv = 54, 210
    y = H - 60
    c.setFillColor(colors.HexColor("#0b5563"))
    c.rect(0, H - 36, W, 36, stroke=0, fill=1)
    c.setFillColor(colors.white)
    c.setFont("Helvetica-Bold", 10)
    c.drawString(x0, H - 23, "PELICAN NETWORKS  |  DATASHEET")
    c.setFillColor(colors.black)
    c.setFont("Helvetica-Bold", 20)
    y -= 10
    c.drawString(x0, y, "Pelican PN-5164 AI Ethernet Switch")
    c.setFont("Helvetica", 10)
    intro = [
        "A 2RU, 51.2 Tb/s switch for RoCE back-end fabrics: 64 ports of 800GbE that break out to 128 ports",
        "of 400GbE or 256 ports of 200GbE, with adaptive routing, per-packet spraying and lossless PFC/ECN.",
    ]
    y -= 24
    for line in intro:
        c.drawString(x0, y, line)
        y -= 13

    def section(title):
        nonlocal y
        y -= 14
        c.setFont("Helvetica-Bold", 12)
        c.setFillColor(colors.HexColor("#0b5563"))
        c.drawString(x0, y, title)
        c.setFillColor(colors.black)
        y -= 18

    def kv(label_lines, value_lines):
        nonlocal y
        c.setFont("Helvetica-Bold", 9.5)
        for i, lab in enumerate(label_lines):
            c.drawString(x0, y - 12 * i, lab)
        c.setFont("Helvetica", 9.5)
        for i, val in enumerate(value_lines):
            c.drawString(xv, y - 12 * i, val)
        y -= 12 * max(len(label_lines), len(value_lines)) + 7

    section("Performance")
    kv(["Ports"], ["64x 800GbE OSFP (breakout to 2x 400GbE or 4x 200GbE per cage)"])
    kv(["Switching capacity"], ["51.2 Tb/s"])
    kv(["Forwarding rate"], ["21.2 billion packets per second"])
    kv(["Packet buffer"], ["256 MB, fully shared"])
    kv(["Cut-through latency"], ["560 ns port to port (64-byte frames)"])
    kv(
        ["End-to-end RDMA latency", "(host to host, one switch)"],
        ["1.9 \u00b5s (ib_write_lat, 8-byte messages, RoCE v2, 400G NICs)"],
    )
    section("Power and environment")
    kv(["Typical power"], ["980 W (no optics, 50% load)"])
    kv(["Maximum power"], ["2,350 W (all ports populated with optics)"])
    kv(["Power supplies"], ["2x 3,000 W AC, 1+1 redundant, hot-swap"])
    kv(["Cooling"], ["Air-cooled, 6+1 hot-swap fans, port-to-power airflow"])
    kv(["Operating temperature"], ["0 \u00b0C to 40 \u00b0C"])
    kv(["Dimensions"], ["2RU, 440 x 660 x 87.6 mm, 24 kg"])
    section("Management and ordering")
    kv(["Management ports"], ["1x 1GbE RJ45, 1x RS-232 console, 1x USB"])
    kv(["Software"], ["Pelican NOS 5.2 or SONiC 2025.05"])
    kv(["Part numbers"], ["PN-5164-O8-F (port-to-power), PN-5164-O8-R (power-to-port)"])
    c.setFont("Helvetica", 7)
    c.setFillColor(colors.HexColor("#555555"))
    c.drawString(
        x0,
        40,
        "\u00a9 2025 Pelican Networks. Latency measured in the Pelican lab, May 2025. "
        "Specifications subject to change.",
    )
    c.showPage()
    c.save()
    figures = [
        bw("51.2 Tb/s", 1, 6400, "scale-out", "unspecified", "per-switch"),
        bw("800GbE", 1, 100, "scale-out", "unspecified", "per-port"),
        bw("400GbE", 1, 50, "scale-out", "unspecified", "per-port"),
        bw("200GbE", 1, 25, "scale-out", "unspecified", "per-port"),
        lat("560 ns", 1, 560, "scale-out", "hardware"),
        lat("1.9 \u00b5s", 1, 1900, "scale-out", "end-to-end"),
        pw("980 W", 1, 0.98, "per-switch"),
        pw("2,350 W", 1, 2.35, "per-switch"),
        cool("Air-cooled", 1, "air"),
        bw("1GbE", 1, 0.125, "front-end", "unspecified", "per-port"),
    ]
    write_expected(
        sheet,
        "51.2T Ethernet switch as an un-ruled label/value list, one label wrapping onto two "
        "lines: capacity with no direction (64 x 800 Gb/s agrees), cut-through latency in ns and "
        "an end-to-end latency with message size; traps: buffer MB, packet rate, PSU rating, "
        "400G inside a NIC description, mm, temperatures, versions.",
        figures,
        ["bandwidth.direction-unspecified"],
        [
            "latency.basis-unspecified",
            "latency.hardware-only",
            "latency.conditions-missing",
            "latency.mixed-basis",
            "power.missing",
            "power.liquid-cooling-required",
            "bandwidth.aggregate-mismatch",
            "tier.domain-size-missing",
            "sheet.no-text",
        ],
    )


# ---------------------------------------------------------------------------------------------------
# d) InfiniBand NIC: bullets + horizontally ruled table


def skylark():
    sheet = "skylark-sl400-ib-adapter.pdf"
    doc = simple_doc(HERE / sheet, "Skylark SL-400 InfiniBand Adapter", "Skylark Interconnect", pagesize=letter)
    bullet = ParagraphStyle("bullet", parent=BODY, leftIndent=12, bulletIndent=2)
    story = [
        Paragraph("Skylark SL-400 InfiniBand Adapter", H1),
        Paragraph("Single-port NDR host channel adapter for GPU servers", H2),
        Paragraph(
            "The SL-400 connects one GPU to an InfiniBand compute fabric with GPUDirect RDMA, in-network "
            "reductions and hardware congestion control, in a low-profile PCIe card.",
            BODY,
        ),
        Spacer(1, 6),
        Paragraph("Sub-microsecond RDMA latency between GPU servers", bullet, bulletText="-"),
        Paragraph("Adaptive routing and SHARP-style in-network reductions", bullet, bulletText="-"),
        Paragraph("Secure boot, hardware root of trust", bullet, bulletText="-"),
        Paragraph("Specifications", H2),
    ]
    spec = rows(
        [
            ("Interface", "InfiniBand 100/200/400 Gb/s (EDR/HDR/NDR), one OSFP cage"),
            ("Host interface", "PCIe Gen5 x16 (32 GT/s per lane), up to 128 GB/s bidirectional"),
            ("RDMA latency", "0.6 \u00b5s end-to-end (ib_write_lat, 8-byte messages, two hosts back-to-back)"),
            ("Message rate", "330 million messages per second"),
            ("Power", "25 W typical with passive copper cables; 31.5 W maximum with active optical modules"),
            ("Form factor", "PCIe HHHL, 68.9 mm x 167.6 mm, passive heatsink"),
            ("Operating temperature", "0 \u00b0C to 55 \u00b0C at 200 LFM airflow"),
            ("Ordering code", "SLX-NDR400G-1P (tall bracket), SLX-NDR400G-1P-S (short bracket)"),
            ("Compatible cables", "SL-OSFP-400G-DAC copper up to 2.5 m; SL-OSFP-400G-SR4 optics up to 50 m"),
        ]
    )
    t = Table(spec, colWidths=[42 * mm, 132 * mm])
    t.setStyle(
        TableStyle(
            [
                ("LINEBELOW", (0, 0), (-1, -1), 0.3, colors.HexColor("#999999")),
                ("LINEABOVE", (0, 0), (-1, 0), 0.8, colors.black),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("TOPPADDING", (0, 0), (-1, -1), 4),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
            ]
        )
    )
    story += [t, Spacer(1, 10), Paragraph("Skylark Interconnect, document SKY-DS-0400 rev C, January 2025.", SMALL)]
    foot = footer("Skylark Interconnect - SL-400")
    doc.build(story, onFirstPage=foot, onLaterPages=foot)
    figures = [
        bw("100/200/400 Gb/s", 1, 50, "scale-out", "unspecified", "per-port"),
        bw("32 GT/s", 1, 3.938, "host", "unspecified", "per-lane"),
        bw("128 GB/s", 1, 64, "host", "bidirectional", "per-link"),
        lat("0.6 \u00b5s", 1, 600, "scale-out", "end-to-end"),
        pw("25 W", 1, 0.025, "per-device"),
        pw("31.5 W", 1, 0.0315, "per-device"),
    ]
    write_expected(
        sheet,
        "InfiniBand NIC: a list of supported rates (one figure, its highest), PCIe GT/s lane rate, "
        "bidirectional host bandwidth, end-to-end latency with message size; traps: message rate, "
        "ordering codes and cable part numbers with 400G, mm, LFM, temperatures.",
        figures,
        ["bandwidth.signaling-rate", "bandwidth.bidirectional"],
        [
            "power.missing",
            "power.rack-density",
            "power.liquid-cooling-required",
            "tier.domain-size-missing",
            "latency.conditions-missing",
            "latency.basis-unspecified",
            "latency.hardware-only",
            "power.per-node-only",
            "sheet.no-text",
        ],
    )


# ---------------------------------------------------------------------------------------------------
# e) Chinese-language 8-accelerator liquid-cooled server (built-in CID font STSong-Light)


def xuanwu():
    sheet = "xuanwu-x8-server-zh.pdf"
    doc = simple_doc(HERE / sheet, "玄武 X8 智算服务器 产品规格", "玄武计算")
    story = [
        Paragraph("玄武 X8 智算服务器 产品规格", ZH_H1),
        Paragraph(
            "玄武 X8 是面向大模型训练的 8 卡液冷服务器：8 张 OAM 加速卡通过 XLink 全互联，构成一个紧耦合域，"
            "卡间互联带宽 448 GB/s（双向）。集群网络采用 RoCE v2，每张加速卡配一个 200GE 网口。",
            ZH_BODY,
        ),
        Paragraph("技术规格", ZH_H2),
    ]
    spec = rows(
        [
            ("加速卡", "8 × OAM 加速卡，每卡 96 GB HBM3，显存带宽 3.2 TB/s"),
            ("卡间互联", "XLink 全互联，每卡 7 条链路，每链路 64 GB/s（双向）"),
            ("卡间时延", "芯片间硬件时延 < 300 纳秒"),
            ("集群网络", "8 × 200GE RoCE v2 网口（每卡一口）"),
            ("存储/业务网络", "2 × 100GE"),
            ("管理网络", "1 × 1GE（BMC）"),
            ("端到端时延", "≤ 1.8 微秒（RoCE v2，集合通信库实测，8 字节消息）"),
            ("单卡功耗", "最大 700 W"),
            ("整机功耗", "最大 10.8 kW，典型 8.6 kW"),
            ("电源", "4 × 3200 W 钛金电源（2+2 冗余）"),
            ("散热方式", "液冷（冷板式）"),
            ("算力", "单卡 FP16 稠密算力 1000 TFLOPS"),
            ("尺寸", "4U，447 × 800 × 175 mm"),
            ("工作温度", "5 ℃ ～ 35 ℃"),
            ("型号", "XW-X8-200G-LC"),
        ],
        style=ZH_CELL,
        head_style=ZH_CELL,
    )
    t = Table(spec, colWidths=[35 * mm, 135 * mm])
    t.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.5, colors.HexColor("#666666")),
                ("BACKGROUND", (0, 0), (0, -1), colors.HexColor("#f0f0e8")),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]
        )
    )
    story += [
        t,
        PageBreak(),
        Paragraph("整机柜方案", ZH_H2),
        Paragraph(
            "每个 42U 液冷机柜部署 8 台玄武 X8，机柜功耗约 88 kW，须配置冷量分配单元（CDU）和"
            "一次侧供水。多个机柜通过 RoCE 集群网络组成训练集群，最大规模 4096 张卡。",
            ZH_BODY,
        ),
        Spacer(1, 8),
        Paragraph("以上参数仅供参考，以实际产品为准。发布日期：2025 年 3 月。", ZH_BODY),
    ]
    doc.build(story)
    figures = [
        dom("8 张", 1, 8, "scale-up"),
        bw("448 GB/s", 1, 224, "scale-up", "bidirectional", "per-accelerator"),
        bw("200GE", 1, 25, "scale-out", "unspecified", "per-port"),
        mem("3.2 TB/s", 1, 3200),
        bw("64 GB/s", 1, 32, "scale-up", "bidirectional", "per-link"),
        lat("< 300 纳秒", 1, 300, "scale-up", "hardware"),
        bw("100GE", 1, 12.5, "front-end", "unspecified", "per-port"),
        bw("1GE", 1, 0.125, "front-end", "unspecified", "per-port"),
        lat("≤ 1.8 微秒", 1, 1800, "scale-out", "end-to-end"),
        pw("700 W", 1, 0.7, "per-accelerator"),
        pw("10.8 kW", 1, 10.8, "per-node"),
        pw("8.6 kW", 1, 8.6, "per-node"),
        cool("液冷", 1, "liquid"),
        pw("88 kW", 2, 88, "per-rack"),
        dom("4096 张卡", 2, 4096, "scale-out"),
    ]
    write_expected(
        sheet,
        "Chinese-language 8-accelerator liquid-cooled server (CID font): 双向 per-card and "
        "每链路 figures, hardware latency in 纳秒 and end-to-end latency in 微秒 with message size, "
        "整机功耗 and a 88 kW rack on page 2; traps: 3200 W PSUs, TFLOPS, HBM capacity, a model "
        "number with 200G, mm, ℃, dates.",
        figures,
        ["bandwidth.bidirectional", "bandwidth.scale-ratio", "power.rack-density", "power.liquid-cooling-required"],
        [
            "tier.domain-size-missing",
            "latency.basis-unspecified",
            "latency.conditions-missing",
            "latency.hardware-only",
            "latency.mixed-basis",
            "power.per-node-only",
            "power.missing",
            "sheet.no-text",
        ],
    )


# ---------------------------------------------------------------------------------------------------
# f) marketing brochure: cover, headline numbers with a footnote marker, a spec box


def zephyr():
    sheet = "zephyr-forge-brochure.pdf"
    c = canvas.Canvas(str(HERE / sheet), pagesize=A4, invariant=1)
    meta(c, "Zephyr Forge: the AI factory in a rack", "Zephyr AI Systems")
    W, H = A4
    # page 1: cover
    c.setFillColor(colors.HexColor("#101820"))
    c.rect(0, 0, W, H, stroke=0, fill=1)
    c.setFillColor(colors.HexColor("#f2aa4c"))
    c.setFont("Helvetica-Bold", 44)
    c.drawString(50, H - 200, "ZEPHYR FORGE")
    c.setFillColor(colors.white)
    c.setFont("Helvetica", 20)
    c.drawString(50, H - 235, "The AI factory in a rack.")
    c.setFont("Helvetica", 10)
    c.drawString(50, 60, "Zephyr AI Systems  |  Product brochure  |  Spring 2025")
    c.showPage()
    # page 2: headline numbers, prose, footnote
    c.setFillColor(colors.HexColor("#101820"))
    c.setFont("Helvetica-Bold", 22)
    c.drawString(50, H - 70, "Built for the biggest models")
    tiles = [
        ("14.4 TB/s\u00b9", "GPU-to-GPU bandwidth in every node"),
        ("400G", "fabric ports, eight per node"),
        ("< 2 \u00b5s", "end-to-end latency across the fabric"),
    ]
    for i, (big, small) in enumerate(tiles):
        x = 50 + i * 170
        c.setFillColor(colors.HexColor("#f2aa4c"))
        c.roundRect(x, H - 190, 155, 90, 8, stroke=0, fill=1)
        c.setFillColor(colors.HexColor("#101820"))
        c.setFont("Helvetica-Bold", 24)
        c.drawString(x + 12, H - 140, big)
        c.setFont("Helvetica", 9)
        c.drawString(x + 12, H - 165, small)
    c.setFillColor(colors.black)
    text = c.beginText(50, H - 230)
    text.setFont("Helvetica", 10.5)
    text.setLeading(15)
    for line in [
        "Each Forge node packs eight B200-class GPUs, fully connected by NVLink, with 180 GB of HBM3e and",
        "8 TB/s of memory bandwidth each, and delivers up to 72 PFLOPS of FP8 training performance.",
        "",
        "Nodes draw up to 14.3 kW. Four nodes fill a standard rack at 57.2 kW, so plan your data hall before",
        "the trucks arrive. Scale to pods of 1,024 GPUs on a rail-optimised 400G RoCE fabric.",
        "",
        "Zephyr has shipped AI infrastructure since 2019 and backs every Forge with a 5-year warranty.",
    ]:
        text.textLine(line)
    c.drawText(text)
    c.setStrokeColor(colors.HexColor("#999999"))
    c.line(50, 92, 250, 92)
    c.setFont("Helvetica", 8)
    c.drawString(50, 80, "\u00b9 Bidirectional; aggregate of all eight GPUs in a node (1.8 TB/s per GPU).")
    c.drawString(50, 69, "Performance figures are theoretical peaks. Specifications as of March 2025.")
    c.showPage()
    # page 3: node at a glance
    c.setFont("Helvetica-Bold", 16)
    c.drawString(50, H - 70, "Forge node at a glance")
    items = [
        ("GPUs", "8x B200-class, 180 GB HBM3e each"),
        ("GPU fabric", "14.4 TB/s\u00b9 NVLink"),
        ("Cluster ports", "8x 400G OSFP (ZF-OSFP-400G-DR4 optics)"),
        ("Front-end", "2x 200GbE"),
        ("Node power", "14.3 kW max"),
        ("Power supplies", "6x 3,300 W, 3+3 redundant"),
        ("Rack", "4 nodes per rack, 57.2 kW"),
        ("Cooling", "Air-cooled"),
        ("Dimensions", "10U, 448 x 895 x 440 mm, 150 kg"),
    ]
    y = H - 105
    for k, v in items:
        c.setFont("Helvetica-Bold", 10)
        c.drawString(60, y, k)
        c.setFont("Helvetica", 10)
        c.drawString(190, y, v)
        c.setStrokeColor(colors.HexColor("#dddddd"))
        c.line(55, y - 5, 500, y - 5)
        y -= 20
    c.setFont("Helvetica", 7)
    c.drawString(50, 40, "Zephyr and Forge are trademarks of Zephyr AI Systems Ltd.  ZF-BR-2025-03")
    c.showPage()
    c.save()
    figures = [
        bw("14.4 TB/s", 2, 7200, "scale-up", "bidirectional", "per-node"),
        bw("400G", 2, 50, "scale-out", "unspecified", "per-port"),
        lat("< 2 \u00b5s", 2, 2000, "scale-out", "end-to-end"),
        dom("eight B200-class GPUs", 2, 8, "scale-up"),
        mem("8 TB/s", 2, 8000),
        pw("14.3 kW", 2, 14.3, "per-node"),
        pw("57.2 kW", 2, 57.2, "per-rack"),
        dom("1,024 GPUs", 2, 1024, "scale-out"),
        bw("1.8 TB/s", 2, 900, "scale-up", "bidirectional", "per-accelerator"),
        bw("200GbE", 3, 25, "front-end", "unspecified", "per-port"),
        cool("Air-cooled", 3, "air"),
    ]
    write_expected(
        sheet,
        "Marketing brochure: headline figure whose footnote (\u00b9) says bidirectional and "
        "aggregate over the node, unit-less 400G, end-to-end latency with no conditions, an "
        "air-cooled 4-node rack at 57.2 kW; traps: PFLOPS, HBM capacity, years, warranty, PSU "
        "rating, optics part number with 400G, mm, kg.",
        figures,
        [
            "bandwidth.bidirectional",
            "bandwidth.unit-ambiguous",
            "tier.aggregate-figure",
            "power.rack-density",
            "power.liquid-cooling-required",
            "latency.conditions-missing",
        ],
        [
            "power.missing",
            "power.per-node-only",
            "tier.domain-size-missing",
            "latency.basis-unspecified",
            "sheet.no-text",
        ],
    )


# ---------------------------------------------------------------------------------------------------
# g) web-published spec pages: plain text, Markdown, HTML


OSPREY_TXT = """\
OSPREY SYSTEMS -- O4-L INFERENCE SERVER
Product specification, revision 3 (2025-02-14)

The O4-L is a 2U inference server with four PCIe accelerator cards. The cards
are independent: there is no accelerator-to-accelerator bridge, and traffic
between them crosses the host's PCIe switches.

Accelerators ......... 4x PCIe Gen5 x16 cards, 48 GB GDDR6 each, 350 W each
Host link per card ... PCIe Gen5 x16, 64 GB/s per direction
Cluster network ...... 2x 400GbE RoCE v2 (OSFP), one NIC per two cards
Front-end network .... 2x 25GbE SFP28
Management ........... 1GbE RJ45 (BMC)
System power ......... 2.9 kW maximum
Power supplies ....... 2x 2,400 W, 1+1 redundant
Cooling .............. Air, front-to-back
Dimensions ........... 2U, 438 x 780 x 87 mm, 32 kg
Operating temp ....... 10 to 35 C
Part number .......... OSP-O4L-400G-2N

Osprey Systems, 2025. Figures are maxima unless stated otherwise.
"""


def osprey():
    sheet = "osprey-o4-inference-server.txt"
    (HERE / sheet).write_text(OSPREY_TXT, encoding="utf-8", newline="\n")
    figures = [
        pw("350 W", 1, 0.35, "per-accelerator"),
        bw("64 GB/s", 1, 64, "host", "unidirectional", "per-link"),
        bw("400GbE", 1, 50, "scale-out", "unspecified", "per-port"),
        bw("25GbE", 1, 3.125, "front-end", "unspecified", "per-port"),
        bw("1GbE", 1, 0.125, "front-end", "unspecified", "per-port"),
        pw("2.9 kW", 1, 2.9, "per-node"),
        cool("Air", 1, "air"),
    ]
    write_expected(
        sheet,
        "Plain-text spec page with dot leaders: PCIe inference server with no scale-up fabric, "
        "per-direction host link, Ethernet ports, node power only; traps: GDDR6 capacity, PSU "
        "rating, a part number with 400G, a date, mm, temperatures.",
        figures,
        ["bandwidth.direction-unspecified", "power.per-node-only"],
        [
            "tier.domain-size-missing",
            "power.missing",
            "power.rack-density",
            "power.liquid-cooling-required",
            "bandwidth.bidirectional",
            "sheet.no-text",
        ],
    )


CORMORANT_MD = """\
# Cormorant C8X-M Accelerator Platform

*Cormorant Compute · Spec sheet · v1.2, November 2024*

The C8X-M carries eight OAM accelerators joined by a fully connected Infinity Fabric mesh:
**8 accelerators in one scale-up domain**, each linked directly to the other seven.

## Interconnect

| Feature | Specification |
|---|---|
| Accelerator mesh | Infinity Fabric (xGMI), 7 links per accelerator, 128 GB/s per link |
| Peer bandwidth per accelerator | **896 GB/s** |
| Memory | 192 GB HBM3 per accelerator, 5.3 TB/s |
| Host interface | PCIe Gen5 x16 per accelerator |
| Scale-out network | 8x 400 Gb/s RoCE NICs, one per accelerator |
| Front-end network | 2x 100GbE |

## Power and cooling

- Accelerator board power: 750 W each
- System power: 9.8 kW max (typical 7.5 kW under training load)
- Power supplies: 8x 3,000 W, 4+4 redundant
- Cooling: air, front-to-back
- Operating temperature: 10–35 °C

## Performance and physical

- 1,307 TFLOPS FP16 dense per accelerator
- Chassis: 10U, 447 mm x 923 mm x 440 mm, 160 kg

> Cormorant and C8X are trademarks of Cormorant Compute Inc. Order code `C8X-M-8A-400G`.
"""


def cormorant():
    sheet = "cormorant-c8x-platform.md"
    (HERE / sheet).write_text(CORMORANT_MD, encoding="utf-8", newline="\n")
    figures = [
        dom("8 accelerators", 1, 8, "scale-up"),
        bw("128 GB/s", 1, 64, "scale-up", "unspecified", "per-link"),
        bw("896 GB/s", 1, 448, "scale-up", "unspecified", "per-accelerator"),
        mem("5.3 TB/s", 1, 5300),
        bw("400 Gb/s", 1, 50, "scale-out", "unspecified", "per-port"),
        bw("100GbE", 1, 12.5, "front-end", "unspecified", "per-port"),
        pw("750 W", 1, 0.75, "per-accelerator"),
        pw("9.8 kW", 1, 9.8, "per-node"),
        pw("7.5 kW", 1, 7.5, "per-node"),
        cool("air", 1, "air"),
    ]
    write_expected(
        sheet,
        "Markdown spec page (pipe table, bold, bullets): Infinity Fabric per-link and per-"
        "accelerator totals with no direction (read as bidirectional, halved), one 400 Gb/s NIC "
        "per accelerator, node power only; traps: PSU rating, TFLOPS, HBM capacity, an order "
        "code with 400G, mm, kg, temperatures.",
        figures,
        ["bandwidth.direction-unspecified", "bandwidth.scale-ratio", "power.per-node-only"],
        [
            "tier.domain-size-missing",
            "power.missing",
            "power.rack-density",
            "power.liquid-cooling-required",
            "sheet.no-text",
        ],
    )


GANNET_HTML = """\
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Gannet GX-800 XDR InfiniBand Switch &mdash; Specifications</title>
<style>
  body { font-family: sans-serif; max-width: 60em; margin: 2em auto; }
  table.spec td, table.spec th { border-bottom: 1px solid #ccc; padding: .3em .8em; text-align: left; }
</style>
<script>
  window.dataLayer = window.dataLayer || [];
  window.dataLayer.push({"event": "spec-view", "sku": "GX-800-72P"});
</script>
</head>
<body>
<nav>Products &rsaquo; Switches &rsaquo; GX-800</nav>
<h1>Gannet GX-800 XDR InfiniBand Switch</h1>
<p class="lead">72 ports of XDR InfiniBand at 800&nbsp;Gb/s each in a 2U chassis, with in-network
reductions and adaptive routing for AI back-end fabrics.</p>
<!-- previous generation: 64 ports of NDR, 400 Gb/s, retired -->
<h2>Specifications</h2>
<table class="spec">
  <tr><th>Feature</th><th>GX-800</th></tr>
  <tr><td>Ports</td><td>72x XDR (36x twin-port OSFP)</td></tr>
  <tr><td>Aggregate throughput</td><td>115.2&nbsp;Tb/s (bidirectional)</td></tr>
  <tr><td>Port-to-port latency</td><td>&lt; 240&nbsp;ns</td></tr>
  <tr><td>Typical power</td><td>1,350&nbsp;W with passive copper cables</td></tr>
  <tr><td>Maximum power</td><td>2,900&nbsp;W with active optics</td></tr>
  <tr><td>Power supplies</td><td>4x 1,600&nbsp;W, 2+2 redundant</td></tr>
  <tr><td>Cooling</td><td>Air-cooled, front-to-rear airflow</td></tr>
  <tr><td>Management</td><td>1x 1GbE RJ45, USB console</td></tr>
  <tr><td>Dimensions</td><td>2U, 438 &times; 660 &times; 87&nbsp;mm, 21&nbsp;kg</td></tr>
  <tr><td>Part number</td><td>GX-800-72P-800G-AF</td></tr>
</table>
<footer><p>&copy; 2025 Gannet Fabrics. Specifications subject to change.</p></footer>
</body>
</html>
"""


def gannet():
    sheet = "gannet-gx800-xdr-switch.html"
    (HERE / sheet).write_text(GANNET_HTML, encoding="utf-8", newline="\n")
    figures = [
        bw("800 Gb/s", 1, 100, "scale-out", "unspecified", "per-port"),
        bw("115.2 Tb/s", 1, 7200, "scale-out", "bidirectional", "per-switch"),
        lat("< 240 ns", 1, 240, "scale-out", "hardware"),
        pw("1,350 W", 1, 1.35, "per-switch"),
        pw("2,900 W", 1, 2.9, "per-switch"),
        cool("Air-cooled", 1, "air"),
        bw("1GbE", 1, 0.125, "front-end", "unspecified", "per-port"),
    ]
    write_expected(
        sheet,
        "HTML spec page: entities (&nbsp;, &lt;, &times;), a script block and an HTML comment "
        "whose text is not printed (the comment's 400 Gb/s is not a figure), bidirectional "
        "aggregate that matches 72 x 800 Gb/s, hardware latency only; traps: PSU rating, part "
        "number with 800G, mm, kg.",
        figures,
        ["latency.hardware-only", "bandwidth.bidirectional"],
        [
            "latency.basis-unspecified",
            "power.missing",
            "tier.domain-size-missing",
            "power.liquid-cooling-required",
            "bandwidth.aggregate-mismatch",
            "sheet.no-text",
        ],
    )


# ---------------------------------------------------------------------------------------------------
# h) two product variants side by side


def tanager():
    sheet = "tanager-t8-variants.pdf"
    doc = simple_doc(HERE / sheet, "Tanager T8 Series", "Tanager Systems", pagesize=landscape(A4))
    story = [
        Paragraph("Tanager T8 Series: T8-A and T8-L", H1),
        Paragraph(
            "Two builds of one eight-GPU platform: T8-A for air-cooled halls, T8-L for direct liquid "
            "cooling and faster networking.",
            BODY,
        ),
        Spacer(1, 8),
    ]
    data = [
        ("Feature", "T8-A", "T8-L"),
        ("Cooling", "Air-cooled", "Direct liquid cooling (cold plates)"),
        ("GPUs", "8x B200-class SXM, 180 GB HBM3e", "8x B200-class SXM, 180 GB HBM3e"),
        ("NVLink domain", "8 GPUs", "8 GPUs"),
        ("GPU-to-GPU (NVLink 5)", "1.8 TB/s per GPU", "1.8 TB/s per GPU"),
        ("GPU memory bandwidth", "8 TB/s per GPU", "8 TB/s per GPU"),
        ("GPU power (TGP)", "1,000 W", "1,200 W"),
        ("Compute network", "8x 400 Gb/s (NDR or 400GbE), one per GPU", "8x 800 Gb/s (XDR or 800GbE), one per GPU"),
        ("Front-end network", "2x 200GbE", "2x 400GbE"),
        ("Node power (max)", "14.3 kW", "15.1 kW"),
        ("Power supplies", "6x 3,200 W, 3+3 redundant", "6x 3,200 W, 3+3 redundant"),
        ("Inlet", "Air 10 \u00b0C to 35 \u00b0C", "Water 20 \u00b0C to 45 \u00b0C"),
        ("FP8 training", "72 PFLOPS", "72 PFLOPS"),
        ("Form factor", "10U, 132 kg", "4U, 96 kg"),
        ("Order code", "T8A-B200-8G-400G", "T8L-B200-8G-800G"),
    ]
    cells = [
        [Paragraph(a, CELLB), Paragraph(b, CELLB if i == 0 else CELL), Paragraph(c_, CELLB if i == 0 else CELL)]
        for i, (a, b, c_) in enumerate(data)
    ]
    t = Table(cells, colWidths=[60 * mm, 95 * mm, 95 * mm], repeatRows=1)
    t.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#888888")),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#243b53")),
                ("TEXTCOLOR", (0, 0), (-1, 0), colors.white),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f3f6f9")]),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]
        )
    )
    story += [
        t,
        Spacer(1, 8),
        Paragraph("Tanager Systems, TS-DS-T8 rev 1, 2025. Power is per node at full load.", SMALL),
    ]
    doc.build(story)
    figures = [
        cool("Air-cooled", 1, "air"),
        cool("Direct liquid cooling", 1, "liquid"),
        dom("8 GPUs", 1, 8, "scale-up"),
        bw("1.8 TB/s", 1, 900, "scale-up", "unspecified", "per-accelerator"),
        mem("8 TB/s", 1, 8000),
        pw("1,000 W", 1, 1.0, "per-accelerator"),
        pw("1,200 W", 1, 1.2, "per-accelerator"),
        bw("400 Gb/s", 1, 50, "scale-out", "unspecified", "per-port"),
        bw("800 Gb/s", 1, 100, "scale-out", "unspecified", "per-port"),
        bw("200GbE", 1, 25, "front-end", "unspecified", "per-port"),
        bw("400GbE", 1, 50, "front-end", "unspecified", "per-port"),
        pw("14.3 kW", 1, 14.3, "per-node"),
        pw("15.1 kW", 1, 15.1, "per-node"),
    ]
    write_expected(
        sheet,
        "Two variants side by side (feature, model A, model B): figures printed twice are "
        "labelled once; NVLink 5 per-GPU total with no direction, per-variant GPU power, NIC "
        "speeds and node power, air vs liquid cooling; traps: PSU ratings, PFLOPS, inlet "
        "temperatures, order codes with 400G/800G, kg.",
        figures,
        ["bandwidth.direction-unspecified", "bandwidth.scale-ratio", "power.per-node-only"],
        ["tier.domain-size-missing", "power.missing", "power.rack-density", "sheet.no-text"],
    )


BUILDERS = [kestrel, borealis, pelican, skylark, xuanwu, zephyr, osprey, cormorant, gannet, tanager]


# ---------------------------------------------------------------------------------------------------
# verification: every label's text is printed on its page


class _Text(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts, self.skip = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip -= 1
        self.parts.append(" ")

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def page_texts(path):
    suffix = path.suffix.lower()
    if suffix == ".pdf":
        import pdfplumber

        with pdfplumber.open(path) as pdf:
            return [p.extract_text() or "" for p in pdf.pages]
    raw = path.read_text(encoding="utf-8")
    if suffix in (".html", ".htm"):
        p = _Text()
        p.feed(raw)
        raw = "".join(p.parts)
    return [raw]


def squash(s):
    return re.sub(r"\s+", " ", html.unescape(s).replace("\u00a0", " ")).strip()


def verify():
    bad = 0
    for ej in sorted(HERE.glob("*.expected.json")):
        doc = json.loads(ej.read_text(encoding="utf-8"))
        pages = [squash(t) for t in page_texts(HERE / doc["sheet"])]
        for f in doc["figures"]:
            pg = f["page"]
            if not (1 <= pg <= len(pages)) or squash(f["text"]) not in pages[pg - 1]:
                bad += 1
                print(f"{doc['sheet']}: {f['text']!r} not found on page {pg}", file=sys.stderr)
        print(f"{doc['sheet']}: {len(doc['figures'])} figures, {len(pages)} page(s)", file=sys.stderr)
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--verify", action="store_true", help="check every label's text against the extracted pages")
    a = ap.parse_args()
    for build in BUILDERS:
        build()
    if a.verify and verify():
        sys.exit(1)


if __name__ == "__main__":
    main()
