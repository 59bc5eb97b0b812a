"""A verdict a buyer can act on: the status word (fail / review / pass / incomplete) in every format, incomplete
audits never shown as clean, findings that fit the sheet (merged across models, ports on a switch), the terminal
summary laid out for the terminal it is printed in, and `sheetaudit rules` explaining every code."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import pytest

from conftest import run_cli
from sheetaudit.records import SheetResult, Document, Figure, Finding
from sheetaudit.output import charts, text_out
from sheetaudit.output.html_out import render, title_parts
from sheetaudit.output.json_out import to_contract
from sheetaudit.output.message import split_list
from sheetaudit.output.termtext import pad, width, wrap
from sheetaudit.output.verdict import status
from sheetaudit import pipeline

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
HOSTILE = ROOT / "tests" / "hostile" / "files"

# A two-model switch family of our own: both models print the same capacity over the same ports.
HERON = """# Heron HX-51 Ethernet Switch Family

| Specification | HX-51A | HX-51B |
|---|---|---|
| Ports | 64x 800GbE OSFP | 64x 800GbE OSFP |
| Switching capacity | 25.6 Tb/s | 25.6 Tb/s |
| Typical power | 1,100 W | 1,250 W |
"""


@lru_cache(maxsize=None)
def audited(path: Path) -> SheetResult:
    return pipeline.run(path)


def _clean_audit() -> SheetResult:
    doc = Document(path="clean.txt", sha256="0" * 64, pages=1, kind="text")
    fig = Figure(
        id="f1",
        quantity="power",
        text="12 kW",
        value=12,
        unit="kW",
        page=1,
        context="Rack power: 12 kW",
        scope="per-rack",
        normalized={"value": 12.0, "unit": "kW"},
    )
    note = Finding(check="bandwidth.scale-ratio", step=2, severity="info", message="A note.", why="w", fix="f")
    return SheetResult(document=doc, figures=[fig], findings=[note], sheet_kind="rack")


@pytest.mark.parametrize(
    "sheet, expected",
    [
        (SAMPLES / "zephyr-forge-brochure.pdf", "fail"),  # an air-cooled rack above the air-cooling limit
        (SAMPLES / "borealis-bx72-rack.pdf", "review"),  # a liquid-cooled rack of 135 kW: a fact, no error
        (SAMPLES / "skylark-sl400-ib-adapter.pdf", "review"),  # warnings only
        (SAMPLES / "pelican-pn5164-ethernet-switch.pdf", "pass"),  # a complete switch sheet: port speeds read by the
        # Ethernet standard raise no question (issue 20)
        (HOSTILE / "mixed-scanned.pdf", "incomplete"),  # a page without text, not read by OCR
        (HOSTILE / "scanned.pdf", "incomplete"),  # nothing but scans
        (HOSTILE / "notes.txt", "incomplete"),  # no figure at all
    ],
    ids=lambda x: x.name if isinstance(x, Path) else x,
)
def test_status_in_json_and_as_the_first_word_everywhere(sheet, expected):
    a = audited(sheet)
    assert status(a) == expected
    assert to_contract(a)["status"] == expected
    word = {"fail": "FAIL", "review": "REVIEW", "pass": "PASS", "incomplete": "INCOMPLETE"}[expected]
    assert text_out.render(a, cols=100).startswith(word + ":")
    html = render(a, images=False)
    assert f'data-status="{expected}"' in html and f'<span class="status-word">{word}</span>' in html


def test_pass_needs_no_warning_or_error():
    a = _clean_audit()
    assert status(a) == "pass" and to_contract(a)["status"] == "pass"


def test_incomplete_is_never_shown_as_clean():
    a = audited(HOSTILE / "mixed-scanned.pdf")
    html = render(a, images=False)
    assert 'id="unread"' in html and "Not checked, so not clean" in html
    assert "OCR" in html[html.index('id="unread"') : html.index('id="ask"')]  # how to have it read
    assert "checks passed on what was read" in html and " checks passed</li>" not in html
    nothing = render(audited(HOSTILE / "notes.txt"), images=False)
    assert "checks passed" not in nothing[: nothing.index('id="ask"')]
    assert to_contract(a)["summary"]["unread"]


def test_a_finding_repeated_for_each_model_is_one_finding_listing_the_models(tmp_path):
    sheet = tmp_path / "heron.md"
    sheet.write_text(HERON, encoding="utf-8")
    a = pipeline.run(sheet)
    # each model's 25.6 Tb/s is half its 64 x 800GbE: one finding names both models
    bad = [f for f in a.findings if f.check == "bandwidth.aggregate-mismatch"]
    assert len(bad) == 1
    assert bad[0].message.startswith("HX-51A, HX-51B: ") and bad[0].models == ["HX-51A", "HX-51B"]
    assert len(bad[0].figures) >= 2


def test_switch_findings_speak_of_ports_not_accelerators():
    a = audited(SAMPLES / "pelican-pn5164-ethernet-switch.pdf")
    assert a.findings
    for f in a.findings:
        assert "accelerator" not in f"{f.title} {f.message} {f.fix}".lower(), f.check
    from sheetaudit.stages.s8_checks import finding
    from sheetaudit.stages.s8_checks.present import fit_to_sheet

    total = {"figure": "51.2 Tb/s", "pages": [1], "over": "switch", "unit": "port"}
    (agg,) = fit_to_sheet([finding("tier.aggregate-figure", data=total, message="undivided")], "switch")
    assert agg.title == "Aggregate figure, not per port"
    # a server sheet keeps the accelerator wording
    server = [f for f in audited(SAMPLES / "zephyr-forge-brochure.pdf").findings if f.check == "tier.aggregate-figure"]
    assert server and "per-accelerator" in server[0].fix


def test_lists_of_figures_are_lists():
    lead, items, tail = split_list(
        "2 bandwidth figure(s) state no direction. 400G (p2, scale-out) read as 50 GB/s "
        "per direction: by convention; 200GbE (p3, front-end) read as 25 GB/s."
    )
    assert lead == "2 bandwidth figure(s) state no direction." and len(items) == 2 and not tail
    assert items[1] == "200GbE (p3, front-end) read as 25 GB/s"
    assert split_list("Rack power 57.2 kW (p2) is above the limit.").items == []
    html = render(audited(SAMPLES / "pelican-pn5164-ethernet-switch.pdf"), images=False)
    assert html.count('<ul class="figure-list">') >= 1


def test_terminal_output_wraps_to_the_width_one_figure_per_line():
    a = audited(SAMPLES / "pelican-pn5164-ethernet-switch.pdf")
    for cols in (60, 100, 140):
        out = text_out.render(a, cols=cols)
        assert max(width(line) for line in out.splitlines()) <= cols
    out = text_out.render(a, cols=100)
    items = [line for line in out.splitlines() if line.lstrip().startswith("- ")]
    # (the 400GbE and 200GbE breakout options of the 800GbE ports are no figures of their own)
    assert len(items) >= 4 and any("800GbE (p1" in line for line in items)
    assert "6,400 GB/s" in out  # numbers as in the reports: thousands separated


def test_terminal_output_is_100_columns_when_not_a_terminal():
    # A real process: the width is read from the process's own stdout and $COLUMNS, which pytest's may set.
    r = run_cli("check", SAMPLES / "zephyr-forge-brochure.pdf", isolated=True, env={"COLUMNS": None, "LINES": None})
    lines = r.stdout.splitlines()
    assert lines[0].startswith("FAIL:") and r.returncode == 1
    assert max(width(line) for line in lines) <= 100


def test_chinese_text_keeps_the_columns_aligned():
    assert width("液冷") == 4 and width("8 张 OAM") == 8 and width("ab") == 2
    assert width(pad("约 88 kW", 12)) == 12 and width(pad("88 kW", 12)) == 12
    assert width(pad("玄武智算服务器产品规格", 8)) == 8  # clipped by display width, with an ellipsis
    assert all(width(line) <= 20 for line in wrap("玄武 X8 智算服务器产品规格：液冷，整机功耗约 88 kW", 20))
    out = text_out.render(audited(SAMPLES / "xuanwu-x8-server-zh.pdf"), cols=100).splitlines()
    head = next(i for i, line in enumerate(out) if line.startswith("id "))
    page_col = {width(line[: line.rindex(" ") + 1]) for line in out[head:] if line.startswith(("id ", "f"))}
    assert len(page_col) == 1, "the last column starts at one display column on every row"


def test_titles_lose_their_tagline():
    assert title_parts("Borealis BX-72 Liquid-Cooled AI Rack One rack, one NVLink domain, no leaving the rack.") == (
        "Borealis BX-72 Liquid-Cooled AI Rack",
        "One rack, one NVLink domain, no leaving the rack.",
    )
    assert title_parts("ZEPHYR FORGE The AI factory in a rack.") == ("ZEPHYR FORGE", "The AI factory in a rack.")
    assert (
        title_parts("Tanager T8 Series: T8-A and T8-L Two builds of one platform for any hall.")[0]
        == "Tanager T8 Series: T8-A and T8-L"
    )
    for plain in ("Kestrel K8X-H GPU Server", "玄武 X8 智算服务器产品规格", "OSPREY SYSTEMS -- O4-L INFERENCE SERVER"):
        assert title_parts(plain) == (plain, "")


def test_two_power_bars_never_share_a_label():
    doc = {
        "figures": [
            {
                "id": "f1",
                "quantity": "power",
                "scope": "per-rack",
                "text": "120 kW",
                "page": 1,
                "context": "120 kW",
                "normalized": {"value": 120.0, "unit": "kW"},
            },
            {
                "id": "f2",
                "quantity": "power",
                "scope": "per-rack",
                "text": "135 kW",
                "page": 2,
                "context": "135 kW",
                "normalized": {"value": 135.0, "unit": "kW"},
            },
        ],
        "derived": [],
    }
    labels = [b.label for b in charts.power_bars(doc)]
    assert len(labels) == 2 and len(set(labels)) == 2


def test_one_ratio_text_in_the_check_the_report_and_the_index(tmp_path):
    from sheetaudit.batch.compare import sheet_row
    from sheetaudit.numfmt import ratio

    a = audited(SAMPLES / "zephyr-forge-brochure.pdf")
    contract = json.loads(json.dumps(to_contract(a)))  # as the batch reads it back from its cache
    row = sheet_row("zephyr.pdf", contract, None)
    shown = ratio(row["ratio"]["value"])
    assert shown == "1/18.0"
    assert f"({shown})" in row["ratio"]["note"]
    assert f"scale-out is {shown} of scale-up" in next(
        f.message for f in a.findings if f.check == "bandwidth.scale-ratio"
    )
    assert f"= {shown}" in render(a, images=False)


def test_rules_explains_every_code_the_tool_prints():
    from sheetaudit.rules import load_rules

    r = run_cli("rules")
    assert "step 0" not in r.stdout
    for code in list(load_rules().checks) + list(load_rules().comparison):
        assert code in r.stdout
    assert "sheet.no-text" in r.stdout.split("The four-step check")[0]
    one = run_cli("rules", "compare.latency-mixed-basis")
    assert one.returncode == 0 and "Why it matters" in one.stdout and "sheetaudit audit" in one.stdout
