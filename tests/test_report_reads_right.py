"""Reports that read right (issue 22, item 4), each as a new user met it: the figure table fits 1280 px, chart
legends are whole and identical curves are not hidden, a narrow chart's axis is readable, headings name the file,
a long sheet prints in pages that follow its findings, and the terminal summary shows the figures the findings rest
on (--all-figures for the rest). The browser parts run a real chromium and are skipped without it."""

from __future__ import annotations

import re

import pytest

from conftest import ROOT, run_cli

from sheetaudit.output.curves import Curve, efficiency_chart

SERVER = """# Longtail LT8 GPU Server

Eight Longtail GPUs share one NVLink domain.

| Item | Value |
|---|---|
| GPU-to-GPU bandwidth | 900 GB/s per GPU (NVLink 4) |
| Scale-out network | 8x 400 Gb/s InfiniBand NDR, one per GPU |
| Node power | 10 kW |
| Cooling | Air-cooled |
"""
# the same server with 150 more figures that no finding is about (a long sheet's memory table)
LONG = SERVER + "\n".join(f"| Model X{i} memory bandwidth | {1000 + i * 10} GB/s HBM |" for i in range(150)) + "\n"

NAMES = ["harbor-h8a-server.pdf", "harbor-h8a-server-liquid-cooled-edition.pdf", "kestrel-k8x-gpu-server.pdf"]


def _curves():
    same = [(1, 1.0), (8, 0.95), (64, 0.93), (1024, 0.92), (65536, 0.92)]
    return [
        Curve(NAMES[0], same, 8),
        Curve(NAMES[1], list(same), 8),
        Curve(NAMES[2], [(1, 1.0), (8, 0.9), (64, 0.8), (1024, 0.7), (65536, 0.6)], 8),
    ]


@pytest.mark.parametrize("width", [680, 340])
def test_chart_legends_are_whole_and_identical_curves_are_named_together(width):
    svg = str(efficiency_chart(_curves(), "t", "d", width=width))
    labels = " ".join(re.findall(r'class="curve-label"[^>]*>([^<]*)<', svg))
    assert "…" not in svg
    for name in NAMES:
        assert name in labels.replace(" ", "") or name in labels, (name, labels)
    assert svg.count('class="curve"') == 2  # the two identical curves are one line, both named
    assert re.search(r"harbor-h8a-\s?server\.pdf =", labels)


def test_a_narrow_chart_labels_its_axis_legibly():
    """At a phone's width the decade labels are at least 30 px apart ('1 100 10k', never '1 101001k10k100k')."""
    svg = str(efficiency_chart(_curves(), "t", "d", width=340))
    ticks = [
        float(x)
        for x, t in re.findall(
            r'<text x="([\d.]+)" y="\d+" text-anchor="middle" font-size="11" '
            r'fill="[^"]+">([^<]*)</text>',
            svg,
        )
    ]
    assert len(ticks) >= 3
    assert min(b - a for a, b in zip(ticks, ticks[1:])) >= 30, ticks


def test_scale_headings_name_the_file_not_its_path(tmp_path):
    sheet = tmp_path / "deep" / "folder" / "longtail.md"
    sheet.parent.mkdir(parents=True)
    sheet.write_text(SERVER, encoding="utf-8")
    html = run_cli("scale", sheet.resolve(), "--format", "html").stdout
    assert "<h3" in html and re.search(r"<h3[^>]*>longtail\.md</h3>", html)
    assert str(tmp_path) not in re.sub(r'title="[^"]*"', "", html.split("</title>")[1])


def test_the_terminal_shows_the_figures_the_findings_rest_on(tmp_path):
    sheet = tmp_path / "long.md"
    sheet.write_text(LONG, encoding="utf-8")
    short = run_cli("check", sheet).stdout
    every = run_cli("check", sheet, "--all-figures").stdout
    assert "memory" not in short and "--all-figures lists every one" in " ".join(short.split())
    assert every.count("memory") >= 150 and len(short.splitlines()) < 40 < len(every.splitlines())


@pytest.fixture(scope="module")
def browser():
    from test_report_browser import Browser, find_chromium

    if not find_chromium():
        pytest.skip("chromium is not installed (apt-get install chromium)")
    pytest.importorskip("websocket", reason="websocket-client is not installed (pip install -e '.[dev]')")
    b = Browser(find_chromium(), width=1280, height=900)
    yield b
    b.close()


def _report(tmp_path, text, name):
    src = tmp_path / f"{name}.md"
    src.write_text(text, encoding="utf-8")
    out = tmp_path / f"{name}.html"
    assert run_cli("check", src, "--format", "html", "-o", out).returncode in (0, 1)
    return out


def test_the_figure_table_fits_1280_px(browser, tmp_path):
    """Every column in view at 1280 px (Scope, Page and Where were off screen) and no row stretched tall by a
    note squeezed into a narrow column."""
    out = _report(tmp_path, (ROOT / "samples" / "gannet-gx800-xdr-switch.html").read_text("utf-8"), "gannet")
    browser.open(out)
    browser.js("document.getElementById('figures-fold').open = true")
    got = browser.js("""(function(){var w=document.querySelector('#figures .table-wrap').getBoundingClientRect();
      var th=[].slice.call(document.querySelectorAll('#figures-table thead th')).map(function(t){
        return t.getBoundingClientRect().right;});
      var rows=[].slice.call(document.querySelectorAll('#figures-table tbody tr')).map(function(r){
        return r.getBoundingClientRect().height;});
      return [w.right, Math.max.apply(null, th), th.length, Math.max.apply(null, rows)];})()""")
    wrap_right, last_right, columns, tallest = got
    assert columns == 10 and last_right <= wrap_right + 1, got
    assert tallest < 200, got


def _pages(browser, html, tmp_path):
    import pypdfium2 as pdfium

    browser.open(html, media="print")
    pdf = tmp_path / (html.stem + ".pdf")
    browser.print_pdf(pdf)
    return len(pdfium.PdfDocument(str(pdf)))


def test_a_report_prints_in_pages_that_follow_its_findings(browser, tmp_path):
    """150 figures that no finding concerns add no printed pages: the appendix prints the figures the findings rest
    on, and the HTML keeps every figure (folded)."""
    short = _pages(browser, _report(tmp_path, SERVER, "server"), tmp_path)
    long_html = _report(tmp_path, LONG, "long")
    assert _pages(browser, long_html, tmp_path) <= short
    browser.open(long_html)
    assert browser.js("document.querySelectorAll('#figures-table tbody tr').length") >= 150
    assert browser.js("document.getElementById('figures-fold').open") is False
