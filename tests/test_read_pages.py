"""How real PDFs lay out their pages, reproduced in sheets of our own (tests/read/make_read_pdfs.py): words
placed without a space glyph, a spec table beside body text, a title over a full-page photo."""
from pathlib import Path

import pytest

import sheetaudit
from conftest import figure
from sheetaudit.read import read_document

READ = Path(__file__).resolve().parent / "read"


def texts(doc, kind=None):
    return [s.text for s in doc.segments if kind is None or s.kind == kind]


def test_words_set_without_space_glyphs_are_parted_by_their_gaps():
    """Glyph by glyph, a TJ line kerned at 0.18 em, a word at a time: no space character in the text layer, and
    every gap under pdfplumber's 3 points."""
    doc = read_document(READ / "no-space-glyphs.pdf")
    prose = " ".join(texts(doc, "sentence"))
    for phrase in ("NVLink delivers 1.8 TB/s bidirectional throughput per GPU",       # one text object a glyph
                   "moves up to 1.6 Tbps of bidirectional traffic",                   # TJ kerning, one object a line
                   "Each HX72 rack draws 132 kW and is cooled by direct liquid cooling"):   # one object a word
        assert phrase in prose, prose
    cells = {s.label: s.text for s in doc.segments if s.kind == "cell"}
    assert cells.get("GPU-to-GPU bandwidth") == "1.8 TB/s per GPU, bidirectional", cells
    assert texts(doc, "heading")[0] == "Halyard HX72 rack-scale system ships"


def test_words_set_without_space_glyphs_give_their_figures():
    a = sheetaudit.audit(READ / "no-space-glyphs.pdf")
    assert figure(a, "1.8 TB/s", first=True).quantity == "bandwidth"
    assert figure(a, quantity="power", first=True).normalized["value"] == pytest.approx(132.0)
    assert any(f.text.endswith("1.6 Tbps") for f in a.figures), [f.text for f in a.figures]


def test_a_spec_table_beside_body_text_keeps_its_rows():
    doc = read_document(READ / "two-column-spec-table.pdf")
    cells = {s.label: s.text for s in doc.segments if s.kind == "cell" and s.page == 1}
    assert cells == {"Accelerators": "8x M-500 OAM, fully connected",
                     "Scale-up bandwidth": "896 GB/s per accelerator, bidirectional",
                     "Cluster network": "8x 400 Gb/s RoCE v2 adapters, one per accelerator",
                     "Host link": "PCIe Gen5 x16 per adapter", "System power": "10.2 kW maximum",
                     "Cooling": "Air, front-to-rear airflow"}
    prose = [s for s in doc.segments if s.kind == "sentence" and s.page == 1]
    assert len(prose) == 6 and not any("RoCE" in s.text or "kW" in s.text for s in prose)
    assert all(s.bbox[2] < 300 for s in prose)        # the body text stays in its column


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
