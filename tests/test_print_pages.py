"""Reports that print like a brief and pages that never scroll sideways, measured in a real headless chromium
(Debian's chromium; skipped without it): a sheet's report printed on A4 with the default options, its pages counted
with pypdfium2; no heading left alone at the bottom of a page; the printed batch index of 18 sheets shows every
product in the compliance matrix; at 1280 px neither a report, the index nor the scale page scrolls sideways.
PDFs go to artifacts/report/ (looked at by eye)."""

from __future__ import annotations

import html
import re
import shutil

import pytest

from conftest import ROOT, SAMPLES, run_cli
from test_report_browser import ARTIFACTS, browser  # noqa: F401  (the fixture)

CORPUS = ROOT.parent / "shared" / "corpus"
LABELLED = ROOT / "tests" / "labelled"


@pytest.fixture(scope="module")
def b(browser):
    """The browser at 1280 css pixels, a laptop's width."""
    browser.call(
        "Emulation.setDeviceMetricsOverride", session=True, width=1280, height=900, deviceScaleFactor=1, mobile=False
    )
    browser.width = 1280
    return browser


def report(sheet, out, *extra):
    r = run_cli("check", sheet, "--format", "html", "-o", out, "--fail-on", "never", *extra)
    assert r.returncode == 0, r.stderr
    return out


def printed(b, page, name):
    """PAGE printed on A4 as chromium prints it: (pages, the text of each page, the PDF's path)."""
    import pypdfium2 as pdfium

    b.open(page, media="print")
    pdf = ARTIFACTS / name
    b.print_pdf(pdf)
    doc = pdfium.PdfDocument(str(pdf))
    texts = [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    doc.close()
    b.open(page)
    return len(texts), texts, pdf


def _flat(text: str) -> str:
    return re.sub(r"[\s\u200b\ufffe\u00ad-]+", "", text)


def stranded(page, texts) -> list[str]:
    """Headings (h1-h4, a chart's title) that end a printed page: the last line of a page that starts a heading."""
    src = page.read_text(encoding="utf-8")
    heads = [
        _flat(html.unescape(re.sub(r"<[^>]+>", "", h)))
        for h in re.findall(r"<h[1-4][^>]*>(.*?)</h[1-4]>|<figcaption><strong>(.*?)</strong>", src, re.S)
        for h in h
        if h
    ]
    heads = [h for h in heads if len(h) > 3]
    out = []
    for text in texts[:-1]:
        lines = [x for x in text.splitlines() if x.strip()]
        last = _flat(lines[-1]) if lines else ""
        out += [h for h in heads if last and h.startswith(last)]
    return out


@pytest.mark.parametrize(
    "sheet, most",
    [
        (SAMPLES / "kestrel-k8x-gpu-server.pdf", 4),  # 2 pages, one warning
        (CORPUS / "real-arista-7050x4-datasheet.pdf", 8),  # 16 pages, a switch's
    ],
)
def test_a_sheets_report_prints_short(b, tmp_path, sheet, most):
    if not sheet.exists():
        pytest.skip(f"{sheet} not present")
    page = report(sheet, tmp_path / "report.html")
    n, texts, _ = printed(b, page, f"{sheet.stem}.brief.a4.pdf")
    assert n <= most, f"{sheet.name}: {n} A4 pages"
    first = _flat(texts[0])
    assert "Verdict" in first or "VERDICT" in first
    assert stranded(page, texts) == []
    whole = _flat("".join(texts))
    assert whole.index("Askthevendor") < whole.index("Findings,mostseverefirst")  # the questions, then evidence


def test_the_full_figure_table_prints_on_request(b, tmp_path):
    sheet = SAMPLES / "borealis-bx72-rack.pdf"
    short = report(sheet, tmp_path / "short.html")
    full = report(sheet, tmp_path / "full.html", "--all-figures")
    for page, every in ((short, False), (full, True)):
        b.open(page, media="print")
        rows = b.js(
            "Array.from(document.querySelectorAll('#figures-table tbody tr'))"
            ".map(r => r.getBoundingClientRect().height > 0)"
        )
        assert rows and all(rows) == every and any(rows)
    b.open(short)


@pytest.fixture(scope="module")
def index18(tmp_path_factory):
    folder = tmp_path_factory.mktemp("eighteen") / "sheets"
    folder.mkdir()
    for p in sorted(SAMPLES.iterdir()):
        if p.suffix in (".pdf", ".md", ".txt", ".html"):
            shutil.copy(p, folder / p.name)
    for p in sorted(LABELLED.glob("*.pdf"))[: 18 - len(list(folder.iterdir()))]:
        shutil.copy(p, folder / p.name)
    assert len(list(folder.iterdir())) == 18
    out = folder.parent / "out"
    r = run_cli(
        "audit",
        folder,
        "-o",
        out,
        "-q",
        "--require",
        SAMPLES / "requirements.yaml",
        "--fail-on",
        "never",
        isolated=True,
    )
    assert r.returncode == 0, r.stderr
    return out / "index.html"


def test_the_printed_index_of_18_sheets_shows_every_product_in_the_matrix(b, index18):
    import pdfplumber

    b.open(index18)
    heads = b.js(
        "Array.from(document.querySelectorAll('#matrix-table thead th')).slice(1)"
        ".map(th => th.textContent.replace(/\\u200b/g, '').split(/\\s+/)[0].replace('…', ''))"
    )
    assert len(heads) == 18
    n, texts, pdf = printed(b, index18, "index-18.a4.pdf")
    with pdfplumber.open(pdf) as doc:
        assert all(c["x1"] <= p.width + 0.5 for p in doc.pages for c in p.chars)  # nothing cut at the edge
    whole = _flat("".join(texts))
    ascii_heads = [h for h in heads if h.isascii()]
    assert ascii_heads and [h for h in ascii_heads if _flat(h) not in whole] == []
    assert stranded(index18, texts) == []


@pytest.mark.parametrize("which", ["index", "report", "scale", "train"])
def test_no_page_scrolls_sideways_at_1280(b, tmp_path, index18, which):
    if which == "index":
        page = index18
    elif which == "report":
        page = report(SAMPLES / "tanager-t8-variants.pdf", tmp_path / "report.html")
    else:
        page = tmp_path / f"{which}.html"
        job = ("--job", SAMPLES / "jobs" / "llama-70b.yaml") if which == "train" else ()
        r = run_cli("scale", *sorted(SAMPLES.glob("*.pdf")), *job, "--format", "html", "-o", page)
        assert r.returncode == 0, r.stderr
    b.open(page)
    width, client = b.js("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width <= client, f"{which}: scrollWidth {width} > {client}"


def test_no_result_pill_is_clipped_on_a_phone(b, tmp_path):
    page = report(SAMPLES / "gannet-gx800-xdr-switch.html", tmp_path / "report.html")
    b.call("Emulation.setDeviceMetricsOverride", session=True, width=390, height=900, deviceScaleFactor=1, mobile=False)
    try:
        b.open(page)
        clipped = b.js("""Array.from(document.querySelectorAll('.badge, .req, .st')).filter(e => {
            const box = e.closest('.table-wrap, .wrap'); if (!box) return false;
            const r = e.getBoundingClientRect(), q = box.getBoundingClientRect();
            return r.right > q.right + 1;}).map(e => e.textContent.trim())""")
        assert clipped == []
    finally:
        b.call(
            "Emulation.setDeviceMetricsOverride",
            session=True,
            width=1280,
            height=900,
            deviceScaleFactor=1,
            mobile=False,
        )
