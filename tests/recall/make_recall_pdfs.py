#!/usr/bin/env python3
"""Build the sheets that hold a true error to FAIL (tests/test_recall.py):

    python tests/recall/make_recall_pdfs.py

- two-model-switch-table.pdf: one switch family, two models side by side in a specification table; the first
  model's 64 ports x 800 Gb/s make its 51.2 Tb/s, the second's 72 ports x 800 Gb/s (57.6 Tb/s per direction,
  115.2 Tb/s both ways) do not make the 64.8 Tb/s printed beside them.
- two-model-switch-sections.pdf: the same two models, each in its own section of prose and a label/value list.
- two-model-switch-prose.pdf: the same two models in one sentence, each clause giving one model's ports and total.
- two-model-switch-lines.pdf: one line per model, its ports and its total ("TX-7200: 72 ports x 800 Gb/s, 64.8 Tb/s
  switching capacity"), the words of the total beside the port speed.

The products are the project's own (fictional). ReportLab runs in invariant mode: re-running gives identical bytes.
"""

from pathlib import Path

from reportlab import rl_config

rl_config.invariant = 1  # fixed dates and document ids: byte-identical output

from reportlab.lib import colors  # noqa: E402
from reportlab.lib.pagesizes import A4  # noqa: E402
from reportlab.lib.styles import getSampleStyleSheet  # noqa: E402
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle  # noqa: E402

HERE = Path(__file__).resolve().parent
STYLES = getSampleStyleSheet()
INTRO = (
    "The Tern TX series are fixed-configuration Ethernet switches for the back-end fabric of GPU clusters, "
    "with RoCE v2, PFC and ECN for lossless RDMA traffic."
)
MODELS = [("TX-6400", "64", "51.2 Tb/s", "700 ns", "1,800 W"), ("TX-7200", "72", "64.8 Tb/s", "750 ns", "2,100 W")]


def build(name, story):
    doc = SimpleDocTemplate(
        str(HERE / name), pagesize=A4, title="Tern TX Series AI Fabric Switches", author="Tern Networks"
    )
    doc.build(story)


def table():
    rows = [
        ["Specification", *(m[0] for m in MODELS)],
        ["Ports", *(f"{m[1]} x 800 Gb/s OSFP" for m in MODELS)],
        ["Switching capacity", *(m[2] for m in MODELS)],
        ["Port-to-port latency", *(m[3] for m in MODELS)],
        ["Typical power", *(m[4] for m in MODELS)],
    ]
    t = Table(rows, colWidths=[150, 150, 150])
    t.setStyle(
        TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.grey), ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold")])
    )
    build(
        "two-model-switch-table.pdf",
        [
            Paragraph("Tern TX Series AI Fabric Switches", STYLES["Title"]),
            Paragraph(INTRO, STYLES["BodyText"]),
            Spacer(1, 12),
            t,
        ],
    )


def sections():
    story = [Paragraph("Tern TX Series AI Fabric Switches", STYLES["Title"]), Paragraph(INTRO, STYLES["BodyText"])]
    for model, ports, capacity, latency, power in MODELS:
        story += [
            Spacer(1, 12),
            Paragraph(f"Tern {model}", STYLES["Heading2"]),
            Paragraph(f"The {model} offers {ports} ports x 800 Gb/s in one rack unit.", STYLES["BodyText"]),
            Paragraph(f"Switching capacity: {capacity}", STYLES["BodyText"]),
            Paragraph(f"Port-to-port latency: {latency}", STYLES["BodyText"]),
            Paragraph(f"Typical power: {power}", STYLES["BodyText"]),
        ]
    build("two-model-switch-sections.pdf", story)


def prose():
    (a, pa, ca, *_), (b, pb, cb, *_) = MODELS
    build(
        "two-model-switch-prose.pdf",
        [
            Paragraph("Tern TX Series AI Fabric Switches", STYLES["Title"]),
            Paragraph(INTRO, STYLES["BodyText"]),
            Paragraph(
                f"The {a} has {pa} ports of 800GbE for {ca} of switching capacity; the {b} has {pb} ports of "
                f"800GbE for {cb} of switching capacity.",
                STYLES["BodyText"],
            ),
        ],
    )


def lines():
    build(
        "two-model-switch-lines.pdf",
        [Paragraph("Tern TX Series AI Fabric Switches", STYLES["Title"]), Paragraph(INTRO, STYLES["BodyText"])]
        + [
            Paragraph(f"{model}: {ports} ports x 800 Gb/s, {capacity} switching capacity.", STYLES["BodyText"])
            for model, ports, capacity, *_ in MODELS
        ],
    )


if __name__ == "__main__":
    table()
    sections()
    prose()
    lines()
