"""How real PDFs lay out their pages, reproduced in sheets of our own (tests/read/make_read_pdfs.py): words
placed without a space glyph, a spec table beside body text, a title over a full-page photo."""

from pathlib import Path

import pytest

from conftest import figure
from sheetaudit import pipeline
from sheetaudit.read import read_document

READ = Path(__file__).resolve().parent / "read"


def texts(doc, kind=None):
    return [s.text for s in doc.segments if kind is None or s.kind == kind]


def test_words_set_without_space_glyphs_are_parted_by_their_gaps():
    """Glyph by glyph, a TJ line kerned at 0.18 em, a word at a time: no space character in the text layer, and
    every gap under pdfplumber's 3 points."""
    doc = read_document(READ / "no-space-glyphs.pdf")
    prose = " ".join(texts(doc, "sentence"))
    for phrase in (
        "NVLink delivers 1.8 TB/s bidirectional throughput per GPU",  # one text object a glyph
        "moves up to 1.6 Tbps of bidirectional traffic",  # TJ kerning, one object a line
        "Each HX72 rack draws 132 kW and is cooled by direct liquid cooling",
    ):  # one object a word
        assert phrase in prose, prose
    cells = {s.label: s.text for s in doc.segments if s.kind == "cell"}
    assert cells.get("GPU-to-GPU bandwidth") == "1.8 TB/s per GPU, bidirectional", cells
    assert texts(doc, "heading")[0] == "Halyard HX72 rack-scale system ships"


def test_words_set_without_space_glyphs_give_their_figures():
    a = pipeline.run(READ / "no-space-glyphs.pdf")
    assert figure(a, "1.8 TB/s", first=True).quantity == "bandwidth"
    assert figure(a, quantity="power", first=True).normalized["value"] == pytest.approx(132.0)
    assert any(f.text.endswith("1.6 Tbps") for f in a.figures), [f.text for f in a.figures]


def test_a_spec_table_beside_body_text_keeps_its_rows():
    doc = read_document(READ / "two-column-spec-table.pdf")
    cells = {s.label: s.text for s in doc.segments if s.kind == "cell" and s.page == 1}
    assert cells == {
        "Accelerators": "8x M-500 OAM, fully connected",
        "Scale-up bandwidth": "896 GB/s per accelerator, bidirectional",
        "Cluster network": "8x 400 Gb/s RoCE v2 adapters, one per accelerator",
        "Host link": "PCIe Gen5 x16 per adapter",
        "System power": "10.2 kW maximum",
        "Cooling": "Air, front-to-rear airflow",
    }
    prose = [s for s in doc.segments if s.kind == "sentence" and s.page == 1]
    assert len(prose) == 6 and not any("RoCE" in s.text or "kW" in s.text for s in prose)
    assert all(s.bbox[2] < 300 for s in prose)  # the body text stays in its column


def test_a_ruled_table_beside_body_text_keeps_its_rows():
    doc = read_document(READ / "two-column-spec-table.pdf")
    cells = {(s.label, s.column): s.text for s in doc.segments if s.kind == "cell" and s.page == 2}
    assert cells[("Cluster Port", "Speed")] == "400 Gb/s" and cells[("Management Port", "Count")] == "1"
    prose = " ".join(s.text for s in doc.segments if s.kind == "sentence" and s.page == 2)
    assert prose.startswith("The cluster ports are RoCE v2 adapters") and "400 Gb/s" not in prose


def test_a_title_over_a_full_page_photo_is_read_not_a_page_without_text():
    doc = read_document(READ / "title-over-photo.pdf")
    assert "Halyard HX72" in " ".join(s.text for s in doc.segments if s.page == 1)
    assert 1 not in doc.no_text_pages


def test_a_heading_over_a_picture_of_a_table_is_still_a_page_without_text():
    """Its figures are in the picture: the audit must say the page was not read (OCR may read it)."""
    doc = read_document(READ / "title-over-photo.pdf")
    assert doc.no_text_pages == [3]


def test_a_cover_a_slide_and_a_captioned_photograph_are_pages_with_text_not_pictures_of_tables():
    """Mostly picture with a little text, yet read: a title in display type (judged against the page's width, as
    a slide sets body text at 18 points) or words printed over the picture say the picture only illustrates."""
    doc = read_document(READ / "pictures-not-tables.pdf")
    assert doc.no_text_pages == []
    assert "400Gbps" in " ".join(s.text for s in doc.segments if s.page == 2)


def test_a_table_ruled_round_one_models_column_is_read_as_the_grid_it_is():
    """Rules that box only the highlighted model's column leave the other models' words in the rules' box but in
    no cell: the grid is read from the words' places, each value with its row label and its model."""
    doc = read_document(READ / "model-grid.pdf")
    cells = {(s.label, s.column): s.text for s in doc.segments if s.kind == "cell" and s.page == 2}
    assert cells[("Typical/Max Power", "T4-48S")] == "160W / 510W"
    assert cells[("Typical/Max Power", "T4-24C")] == "210W / 455W"
    assert cells[("Typical/Max Power", "T4-32Q")] == "380W / 730W"
    assert cells[("Throughput (FDX)", "T4-32Q")] == "12.8 (25.6) Tbps"
    # a label set against the middle of a two-line value: both lines are the row's
    assert cells[("Ports", "T4-48S")] == "48x SFP-DD 100G 8x QSFP-DD 400G"
    assert cells[("Ports", "T4-32Q")] == "32x QSFP-DD 400G 2x SFP+"


