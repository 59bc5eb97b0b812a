"""OUTDIR/index.html in a real headless chromium: the sorting script runs under the page's own CSP, sorts numbers
as numbers with blanks last, and the page asks for nothing from the network. Skipped without chromium."""

from __future__ import annotations

import shutil

import pytest

from test_batch import HOSTILE, SAMPLES, batch

try:
    from test_report_browser import ARTIFACTS, Browser, find_chromium, layout
except ImportError:  # pragma: no cover - the browser helper lives with the report's browser tests
    Browser = find_chromium = layout = ARTIFACTS = None


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    if not (find_chromium and find_chromium()):
        pytest.skip("chromium is not installed (apt-get install chromium)")
    pytest.importorskip("websocket", reason="websocket-client is not installed (pip install -e '.[dev]')")
    base = tmp_path_factory.mktemp("browser")
    folder = base / "in"
    folder.mkdir()
    for name in (
        "kestrel-k8x-gpu-server.pdf",
        "borealis-bx72-rack.pdf",
        "osprey-o4-inference-server.txt",
        "gannet-gx800-xdr-switch.html",
        "tanager-t8-variants.pdf",
    ):
        shutil.copy(SAMPLES / name, folder)
    shutil.copy(HOSTILE / "png-named.pdf", folder)
    (folder / "sub").mkdir()
    shutil.copy(HOSTILE / "mixed-scanned.pdf", folder / "sub")  # a page without text: incomplete
    # one sheet whose misread total dwarfs the rest: the chart must not squeeze everyone else into a sliver
    (folder / "outlier-pod.txt").write_text(
        "Outlier OP-1 Pod\nScale-up bandwidth: 150,500 GB/s per GPU, "
        "bidirectional, NVLink 5\nEight GPUs per NVLink domain.\n"
        "Rack power: 9,500 kW\n",
        encoding="utf-8",
    )
    out = base / "out"
    proc = batch(folder, "-o", out, "-q")
    assert proc.returncode == 2, proc.stderr
    b = Browser(find_chromium(), width=1400, height=900)
    b.open(out / "index.html")
    yield b, out
    b.close()


COLUMN = """(function(name){
  var ths=[].slice.call(document.querySelectorAll('#compare-table thead th'));
  var i=ths.findIndex(function(th){return th.textContent.indexOf(name)===0;});
  return [].slice.call(document.querySelectorAll('#compare-table tbody tr')).map(function(tr){
    return [tr.cells[0].getAttribute('data-sort'), tr.cells[i].getAttribute('data-sort')];});
})"""


def column(b, name):
    return b.js(f"{COLUMN}({name!r})")


def click(b, name):
    b.js(f"""[].slice.call(document.querySelectorAll('#compare-table thead th button'))
             .find(function(x){{return x.textContent.indexOf({name!r})===0;}}).click()""")


def test_script_runs_under_its_csp_and_nothing_is_requested(page):
    b, out = page
    assert b.js("document.querySelectorAll('#compare-table thead th button').length") == 18
    assert not b.console_errors()
    assert not b.requests(out / "index.html")


def test_sorting_numbers_as_numbers_blanks_last(page):
    b, _ = page
    click(b, "Rack power")
    values = [v for _, v in column(b, "Rack power")]
    numbers = [float(v) for v in values if v]
    assert numbers == sorted(numbers) and len(numbers) >= 3
    assert values[len(numbers) :] == [""] * (len(values) - len(numbers))
    assert b.js("document.querySelector('#compare-table thead th[aria-sort]').textContent").startswith("Rack power")
    click(b, "Rack power")
    numbers_desc = [float(v) for _, v in column(b, "Rack power") if v]
    assert numbers_desc == sorted(numbers, reverse=True)
    click(b, "Product")
    names = [n for n, _ in column(b, "Product")]
    assert names == sorted(names, key=str.casefold)


def test_the_first_column_names_the_product_with_its_file_under_it(page):
    b, _ = page
    cells = b.js(
        "[].slice.call(document.querySelectorAll('#compare-table tbody tr')).map(function(tr){"
        "var f=tr.cells[0].querySelector('small.file');"
        "return [tr.cells[0].firstChild.textContent.trim(), f ? f.textContent : ''];})"
    )
    named = {file: product for product, file in cells if file}
    assert named["kestrel-k8x-gpu-server.pdf"].startswith("Kestrel")
    assert all(product and product != file for file, product in named.items())


def test_every_report_link_resolves(page):
    b, out = page
    hrefs = b.js(
        "[].slice.call(document.querySelectorAll('#compare-table a')).map(function(a){return a.getAttribute('href');})"
    )
    assert len(hrefs) == 7
    for h in hrefs:
        assert (out / h).is_file(), h
    assert "png-named.pdf" in b.js("document.getElementById('failed').textContent")


def test_index_compares_every_systems_curve_on_one_set_of_assumptions(page):
    b, _ = page
    svg = "document.querySelector('svg.index-scale')"
    assert b.js(f"!!{svg}")
    labels = b.js(f"[].slice.call({svg}.querySelectorAll('polyline.curve')).length")
    assert labels == 4  # kestrel, borealis, tanager, osprey; the switch gives no curve
    assert "a model, not a measurement" in b.js(f"{svg}.closest('figure').textContent")


