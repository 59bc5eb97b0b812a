#!/usr/bin/env python3
"""Build the sheets that hold the product's name to how vendors set their covers (tests/test_product_name.py):

    python tests/names/make_name_pdfs.py

- style-tagline-cover.pdf: a document type ("DATASHEET") in small capitals at the top, a tagline in the largest
  type, the product's name under it in smaller type, then body text and a spec list.
- style-two-line-name.pdf: the name set over two lines ("KS-5200" / "Series") with a section heading ("Overview")
  in the same type right under it, a second column of running text.
- style-capitals-cover.pdf: a cover in capitals (name, tagline), a photograph's caption and a part number in
  small type; the body writes the name in mixed case.
- style-colon-title.pdf: the name run into its tagline after a colon, the PDF's own title naming model and
  document type ("... - Data Sheet").

The products are the project's own (fictional). ReportLab runs in invariant mode: re-running gives identical bytes.
"""

from pathlib import Path

from reportlab import rl_config

rl_config.invariant = 1  # fixed dates and document ids: byte-identical output

from reportlab.lib.pagesizes import A4  # noqa: E402
from reportlab.pdfgen import canvas  # noqa: E402

HERE = Path(__file__).resolve().parent
W, H = A4
BODY, BOLD = "Helvetica", "Helvetica-Bold"


def text_block(c, x, y, lines, size=10, font=BODY, lead=1.4):
    for line in lines:
        c.setFont(font, size)
        c.drawString(x, y, line)
        y -= size * lead
    return y


def sheet(name, meta_title, cover, body, specs):
    """cover: (text, font, size, gap below) from the top; body: lines of running text; specs: (label, value)."""
    c = canvas.Canvas(str(HERE / name), pagesize=A4)
    if meta_title:
        c.setTitle(meta_title)
    y = H - 60
    for text, font, size, gap in cover:
        c.setFont(font, size)
        c.drawString(50, y, text)
        y -= size + gap
    y = text_block(c, 50, y - 10, body)
    y -= 10
    c.setFont(BOLD, 12)
    c.drawString(50, y, "Specifications")
    y -= 20
    for label, value in specs:
        c.setFont(BOLD, 9)
        c.drawString(50, y, label)
        c.setFont(BODY, 9)
        c.drawString(220, y, value)
        y -= 14
    c.setFont(BODY, 7)
    c.drawString(50, 30, f"{meta_title or name} | 2026 | All rights reserved.")
    c.showPage()
    c.save()


def main():
    sheet(
        "style-tagline-cover.pdf",
        None,
        [
            ("DATASHEET", BOLD, 9, 30),
            ("Accelerate Every Workload", BOLD, 30, 10),
            ("Lumen LX-9 Accelerator Card", BODY, 20, 30),
        ],
        [
            "The Lumen LX-9 Accelerator Card brings data-center inference to any PCIe server. Four",
            "cards link card to card over LumenLink; each Lumen LX-9 Accelerator Card draws",
            "up to 350 W and holds 96 GB of memory.",
        ],
        [
            ("Memory bandwidth", "3.2 TB/s"),
            ("Card-to-card link", "LumenLink, 200 GB/s per direction"),
            ("Host interface", "PCIe Gen5 x16"),
            ("Max power", "350 W"),
        ],
    )
    sheet(
        "style-two-line-name.pdf",
        None,
        [
            ("KS-5200", BOLD, 26, 4),
            ("Series", BOLD, 26, 4),
            ("Overview", BOLD, 26, 20),
        ],
        [
            "The KS-5200 Series are 64-port 800G Ethernet switches for AI back-end fabrics.",
            "Every KS-5200 Series switch runs RoCEv2 with PFC and ECN for lossless transport.",
        ],
        [
            ("Ports", "64 x 800GbE OSFP"),
            ("Switching capacity", "51.2 Tb/s"),
            ("Latency", "600 ns port to port"),
            ("Typical power", "1,450 W"),
        ],
    )
    sheet(
        "style-capitals-cover.pdf",
        None,
        [
            ("NIMBUS NB8 AI SERVER", BOLD, 30, 8),
            ("PURPOSE-BUILT FOR GENERATIVE AI", BODY, 16, 30),
            ("Shown: NB8-2U front view", BODY, 7, 4),
            ("P/N 900-2G133-0000", BODY, 7, 20),
        ],
        [
            "The Nimbus NB8 AI Server holds eight accelerators joined by a 900 GB/s scale-up fabric.",
            "Each Nimbus NB8 AI Server connects to the cluster with eight 400 Gb/s InfiniBand ports.",
        ],
        [
            ("Accelerators", "8"),
            ("Scale-up", "900 GB/s per accelerator, bidirectional"),
            ("Scale-out", "8 x 400 Gb/s InfiniBand NDR"),
            ("Max power", "10.2 kW"),
        ],
    )
    sheet(
        "style-colon-title.pdf",
        "Ferrox F3 Fabric Switch - Data Sheet",
        [
            ("Ferrox F3 Fabric Switch: Lossless Ethernet for AI Clusters", BOLD, 20, 30),
        ],
        [
            "Ferrox F3 Fabric Switch gives 32 ports of 400GbE to a rail-optimised back-end network.",
            "The Ferrox F3 Fabric Switch forwards with RoCEv2 and a port-to-port latency of 700 ns.",
        ],
        [("Ports", "32 x 400GbE QSFP-DD"), ("Switching capacity", "12.8 Tb/s"), ("Typical power", "480 W")],
    )


if __name__ == "__main__":
    main()
