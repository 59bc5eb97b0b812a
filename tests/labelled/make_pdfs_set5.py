"""Build the three fictional PDF spec sheets of blind5 with reportlab.

Run: /work/main/.venv/bin/python make_pdfs.py   (from /work/blind5)
"""

from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

HERE = Path(__file__).resolve().parent
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
pdfmetrics.registerFont(TTFont("DV", str(FONT_DIR / "DejaVuSans.ttf")))
pdfmetrics.registerFont(TTFont("DVB", str(FONT_DIR / "DejaVuSans-Bold.ttf")))

H1 = ParagraphStyle("h1", fontName="DVB", fontSize=17, leading=21, spaceAfter=6)
H2 = ParagraphStyle("h2", fontName="DVB", fontSize=12, leading=15, spaceBefore=8, spaceAfter=4)
BODY = ParagraphStyle("body", fontName="DV", fontSize=9, leading=12, spaceAfter=5)
SMALL = ParagraphStyle("small", fontName="DV", fontSize=7, leading=9, spaceAfter=2)
CELL = ParagraphStyle("cell", fontName="DV", fontSize=8, leading=10)
CELLB = ParagraphStyle("cellb", fontName="DVB", fontSize=8, leading=10)


def grid(rows, widths, header_rows=1):
    """A ruled table: every cell a Paragraph, header row bold and shaded."""
    data = []
    for r, row in enumerate(rows):
        style = CELLB if r < header_rows else CELL
        data.append([Paragraph(c, CELLB if (c_i == 0 and r >= header_rows) else style) for c_i, c in enumerate(row)])
    t = Table(data, colWidths=widths, repeatRows=header_rows)
    t.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.5, colors.grey),
                ("BACKGROUND", (0, 0), (-1, header_rows - 1), colors.HexColor("#dde4ee")),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 3),
                ("RIGHTPADDING", (0, 0), (-1, -1), 3),
            ]
        )
    )
    return t


def footer(text):
    def draw(canvas, doc):
        canvas.saveState()
        canvas.setFont("DV", 7)
        canvas.drawString(15 * mm, 10 * mm, text)
        canvas.drawRightString(doc.pagesize[0] - 15 * mm, 10 * mm, str(doc.page))
        canvas.restoreState()

    return draw


def build(name, story, foot, pagesize=A4):
    doc = SimpleDocTemplate(
        str(HERE / name),
        pagesize=pagesize,
        leftMargin=15 * mm,
        rightMargin=15 * mm,
        topMargin=15 * mm,
        bottomMargin=18 * mm,
        title=name,
        author="blind5",
    )
    doc.build(story, onFirstPage=footer(foot), onLaterPages=footer(foot))


