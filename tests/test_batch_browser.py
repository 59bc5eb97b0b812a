"""OUTDIR/index.html in a real headless chromium: the sorting script runs under the page's own CSP, sorts numbers
as numbers with blanks last, and the page asks for nothing from the network. Skipped without chromium."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from test_batch import HOSTILE, SAMPLES, batch

try:
    from test_report_browser import Browser, find_chromium
except ImportError:  # pragma: no cover - the browser helper lives with the report's browser tests
    Browser = find_chromium = None


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    if not (find_chromium and find_chromium()):
        pytest.skip("chromium is not installed (apt-get install chromium)")
    pytest.importorskip("websocket", reason="websocket-client is not installed (pip install -e '.[dev]')")
    base = tmp_path_factory.mktemp("browser")
    folder = base / "in"
    folder.mkdir()
    for name in ("kestrel-k8x-gpu-server.pdf", "borealis-bx72-rack.pdf", "osprey-o4-inference-server.txt",
                 "gannet-gx800-xdr-switch.html", "tanager-t8-variants.pdf"):
        shutil.copy(SAMPLES / name, folder)
    shutil.copy(HOSTILE / "png-named.pdf", folder)
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
    assert b.js("document.querySelectorAll('#compare-table thead th button').length") == 16
    assert not b.console_errors()
    assert not b.requests(out / "index.html")


def test_sorting_numbers_as_numbers_blanks_last(page):
    b, _ = page
    click(b, "Rack power")
    values = [v for _, v in column(b, "Rack power")]
    numbers = [float(v) for v in values if v]
    assert numbers == sorted(numbers) and len(numbers) >= 3
    assert values[len(numbers):] == [""] * (len(values) - len(numbers))
    assert b.js("document.querySelector('#compare-table thead th[aria-sort]').textContent").startswith("Rack power")
    click(b, "Rack power")
    numbers_desc = [float(v) for _, v in column(b, "Rack power") if v]
    assert numbers_desc == sorted(numbers, reverse=True)
    click(b, "Sheet")
    names = [n for n, _ in column(b, "Sheet")]
    assert names == sorted(names)


def test_every_report_link_resolves(page):
    b, out = page
    hrefs = b.js("[].slice.call(document.querySelectorAll('#compare-table a')).map(function(a){return a.getAttribute('href');})")
    assert len(hrefs) == 5
    for h in hrefs:
        assert (out / h).is_file(), h
    assert "png-named.pdf" in b.js("document.getElementById('failed').textContent")


def test_index_compares_every_systems_curve_on_one_set_of_assumptions(page):
    b, _ = page
    svg = "document.querySelector('svg.index-scale')"
    assert b.js(f"!!{svg}")
    labels = b.js(f"[].slice.call({svg}.querySelectorAll('polyline.curve')).length")
    assert labels == 3                      # kestrel, borealis, tanager; osprey and the switch give no curve
    assert "a model, not a measurement" in b.js(f"{svg}.closest('figure').textContent")
