"""The reader keeps columns apart, gives each value its row label, and links footnotes to their markers."""
from pathlib import Path

from sheetaudit.read import read_document

SAMPLES = Path(__file__).resolve().parents[1] / "samples"


def cells(doc):
    return {s.label: s.text for s in doc.segments if s.kind == "cell"}


def test_unruled_label_value_list_keeps_wrapped_labels_whole():
    doc = read_document(SAMPLES / "pelican-pn5164-ethernet-switch.pdf")
    labels = [s.label for s in doc.segments if s.kind == "cell"]
    assert any(" " in label and "latency" in label.lower() for label in labels), labels
    assert all(s.page == 1 for s in doc.segments)


def test_two_column_prose_is_not_interleaved():
    doc = read_document(SAMPLES / "borealis-bx72-rack.pdf")
    sentences = [s.text for s in doc.segments if s.kind == "sentence"]
    nvlink = next(s for s in sentences if "1.8 TB/s" in s)
    assert "bidirectional" in nvlink and "800 Gb/s" not in nvlink


def test_footnote_marker_is_linked_to_its_text():
    doc = read_document(SAMPLES / "zephyr-forge-brochure.pdf")
    assert "¹" in doc.footnotes and "idirectional" in doc.footnotes["¹"]


def test_ruled_table_rows_carry_their_labels_and_variant_columns():
    doc = read_document(SAMPLES / "tanager-t8-variants.pdf")
    columns = {s.column for s in doc.segments if s.kind == "cell"}
    assert len([c for c in columns if c]) >= 2


def test_chinese_sheet_reads_as_text():
    doc = read_document(SAMPLES / "xuanwu-x8-server-zh.pdf")
    assert any("散热" in s.label for s in doc.segments if s.kind == "cell")


def test_text_markdown_and_html_pages_become_labelled_cells():
    for name in ("osprey-o4-inference-server.txt", "cormorant-c8x-platform.md", "gannet-gx800-xdr-switch.html"):
        doc = read_document(SAMPLES / name)
        assert doc.kind in ("text", "markdown", "html")
        assert len(cells(doc)) >= 4, name


def test_html_script_and_comments_are_not_text():
    doc = read_document(SAMPLES / "gannet-gx800-xdr-switch.html")
    text = " ".join(s.text for s in doc.segments)
    assert "<script" not in text and "function" not in text
