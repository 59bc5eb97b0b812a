"""The fast path (read.prefilter picks the pages pdfplumber reads) gives the audit of a full read.

Every sample, every corpus sheet, and generated long files (a binder of samples between filler pages, a
report whose heading and footnote sit pages away from its figures) are audited both ways; the contract JSON,
and each figure's heading, must be identical. Short files are read whole by default, so MIN_PAGES is lowered
to put the prefilter to work on them too.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import sheetaudit
from sheetaudit.read import prefilter

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
CORPUS = Path("/work/shared/corpus")
HOSTILE = ROOT / "tests" / "hostile" / "files"
sys.path.insert(0, str(ROOT / "benchmarks"))

SHEETS = sorted(p for p in SAMPLES.iterdir() if p.suffix in (".pdf", ".txt", ".md", ".html"))
CORPUS_PDFS = sorted(CORPUS.glob("*.pdf")) if CORPUS.is_dir() else []


def both_ways(path, monkeypatch, min_pages=1):
    """(contract, headings) of the default audit and of the --thorough one, and the page sets read."""
    import sheetaudit.read as reader
    monkeypatch.setattr(prefilter, "MIN_PAGES", min_pages)
    reads = []
    real = reader.read_document

    def spy(*args, **kw):
        reads.append(kw.get("pages"))
        return real(*args, **kw)

    monkeypatch.setattr(reader, "read_document", spy)
    fast = sheetaudit.audit(path)
    fast_reads = list(reads)
    full = sheetaudit.audit(path, thorough=True)
    return _view(fast), _view(full), fast_reads


def _view(result):
    contract = sheetaudit.to_contract(result)
    return contract, [(f.id, f.heading) for f in result.figures]


def assert_same(fast, full):
    (a, ha), (b, hb) = fast, full
    assert a["figures"] == b["figures"]
    assert [f["check"] for f in a["findings"]] == [f["check"] for f in b["findings"]]
    assert a == b
    assert ha == hb


@pytest.mark.parametrize("path", SHEETS + CORPUS_PDFS, ids=lambda p: p.name)
def test_every_sheet_audits_the_same_with_the_prefilter(path, monkeypatch):
    fast, full, _ = both_ways(path, monkeypatch)
    assert_same(fast, full)


@pytest.mark.parametrize("path", sorted(p for p in SAMPLES.glob("*.pdf")) + CORPUS_PDFS, ids=lambda p: p.name)
def test_every_page_with_a_figure_passes_the_text_filter(path):
    """The loose patterns flag every page on which find.py finds something in a full read."""
    import pypdfium2 as pdfium
    from sheetaudit.find import find_mentions
    from sheetaudit.read import read_document
    doc = read_document(path)
    pages = {m.segment.page for m in find_mentions(doc)}
    pdf = pdfium.PdfDocument(str(path))
    try:
        for p in sorted(pages):
            page = pdf[p - 1]
            text = page.get_textpage().get_text_range()
            assert prefilter.may_hold_figures(text), f"page {p} of {path.name}: {text[:300]!r}"
    finally:
        pdf.close()


def test_every_mention_passes_the_text_filter():
    """The loose patterns match the text of every segment in which find.py finds a mention, in every sample
    and corpus sheet (a label/value row as its label, then its value): when find.py learns a new kind of
    figure, this fails until read/prefilter.py learns it too."""
    from sheetaudit.find import find_mentions
    from sheetaudit.read import read_document
    missed = []
    for path in SHEETS + CORPUS_PDFS:
        for m in find_mentions(read_document(path)):
            seg = m.segment
            text = f"{seg.label} {seg.text}" if seg.label else seg.text
            if not prefilter.may_hold_figures(text):
                missed.append((path.name, m.quantity, m.text, text[:120]))
    assert not missed, missed


# ---------------------------------------------------------------------------------------------------------
# generated long files

def _merge(out: Path, parts) -> Path:
    import pypdfium2 as pdfium
    dest = pdfium.PdfDocument.new()
    for path, pages in parts:
        src = pdfium.PdfDocument(str(path))
        dest.import_pages(src, pages)
        src.close()
    dest.save(str(out))
    dest.close()
    return out


@pytest.fixture(scope="module")
def filler(tmp_path_factory) -> Path:
    from make_inputs import guide
    return guide(tmp_path_factory.mktemp("filler") / "filler.pdf", pages=12, figure_pages=())


def test_filler_pages_hold_no_figure(filler):
    plan = prefilter.open_plan(filler)
    assert plan is not None and plan.figures == set() and plan.no_text == set()
    plan.close()


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.pdf")) + CORPUS_PDFS, ids=lambda p: p.name)
def test_each_sheet_between_filler_pages(path, tmp_path, filler, monkeypatch):
    """Short sheets are read whole even with MIN_PAGES lowered (every page holds a figure); set between
    pages of a product guide, their pages are read and the guide's are skipped, with the same audit."""
    binder = _merge(tmp_path / f"in-guide-{path.name}", [(filler, [0, 1, 2]), (path, None), (filler, [3, 4, 5])])
    fast, full, reads = both_ways(binder, monkeypatch, min_pages=prefilter.MIN_PAGES)
    assert_same(fast, full)
    n = full[0]["source"]["pages"]
    assert reads[-1] is not None and not {n - 2, n - 1, n} & set(reads[-1])   # the guide's pages after it