def test_the_title_is_the_first_pages_largest_heading_and_a_tag_in_a_ruled_box_is_read():
    doc = read_document(READ / "model-grid.pdf")
    assert doc.title == "Tern T4 Ethernet Switch"
    assert "SWITCH SYSTEM PRODUCT BRIEF" in texts(doc, "heading")


def test_a_bulleted_sidebar_beside_running_text_is_not_a_label_value_list():
    doc = read_document(READ / "model-grid.pdf")
    page1 = [s for s in doc.segments if s.page == 1]
    assert not [s for s in page1 if s.kind == "cell"], [(s.label, s.text) for s in page1 if s.kind == "cell"]
    assert any(s.text.startswith("The Tern T4 family is the fourth generation") for s in page1)
    assert any("under 9W/port • 1+1 redundant" in s.text for s in page1)


def test_a_model_grid_gives_every_models_power_and_its_totals_add_up():
    a = pipeline.run(READ / "model-grid.pdf")
    watts = sorted(f.normalized["value"] for f in a.figures if f.quantity == "power" and f.page == 2)
    assert watts == [0.15, 0.16, 0.21, 0.38, 0.455, 0.51, 0.51, 0.73]
    per_port = figure(a, "under 9W")  # beside "1+1 redundant ... power", an item of its own
    assert (per_port.quantity, per_port.scope) == ("power", "per-port")
    assert figure(a, "380W").model == "T4-32Q"
    # 12.8 Tbps is 32 x 400G and 8.0 Tbps is 48 x 100G + 8 x 400G: no total is questioned
    assert not [x for x in a.findings if x.check == "bandwidth.aggregate-mismatch"]


def test_a_spec_box_under_a_caption_beside_body_text_keeps_its_rows_and_shared_values():
    """The caption "SYSTEM SPECIFICATIONS" runs across the box's label and value columns, and its rows are set
    closer than a paragraph's gap: the box is still read row by row, beside the body text, not as one sentence. A
    value centred across both variants' columns is both variants'."""
    doc = read_document(READ / "spec-box-beside-text.pdf")
    cells = {(s.label, s.column): s.text for s in doc.segments if s.kind == "cell"}
    assert cells[("GPUs", "8X Vega V2")] == "8X Vega V2" and cells[("GPUs", "8X Vega V1")] == "8X Vega V1"
    assert cells[("Maximum Power", "")] == "3,200 W"
    assert cells[("Network", "")] == "Dual 10 GbE, 4 IB EDR"
    assert not [s for s in doc.segments if s.kind == "sentence" and "GPU Memory" in s.text]


def test_a_server_spec_box_gives_its_domain_its_ports_and_its_power():
    a = pipeline.run(READ / "spec-box-beside-text.pdf")
    domain = [f for f in a.figures if f.quantity == "domain_size"]
    assert {(f.normalized["value"], f.tier) for f in domain} == {(8.0, "scale-up")}  # "8X Vega V2", NVLink in prose
    edr = figure(a, "EDR")  # "Dual 10 GbE, 4 IB EDR": the 10 GbE is another port's rate
    assert (edr.normalized["value"], edr.count) == (12.5, 4)
    power = [f for f in a.figures if f.quantity == "power"]
    assert [(f.normalized["value"], f.scope, f.model or None) for f in power] == [(3.2, "per-node", None)]


def test_bulleted_lists_side_by_side_are_lists_not_labels_and_values():
    """Three columns of bulleted specifications on one baseline grid: the first column's lines are not the labels
    of the second's."""
    doc = read_document(READ / "model-grid.pdf")
    page3 = [s for s in doc.segments if s.page == 3]
    assert not [s for s in page3 if s.kind == "cell"], [(s.label, s.text) for s in page3 if s.kind == "cell"]
    a = pipeline.run(READ / "model-grid.pdf")
    typical = [f for f in a.figures if f.quantity == "power" and f.page == 3]
    assert [(f.text, f.scope) for f in typical] == [("150W", "per-switch")]


# ---------------------------------------------------------------------------------------------------------
# Spec boxes read by their geometry (read.specbox): labels in one column, values in the next, on one baseline


def _cells(name):
    doc = read_document(READ / name)
    return doc, {(s.label, s.column): s.text for s in doc.segments if s.kind == "cell"}


