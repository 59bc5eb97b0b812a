#!/usr/bin/env python3
"""Build the two PDF sheets of the blind set (reportlab).

python3 -m venv .venv && .venv/bin/pip install reportlab
.venv/bin/python make_pdfs.py
"""

from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, letter
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

HERE = Path(__file__).resolve().parent
ss = getSampleStyleSheet()
H1, H2, P, SM = ss["Title"], ss["Heading2"], ss["BodyText"], ss["Italic"]


def grid(rows, widths):
    t = Table(rows, colWidths=widths)
    t.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#dde6f0")),
                ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
                ("FONTSIZE", (0, 0), (-1, -1), 8.5),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]
        )
    )
    return t


def cell(text):
    return Paragraph(text, ss["BodyText"])


def halcyon():
    doc = SimpleDocTemplate(
        str(HERE / "halcyon-hxr64-liquid-rack.pdf"),
        pagesize=letter,
        title="Halcyon HXR-64 Rack-Scale AI System",
        author="Halcyon Machines",
    )
    s = [
        Paragraph("Halcyon HXR-64 Rack-Scale AI System", H1),
        Paragraph("One rack. One 64-accelerator UALink domain.", H2),
        Paragraph(
            "The HXR-64 joins 64 Halcyon HA-9 accelerators, four per compute tray in 16 compute trays, "
            "into a single UALink 1.0 scale-up domain through eight UALink switch trays. Every accelerator "
            "reaches every other one in a single switch hop, with less than 300 ns port-to-port latency "
            "through the switch.",
            P,
        ),
        Paragraph(
            "Each HA-9 exposes eight UALink x4 ports at 800 Gb/s. That is 800 GB/s per direction per "
            "accelerator (1.6 TB/s bidirectional). Across the rack the domain delivers 102.4 TB/s of total "
            "UALink bandwidth. Each port is built from four lanes signalling at 212.5 GT/s.",
            P,
        ),
        Paragraph(
            "For scale-out, every accelerator has its own 800 Gb/s RoCE port into a rail-optimized Ethernet "
            "fabric, 64 ports per rack. Each compute tray adds 2 x 400GbE front-end ports for storage and "
            "in-band management.",
            P,
        ),
        Paragraph("Each HA-9 carries 288 GB of HBM3E with 8 TB/s of memory bandwidth.", P),
        Spacer(1, 6 * mm),
        Paragraph("Designed for liquid from the start", H2),
        Paragraph(
            "Compute and switch trays are cold-plate cooled end to end. The HXR-64 cannot be air-cooled: "
            "liquid cooling is required, with facility water connected through an in-row CDU before the "
            "rack is powered on.",
            P,
        ),
        PageBreak(),
        Paragraph("Specifications", H2),
    ]
    rows = [
        ["Item", "HXR-64"],
        ["Accelerators", "64x Halcyon HA-9 (4 per compute tray, 16 compute trays)"],
        ["Scale-up fabric", "UALink 1.0, 8 switch trays, single-hop all-to-all"],
        ["Scale-out fabric", "64x 800 Gb/s RoCE (one per accelerator)"],
        ["Front-end", "2x 400GbE per compute tray"],
        ["Rack power (maximum)", "~142 kW"],
        ["Rack power (typical training load)", "~128 kW"],
        ["Compute tray power (maximum)", "8.4 kW"],
        ["Power shelves", "8x 33 kW shelves, N+1, 50 V DC busbar"],
        ["Cooling", "Direct liquid cooling (cold plates), 40 °C max facility water supply"],
        ["CDU", "In-row, 1.4 MW heat-rejection capacity (shared by up to 8 racks)"],
        ["Dimensions (W x D x H)", "600 x 1,200 x 2,236 mm (48 OU)"],
        ["Weight", "1,550 kg"],
        ["Operating environment", "10-35 °C, 8-80 % RH non-condensing"],
    ]
    s.append(grid([[cell(a), cell(b)] for a, b in rows], [60 * mm, 110 * mm]))
    s += [
        Spacer(1, 4 * mm),
        Paragraph(
            "Bandwidth figures are theoretical peaks. Latency measured port to port through one "
            "switch tray, 64-byte flits, no congestion.",
            SM,
        ),
    ]
    doc.build(s)


def dunmore():
    doc = SimpleDocTemplate(
        str(HERE / "dunmore-dx4-server.pdf"),
        pagesize=A4,
        title="Dunmore DX4-2U Accelerated Server",
        author="Dunmore Technologies",
    )
    s = [
        Paragraph("Dunmore DX4-2U Accelerated Server", H1),
        Paragraph(
            "The DX4-2U is a 2U, two-socket server that hosts four Dunmore DX-100 accelerators in full-height, "
            "dual-slot PCIe form factor. A passive xGMI bridge joins the four accelerators in a fully "
            "connected hive, so tensor-parallel traffic stays off the PCIe bus.",
            P,
        ),
        Spacer(1, 4 * mm),
        Paragraph("System specifications", H2),
    ]
    rows = [
        ["Component", "Specification"],
        ["Processors", "2x 32-core x86 CPUs, 2.5 GHz, 225 W TDP"],
        ["Accelerators", "4x DX-100, 64 GB HBM2e each, 1.84 TB/sec peak memory bandwidth"],
        [
            "Accelerator interconnect",
            "xGMI bridge, 4-way full mesh, 184 GB/sec peak per accelerator; xGMI links at 25 GT/sec",
        ],
        ["Accelerator host link", "PCIe 4.0 x16 per accelerator (16 GT/sec), 31.5 GB/sec per direction"],
        ["Memory", "24x DDR5-4800 RDIMM, up to 3 TB"],
        ["Networking", "2x 200 Gb/s HDR InfiniBand or 2x 100GbE RoCE (OCP 3.0 slot); 2x 1GbE onboard"],
        ["Storage", '8x 2.5" NVMe U.2 hot-swap'],
        ["Power supplies", "2+2 redundant 2,200 W Platinum"],
        ["Accelerator board power", "350 W per DX-100"],
        ["Max. system power consumption", "3,150 W (4x DX-100, full load)"],
        ["Cooling", "Air, 6x hot-swap dual-rotor fans"],
        ["Vibration / shock (operating)", "0.26 Grms, 5-500 Hz / 2 G, 11 ms half-sine"],
        ["Firmware", "BMC 3.1.05, BIOS 2.08"],
        ["Dimensions", "87.5 x 447 x 780 mm"],
    ]
    s.append(grid([[cell(a), cell(b)] for a, b in rows], [55 * mm, 115 * mm]))
    s += [
        Spacer(1, 4 * mm),
        Paragraph("Peak values are theoretical. Power measured at the wall with 230 V AC input.", SM),
    ]
    doc.build(s)


if __name__ == "__main__":
    halcyon()
    dunmore()