def test_heading_prediction_matches_the_reader():
    """pdfium's words through read.layout give the reader's headings and segment count on every page."""
    import pypdfium2 as pdfium
    from sheetaudit.read import read_document
    for path in sorted(SAMPLES.glob("*.pdf")) + CORPUS_PDFS:
        doc = read_document(path)
        pdf = pdfium.PdfDocument(str(path))
        try:
            for i in range(len(pdf)):
                page, p = pdf[i], i + 1
                textpage = page.get_textpage()
                layout = prefilter._PageLayout(page, textpage, p)
                predicted = layout.segments()
                actual = [s for s in doc.segments if s.page == p]
                heads = [s.text for s in actual if s.kind == "heading"]
                assert [s.text for s in predicted if s.kind == "heading"] == heads, (path.name, p)
                assert len(predicted) == len(actual), (path.name, p)
                assert layout.may_hold_heading or not heads, (path.name, p)
                textpage.close()
                page.close()
        finally:
            pdf.close()


def test_binder_of_samples_between_filler_pages(tmp_path, filler, monkeypatch):
    parts = [(filler, [0, 1]), (SAMPLES / "kestrel-k8x-gpu-server.pdf", None), (filler, [2, 3, 4]),
             (SAMPLES / "zephyr-forge-brochure.pdf", None), (filler, [5, 6]),
             (SAMPLES / "tanager-t8-variants.pdf", None), (HOSTILE / "mixed-scanned.pdf", None),
             (filler, [7, 8]), (SAMPLES / "xuanwu-x8-server-zh.pdf", None), (filler, [9, 10, 11])]
    path = _merge(tmp_path / "binder.pdf", parts)
    fast, full, reads = both_ways(path, monkeypatch, min_pages=prefilter.MIN_PAGES)
    assert_same(fast, full)
    assert reads and reads[-1] is not None and len(reads[-1]) < full[0]["source"]["pages"]
    assert full[0]["source"]["no_text_pages"]          # the scanned page is still reported


def _report(path: Path) -> Path:
    """Title page; a 'Cluster networking' heading on page 2; its figures on page 5, below no heading of their
    own; an end note on page 8 explains the † they carry; the pages between print no figure and no heading."""
    from reportlab import rl_config
    rl_config.invariant = 1
    from reportlab.lib.pagesizes import A4
    from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate
    from make_inputs import BODY, H1, H2, SMALL
    plain = ("The operator records the asset tag on the front bezel. The installer checks the rail kit against "
             "the release notes of the firmware before the system is powered on. ") * 4
    story = [Paragraph("Annual infrastructure report", H1), Paragraph(plain, BODY), PageBreak(),
             Paragraph("Cluster networking", H2), Paragraph(plain, BODY), PageBreak(),
             Paragraph(plain, BODY), PageBreak(), Paragraph(plain, BODY), PageBreak(),
             Paragraph("Each node has 8x 400 Gb/s† ports on the compute network and 2x 100GbE front-end ports. "
                       "The scale-up domain joins 8 accelerators over NVLink at 900 GB/s per GPU.", BODY),
             Paragraph(plain, BODY), PageBreak(), Paragraph(plain, BODY), PageBreak(),
             Paragraph(plain, BODY), PageBreak(), Paragraph("Notes", H2),
             Paragraph("† Per direction; the sum of both directions is 800 Gb/s.", SMALL)]
    SimpleDocTemplate(str(path), pagesize=A4, invariant=1, title="report").build(story)
    return path


