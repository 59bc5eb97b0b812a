"""Build the PDF sheets of blind set 7 (fictional vendors). Run: /work/main/.venv/bin/python make_pdfs.py"""

from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, letter
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import (
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
ss = getSampleStyleSheet()
H1 = ParagraphStyle("h1", parent=ss["Title"], fontSize=18, leading=22, alignment=0, spaceAfter=4)
SUB = ParagraphStyle("sub", parent=ss["Normal"], fontSize=10.5, textColor=colors.HexColor("#555555"), spaceAfter=10)
H2 = ParagraphStyle("h2", parent=ss["Heading2"], fontSize=12, spaceBefore=8, spaceAfter=4)
BODY = ParagraphStyle("body", parent=ss["Normal"], fontSize=9.5, leading=12.5, spaceAfter=6)
BUL = ParagraphStyle("bul", parent=BODY, leftIndent=10, bulletIndent=0, spaceAfter=3)
CELL = ParagraphStyle("cell", parent=ss["Normal"], fontSize=8.3, leading=10)
CELLB = ParagraphStyle("cellb", parent=CELL, fontName="Helvetica-Bold")
FOOT = ParagraphStyle("foot", parent=ss["Normal"], fontSize=7.5, leading=9.5, spaceAfter=2)


def grid(rows, widths, sections=()):
    """Ruled spec table; first row is the column header; rows whose index is in sections are section bars."""
    data = []
    for i, r in enumerate(rows):
        st = CELLB if i == 0 or i in sections else CELL
        data.append([Paragraph(str(c), CELLB if j == 0 and i not in sections else st) for j, c in enumerate(r)])
    t = Table(data, colWidths=widths, repeatRows=1)
    style = [
        ("GRID", (0, 0), (-1, -1), 0.5, colors.HexColor("#808080")),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#1f3b5a")),
        ("TEXTCOLOR", (0, 0), (-1, 0), colors.white),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
    ]
    for s in sections:
        style += [("SPAN", (0, s), (-1, s)), ("BACKGROUND", (0, s), (-1, s), colors.HexColor("#dfe7ef"))]
    t.setStyle(TableStyle(style))
    # header row text white
    for j, c in enumerate(rows[0]):
        data[0][j] = Paragraph(f'<font color="white">{c}</font>', CELLB)
    return t


def footer(text):
    def draw(canv, doc):
        canv.saveState()
        canv.setFont("Helvetica", 7)
        canv.drawString(18 * mm, 10 * mm, text)
        canv.drawRightString(doc.pagesize[0] - 18 * mm, 10 * mm, f"Page {doc.page}")
        canv.restoreState()

    return draw


# ---------------------------------------------------------------- 1. Tarnwell TP-32 pod (2 pages)
def tarnwell():
    out = HERE / "tarnwell-tp32-ai-pod.pdf"
    doc = SimpleDocTemplate(
        str(out),
        pagesize=letter,
        leftMargin=18 * mm,
        rightMargin=18 * mm,
        topMargin=16 * mm,
        bottomMargin=18 * mm,
        title="Tarnwell TP-32 Scalable AI Pod",
    )
    s = [
        Paragraph("TARNWELL TP-32 Scalable AI Pod", H1),
        Paragraph("Rack-scale GPU cluster building block | Solution Brief", SUB),
        Paragraph(
            "The Tarnwell TP-32 pod turns 32 TPX-880 GPU servers into one pre-validated training cluster. "
            "Every server carries eight SXM5 GPUs joined by fourth-generation NVLink through four NVSwitch "
            "chips, and the pod links all 256 GPUs over a rail-optimised, non-blocking InfiniBand NDR "
            "fabric with one adapter per GPU.",
            BODY,
        ),
        Paragraph("Highlights", H2),
    ]
    for b in [
        "Factory-integrated: racks, cabling, fabric and software stack arrive tested as one unit",
        "Two thermal designs: TP-32A for air-cooled halls and TP-32L with direct liquid cooling for dense deployments",
        "GPUDirect RDMA across the compute fabric; a separate storage and in-band network",
        "Cluster lifecycle with Tarnwell PodView: burn-in, telemetry, firmware and image management",
    ]:
        s.append(Paragraph(b, BUL, bulletText="\u2022"))
    s += [
        Spacer(1, 6),
        Paragraph(
            "Compared with the previous-generation TP-16 pod, whose NVLink 3 servers offered 600 GB/s of "
            "GPU-to-GPU bandwidth, the TP-32 raises per-GPU interconnect bandwidth by 50% and doubles the "
            "GPU count per pod.",
            BODY,
        ),
        Paragraph("Services", H2),
        Paragraph(
            "Site survey, power and cooling design, rack integration at the Tarnwell factory, on-site "
            "installation and a 72-hour acceptance run are included with every pod.",
            BODY,
        ),
        PageBreak(),
        Paragraph("Specifications", H2),
    ]
    rows = [
        ["", "TP-32A (air-cooled)", "TP-32L (liquid-cooled)"],
        ["Compute", "", ""],
        ["GPU servers per pod", "32 x TPX-880", "32 x TPX-880L"],
        ["GPUs per server", "8", "8"],
        ["GPUs per pod", "256", "256"],
        ["Servers per rack", "4", "8"],
        ["Compute racks per pod", "8", "4"],
        ["CPUs per server", "2 x 64-core, 350 W TDP", "2 x 64-core, 350 W TDP"],
        ["System memory per server", "32 x 64 GB DDR5-5600 RDIMM", "32 x 64 GB DDR5-5600 RDIMM"],
        ["Interconnect", "", ""],
        ["NVLink bandwidth per GPU (GB/s)\u00b9", "900", "900"],
        ["HBM bandwidth per GPU (TB/s)", "3.35", "4.8"],
        ["Compute fabric per server (Gb/s)\u00b2", "8 x 400", "8 x 400"],
        ["Storage / in-band fabric per server (Gb/s)", "2 x 200", "2 x 200"],
        ["BMC management", "1 GbE RJ45", "1 GbE RJ45"],
        ["Host interface per NIC", "PCIe 5.0 x16", "PCIe 5.0 x16"],
        ["Power and cooling", "", ""],
        ["GPU TDP (W)", "700", "700-1000\u00b3"],
        ["Server power, max (kW)", "10.2", "11.8"],
        ["Rack power, typical (kW)", "41", "94"],
        ["Power supplies per server", "6 x 3,000 W, 80 PLUS Titanium (5+1)", "6 x 3,000 W, 80 PLUS Titanium (5+1)"],
        ["Cooling", "Air, front-to-back", "Direct liquid cooling, cold plates on GPUs and CPUs"],
        ["Facility water inlet", "n/a", "up to 40 \u00b0C"],
        [
            "Local storage per server",
            "8 x 7.68 TB NVMe (up to 14 GB/s read per drive)",
            "8 x 7.68 TB NVMe (up to 14 GB/s read per drive)",
        ],
        ["Operating temperature", "10-35 \u00b0C", "10-35 \u00b0C"],
        ["MTBF (server, calculated)", "105,000 h", "110,000 h"],
    ]
    s.append(grid(rows, [62 * mm, 58 * mm, 58 * mm], sections=(1, 9, 16)))
    s += [
        Spacer(1, 6),
        Paragraph("\u00b9 Aggregate bidirectional NVLink bandwidth per GPU, i.e. 450 GB/s in each direction.", FOOT),
        Paragraph("\u00b2 One NDR InfiniBand adapter per GPU, 400 Gb/s per port, GPUDirect RDMA enabled.", FOOT),
        Paragraph("\u00b3 Configurable GPU power envelope on TP-32L; the air-cooled TP-32A is limited to 700 W.", FOOT),
        Paragraph(
            "Power figures are measured at the wall with GPUs at TDP running a reference LLM training "
            "workload. Specifications are subject to change without notice.",
            FOOT,
        ),
    ]
    doc.build(
        s,
        onFirstPage=footer("Tarnwell Systems | TP-32 Solution Brief | Rev 1.2"),
        onLaterPages=footer("Tarnwell Systems | TP-32 Solution Brief | Rev 1.2"),
    )


# ---------------------------------------------------------------- 2. Ferrovia FX9 switch (2 pages, two-column page 1)
def ferrovia():
    out = HERE / "ferrovia-fx9-800g-switch.pdf"
    W, Hh = A4
    m = 18 * mm
    doc = BaseDocTemplate(
        str(out),
        pagesize=A4,
        leftMargin=m,
        rightMargin=m,
        topMargin=m,
        bottomMargin=m,
        title="Ferrovia FX9 Series Data Sheet",
    )
    gap = 8 * mm
    colw = (W - 2 * m - gap) / 2
    top_h = 32 * mm
    body_h = Hh - 2 * m - top_h
    frames1 = [
        Frame(m, Hh - m - top_h, W - 2 * m, top_h, id="title"),
        Frame(m, m, colw, body_h, id="left"),
        Frame(m + colw + gap, m, colw, body_h, id="right"),
    ]
    frames2 = [Frame(m, m, W - 2 * m, Hh - 2 * m, id="full")]
    ft = footer("Ferrovia Networks | FX9 Series Data Sheet | 1000912-003-EN")
    doc.addPageTemplates([PageTemplate("two", frames1, onPage=ft), PageTemplate("one", frames2, onPage=ft)])
    s = [
        Paragraph("FERROVIA NETWORKS FX9 SERIES", H1),
        Paragraph("800GbE AI Fabric Switches | Data Sheet", SUB),
        FrameBreak(),
        Paragraph("Product Overview", H2),
        Paragraph(
            "The FX9 Series are fixed-configuration 2 U spine and leaf switches for AI back-end networks. "
            "Built on a single 51.2 Tbps switching ASIC with 512 lanes of 100G PAM4 SerDes, the FX9-64O "
            "offers 64 OSFP800 ports and the FX9-128Q offers 128 QSFP112 ports in the same chassis.",
            BODY,
        ),
        Paragraph(
            "Both models run FerroOS with lossless RoCEv2 transport (PFC, ECN and DCQCN), adaptive "
            "routing with packet spraying, and per-flow telemetry tuned for collective-communication "
            "traffic.",
            BODY,
        ),
        Paragraph(
            "Compared with the FX8 Series (25.6 Tbps), the FX9 doubles switching capacity per rack unit "
            "and halves the power drawn per gigabit.",
            BODY,
        ),
        Paragraph("Architecture and Key Components", H2),
        Paragraph(
            "A single-chip design avoids the internal fabric hops of multi-ASIC chassis: every port "
            "reaches every other port through one shared buffer, which keeps latency uniform across the "
            "switch and simplifies congestion management in rail-optimised GPU fabrics.",
            BODY,
        ),
        FrameBreak(),
        Paragraph("Features and Benefits", H2),
    ]
    for b in [
        "64 x 800GbE or 128 x 400GbE in 2 U",
        "Breakout to 2 x 400GbE or 4 x 200GbE per OSFP port",
        "Cut-through forwarding with port-to-port latency below 750 ns",
        "165 MB fully shared packet buffer",
        "Hot-swappable power supplies and fans; front-to-back or back-to-front airflow",
        "OSFP cages accept modules rated up to 30 W per port",
        "Zero-touch provisioning, streaming telemetry, open APIs",
    ]:
        s.append(Paragraph(b, BUL, bulletText="\u2022"))
    s += [
        Paragraph("Ordering Information", H2),
        Paragraph(
            "FX9-64O-AFO: 64 x OSFP800, port-side exhaust. FX9-64O-AFI: port-side intake. "
            "FX9-128Q-AFO / -AFI: 128 x QSFP112. Optics and cables are ordered separately.",
            BODY,
        ),
        NextPageTemplate("one"),
        PageBreak(),
        Paragraph("Specifications", H2),
    ]
    rows = [
        ["Specification", "FX9-64O", "FX9-128Q"],
        ["Ports", "64 x OSFP800", "128 x QSFP112"],
        ["Port speeds (GbE)", "800/400/200", "400/200/100"],
        ["Switching capacity (Tbps)*", "102.4", "102.4"],
        ["Forwarding rate (Bpps)*", "21.4", "21.4"],
        ["Latency, port to port (ns)\u2020", "< 750", "< 750"],
        ["Packet buffer (MB)", "165", "165"],
        ["Management ports", "1 x 1GbE RJ-45, 1 x RS-232, 1 x USB-A", "1 x 1GbE RJ-45, 1 x RS-232, 1 x USB-A"],
        ["In-band ports", "2 x 10GbE SFP+", "2 x 10GbE SFP+"],
        ["Power consumption, typical (W)\u2021", "1,380", "1,290"],
        ["Power consumption, maximum (W)\u2021", "2,450", "2,210"],
        ["Power supplies", "2 x 3,200 W AC/HVDC, 1+1 redundant", "2 x 3,200 W AC/HVDC, 1+1 redundant"],
        ["Cooling", "Air, 6 hot-swap fan modules (5+1)", "Air, 6 hot-swap fan modules (5+1)"],
        ["Dimensions (H x W x D)", "87.5 x 440 x 640 mm", "87.5 x 440 x 640 mm"],
        ["Weight", "16.3 kg", "15.8 kg"],
        ["Operating temperature", "0 to 40 \u00b0C", "0 to 40 \u00b0C"],
        ["MTBF", "310,000 h", "325,000 h"],
    ]
    s.append(grid(rows, [60 * mm, 57 * mm, 57 * mm]))
    s += [
        Spacer(1, 6),
        Paragraph("* Full-duplex figures: switching capacity and forwarding rate count transmit and receive.", FOOT),
        Paragraph(
            "\u2020 Cut-through mode, 64-byte frames, measured ASIC ingress to egress at 800GbE (FX9-64O) "
            "and 400GbE (FX9-128Q).",
            FOOT,
        ),
        Paragraph(
            "\u2021 Without optical modules. Add module power: up to 30 W per OSFP800 and 25 W per QSFP112.", FOOT
        ),
    ]
    doc.build(s)


# ---------------------------------------------------------------- 3. Solvane SN4 adapters (1 page)
def solvane():
    out = HERE / "solvane-sn4-400g-adapter.pdf"
    doc = SimpleDocTemplate(
        str(out),
        pagesize=letter,
        leftMargin=16 * mm,
        rightMargin=16 * mm,
        topMargin=14 * mm,
        bottomMargin=16 * mm,
        title="Solvane SN4 Product Brief",
    )
    s = [
        Paragraph("SOLVANE SN4 SERIES 400G HOST FABRIC ADAPTERS", H1),
        Paragraph("Product Brief", SUB),
        Paragraph(
            "SN4 adapters connect GPU and CPU servers to Solvane Path fabrics and to standard Ethernet. "
            "A hardware transport engine with native RDMA, GPUDirect RDMA support and an open libfabric "
            "provider delivers 400 Gb/s per port with end-to-end MPI latency under one microsecond.",
            BODY,
        ),
        Paragraph("Specifications", H2),
    ]
    rows = [
        ["", "SN4-1P16", "SN4-2P16", "SN4-1P8"],
        ["Form factor", "PCIe CEM, HHHL", "PCIe CEM, HHHL", "OCP 3.0 SFF"],
        ["Network ports", "1 x QSFP112", "2 x QSFP112", "1 x OSFP"],
        ["Port speed (Gb/s)", "400", "200 per port", "400"],
        ["Ethernet modes (GbE)", "400/200/100/50/25", "200/100/50/25", "400/200/100"],
        ["Host interface", "PCIe 5.0 x16", "PCIe 5.0 x16", "PCIe 5.0 x8"],
        ["Host signalling rate (GT/s per lane)", "32", "32", "32"],
        ["Host bandwidth, each direction (GB/s)", "64", "64", "32"],
        ["MPI latency (\u00b5s)\u00b9", "0.85", "0.88", "0.95"],
        ["Message rate (Mmsg/s)\u00b9", "390", "400", "260"],
        ["Power, typical (W)\u00b2", "19.5", "22.0", "18.7"],
        ["Power, maximum (W)\u00b2", "27.0", "31.0", "26.0"],
        ["Cooling", "Passive heatsink", "Passive heatsink", "Passive heatsink"],
        ["Required airflow", "300 LFM at 55 \u00b0C", "350 LFM at 55 \u00b0C", "300 LFM at 55 \u00b0C"],
        ["Operating temperature", "0-55 \u00b0C", "0-55 \u00b0C", "0-55 \u00b0C"],
        [
            "Software",
            "OPX libfabric, verbs, NCCL plug-in",
            "OPX libfabric, verbs, NCCL plug-in",
            "OPX libfabric, verbs, NCCL plug-in",
        ],
    ]
    s.append(grid(rows, [58 * mm, 40 * mm, 40 * mm, 40 * mm]))
    s += [
        Spacer(1, 5),
        Paragraph(
            "\u00b9 OSU Micro-Benchmarks osu_latency and osu_mbw_mr, 8-byte messages, two hosts through one "
            "SW-48 switch, OPX libfabric provider, host memory buffers.",
            FOOT,
        ),
        Paragraph(
            "\u00b2 Adapter only; excludes pluggable optics (QSFP112 modules up to 12 W, OSFP modules up to 17 W).",
            FOOT,
        ),
        Spacer(1, 6),
        Paragraph("Fabric", H2),
        Paragraph(
            "Paired with Solvane SW-48 switches, each switch hop adds under 110 ns of port-to-port latency. "
            "Credit-based flow control and link-level retry keep the fabric lossless without PFC tuning. "
            "The SN3 generation (100 Gb/s) remains available for existing fabrics and interoperates with SN4 "
            "through the same switches.",
            BODY,
        ),
    ]
    doc.build(s, onFirstPage=footer("Solvane Networks | SN4 Product Brief | PB-0417"))


# ---------------------------------------------------------------- 4. Aubrac XD5 cabinet (2 pages)
def aubrac():
    out = HERE / "aubrac-xd5-dlc-cabinet.pdf"
    doc = SimpleDocTemplate(
        str(out),
        pagesize=A4,
        leftMargin=18 * mm,
        rightMargin=18 * mm,
        topMargin=16 * mm,
        bottomMargin=18 * mm,
        title="Aubrac XD5 Technical Specifications",
    )
    s = [
        Paragraph("AUBRAC XD5 Direct Liquid Cooled Cabinet", H1),
        Paragraph("Technical Specifications | Exascale-class HPC and AI", SUB),
        Paragraph(
            "The XD5 cabinet hosts up to 32 compute blades, the interconnect switch blades and the hydraulic "
            "chassis in a single 52U enclosure. Accelerators, CPUs, DIMM heat spreaders, switches and power "
            "shelves are all cooled by warm water: there are no fans in the cabinet.",
            BODY,
        ),
        Paragraph("Compute blades", H2),
    ]
    rows = [
        ["", "XG-4 GPU blade", "XA-4 APU blade"],
        ["Nodes per blade", "1", "1"],
        ["Accelerators per blade", "4 x SXM GPU, fully connected", "4 x APU (CPU+GPU), fully connected"],
        ["Accelerator link", "NVLink 4", "Infinity Fabric"],
        ["Accelerator link bandwidth (GB/s per accelerator, bidirectional)", "900", "768"],
        ["Memory bandwidth per accelerator (TB/s)", "3.35", "5.3"],
        ["Accelerator power (W)", "700", "550-760\u00b9"],
        ["Blade power, max (kW)", "3.6", "3.4"],
        ["Scale-out NICs per blade", "4 x 400 Gb/s InfiniBand NDR", "4 x 200 Gb/s InfiniBand NDR200"],
        ["Management", "1 GbE per blade", "1 GbE per blade"],
        ["Host memory", "16 x 64 GB DDR5-5600", "128 GB HBM3 per APU (unified)"],
    ]
    s.append(grid(rows, [70 * mm, 52 * mm, 52 * mm]))
    s += [
        Spacer(1, 4),
        Paragraph("\u00b9 Configurable power envelope per APU; cabinet limits apply (see Cabinet and facility).", FOOT),
        PageBreak(),
        Paragraph("Cabinet and facility", H2),
    ]
    rows2 = [
        ["Parameter", "Value", "Unit"],
        ["Compute blades per cabinet", "32", "-"],
        ["Switch blades", "up to 8, InfiniBand NDR leaf, 400 Gb/s ports", "-"],
        ["Leaf switch port-to-port latency", "130", "ns"],
        ["Maximum cabinet power", "150", "kW"],
        ["Typical cabinet power (HPL run)", "128", "kW"],
        ["Heat removal capacity, hydraulic chassis", "up to 160", "kW"],
        ["Power shelves", "6 x 30 kW, 54 V DC busbar, N+1", "-"],
        ["Cooling", "100 % direct liquid cooling, fanless", "-"],
        ["Primary water inlet temperature", "up to 40", "\u00b0C"],
        ["Primary water flow rate", "up to 240", "l/min"],
        ["Weight, fully populated", "3,100", "kg"],
        ["Floor loading", "1,950", "kg/m\u00b2"],
    ]
    s.append(grid(rows2, [75 * mm, 75 * mm, 24 * mm]))
    s += [
        Spacer(1, 8),
        Paragraph(
            "The XD5 succeeds the XD4 cabinet, which drew up to 90 kW in the same footprint. Facility "
            "planning guides, hydraulic interface drawings and the site-readiness checklist are available "
            "from your Aubrac representative.",
            BODY,
        ),
    ]
    doc.build(
        s,
        onFirstPage=footer("Aubrac Computing | XD5 Technical Specifications | v2.0"),
        onLaterPages=footer("Aubrac Computing | XD5 Technical Specifications | v2.0"),
    )


if __name__ == "__main__":
    for f in (tarnwell, ferrovia, solvane, aubrac):
        f()
        print("built", f.__name__)
