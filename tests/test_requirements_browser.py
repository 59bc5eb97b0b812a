"""The compliance matrix of `sheetaudit audit samples -o OUT --require samples/requirements.yaml` (the README's
quick start) in a real headless chromium: at 1280 px the whole matrix is in view, at 390 px the page never scrolls
sideways (the matrix scrolls in its box, the requirement names stay), each cell says its result in a mark and words
as well as colour, links to its row in the sheet's report, and the printed page keeps every sheet's column.
Screenshots go to artifacts/report/ (looked at by eye). Skipped without chromium."""

from __future__ import annotations

import pytest

from conftest import ROOT
from test_batch import batch

from test_report_browser import ARTIFACTS, Browser, find_chromium, layout


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    if not find_chromium():
        pytest.skip("chromium is not installed (apt-get install chromium)")
    pytest.importorskip("websocket", reason="websocket-client is not installed (pip install -e '.[dev]')")
    out = tmp_path_factory.mktemp("matrix") / "out"
    ran = batch(ROOT / "samples", "-o", out, "-q", "--require", ROOT / "samples" / "requirements.yaml")
    assert ran.returncode == 1, ran.output  # the sample racks fall short: that is what they show
    b = Browser(find_chromium(), width=1280, height=900)
    yield b, out
    b.close()


def _open(b, path, width=1280, media="screen"):
    """PATH as a screen of WIDTH css pixels shows it (or prints it)."""
    b.call(
        "Emulation.setDeviceMetricsOverride", session=True, width=width, height=900, deviceScaleFactor=1, mobile=False
    )
    b.width = width
    b.open(path, media=media)


CELLS = """[].slice.call(document.querySelectorAll('#matrix-table tbody td')).map(function(td){
  var a=td.querySelector('a'); return [td.dataset.result||'', td.textContent.trim(), a ? a.getAttribute('href') : null,
  getComputedStyle(td).backgroundColor];})"""


def test_the_matrix_opens_the_index_and_fits_1280(page):
    b, out = page
    _open(b, out / "index.html")
    got = layout(b)
    assert got["overflow"] <= 0 and got["wide"] == [], got
    first = b.js("document.querySelector('main > section, body > section').id")
    assert first == "compliance"
    box = b.js(
        "(function(){var t=document.getElementById('matrix-table').getBoundingClientRect();"
        "return [t.left, t.right];})()"
    )
    assert box[0] >= 0 and box[1] <= 1280, "the whole matrix is in view at 1280 px"
    sheets = b.js("document.querySelectorAll('#matrix-table thead th').length") - 1
    assert sheets == 10 and b.js("document.querySelectorAll('#matrix-table tbody tr').length") == 8
    cells = b.js(CELLS)
    words = {
        "meets": "",
        "falls-short": "falls short",
        "uncertain": "uncertain",
        "not-stated": "not stated",
        "not-applicable": "n/a",
    }
    colours = {}
    for result, text, href, bg in cells:
        assert result in words, (result, text)
        colours.setdefault(result, set()).add(bg)
        assert words[result] in text or result == "meets"  # the result in words (screen readers too)
        if result != "not-applicable":
            assert href and "#req-" in href and (out / href.split("#")[0]).is_file(), (text, href)
    assert {"meets", "falls-short", "uncertain", "not-stated", "not-applicable"} <= set(colours)
    assert all(len(v) == 1 for v in colours.values()) and len({next(iter(v)) for v in colours.values()}) == 5
    asks = b.js(
        "[].slice.call(document.querySelectorAll('#asks-table tbody tr')).map(function(tr){"
        "return tr.cells[1].querySelectorAll('li').length;})"
    )
    assert len(asks) == 10 and sum(asks) >= 8
    b.screenshot(ARTIFACTS / "matrix-1280px.png")


def test_a_cell_leads_to_its_evidence_in_the_report(page):
    b, out = page
    _open(b, out / "index.html")
    href = b.js("document.querySelector('#matrix-table td[data-result=falls-short] a').getAttribute('href')")
    report, anchor = href.split("#")
    b.open(out / report)
    row = b.js(
        f"(function(){{var r=document.getElementById({anchor!r}); return r ? [r.dataset.result, "
        f"!!r.querySelector('a[href^=\"#fig-\"]')] : null;}})()"
    )
    assert row == ["falls-short", True]  # the row, and in it a link to the figure in the figure table
    b.js(f"document.querySelector('#{anchor} a[href^=\"#fig-\"]').click()")
    b.pump(0.5)
    shown = b.js(
        "(function(){var r=document.getElementById(location.hash.slice(1)).getBoundingClientRect();"
        "return [location.hash.indexOf('#fig-')===0, r.height > 0, r.top > -2 && r.top < 900];})()"
    )
    assert shown == [True, True, True]  # the folded appendix opens at the figure


def test_the_matrix_on_a_phone(page):
    b, out = page
    _open(b, out / "index.html", 390)
    got = layout(b)
    assert got["overflow"] <= 0 and got["wide"] == [], got
    b.js("document.querySelector('#compliance .wrap').scrollLeft = 600")
    left = b.js("document.querySelector('#matrix-table tbody th').getBoundingClientRect().left")
    assert left >= 0, "the requirement names stay in view while the matrix scrolls"
    b.js("document.querySelector('#compliance .wrap').scrollLeft = 0")
    b.screenshot(ARTIFACTS / "matrix-390px.png")


def test_the_matrix_prints_every_sheet(page):
    import pdfplumber

    b, out = page
    _open(b, out / "index.html", media="print")
    # the column heads are the products' names (the file name is each head's title)
    heads = b.js(
        "[].slice.call(document.querySelectorAll('#matrix-table thead th')).slice(1)"
        ".map(function(th){return th.querySelector('a').textContent.replace(/\\u200b/g, '');})"
    )
    pdf_path = ARTIFACTS / "matrix.a4.pdf"
    b.print_pdf(pdf_path)
    with pdfplumber.open(pdf_path) as pdf:
        assert all(c["x1"] <= p.width + 0.5 for p in pdf.pages for c in p.chars)
        text = " ".join(" ".join((p.extract_text() or "").split()) for p in pdf.pages[:3]).replace("\u200b", "")
    flat = text.replace(" ", "")
    # a CJK name prints only where a CJK font is installed: its model (X8) is held to the text
    words = [next((w for w in h.rstrip("…").split() if w.isascii()), "") for h in heads]
    missing = [h for h, w in zip(heads, words) if not w or w not in flat]
    assert missing == [] and "Againstyourrequirements" in flat, missing
    for word in ("fallsshort", "notstated", "n/a"):
        assert word in flat, word