def test_a_card_spec_box_beside_running_text_gives_each_value_its_label():
    """The box sits in a right-hand column beside running text, under a caption, over a footer that runs across the
    page: no gutter runs the page's full height. Labels wrap over two lines, values over two or three, and two
    memory variants are indented sub-rows of a label of their own."""
    doc, cells = _cells("spec-box-card.pdf")
    assert cells[("Memory Bandwidth", "")] == "Up to 160GB/s"
    assert cells[("Thermal Solution", "")] == "Active"
    assert cells[("Single-Precision Performance", "")] == "Up to 2.4 TFLOPS"  # a label over two lines
    assert cells[("Max Power Consumption", "")] == "45 W"
    assert cells[("Form Factor", "")] == "2.7 inches H x 6.6 inches L, single slot"  # a value over three
    assert cells[("Max Simultaneous Displays", "")] == "4x 3840 x 2160 @ 120Hz 2x 7680 x 4320 @ 60Hz"
    assert cells[("GPU Memory Kite K2", "")] == "4 GB GDDR6"
    assert cells[("GPU Memory Kite K2 8GB", "")] == "8 GB GDDR6"
    assert len(cells) == 11
    page1 = [s for s in doc.segments if s.page == 1]
    assert "SPECIFICATIONS" in [s.text for s in page1 if s.kind == "heading"]
    assert not [s for s in page1 if s.kind in ("sentence", "heading") and ("160GB/s" in s.text or "Active" in s.text)]
    assert any(s.kind == "sentence" and s.text.startswith("To learn more") for s in page1)


def test_models_heading_centred_columns_and_a_section_inside_the_box_set_without_space_glyphs():
    doc, cells = _cells("spec-box-models.pdf")
    assert cells[("Maximum power", "C4-8L")] == "6.2 kW" and cells[("Maximum power", "C4-2S")] == "3.1 kW"
    assert cells[("Scale-up link", "C4-8L")] == "A2 Link, 600 GB/s per accelerator"  # a value over two lines
    assert cells[("Cooling", "C4-8L")] == "Direct liquid cooling"
    assert cells[("Accelerator memory bandwidth", "C4-4S")] == "3.2 TB/s"
    assert [text for (label, _), text in cells.items() if label == "Front-end network"] == ["Dual 25 GbE, OCP 3.0"]
    assert "Power and cooling" in [s.text for s in doc.segments if s.kind == "heading"]
    assert len(cells) == 22


def test_labels_set_flush_right_in_a_left_hand_box_beside_running_text():
    doc, cells = _cells("spec-box-flush-right.pdf")
    assert cells == {
        ("Ports", ""): "2x QSFP112",
        ("Data rate", ""): "400 Gb/s per port, Ethernet and RoCE v2",
        ("Host interface", ""): "PCIe Gen5 x16",
        ("Typical power (two ports active)", ""): "25 W",
        ("Cooling", ""): "Passive heatsink, 300 LFM airflow",
        ("Port-to-port latency", ""): "600 ns",
        ("Form factor", ""): "Half height, half length",
    }
    prose = [s.text for s in doc.segments if s.kind == "sentence"]
    assert len(prose) == 3 and prose[0].startswith("The Egret E1 adapter puts two 400 Gb/s ports")


def test_a_spec_boxs_row_labels_reach_the_audit():
    """Memory bandwidth rows are memory tier; "Thermal Solution: Active" is air cooling; each model's power is its
    model's."""
    card = pipeline.run(READ / "spec-box-card.pdf")
    memory = figure(card, "Up to 160GB/s")
    assert (memory.quantity, memory.tier) == ("bandwidth", "memory")
    cooling = [f for f in card.figures if f.quantity == "cooling"]
    assert [(f.text, f.normalized["value"]) for f in cooling] == [("Active", "air")]
    server = pipeline.run(READ / "spec-box-models.pdf")
    assert {f.tier for f in server.figures if f.quantity == "bandwidth" and "TB/s" in f.text} == {"memory"}
    assert figure(server, "6.2 kW").model == "C4-8L"
    nic = pipeline.run(READ / "spec-box-flush-right.pdf")
    assert figure(nic, "25 W").quantity == "power"


def test_the_corpus_card_datasheets_read_their_spec_boxes():
    """Two real card datasheets (../shared/corpus), when present: each value with its label."""
    corpus = Path(__file__).resolve().parents[2] / "shared" / "corpus"
    t400, rtx = corpus / "real-nvidia-t400-datasheet.pdf", corpus / "real-nvidia-rtx6000-ada-datasheet.pdf"
    if not t400.exists() or not rtx.exists():
        pytest.skip("../shared/corpus is not here")
    cells = {s.label: s.text for s in read_document(t400).segments if s.kind == "cell"}
    assert cells["Memory Bandwidth"] == "Up to 80GB/s" and cells["Thermal Solution"] == "Active"
    assert cells["Max Power Consumption"] == "30 W" and cells["GPU Memory NVIDIA T400 4GB"] == "4 GB GDDR6"
    cells = {s.label: s.text for s in read_document(rtx).segments if s.kind == "cell"}
    assert cells["Memory bandwidth"] == "960 GB/s" and cells["Thermal solution"] == "Active"
    assert cells["NVIDIA Ada Lovelace architecture-based CUDA Cores"] == "18,176"
