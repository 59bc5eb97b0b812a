#!/usr/bin/env python3
"""Build the two PDF sheets of this set with reportlab.

/work/blind3/.venv/bin/python /work/blind3/make_pdfs.py
"""

from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import (
    BaseDocTemplate,
    Frame,
    FrameBreak,
    PageTemplate,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

HERE = Path(__file__).resolve().parent
ss = getSampleStyleSheet()
body = ParagraphStyle(
    "body", parent=ss["BodyText"], fontName="Helvetica", fontSize=8.6, leading=11.2, alignment=TA_LEFT, spaceAfter=4
)
h2 = ParagraphStyle(
    "h2",
    parent=ss["Heading2"],
    fontName="Helvetica-Bold",
    fontSize=10.5,
    leading=13,
    spaceBefore=6,
    spaceAfter=3,
    textColor=colors.HexColor("#0b4f6c"),
)
bullet = ParagraphStyle("bullet", parent=body, leftIndent=9, bulletIndent=0)
cell = ParagraphStyle("cell", parent=body, fontSize=7.8, leading=9.6, spaceAfter=0)
cellb = ParagraphStyle("cellb", parent=cell, fontName="Helvetica-Bold")
foot = ParagraphStyle("foot", parent=body, fontSize=6.8, leading=8.4, textColor=colors.HexColor("#444444"))


# ---------------------------------------------------------------- 1. two-column switch datasheet
def switch_datasheet(path):
    W, H = A4
    margin = 14 * mm
    gutter = 7 * mm
    top = 38 * mm
    colw = (W - 2 * margin - gutter) / 2

    def banner(canvas, doc):
        canvas.saveState()
        canvas.setFillColor(colors.HexColor("#0b4f6c"))
        canvas.rect(0, H - 30 * mm, W, 30 * mm, stroke=0, fill=1)
        canvas.setFillColor(colors.white)
        canvas.setFont("Helvetica-Bold", 19)
        canvas.drawString(margin, H - 15 * mm, "Ostrava SX6400 Series")
        canvas.setFont("Helvetica", 10.5)
        canvas.drawString(margin, H - 22 * mm, "51.2 Tb/s AI fabric switches  |  DATA SHEET")
        canvas.setFillColor(colors.HexColor("#666666"))
        canvas.setFont("Helvetica", 6.8)
        canvas.drawString(
            margin,
            9 * mm,
            "Ostrava Networks  |  DS-SX6400-EN rev. 3  |  Specifications subject to change without notice.",
        )
        canvas.drawRightString(W - margin, 9 * mm, "Page %d" % doc.page)
        canvas.restoreState()

    left = Frame(margin, 16 * mm, colw, H - top - 16 * mm, id="left", showBoundary=0)
    right = Frame(margin + colw + gutter, 16 * mm, colw, H - top - 16 * mm, id="right", showBoundary=0)
    doc = BaseDocTemplate(str(path), pagesize=A4, title="Ostrava SX6400 Series Data Sheet", author="Ostrava Networks")
    doc.addPageTemplates([PageTemplate(id="two", frames=[left, right], onPage=banner)])

    s = []
    s.append(Paragraph("Overview", h2))
    s.append(
        Paragraph(
            "The SX6400 series packs a single 51.2 Tb/s switch ASIC into a 2RU fixed system for the leaf and "
            "spine layers of GPU back-end networks. The SX6400-64D offers 64 &times; 800G OSFP112 ports; the "
            "SX6400-128Q offers 128 &times; 400GbE QSFP112 ports. Each OSFP112 port can be broken out as "
            "2 &times; 400G, 4 &times; 200G or 8 &times; 100G, so one platform serves 800G GPU NICs today and "
            "400G storage and legacy racks alongside them.",
            body,
        )
    )
    s.append(
        Paragraph(
            "A lossless RoCEv2 feature set (PFC, ECN with DCQCN, per-packet adaptive routing and packet "
            "spraying) keeps collective traffic moving at line rate, and the cut-through pipeline holds "
            "port-to-port latency below 600 ns.",
            body,
        )
    )
    s.append(Paragraph("Highlights", h2))
    for t in [
        "Non-blocking 51.2 Tb/s, 21.2 Bpps forwarding",
        "165 MB fully shared packet buffer with dynamic thresholds",
        "Telemetry: per-queue depth and microburst detection at 1 ms granularity",
        "Front-to-back or back-to-front airflow SKUs",
        "Open network OS or Ostrava FabricOS, ZTP, gNMI streaming",
        "Hot-swap fans and power supplies, field-replaceable",
    ]:
        s.append(Paragraph(t, bullet, bulletText="\u2022"))
    s.append(Paragraph("Applications", h2))
    s.append(
        Paragraph(
            "Rail-optimised leaf for GPU servers with one 800G NIC per GPU; spine for two-tier fabrics of "
            "up to 32,768 400G endpoints; storage aggregation with 400GbE breakouts.",
            body,
        )
    )
    s.append(Paragraph("Ordering information", h2))
    s.append(
        Paragraph(
            "SX6400-64D-F: 64-port 800G, front-to-back airflow<br/>"
            "SX6400-64D-R: 64-port 800G, back-to-front airflow<br/>"
            "SX6400-128Q-F: 128-port 400GbE, front-to-back airflow",
            body,
        )
    )
    s.append(FrameBreak())

    s.append(Paragraph("Specifications", h2))
    rows = [
        ("Switching capacity", "51.2 Tb/s"),
        ("Forwarding rate", "21.2 Bpps"),
        ("Ports, SX6400-64D", "64 &times; 800G OSFP112"),
        ("Ports, SX6400-128Q", "128 &times; 400GbE QSFP112"),
        ("Breakout per OSFP112", "2 &times; 400G, 4 &times; 200G, 8 &times; 100G"),
        ("SerDes", "512 &times; 112G PAM4"),
        ("Packet buffer", "165 MB shared"),
        ("Latency", "&lt; 600 ns (cut-through, port-to-port, 64 B frames)"),
        ("Management ports", "1 &times; 1GbE RJ45, 1 &times; RS-232 console, 1 &times; USB"),
        ("Power consumption, typical / max", "1,150 W / 2,050 W (without optics)"),
        ("Power supplies", "2 &times; 3,000 W AC, 1+1 redundant, hot-swap"),
        ("Optics support", "OSFP112 modules up to 30 W per port"),
        ("Cooling", "Air, 6+1 hot-swap fans"),
        ("MTBF", "&gt; 250,000 hours"),
        ("Dimensions (W &times; D &times; H)", "440 &times; 600 &times; 88 mm (2RU)"),
        ("Weight", "14.8 kg"),
        ("Operating temperature", "0 to 40 &deg;C"),
        ("Relative humidity", "5% to 90% non-condensing"),
        ("Acoustic noise", "78 dBA at 27 &deg;C"),
        ("Warranty", "Limited lifetime hardware warranty"),
    ]
    data = [[Paragraph(a, cellb), Paragraph(b, cell)] for a, b in rows]
    t = Table(data, colWidths=[colw * 0.42, colw * 0.58])
    t.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.5, colors.HexColor("#7a8a94")),
                ("BOX", (0, 0), (-1, -1), 1.0, colors.HexColor("#0b4f6c")),
                ("BACKGROUND", (0, 0), (0, -1), colors.HexColor("#e6eef2")),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("TOPPADDING", (0, 0), (-1, -1), 2.5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
            ]
        )
    )
    s.append(t)
    s.append(Spacer(1, 5))
    s.append(
        Paragraph(
            "Power measured at 25 &deg;C ambient with all ports linked at full rate and no optical "
            "modules installed. Latency measured with RFC 2544 test equipment.",
            foot,
        )
    )
    doc.build(s)