# ---------------------------------------------------------------- 1. Kestrel KS8 OAM server
def kestrel():
    s = []
    s.append(Paragraph("Kestrel Compute | Product Datasheet", SMALL))
    s.append(Paragraph("KS8 Series Accelerated Servers: KS8-A and KS8-L", H1))
    s.append(
        Paragraph(
            "The KS8 series carries eight AMD Instinct MI325X OAM modules on a UBB 2.0 universal "
            "baseboard. The modules are wired point to point over fourth-generation AMD Infinity "
            "Fabric, so every KS8 node forms a single eight-accelerator xGMI domain for tensor- and "
            "expert-parallel work. Each OAM is paired with its own 400G back-end NIC for the "
            "scale-out fabric, and two DPUs serve storage and tenant traffic.",
            BODY,
        )
    )
    s.append(
        Paragraph(
            "KS8-A is an 8U air-cooled chassis for existing data halls; KS8-L is a 4U direct "
            "liquid-cooled chassis for high-density rows.",
            BODY,
        )
    )
    s.append(Paragraph("Table 1. System specifications", H2))
    rows = [
        ["Specification", "KS8-A", "KS8-L"],
        ["Form factor", "8U rackmount", "4U rackmount"],
        ["Accelerators", "8x AMD Instinct MI325X OAM", "8x AMD Instinct MI325X OAM"],
        ["Accelerator memory", "256 GB HBM3E per OAM", "256 GB HBM3E per OAM"],
        ["Memory bandwidth per OAM (TB/s)", "6.0", "6.0"],
        ["Infinity Fabric bandwidth per OAM (GB/s)¹", "896", "896"],
        ["Host link per OAM", "PCIe 5.0 x16 (128 GB/s)", "PCIe 5.0 x16 (128 GB/s)"],
        ["Processors", "2x AMD EPYC 9575F, 64 cores, 400 W TDP each", "2x AMD EPYC 9575F, 64 cores, 400 W TDP each"],
        ["System memory", "24x DDR5-6400 RDIMM, up to 3 TB", "24x DDR5-6400 RDIMM, up to 3 TB"],
        ["Back-end network (Gb/s per port)²", "8x 400", "8x 400"],
        ["Front-end network", "2x 200GbE DPU", "2x 200GbE DPU"],
        ["Management", "1x 1GbE dedicated BMC port", "1x 1GbE dedicated BMC port"],
        ["Power supplies", "6x 3,000 W Titanium (3+3)", "4x 3,200 W Titanium (2+2)"],
        ["System power, max (kW)³", "11.5", "10.1"],
        ["Cooling", "Air, 15 hot-swap fans", "Direct liquid cooling, cold plates on OAMs and CPUs"],
        ["MTBF (hours)", "96,000", "104,000"],
        ["Weight (kg)", "155", "102"],
    ]
    s.append(grid(rows, [62 * mm, 59 * mm, 59 * mm]))
    s.append(Spacer(1, 4))
    s.append(
        Paragraph(
            "¹ Sum of seven xGMI links at 128 GB/s each; peak bidirectional bandwidth. "
            "² RoCE v2 or InfiniBand NDR over OSFP; optical modules up to 17 W each are not included "
            "in system power. ³ Measured at 25 °C inlet air (KS8-A) or 40 °C facility water (KS8-L); "
            "excludes the coolant distribution unit.",
            SMALL,
        )
    )
    s.append(PageBreak())
    s.append(Paragraph("Rack-scale deployment", H1))
    s.append(
        Paragraph(
            "Kestrel ships KS8 systems as integrated racks, cabled and tested. Our validated cluster "
            "design joins up to 1,024 accelerators (128 nodes) on a two-tier, rail-optimized "
            "back-end fabric with GPUDirect-style RDMA.",
            BODY,
        )
    )
    s.append(Paragraph("Table 2. Rack configurations", H2))
    rows2 = [
        ["Configuration", "KS8-A rack", "KS8-L rack"],
        ["Systems per 48U rack", "4", "8"],
        ["Accelerators per rack", "32", "64"],
        ["Rack power, max (kW)", "46", "81"],
        ["Cooling", "Air (rear-door heat exchanger recommended)", "Liquid; in-row CDU, 40 °C supply required"],
        ["Rack PDU", "4x 63 A three-phase", "6x 63 A three-phase"],
    ]
    s.append(grid(rows2, [62 * mm, 59 * mm, 59 * mm]))
    s.append(Spacer(1, 4))
    s.append(
        Paragraph(
            "Rack figures include top-of-rack management switches. Specifications subject to change "
            "without notice. Kestrel, KS8 and UBB are trademarks of their respective owners.",
            SMALL,
        )
    )
    build("kestrel-ks8-oam-server.pdf", s, "Kestrel Compute KS8 Series datasheet KC-DS-0412 rev B")


# ---------------------------------------------------------------- 2. Sable SX switch family
def sable():
    s = []
    s.append(Paragraph("SABLE NETWORKS · DATA SHEET", SMALL))
    s.append(Paragraph("SX Series AI Fabric Switches", H1))
    s.append(
        Paragraph(
            "The SX series puts 51.2 Tbps switching silicon into compact 2RU systems for AI "
            "back-end networks. RoCE v2 with PFC and ECN, adaptive routing and per-packet spraying "
            "keep collective traffic lossless, and deep telemetry exposes every congested queue. The "
            "flagship SX5164-O delivers up to 102.4 Tbps of bidirectional switching capacity.",
            BODY,
        )
    )
    s.append(Paragraph("Product specifications", H2))
    rows = [
        ["", "SX5164-O", "SX51128-Q", "SX2564-Q"],
        ["Ports", "64x 800GbE OSFP", "128x 400GbE QSFP112", "64x 400GbE QSFP112"],
        ["Maximum breakout", "128x 400GbE or 256x 200GbE", "256x 200GbE", "128x 200GbE"],
        ["System throughput (Tbps)", "51.2", "51.2", "25.6"],
        ["Forwarding rate (Bpps)", "21.0", "21.0", "10.5"],
        ["Latency (ns)¹", "~700", "~700", "~600"],
        ["Packet buffer (MB)", "165", "165", "113"],
        ["SerDes", "512x 100G-PAM4", "512x 100G-PAM4", "256x 100G-PAM4"],
        ["Typical power (W)²", "1,080", "1,150", "620"],
        ["Maximum power (W)²", "2,240", "2,460", "1,190"],
        ["Power supplies", "2x 3,000 W AC/HVDC (1+1)", "2x 3,000 W AC/HVDC (1+1)", "2x 2,000 W AC (1+1)"],
        ["Cooling", "Air, front-to-rear, 6+1 fans", "Air, front-to-rear, 6+1 fans", "Air, front-to-rear, 4+1 fans"],
        [
            "Management ports",
            "1x RJ-45 10/100/1000BASE-T, 1x USB",
            "1x RJ-45 10/100/1000BASE-T, 1x USB",
            "1x RJ-45 10/100/1000BASE-T, 1x USB",
        ],
        ["MTBF (hours)", "285,000", "270,000", "350,000"],
        ["Size", "2RU, 440 x 620 x 87 mm", "2RU, 440 x 620 x 87 mm", "1RU, 440 x 560 x 44 mm"],
    ]
    s.append(grid(rows, [40 * mm, 47 * mm, 47 * mm, 46 * mm]))
    s.append(Spacer(1, 4))
    s.append(
        Paragraph(
            "¹ Port-to-port, cut-through mode, 64-byte frames, 800GbE to 800GbE (SX5164-O) or 400GbE "
            "to 400GbE. ² Typical: 25 °C ambient, 50% traffic load, passive DAC cables. Maximum: 40 °C, "
            "100% load; excludes pluggable optics (up to 16 W per 800G OSFP module).",
            SMALL,
        )
    )
    s.append(Paragraph("Designed for scale", H2))
    s.append(
        Paragraph(
            "A two-tier leaf-spine fabric of SX5164-O switches connects up to 8,192 accelerators, "
            "each with a 400 Gb/s back-end port, with no oversubscription.",
            BODY,
        )
    )
    s.append(
        Paragraph(
            "Ordering information: SX5164-O-AC-F, SX51128-Q-AC-F, SX2564-Q-AC-F "
            "(front-to-rear airflow). Sable and SX are trademarks of Sable Networks.",
            SMALL,
        )
    )
    build("sable-sx-ai-fabric-switches.pdf", s, "Sable Networks SX Series data sheet SN-DS-2207", pagesize=letter)