def test_heading_and_footnote_pages_away_from_the_figures_are_read(tmp_path, monkeypatch):
    path = _report(tmp_path / "report.pdf")
    fast, full, reads = both_ways(path, monkeypatch, min_pages=prefilter.MIN_PAGES)
    assert_same(fast, full)
    assert {2, 5, 8} <= set(reads[-1]) and not {3, 4, 6, 7} & set(reads[-1])
    pages = {f["id"]: f["page"] for f in full[0]["figures"]}
    assert {h for fid, h in full[1] if pages[fid] == 5} == {"Cluster networking"}


def _fabric_guide(path: Path) -> Path:
    """The sheet's scale-up fabric is the technology its segments name most: here NVLink, named only on pages
    without figures, while the figure pages name Infinity Fabric once. A ruled table on page 7 continues the
    'Interconnect' section whose heading is on page 6, which prints no figure."""
    from reportlab import rl_config
    rl_config.invariant = 1
    from reportlab.lib.pagesizes import A4
    from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Table
    from make_inputs import BODY, CELL, CELLB, GRID, H1, H2
    plain = "The service technician records the asset tag on the front bezel before the lid is opened. " * 3
    nvlink = "The NVLink bridge is seated before the tray is closed; each NVLink connector is checked. "
    story = [Paragraph("Pelorus P8 GPU server guide", H1), Paragraph(plain, BODY), PageBreak()]
    for _ in range(3):
        story += [Paragraph(nvlink * 2 + plain, BODY), PageBreak()]
    story += [Paragraph("An Infinity Fabric option exists for the older tray. " + plain, BODY), PageBreak(),
              Paragraph("Interconnect", H2), Paragraph(plain, BODY), PageBreak()]
    t = Table([[Paragraph("Scale-up bandwidth", CELLB), Paragraph("900 GB/s per GPU, bidirectional", CELL)],
               [Paragraph("GPUs", CELLB), Paragraph("8", CELL)],
               [Paragraph("Compute network", CELLB), Paragraph("8x 400 Gb/s", CELL)]])
    t.setStyle(GRID)
    story += [t, Paragraph(plain, BODY), PageBreak(), Paragraph(plain, BODY)]
    SimpleDocTemplate(str(path), pagesize=A4, invariant=1, title="fabric").build(story)
    return path


def test_fabric_vote_and_table_continued_from_a_heading_page(tmp_path, monkeypatch):
    path = _fabric_guide(tmp_path / "fabric.pdf")
    fast, full, reads = both_ways(path, monkeypatch, min_pages=prefilter.MIN_PAGES)
    assert_same(fast, full)
    scale_up = [f for f in full[0]["figures"] if f["quantity"] == "bandwidth" and f["tier"] == "scale-up"]
    assert scale_up and scale_up[0].get("technology") == "NVLink"
    assert {6, 7} <= set(reads[-1]) and 8 not in reads[-1]


def test_long_file_reads_few_pages_and_finds_everything(monkeypatch):
    path = HOSTILE / "long-1000.pdf"
    if not path.exists():
        pytest.skip("tests/hostile/files not generated")
    monkeypatch.setattr(prefilter, "MIN_PAGES", 4)
    reads = []
    import sheetaudit.read as reader
    real = reader.read_document
    monkeypatch.setattr(reader, "read_document", lambda *a, **kw: reads.append(kw.get("pages")) or real(*a, **kw))
    result = sheetaudit.audit(path)
    found = {(f.text, f.page) for f in result.figures if f.quantity != "cooling"}
    assert {("400 Gb/s", 3), ("10.2 kW", 500), ("900 GB/s", 998)} <= found
    assert len(reads) == 1 and len(reads[0]) <= 10


def test_thorough_flag_on_the_command_line(tmp_path):
    path = _report(tmp_path / "report.pdf")
    out = []
    for extra in ([], ["--thorough"]):
        proc = subprocess.run([sys.executable, "-m", "sheetaudit", "check", "--format", "json", *extra, str(path)],
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode in (0, 1), proc.stderr
        out.append(proc.stdout)
    assert out[0] == out[1]


# ---------------------------------------------------------------------------------------------------------
# start-up

@pytest.mark.parametrize("args", [["--version"], ["--help"], ["check", "--help"]])
def test_help_and_version_import_nothing_heavy(args):
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "sheetaudit", *args],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0
    imported = {line.split("|")[-1].strip() for line in proc.stderr.splitlines() if "|" in line}
    heavy = {"pdfplumber", "pdfminer", "pypdfium2", "pint", "pandas", "numpy", "jinja2", "yaml", "PIL"}
    assert not heavy & {name.split(".")[0] for name in imported}
