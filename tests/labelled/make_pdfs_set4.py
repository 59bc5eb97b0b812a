#!/usr/bin/env python3
"""Build the two PDF sheets of this set with reportlab (run with /work/blind4/.venv/bin/python)."""

from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

HERE = Path(__file__).resolve().parent
ss = getSampleStyleSheet()
H1, H2, BODY, SMALL = ss["Title"], ss["Heading2"], ss["BodyText"], ss["Italic"]


def spec_table(rows, widths):
    data = [[Paragraph(c, BODY) for c in r] for r in rows]
    t = Table(data, colWidths=widths, repeatRows=1)
    t.setStyle(
        TableStyle(
            [
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#1f3b57")),
                ("TEXTCOLOR", (0, 0), (-1, 0), colors.white),
                ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]
        )
    )
    return t


def footer(text):
    def draw(canvas, doc):
        canvas.saveState()
        canvas.setFont("Helvetica", 7)
        canvas.drawString(15 * mm, 10 * mm, f"{text}   page {doc.page}")
        canvas.restoreState()

    return draw


def corax():
    doc = SimpleDocTemplate(
        str(HERE / "corax-cq800-xdr-switch.pdf"), pagesize=A4, leftMargin=18 * mm, rightMargin=18 * mm
    )
    s = [
        Paragraph("Corax CQ-800 XDR InfiniBand Switch", H1),
        Paragraph("Product brief", H2),
        Paragraph(
            "The CQ-800 brings 800 Gb/s XDR InfiniBand to the back-end fabric of large AI clusters. "
            "Seventy-two twin-port OSFP cages carry 144 ports in a 4U chassis, so a two-tier fat tree of "
            "CQ-800 switches joins more than ten thousand GPUs with one switch hop inside a rail.",
            BODY,
        ),
        Spacer(1, 4 * mm),
        Paragraph("Key benefits", H2),
        Paragraph("&bull; In-network reductions offload all-reduce traffic from the GPUs.", BODY),
        Paragraph("&bull; Adaptive routing and congestion control keep tail latency flat under load.", BODY),
        Paragraph("&bull; Backward compatible with NDR and HDR adapters and cables.", BODY),
        Paragraph("&bull; Hot-swappable power supplies and fan modules; front-to-rear airflow.", BODY),
        PageBreak(),
        Paragraph("Specifications", H2),
        spec_table(
            [
                ["Feature", "CQ-800"],
                ["Ports", "144x XDR 800 Gb/s (72x twin-port OSFP)"],
                ["Backward compatibility", "NDR 400 Gb/s, HDR 200 Gb/s"],
                ["Aggregate switching capacity\u00b9", "115.2 Tb/s"],
                ["Port-to-port latency\u00b2", "&lt; 300 ns"],
                ["Host-to-host latency\u00b3", "1.3 \u00b5s"],
                ["Packet rate", "up to 100 billion packets per second"],
                ["Power supplies", "8x 3,300 W, N+N redundant"],
                ["Typical power, passive copper cables", "2,150 W"],
                ["Maximum power, with transceivers", "3,900 W"],
                ["Cooling", "Air, front-to-rear, 10 hot-swap fan modules"],
                ["Management", "1x 1 Gb/s RJ45, USB-C console"],
                ["Operating temperature", "0 to 35 \u00b0C"],
                ["Dimensions / weight", "4U, 438 x 711 x 176 mm / 43 kg"],
                ["MTBF", "220,000 hours"],
            ],
            [65 * mm, 105 * mm],
        ),
        Spacer(1, 3 * mm),
        Paragraph(
            "\u00b9 Sum of all port rates in one direction. "
            "\u00b2 Cut-through, 64-byte packets, measured between two ports of one switch. "
            "\u00b3 Two hosts through one switch, ib_write_lat, 2-byte RDMA writes.",
            SMALL,
        ),
    ]
    doc.build(
        s,
        onFirstPage=footer("Corax Networks CQ-800 brief, rev. B"),
        onLaterPages=footer("Corax Networks CQ-800 brief, rev. B"),
    )


def halvard():
    doc = SimpleDocTemplate(str(HERE / "halvard-h4r-ai-rack.pdf"), pagesize=A4, leftMargin=18 * mm, rightMargin=18 * mm)
    s = [
        Paragraph("Halvard H4R Liquid-Cooled AI Rack", H1),
        Paragraph("Four nodes, thirty-two accelerators, one rack", H2),
        Paragraph(
            "Halvard H4R integrates four 8-accelerator nodes, an in-rack leaf layer and coolant "
            "distribution in one 48U rack, delivered tested and cabled. Inside each node, eight OAM "
            "accelerators are fully connected over fourth-generation Infinity Fabric, with 896 GB/s of "
            "peer-to-peer bandwidth per accelerator.",
            BODY,
        ),
        Spacer(1, 3 * mm),
        Paragraph(
            "For scale-out, every accelerator has a dedicated RoCE v2 port on the in-rack leaf "
            "switches, for 12.8 Tb/s of scale-out bandwidth per rack. Direct liquid cooling removes "
            "most of the heat at the cold plates, so the rack runs at full load in facilities without "
            "high-density air cooling.",
            BODY,
        ),
        PageBreak(),
        Paragraph("Rack specifications", H2),
        spec_table(
            [
                ["Item", "H4R"],
                ["Accelerators", "32x OAM (4 nodes x 8), 192 GB HBM3 each, 5.3 TB/s memory bandwidth"],
                ["Intra-node fabric", "Infinity Fabric, 7 links x 128 GB/s per accelerator"],
                ["Accelerator host interface", "PCIe Gen5 x16 per accelerator, 128 GB/s"],
                ["Scale-out network", "32x 400 Gb/s RoCE v2 ports (one per accelerator)"],
                ["Leaf switching", "2x 64-port 800GbE switches, 51.2 Tb/s each"],
                ["Front-end network", "2x 100GbE per node"],
                ["Node power", "13.2 kW max per node"],
                ["Rack power", "58 kW max, 49 kW typical"],
                ["Power shelves", "3x 33 kW, 54 V DC busbar"],
                ["Cooling", "Direct liquid cooling (cold plates) with in-rack CDU, 100 kW heat rejection capacity"],
                ["Facility water", "20 to 40 \u00b0C supply, 80 L/min"],
                ["Dimensions / weight", "600 x 1,200 x 2,300 mm / 1,550 kg"],
            ],
            [55 * mm, 115 * mm],
        ),
        Spacer(1, 3 * mm),
        Paragraph(
            "Liquid cooling is required: the H4R is not offered in an air-cooled version. "
            "Values are maximum design values unless stated.",
            SMALL,
        ),
    ]
    doc.build(
        s, onFirstPage=footer("Halvard Systems H4R datasheet"), onLaterPages=footer("Halvard Systems H4R datasheet")
    )


if __name__ == "__main__":
    corax()
    halvard()