# ---------------------------------------------------------------- 2. pod brochure with footnotes
def pod_brochure(path):
    doc = SimpleDocTemplate(
        str(path),
        pagesize=LETTER,
        leftMargin=20 * mm,
        rightMargin=20 * mm,
        topMargin=18 * mm,
        bottomMargin=18 * mm,
        title="Meridia MX-1024 AI Pod",
        author="Meridia Compute",
    )
    title = ParagraphStyle(
        "t",
        parent=ss["Title"],
        fontName="Helvetica-Bold",
        fontSize=22,
        leading=26,
        alignment=TA_LEFT,
        textColor=colors.HexColor("#5a1a6b"),
    )
    sub = ParagraphStyle("sub", parent=body, fontSize=12, leading=15, textColor=colors.HexColor("#5a1a6b"))
    b = ParagraphStyle("b", parent=body, fontSize=9.6, leading=13)
    s = [
        Paragraph("Meridia MX-1024 AI Pod", title),
        Paragraph("1,024 accelerators. One fabric. ~1.2 MW per pod.\u00b2", sub),
        Spacer(1, 8),
    ]
    s.append(Paragraph("Built from the MX8 node", h2))
    s.append(
        Paragraph(
            "Every MX8 node carries eight OAM accelerators on one universal baseboard, fully connected by "
            "fourth-generation Infinity Fabric links that give each accelerator 1,075 GB/s of peer "
            "bandwidth.\u00b9 Each accelerator brings 288 GB of HBM3E at 8 TB/s and is rated at 1,400 W. "
            "Accelerators attach to the host over PCIe Gen5 x16 (128 GB/s bidirectional).",
            b,
        )
    )
    s.append(
        Paragraph(
            "For scale-out, every accelerator has its own 400 Gb/s RoCE NIC, 3.2 Tb/s per node, and the node "
            "adds 2 &times; 100GbE for storage and management. An MX8 node draws up to 14 kW.",
            b,
        )
    )
    s.append(Paragraph("From rack to pod", h2))
    s.append(
        Paragraph(
            "Four MX8 nodes share a 48U rack with direct liquid cooling on accelerators and CPUs; per rack: 58 kW. "
            "Thirty-two racks make a pod: 32 &times; 4 &times; 8 = 1,024 accelerators on a two-tier, "
            "rail-optimised leaf/spine fabric of 51.2 Tb/s switches.",
            b,
        )
    )
    s.append(
        Paragraph(
            "Small-message all-reduce completes in 1.5 &micro;s end-to-end with RCCL across two nodes on the "
            "same leaf.\u00b3 Large collectives run at close to line rate thanks to hardware packet spraying "
            "in the NICs.",
            b,
        )
    )
    spec = [
        ["", "MX8 node", "MX rack", "MX-1024 pod"],
        ["Accelerators", "8", "4 nodes", "1,024"],
        ["Scale-out ports", "8 \u00d7 400 Gb/s", "32", "1,024"],
        ["Power", "14 kW", "58 kW", "~1.2 MW"],
        ["Cooling", "DLC", "DLC, CDU in row", "Facility water 32 \u00b0C"],
        ["Footprint", "6U", "48U, 600 \u00d7 1,200 mm", "32 racks + 4 CDU"],
    ]
    t = Table(spec, colWidths=[34 * mm, 38 * mm, 42 * mm, 46 * mm])
    t.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), "Helvetica", 8.6),
                ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 8.6),
                ("FONT", (0, 0), (0, -1), "Helvetica-Bold", 8.6),
                ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.HexColor("#5a1a6b")),
                ("LINEBELOW", (0, -1), (-1, -1), 0.8, colors.HexColor("#5a1a6b")),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f3ecf5")]),
            ]
        )
    )
    s += [Spacer(1, 8), t, Spacer(1, 10)]
    s.append(Paragraph("Facility checklist", h2))
    for x in [
        "Power shelves: 6 &times; 33 kW per rack, N+1; 415 V three-phase feeds",
        "In-row CDUs rated 1.5 MW heat rejection per pod",
        "Floor loading: 1,800 kg/m\u00b2 minimum",
        "Pricing and lead times: contact your Meridia account team",
    ]:
        s.append(Paragraph(x, ParagraphStyle("bb", parent=b, leftIndent=9), bulletText="\u2022"))
    s.append(Spacer(1, 18))
    for x in [
        "\u00b9 Aggregate bidirectional peer-to-peer bandwidth per accelerator: 7 links \u00d7 153.6 GB/s.",
        "\u00b2 IT load at full training utilisation; excludes CDU pumps and facility cooling.",
        "\u00b3 all_reduce, 8-byte message, RCCL with the NIC's RDMA transport, one leaf hop; "
        "median of 1,000 iterations.",
    ]:
        s.append(Paragraph(x, foot))
    doc.build(s)


if __name__ == "__main__":
    switch_datasheet(HERE / "ostrava-sx6400-switch-datasheet.pdf")
    pod_brochure(HERE / "meridia-mx1024-pod-brochure.pdf")
    print("wrote", HERE / "ostrava-sx6400-switch-datasheet.pdf", HERE / "meridia-mx1024-pod-brochure.pdf")