# ---------------------------------------------------------------- 3. Talus TX-4 cabinet
def talus():
    s = []
    s.append(Paragraph("Talus Systems", SMALL))
    s.append(Paragraph("TX-4 Supercomputing Cabinet: Technical Overview", H1))
    s.append(Paragraph("Exascale-class AI and simulation, one liquid-cooled cabinet at a time.", BODY))
    s.append(PageBreak())
    s.append(Paragraph("Architecture", H1))
    s.append(
        Paragraph(
            "Each TX-4 cabinet holds 64 compute blades in eight chassis. A TX-G4 accelerator blade "
            "carries two nodes, and every node carries four AMD Instinct MI300A APUs, each combining "
            "CPU cores and GPU compute units around 128 GB of unified HBM3 at 5.3 TB/s.",
            BODY,
        )
    )
    s.append(
        Paragraph(
            "The four APUs of a node are fully connected through AMD Infinity Fabric: 128 GB/s per "
            "direction on each link, 384 GB/s per direction per APU across its three peer links.",
            BODY,
        )
    )
    s.append(
        Paragraph(
            "For scale-out, every APU has its own Skyway NIC with a 200 Gbps port, running HPC "
            "Ethernet with hardware RDMA through libfabric. Skyway switch blades in the rear of each "
            "chassis offer 64 ports and 25.6 Tb/s of bidirectional bandwidth per switch, wired as a "
            "dragonfly. A full system of 200 cabinets reaches more than 100,000 APUs with at most "
            "three switch hops between any two nodes.",
            BODY,
        )
    )
    s.append(Paragraph("Table 1. Interconnect", H2))
    rows = [
        ["Item", "Value", "Conditions"],
        ["Switch port-to-port latency", "approx. 350 ns", "Skyway switch, cut-through, 64 B"],
        ["MPI latency", "1.9 µs", "half round-trip, 8 B, osu_latency, three switch hops"],
        ["Injection bandwidth per node", "4 x 200 Gbps", "one NIC per APU"],
    ]
    s.append(grid(rows, [55 * mm, 40 * mm, 85 * mm]))
    s.append(PageBreak())
    s.append(Paragraph("Cabinet infrastructure", H1))
    rows2 = [
        ["Parameter", "TX-4 with TX-G4 blades"],
        ["Blades per cabinet", "64 (8 chassis x 8 blades)"],
        ["APU TDP (W)", "550"],
        ["Node power, max (kW)", "2.8"],
        ["Cabinet power, max (kW)", "380"],
        ["Power delivery", "4 power shelves with 8x 15 kW rectifiers each; 480 V AC three-phase"],
        ["Cooling", "100% direct liquid cooling, fanless; facility water up to 32 °C"],
        ["Coolant flow (l/min)", "up to 1,100"],
        ["Weight (kg)", "3,600 fully populated"],
    ]
    s.append(grid(rows2, [60 * mm, 120 * mm]))
    s.append(Spacer(1, 4))
    s.append(
        Paragraph(
            "The TX-4 cabinet cannot be air-cooled; a facility water loop and coolant distribution "
            "unit are required. Talus, TX-4, TX-G4 and Skyway are trademarks of Talus Systems. "
            "AMD Instinct is a trademark of Advanced Micro Devices, Inc.",
            SMALL,
        )
    )
    build("talus-tx4-liquid-cabinet.pdf", s, "Talus Systems TX-4 technical overview TS-TO-031")


if __name__ == "__main__":
    kestrel()
    sable()
    talus()
    print("built 3 PDFs")
