"""Recall of true errors: a sheet whose label requires a check that is an error wherever it fires is FAIL, on
every labelled set (never the held-out one); and a family sheet whose second model's ports do not make its stated
total (72 ports x 800 Gb/s against 64.8 Tb/s) is FAIL however the models are set out (tests/recall, made by
tests/recall/make_recall_pdfs.py).

Checks with `cases` (power.rack-density, power.facility-exceeded) are errors only where the sheet says so (an
air-cooled rack): their labels do not say which case holds, so they are left to their own tests."""

import json
from pathlib import Path

import pytest

from conftest import ROOT, finding
from sheetaudit.rules import load_rules

CORPORA = (ROOT.parent / "shared" / "corpus", ROOT / "samples", ROOT / "tests" / "labelled")
RECALL = ROOT / "tests" / "recall"


def always_errors() -> set[str]:
    """The checks whose severity is error in every case."""
    return {
        code
        for code, c in load_rules().checks.items()
        if {c["severity"], *((k.get("severity") or c["severity"]) for k in (c.get("cases") or {}).values())}
        == {"error"}
    }


def sheets_with_true_errors() -> list:
    out = []
    errors = always_errors()
    for corpus in CORPORA:
        for label in sorted(corpus.glob("*.expected.json")):
            doc = json.loads(label.read_text(encoding="utf-8"))
            sheet = label.with_name(doc.get("sheet") or label.name.replace(".expected.json", ".pdf"))
            required = sorted(set(doc.get("checks", {}).get("required", [])) & errors)
            if required and sheet.exists():
                out.append(pytest.param(sheet, required, id=sheet.name))
    return out


def test_the_error_checks_are_known():
    assert {"bandwidth.aggregate-mismatch", "tier.mixed-sum"} <= always_errors()
    assert "power.rack-density" not in always_errors()


@pytest.mark.parametrize("sheet, required", sheets_with_true_errors())
def test_a_sheet_with_a_true_error_is_fail(sheet, required):
    from sheetaudit import pipeline
    from sheetaudit.output.json_out import to_contract

    a = pipeline.run(sheet)
    assert to_contract(a)["status"] == "fail"
    for code in required:
        assert any(x.check == code and x.severity == "error" for x in a.findings), code


@pytest.mark.parametrize("sheet", sorted(RECALL.glob("two-model-switch-*.pdf")), ids=lambda p: p.name)
def test_the_second_models_ports_against_its_total_is_fail(sheet):
    from sheetaudit import pipeline
    from sheetaudit.output.json_out import to_contract

    a = pipeline.run(sheet)
    x = finding(a, "bandwidth.aggregate-mismatch")
    assert x.severity == "error" and "64.8 Tb/s" in x.message and "72 x 800" in x.message
    assert to_contract(a)["status"] == "fail"


def test_the_recall_pdfs_are_made_by_their_script():
    assert len(sorted(RECALL.glob("two-model-switch-*.pdf"))) == 4
    assert Path(RECALL / "make_recall_pdfs.py").exists()