def test_status_column_sorts_worst_first_and_zero_counts_are_not_red(page):
    b, _ = page
    click(b, "Status")
    statuses = [
        t
        for t in b.js(
            "[].slice.call(document.querySelectorAll('#compare-table tbody .st'))"
            ".map(function(s){return s.textContent;})"
        )
    ]
    order = {"FAIL": 0, "INCOMPLETE": 1, "REVIEW": 2, "PASS": 3}
    assert [order[s] for s in statuses] == sorted(order[s] for s in statuses)
    assert "INCOMPLETE" in statuses and statuses[0] == "FAIL"
    colours = b.js("""(function(){var ths=[].slice.call(document.querySelectorAll('#compare-table thead th'));
      var i=ths.findIndex(function(th){return th.textContent.indexOf('Errors')>=0;});
      return [].slice.call(document.querySelectorAll('#compare-table tbody tr')).map(function(tr){
        return [tr.cells[i].textContent.trim(), getComputedStyle(tr.cells[i]).color];});})()""")
    red = "rgb(164, 0, 0)"
    assert any(n == "0" for n, _ in colours) and all(c != red for n, c in colours if n == "0")
    assert any(c == red for n, c in colours if n != "0")


def test_index_fits_every_screen_and_outliers_do_not_swamp_the_chart(page):
    """1280 px: the whole table in view; 390 px: the page itself never scrolls sideways (the table scrolls in
    its box, the sheet name sticky); chart text at least 11 px as drawn; an outlier drawn as a broken bar."""
    b, out = page
    for w in (1280, 390):
        b.call(
            "Emulation.setDeviceMetricsOverride", session=True, width=w, height=900, deviceScaleFactor=1, mobile=False
        )
        b.width = w
        b.open(out / "index.html")
        got = layout(b)
        assert got["overflow"] <= 0 and got["wide"] == [], (w, got)
        assert got["charts"] == 3 and got["small"] == [], (w, got["small"][:5])  # bandwidth, rack power, scaling
        table = b.js(
            "(function(){var t=document.getElementById('compare-table').getBoundingClientRect();"
            "var c=document.querySelector('#compare-table tbody td').getBoundingClientRect();"
            "return [t.right, c.left, c.right];})()"
        )
        if w == 1280:
            assert table[0] <= 1280, "the table is wider than the screen"
        b.screenshot(ARTIFACTS / f"index-{w}px.png")
    b.js("document.querySelector('.wrap').scrollLeft = 400")
    assert b.js("document.querySelector('#compare-table tbody td').getBoundingClientRect().left") >= 0, (
        "the sheet name stays in view while the table scrolls"
    )
    widths = b.js(
        "[].slice.call(document.querySelectorAll('.chart-compact svg.index-bw rect.bar'))"
        ".map(function(r){return r.getBBox().width;})"
    )
    assert max(widths) > 0 and sorted(widths)[len(widths) // 2] > max(widths) / 20, "every other bar is a sliver"
    assert b.js("document.querySelectorAll('.chart-compact svg.index-bw path.break').length") == 1
    b.call(
        "Emulation.setDeviceMetricsOverride", session=True, width=1400, height=900, deviceScaleFactor=1, mobile=False
    )
    b.width = 1400
    b.open(out / "index.html")


def test_print_keeps_every_column_and_hides_the_controls(page):
    import pdfplumber

    b, out = page
    b.open(out / "index.html", media="print")
    headers = b.js(
        "[].slice.call(document.querySelectorAll('#compare-table thead th'))"
        ".map(function(th){var b=th.querySelector('button')||th;return b.childNodes[0].textContent.trim();})"
    )
    click(b, "Rack power")  # a sorted column shows its arrow on screen, never on paper
    pdf_path = ARTIFACTS / "index.a4.pdf"
    b.print_pdf(pdf_path)
    with pdfplumber.open(pdf_path) as pdf:
        text = " ".join((p.extract_text() or "") for p in pdf.pages)
        first_page = pdf.pages[0].extract_text() or ""
        assert all(c["x1"] <= p.width + 0.5 for p in pdf.pages for c in p.chars)
    import re

    flat = " ".join(text.split())
    # a header cell wraps over lines ("Scale-" / "up"), which text extraction interleaves with its neighbours:
    # every word of every header must be printed on the first page, inside the paper
    printed = set(re.findall(r"[A-Za-z]+", first_page))
    missing = [h for h in headers if not set(re.findall(r"[A-Za-z]+", h)) <= printed]
    assert len(headers) == 18 and missing == [], missing
    assert "\u2195" not in text and "Click a column heading" not in flat
    arrows = b.js(
        "[].slice.call(document.querySelectorAll('#compare-table th button'))"
        ".map(function(x){return getComputedStyle(x,'::after').content;})"
    )
    assert set(arrows) == {"none"}, "sort arrows are controls: not printed"
    b.open(out / "index.html")


def test_every_report_links_back_to_the_index(page):
    b, out = page
    reports = sorted((out / "reports").rglob("*.html"))
    nested = next(r for r in reports if r.parent.name == "sub")
    for report in (reports[0], nested):
        b.open(report)
        back = b.js(
            "(function(){var p=document.getElementById('back-to-index');"
            "return p && !p.hidden ? p.querySelector('a').href : null;})()"
        )
        assert back and back == (out / "index.html").resolve().as_uri(), (report, back)
    b.open(out / "index.html")
