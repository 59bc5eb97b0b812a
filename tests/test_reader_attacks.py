"""Hostile sheets the readers meet: each ends in an audit or in the one-line error `check` prints for a file it
cannot read, within bounded time and memory, never an internal error."""

import pytest

from conftest import run_cli

BROKEN_HTML = [
    "<table><tr><td>x</tr></td></table>",  # a cell closed after its row
    "<table><tr><td>NIC<td>400 Gb/s<tr><td>Power<td>10 kW</table>",  # cells and rows never closed
    "</td></td><td>x",
    "<td><tr></table></tr></td>",
]


@pytest.mark.parametrize("html", BROKEN_HTML)
def test_broken_table_markup_is_read_as_a_browser_reads_it(tmp_path, html):
    page = tmp_path / "page.html"
    page.write_text(html)
    ran = run_cli("check", page, "--format", "json")
    assert ran.returncode in (0, 1), ran.output
    assert "internal error" not in ran.output


def test_unclosed_cells_still_make_a_row():
    from sheetaudit.read.text import read_text

    doc = read_text(BROKEN_HTML[1].encode(), "html")
    text = " ".join(s.text for s in doc.segments)
    assert "400 Gb/s" in text and "10 kW" in text


def test_a_zero_bandwidth_never_reaches_the_what_if_as_a_divisor(tmp_path):
    """A damaged digit leaves '8x *00 Gb/s RoCE NICs': a scale-out figure of 0, which the report's what-if chart
    must not divide by (found by benchmarks/attack.py)."""
    from conftest import SAMPLES

    text = (SAMPLES / "cormorant-c8x-platform.md").read_text(encoding="utf-8")
    sheet = tmp_path / "zero.md"
    sheet.write_text(text.replace("8x 400 Gb/s RoCE", "8x *00 Gb/s RoCE"), encoding="utf-8")
    ran = run_cli("check", sheet, "--format", "html", "-o", tmp_path / "report.html")
    assert ran.returncode in (0, 1) and "internal error" not in ran.output, ran.output
