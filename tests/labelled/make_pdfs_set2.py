#!/usr/bin/env python3
"""Build the two PDF sheets of this set (run with .venv/bin/python make_pdfs.py)."""

from pathlib import Path
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet, ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import SimpleDocTemplate, Paragraph, Table, TableStyle, Spacer, PageBreak

HERE = Path(__file__).resolve().parent
pdfmetrics.registerFont(TTFont("DV", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"))
pdfmetrics.registerFont(TTFont("DVB", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"))
ss = getSampleStyleSheet()
H1 = ParagraphStyle("h1", parent=ss["Heading1"], fontName="DVB", fontSize=16)
H2 = ParagraphStyle("h2", parent=ss["Heading2"], fontName="DVB", fontSize=12)
P = ParagraphStyle("p", parent=ss["BodyText"], fontName="DV", fontSize=9, leading=12)
C = ParagraphStyle("c", parent=P, fontSize=8, leading=10)
FN = ParagraphStyle("fn", parent=P, fontSize=7, leading=9)


def table(rows, widths):
    data = [[Paragraph(str(c), C) for c in r] for r in rows]
    t = Table(data, colWidths=[w * mm for w in widths], repeatRows=1)
    t.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#dde4ee")),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]
        )
    )
    return t


def nimbus():
    doc = SimpleDocTemplate(
        str(HERE / "nimbus-n2-oam-accelerator.pdf"), pagesize=A4, title="Nimbus N2 OAM Accelerator Datasheet"
    )
    s = [
        Paragraph("Nimbus Silicon — N2 OAM Accelerator", H1),
        Paragraph("Datasheet DS-N2-0412, revision 1.3", P),
        Spacer(1, 4 * mm),
        Paragraph(
            "Nimbus N2 is an OAM 2.0 training and inference accelerator. Eight N2 modules on "
            "one universal baseboard form a fully meshed group over BLink, and two baseboards "
            "cabled together extend the BLink domain to sixteen-way. Each module carries 144 GB "
            "of HBM3e and a PCIe 5.0 host interface.",
            P,
        ),
        Spacer(1, 4 * mm),
        Paragraph("Specifications", H2),
        table(
            [
                ["Specification", "N2-700", "N2-550"],
                ["Form factor", "OAM 2.0", "OAM 2.0"],
                ["Peak dense FP8", "2,000 TFLOPS", "1,600 TFLOPS"],
                ["Peak dense BF16", "1,000 TFLOPS", "800 TFLOPS"],
                ["Memory", "144 GB HBM3e, 8 stacks", "144 GB HBM3e, 8 stacks"],
                ["Memory bandwidth", "4.8 TB/s", "4.8 TB/s"],
                ["BLink links per module", "8", "8"],
                ["BLink bandwidth per link", "64 GB/s each direction", "64 GB/s each direction"],
                ["BLink total per module", "1,024 GB/s bi-directional¹", "1,024 GB/s bi-directional¹"],
                ["BLink SerDes", "112 Gbps PAM4, 8 lanes per link", "112 Gbps PAM4, 8 lanes per link"],
                ["Host interface", "PCIe 5.0 x16, 128 GB/s bidirectional", "PCIe 5.0 x16, 128 GB/s bidirectional"],
                ["Max. power (TBP)", "700 W", "550 W"],
                ["Typical power, LLM training", "610 W", "480 W"],
                ["Cooling", "Passive heat sink (air) or cold plate (liquid)", "Passive heat sink (air)"],
            ],
            [50, 62, 62],
        ),
        Spacer(1, 3 * mm),
        Paragraph("¹ Sum of both directions over all eight links; 512 GB/s per direction.", FN),
        PageBreak(),
        Paragraph("Scaling", H2),
        Paragraph(
            "Up to 16 N2 modules share one BLink domain (two baseboards, sixteen-way). BLink link "
            "latency is 180 ns, measured PHY to PHY over one hop; collective latency through the "
            "software stack depends on the library and message size and is not specified here. "
            "Beyond one BLink domain, N2 systems scale out through any RDMA-capable NIC attached "
            "to the host PCIe switch.",
            P,
        ),
        Spacer(1, 3 * mm),
        Paragraph("Thermal and environmental", H2),
        table(
            [
                ["Item", "Value"],
                ["Air-cooled inlet temperature", "≤ 35 °C at 1,800 m"],
                ["Cold-plate coolant", "≤ 45 °C supply, 1.2 L/min per module"],
                ["Storage temperature", "-40 °C to 70 °C"],
                ["Link training timeout", "500 ms (firmware 3.2.0 and later)"],
                ["Process / transistors", "N4, 104 billion"],
            ],
            [70, 100],
        ),
    ]
    doc.build(s)


def stratus():
    doc = SimpleDocTemplate(str(HERE / "stratus-trx2-instances.pdf"), pagesize=A4, title="Stratus Cloud TRX2 instances")
    s = [
        Paragraph("Stratus Cloud — TRX2 accelerated instances", H1),
        Paragraph("User guide, chapter 4: instance architecture", P),
        Spacer(1, 4 * mm),
        Paragraph(
            "TRX2 instances run on Stratus Tensor chips. A trx2.48xlarge carries 16 chips joined by "
            "NovaLink in a 2D torus. Four trx2.48xlarge hosts cabled together form a trx2u "
            "UltraServer, which joins 64 chips in a single NovaLink domain. Traffic between "
            "instances uses the Elastic Fabric Transport (EFT), an OS-bypass RDMA interface with "
            "its own reliable-datagram transport.",
            P,
        ),
        Spacer(1, 4 * mm),
        Paragraph("Instance sizes", H2),
        table(
            [
                ["Instance size", "Chips", "Chip memory (GB)", "vCPUs", "Host memory (GiB)", "EFT bandwidth (Gbps)"],
                ["trx2.3xlarge", "1", "96", "12", "128", "Up to 25"],
                ["trx2.48xlarge", "16", "1,536", "192", "2,048", "3,200"],
                ["trx2u.192xlarge (UltraServer)", "64", "6,144", "768", "8,192", "12,800"],
            ],
            [44, 14, 26, 16, 28, 32],
        ),
        Spacer(1, 4 * mm),
        Paragraph("Chip and instance bandwidth", H2),
        table(
            [
                ["Item", "Value"],
                ["Chip memory bandwidth", "2.9 TB/s per chip"],
                ["Instance memory bandwidth (trx2.48xlarge)", "46.4 TB/s"],
                ["NovaLink chip-to-chip bandwidth", "1,024 GB/s per chip (bi-directional)"],
                ["EFT bandwidth per chip (trx2.48xlarge)", "200 Gbps"],
            ],
            [80, 90],
        ),
        Spacer(1, 3 * mm),
        Paragraph(
            "At 3,200 Gbps per trx2.48xlarge, each of the 16 chips has 200 Gbps of EFT bandwidth for "
            "collective traffic between instances. NovaLink traffic never crosses the EFT network. "
            "Instance launches that cannot be placed in one placement group fail after 300 s.",
            P,
        ),
    ]
    doc.build(s)


if __name__ == "__main__":
    nimbus()
    stratus()
