"""A long PDF's pages that print no figure are kept as plain text instead of laid out (read.pdf, triage): the
audit is the same as with every page laid out, and the question is asked only while it pays."""

import json
import sys
from collections import defaultdict

import pytest

from sheetaudit.stages.s1_find import find_mentions
from sheetaudit.output.json_out import dumps
from sheetaudit import pipeline
from sheetaudit.read import read_document
from sheetaudit.read.pdfium_page import open_pdf
from sheetaudit.stages.s2_triage import may_hold_figures
from conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
import make_inputs  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
SHEETS = sorted(
    p
    for d in (ROOT / "samples", ROOT / "tests" / "labelled", CORPUS)
    if d.is_dir()
    for p in d.iterdir()
    if p.suffix in (".pdf", ".txt", ".md", ".html", ".rst")
)


def _same_audit(path):
    fast, full = pipeline.run(path), pipeline.run(path, triage=False)
    assert json.loads(dumps(fast)) == json.loads(dumps(full))
    return fast


@pytest.mark.parametrize("sheet", SHEETS, ids=lambda p: p.name)
def test_a_text_the_finder_finds_a_figure_in_is_never_waved_through(sheet):
    """Every sheet we have, read as one page of plain text: where the finder finds a figure in the laid-out
    sheet, triage says the page may hold one (and each PDF page on its own, likewise)."""
    doc = read_document(sheet)
    by_page = defaultdict(list)
    for m in find_mentions(doc):
        by_page[m.segment.page].append(m)
    if sheet.suffix != ".pdf":
        text = "\n".join(f"{s.label} {s.column} {s.text}" for s in doc.segments)
        assert may_hold_figures(text) == bool(by_page)
        return
    pdf = open_pdf(sheet)
    try:
        for page_no in by_page:
            page = pdf.page(page_no - 1)
            try:
                assert may_hold_figures(page.text()), f"page {page_no}: {[m.text for m in by_page[page_no]]}"
            finally:
                page.close()
    finally:
        pdf.close()


def test_a_guide_with_figures_on_three_pages_audits_as_if_every_page_were_laid_out(tmp_path):
    guide = make_inputs.guide(tmp_path / "guide.pdf", pages=40, figure_pages=(6, 21, 37))
    result = _same_audit(guide)
    assert {f.segment.page for f in result.figures} == {6, 21, 37}
    kinds = {s.page: s.kind for s in result.document.segments}
    assert sum(1 for k in kinds.values() if k == "page") >= 30  # most pages were not laid out


def test_a_heading_set_on_a_plain_page_reaches_the_figure_under_it(tmp_path):
    from reportlab.lib.pagesizes import A4
    from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate

    styles = make_inputs
    story = [Paragraph("Cormorant C8 Field Guide", styles.H1)]
    for p in range(2, 13):
        story.append(PageBreak())
        if p == 8:
            story.append(Paragraph("Scale-out fabric", styles.H2))
        story.append(Paragraph(f"Chapter text of page {p}, on cabling and rack layout. " * 8, styles.BODY))
        if p == 10:
            story.append(Paragraph("Each node connects with 8x 400 Gb/s ports to the leaf switches.", styles.BODY))
    path = tmp_path / "heading.pdf"
    SimpleDocTemplate(str(path), pagesize=A4).build(story)
    result = _same_audit(path)
    (figure,) = [f for f in result.figures if f.quantity == "bandwidth"]
    assert figure.segment.heading == "Scale-out fabric"
    assert result.document.segments[-1].kind == "page"  # the pages after the figure were not laid out


def test_a_manual_with_figures_on_every_page_stops_asking(tmp_path):
    manual = make_inputs.manual(tmp_path / "manual.pdf", pages=30)
    asked = []

    def counting(text):
        asked.append(text)
        return may_hold_figures(text)

    doc = read_document(manual, needs_layout=counting)
    assert 0 < len(asked) <= 8 + 30 // 8  # eight pages, then only every eighth
    assert not any(s.kind == "page" for s in doc.segments)


def test_prose_after_many_pages_of_tables_is_still_noticed(tmp_path):
    """40 pages with a weight each, then 40 of prose: asking all but stops in the weights (every eighth page is
    still asked) and resumes in the prose, whose pages are then kept as plain text."""
    from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate

    story = [Paragraph("Cormorant C8 Service and Planning Guide", make_inputs.H1)]
    for p in range(2, 81):
        story.append(PageBreak())
        story.append(
            Paragraph(
                f"Replacing part {p}: lift the latch, slide the carrier out and read the label. " * 6
                if p > 40
                else f"The fan module of bay {p} weighs 1.{p % 10} kg with its cage.",
                make_inputs.BODY,
            )
        )
        if p > 40:
            story.append(
                Paragraph("Keep the old part for the return shipment and note its serial. " * 6, make_inputs.BODY)
            )
    path = tmp_path / "mixed.pdf"
    SimpleDocTemplate(str(path)).build(story)
    asked = []

    def counting(text):
        asked.append(text)
        return may_hold_figures(text)

    doc = read_document(path, needs_layout=counting)
    plain = {s.page for s in doc.segments if s.kind == "page"}
    table_pages_asked = [t for t in asked if t.startswith("The fan module")]
    assert len(table_pages_asked) <= 8 + 40 // 8  # eight pages, then only every eighth
    assert len(plain) >= 32 and min(plain) > 40  # the prose was noticed, and only the prose kept plain
    full = pipeline.run(path, triage=False)
    assert json.loads(dumps(pipeline.run(path))) == json.loads(dumps(full))
