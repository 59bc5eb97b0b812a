"""The tables a buyer computes with: figures, findings, comparison and compliance, the same columns in the CSVs,
audit.xlsx, audit.sqlite and the Python API's DataFrames; numbers as numbers, ranges as low and high."""

from __future__ import annotations

import sqlite3

import pandas as pd
import pytest

import sheetaudit
from conftest import SAMPLES, run_cli
from sheetaudit.batch.tables import BOOL, INT, REAL, TABLES

REQUIRE = SAMPLES / "requirements.yaml"


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    out = tmp_path_factory.mktemp("tables") / "out"
    r = run_cli("audit", SAMPLES, "-o", out, "-q", "--require", REQUIRE, "--fail-on", "never", "--no-cache")
    assert r.returncode == 0, r.stderr
    return out


@pytest.fixture(scope="module")
def audits():
    return [
        sheetaudit.audit(SAMPLES / name, requirements=REQUIRE)
        for name in ("kestrel-k8x-gpu-server.pdf", "pelican-pn5164-ethernet-switch.pdf", "cormorant-c8x-platform.md")
    ]


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.name)
def test_every_numeric_column_of_every_csv_reads_as_numbers(out, table):
    df = pd.read_csv(out / f"{table.name}.csv")
    assert list(df.columns) == table.names
    for col, kind in table.columns:
        if kind in (REAL, INT, BOOL):
            assert pd.api.types.is_numeric_dtype(df[col]) or pd.api.types.is_bool_dtype(df[col]), (col, df[col].dtype)


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.name)
def test_audit_sqlite_holds_each_table_with_the_csv_columns_and_rows(out, table):
    with sqlite3.connect(out / "audit.sqlite") as con:
        db = pd.read_sql(f'SELECT * FROM "{table.name}"', con)
    csv = pd.read_csv(out / f"{table.name}.csv")
    assert list(db.columns) == list(csv.columns) == table.names
    assert len(db) == len(csv) > 0
    for col, kind in table.columns:
        if kind == REAL:
            assert pd.api.types.is_numeric_dtype(db[col]) or db[col].isna().all(), col


def test_the_database_answers_a_buyers_question(out):
    with sqlite3.connect(out / "audit.sqlite") as con:
        got = con.execute(
            "SELECT sheet, scale_up_gbs_per_acc FROM comparison WHERE scale_up_gbs_per_acc >= 400 ORDER BY sheet"
        ).fetchall()
        short = con.execute("SELECT count(*) FROM compliance WHERE result = 'falls-short'").fetchone()[0]
    assert ("kestrel-k8x-gpu-server.pdf", 450.0) in got and short >= 1


def test_figures_csv_has_the_columns_of_the_api(out, audits):
    assert list(pd.read_csv(out / "figures.csv").columns) == list(sheetaudit.figures(audits).columns)
    assert list(pd.read_csv(out / "findings.csv").columns) == list(sheetaudit.findings(audits).columns)
    assert list(pd.read_csv(out / "comparison.csv").columns) == list(sheetaudit.comparison(audits).columns)
    assert list(pd.read_csv(out / "compliance.csv").columns) == list(sheetaudit.compliance(audits).columns)


def test_a_cooling_figure_is_a_method_in_unit_never_text_in_value(out):
    figs = pd.read_csv(out / "figures.csv")
    cooling = figs[figs.quantity == "cooling"]
    assert len(cooling) and cooling.value.isna().all() and set(cooling.unit) <= {"air", "liquid", "immersion"}
    assert {"certainty", "model", "product"} <= set(figs.columns)


def test_a_range_of_readings_is_low_and_high(out):
    comp = pd.read_csv(out / "compliance.csv")
    kestrel = comp[(comp.sheet == "kestrel-k8x-gpu-server.pdf") & (comp.requirement == "scale_up_gbs")].iloc[0]
    assert (kestrel.low, kestrel.high, kestrel.value_text) == (450.0, 900.0, "450–900")
    rdma = comp[(comp.sheet == "kestrel-k8x-gpu-server.pdf") & (comp.requirement == "rdma")].iloc[0]
    assert rdma.value_text == "InfiniBand" and pd.isna(rdma.low)


