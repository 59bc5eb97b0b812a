"""A sheet with a true error is FAIL, and a FAIL is always a true error (issue 28, item 6).

Over every labelled sheet in the repository (tests/labelled and samples), the label says which error-level checks
the sheet must raise. Each of them whose conclusion the sheet's own labelled figures prove must come out as an
error, and the sheet as FAIL: power.rack-density only where the label's cooling is air alone (a rack the sheet says
is liquid-cooled needs liquid cooling: a fact, not a fault). And no sheet is FAIL on an error its label does not
require."""

import json
from pathlib import Path

import pytest

from sheetaudit import to_contract
from sheetaudit import pipeline
from sheetaudit.rules import load_rules

ROOT = Path(__file__).resolve().parents[1]
LABELS = sorted((ROOT / "tests" / "labelled").glob("*.expected.json")) + sorted(
    (ROOT / "samples").glob("*.expected.json")
)


def certain_errors(label: dict) -> set[str]:
    """The error-level checks the label requires whose conclusion its labelled figures prove."""
    errors = {code for code, c in load_rules().checks.items() if c["severity"] == "error"}
    out = set(label["checks"].get("required", [])) & errors
    cooling = {str((f.get("normalized") or {}).get("value")) for f in label["figures"] if f["quantity"] == "cooling"}
    if cooling != {"air"}:
        out.discard("power.rack-density")
    return out


@pytest.fixture(scope="module")
def results():
    out = {}
    for path in LABELS:
        label = json.loads(path.read_text(encoding="utf-8"))
        c = to_contract(pipeline.run(path.with_name(label["sheet"])))
        out[label["sheet"]] = (label, c["status"], {f["check"] for f in c["findings"] if f["severity"] == "error"})
    return out


def test_every_sheet_with_a_true_error_is_fail(results):
    wrong = {
        sheet: (status, sorted(certain_errors(label) - errors))
        for sheet, (label, status, errors) in results.items()
        if certain_errors(label) and (status != "fail" or not certain_errors(label) <= errors)
    }
    assert not wrong, wrong
    assert sum(1 for label, _, _ in results.values() if certain_errors(label)) >= 5


def test_no_sheet_is_fail_without_an_error_its_label_requires(results):
    false = {
        sheet: sorted(errors)
        for sheet, (label, status, errors) in results.items()
        if status == "fail" and not errors & set(label["checks"].get("required", []))
    }
    assert not false, false


def _pdf(path: Path, rows: list[tuple[str, str, str]]) -> Path:
    """A one-page switch sheet whose ruled table gives two models side by side (reportlab)."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Table, TableStyle

    t = Table(rows)
    t.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.black)]))
    SimpleDocTemplate(str(path), pagesize=A4).build(
        [Paragraph("Corax CX series AI fabric switches", getSampleStyleSheet()["Title"]), t]
    )
    return path


def test_the_second_model_of_a_switch_family_is_held_to_its_own_ports(tmp_path):
    """Two switches on one sheet: the first adds up (64 x 800 Gb/s = 51.2 Tb/s), the second does not (72 x 800
    Gb/s is 57.6 Tb/s each way, 115.2 both ways; the sheet says 64.8 Tb/s). A true error: FAIL, naming the model."""
    pdf = _pdf(
        tmp_path / "corax.pdf",
        [
            ("", "CX-6400", "CX-7200"),
            ("Ports", "64x 800GbE OSFP", "72x 800GbE OSFP"),
            ("Switching capacity", "51.2 Tb/s", "64.8 Tb/s"),
            ("Power (typical)", "1,800 W", "2,100 W"),
        ],
    )
    a = pipeline.run(pdf)
    (f,) = [x for x in a.findings if x.check == "bandwidth.aggregate-mismatch"]
    assert f.severity == "error" and "64.8 Tb/s" in f.message and "72" in f.message
    assert to_contract(a)["status"] == "fail"
