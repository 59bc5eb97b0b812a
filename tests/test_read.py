"""The reader keeps columns apart, gives each value its row label, and links footnotes to their markers."""

import json
from pathlib import Path

import pytest

from conftest import run_cli
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


# ---------------------------------------------------------------------------------------------------------
# The PDF reader: pdfium only, every page alike


def _imports(*args, top_level: bool = True) -> set[str]:
    """Modules imported by `python -m sheetaudit ARGS` (from -X importtime): top-level names, or full ones."""
    proc = run_cli(*args, isolated=True, python=("-X", "importtime"))  # a fresh process imports from scratch
    assert proc.returncode in (0, 1), proc.stderr[-2000:]
    names = {line.split("|")[-1].strip() for line in proc.stderr.splitlines() if "|" in line}
    return {n.split(".")[0] for n in names} if top_level else names


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["check", "--help"]])
def test_help_and_version_import_nothing_heavy(args):
    heavy = {"pdfplumber", "pdfminer", "pypdfium2", "pypdfium2_raw", "pint", "pandas", "numpy", "jinja2", "yaml", "PIL"}
    assert not heavy & _imports(*args)


def test_a_pdf_and_its_evidence_images_are_read_by_pdfium_alone(tmp_path):
    out = tmp_path / "report.html"
    imported = _imports(
        "check", "--format", "html", "-o", str(out), str(SAMPLES / "kestrel-k8x-gpu-server.pdf"), top_level=False
    )
    assert "sheetaudit.read.pdfium_c" in imported and not {"pdfplumber", "pdfminer"} & {
        n.split(".")[0] for n in imported
    }
    assert "data:image/png;base64," in out.read_text(encoding="utf-8")


def test_thorough_is_accepted_and_changes_nothing():
    runs = [
        run_cli("check", "--format", "json", *extra, SAMPLES / "tanager-t8-variants.pdf")
        for extra in ([], ["--thorough"])
    ]
    assert [r.returncode for r in runs] == [runs[0].returncode] * 2 and runs[0].returncode in (0, 1)
    assert runs[0].stdout == runs[1].stdout and json.loads(runs[0].stdout)["figures"]


def test_text_printed_twice_in_place_is_read_once(tmp_path):
    """A bold look made by printing a line twice, a hair apart, and a layer drawn twice: one line of text."""
    from reportlab.pdfgen import canvas

    path = tmp_path / "twice.pdf"
    c = canvas.Canvas(str(path), pagesize=(400, 200))
    c.setFont("Helvetica", 10)
    for dx in (0, 0.3):
        c.drawString(40 + dx, 150, "Node power: 10.2 kW max")
    c.drawString(40, 120, "OpenFOAM")
    c.drawString(40, 120, "OpenFOAM")
    c.save()
    assert [s.text for s in read_document(path).segments] == ["Node power: 10.2 kW max", "OpenFOAM"]


@pytest.mark.parametrize("name", ["tanager-t8-variants.pdf", "xuanwu-x8-server-zh.pdf", "kestrel-k8x-gpu-server.pdf"])
def test_ruled_tables_are_pdfplumbers(name):
    """read.tables is pdfplumber's table finder written out: on the same edges, the same cells."""
    pdfplumber_table = pytest.importorskip("pdfplumber.table")
    from sheetaudit.read.pdfium_page import open_pdf
    from sheetaudit.read.tables import find_tables

    pdf = open_pdf(SAMPLES / name)
    found = 0
    for i in range(len(pdf)):
        page = pdf.page(i)
        page.scan()
        try:
            edges = [
                {
                    "x0": x0,
                    "x1": x1,
                    "top": t,
                    "bottom": t,
                    "width": x1 - x0,
                    "height": 0.0,
                    "orientation": "h",
                    "object_type": "line",
                }
                for t, x0, x1 in page.h_edges
            ]
            edges += [
                {
                    "x0": x,
                    "x1": x,
                    "top": t,
                    "bottom": b,
                    "width": 0.0,
                    "height": b - t,
                    "orientation": "v",
                    "object_type": "line",
                }
                for x, t, b in page.v_edges
            ]
            theirs = pdfplumber_table.TableFinder(type("Edges", (), {"edges": edges, "bbox": (-1e6, -1e6, 1e6, 1e6)})())
            assert [(t.bbox, [r.cells for r in t.rows]) for t in theirs.tables] == find_tables(
                page.h_edges, page.v_edges
            )
            found += len(theirs.tables)
        finally:
            page.close()
    pdf.close()
    assert found >= 1