def test_findings_carry_the_question_to_ask(out):
    f = pd.read_csv(out / "findings.csv")
    assert "question" in f.columns and f[f.severity == "warning"].question.notna().any()


def test_the_comparison_has_a_switchs_own_columns(out):
    c = pd.read_csv(out / "comparison.csv").set_index("sheet")
    pelican = c.loc["pelican-pn5164-ethernet-switch.pdf"]
    assert (
        pelican.switch_capacity_gbs,
        pelican.switch_ports,
        pelican.switch_port_gbs,
        pelican.switch_power_kw,
        pelican.latency_hardware_ns,
    ) == (6400.0, 64, 100.0, 2.35, 560.0)
    assert pd.isna(c.loc["kestrel-k8x-gpu-server.pdf"].switch_capacity_gbs)  # a server has none


def test_status_severity_and_result_words_are_lower_case_everywhere(out):
    words = (
        set(pd.read_csv(out / "comparison.csv").status)
        | set(pd.read_csv(out / "findings.csv").severity)
        | set(pd.read_csv(out / "compliance.csv").result)
    )
    assert words and all(w == w.lower() for w in words)


def test_audit_xlsx_filters_freezes_fits_and_stores_numbers(out):
    openpyxl = pytest.importorskip("openpyxl")
    wb = openpyxl.load_workbook(out / "audit.xlsx")
    assert wb.sheetnames == ["Comparison", "Figures", "Findings", "Compliance"]
    for ws in wb.worksheets:
        assert ws.auto_filter.ref and ws.auto_filter.ref.startswith("A1:"), ws.title
        assert ws.freeze_panes == "A2"
        widths = [ws.column_dimensions[c].width for c in "ABC"]
        assert len(set(widths)) > 1 or ws.title == "Compliance"  # fitted, not one default width
    ws = wb["Comparison"]
    header = [c.value for c in ws[1]]
    up = header.index("scale_up_gbs_per_acc")
    values = [row[up] for row in ws.iter_rows(min_row=2, values_only=True) if row[up] is not None]
    assert values and all(isinstance(v, (int, float)) for v in values)


def test_an_unreadable_file_is_an_error_row_of_the_comparison(tmp_path):
    bad = {
        "schema": "sheetaudit/1",
        "source": {"path": "broken.pdf"},
        "status": "incomplete",
        "error": "not a PDF",
        "figures": [],
        "findings": [],
    }
    df = sheetaudit.comparison([bad])
    assert (df.loc[0, "status"], df.loc[0, "error"]) == ("error", "not a PDF")
    assert sheetaudit.figures([bad]).empty and sheetaudit.compliance([bad]).empty


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.name)
def test_the_readme_lists_each_tables_columns_in_order(table):
    import re

    readme = (SAMPLES.parent / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith(f"| {table.name} |"))
    named = re.findall(r"`([a-z_0-9]+)`", row)
    assert list(dict.fromkeys(c for c in named if c in table.names)) == table.names


def test_the_batch_writes_its_tables_without_importing_pandas_or_openpyxl(tmp_path):
    """pandas costs more to import than a batch of fifty sheets spends writing its tables, and its import ran
    beside the workers; the tables are the same without it (the DataFrames of the Python API still use it)."""
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("kestrel-k8x-gpu-server.pdf", "cormorant-c8x-platform.md"):
        (folder / name).write_bytes((SAMPLES / name).read_bytes())
    r = run_cli(
        "audit",
        folder,
        "-o",
        tmp_path / "out",
        "--require",
        REQUIRE,
        "--fail-on",
        "never",
        "--no-cache",
        isolated=True,
        python=("-X", "importtime"),
    )
    assert r.returncode == 0, r.stderr
    imported = {line.rsplit("|", 1)[-1].strip() for line in r.stderr.splitlines() if line.startswith("import time:")}
    assert "pandas" not in imported and "openpyxl" not in imported
    assert all((tmp_path / "out" / f"{t.name}.csv").is_file() for t in TABLES)
