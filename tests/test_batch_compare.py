"""The comparison across sheets (rows on one basis, findings only a batch can raise), the folder walk and the
spreadsheet neutralisation: fast, in-process, on sheets audited by the real engine."""

from __future__ import annotations

import os

import pytest

import sheetaudit
from sheetaudit.batch.compare import compare, printed_as, sheet_row
from sheetaudit.rules import load_rules
from sheetaudit.batch.tables import neutralise
from sheetaudit.batch.walk import check_outdir, walk
from sheetaudit.errors import UsageError

ALPHA = """# Alpha A8 GPU server

| Item | Specification |
|---|---|
| GPUs | 8 accelerators in one NVLink domain |
| GPU-to-GPU interconnect | NVLink 5, 1.8 TB/s bidirectional per GPU |
| Compute network | 8x 400 Gb/s InfiniBand NDR, one per GPU |
| Switch latency | 130 ns port-to-port |
| Rack power | 40 kW per rack |
| Cooling | Air-cooled |
"""

BETA = """# Beta B8 accelerator server

| Item | Specification |
|---|---|
| Accelerator interconnect | UALink, 400 GB/s per direction per accelerator |
| Compute network | 8x 400 Gb/s RoCE v2 Ethernet, one per accelerator |
| Latency | 2 µs end-to-end with MPI, 8-byte messages |
| Node power | 10 kW |
"""

GAMMA = ALPHA.replace("Alpha A8", "Gamma G8").replace("1.8 TB/s", "3.6 TB/s").replace("40 kW", "60 kW")


@pytest.fixture
def contracts(tmp_path):
    def make(**sheets):
        out = []
        for name, text in sheets.items():
            p = tmp_path / f"{name}.md"
            p.write_text(text, encoding="utf-8")
            c = sheetaudit.to_contract(sheetaudit.audit(p))
            out.append((sheet_row(f"{name}.md", c, f"reports/{name}.md.html"), c))
        return out

    return make


def test_rows_are_per_accelerator_per_direction(contracts):
    ((alpha, _),) = contracts(alpha=ALPHA)
    assert alpha["scale_up"]["value"] == 900.0  # 1.8 TB/s bidirectional, halved
    assert alpha["domain"]["value"] == 8
    assert alpha["rack_power"] == {"value": 40.0, "how": "stated", "text": "40 kW", "note": alpha["rack_power"]["note"]}
    assert alpha["cooling"] == ["air"]
    assert alpha["latency"]["hardware"]["value"] == 130.0
    assert set(alpha["findings"]) == {"error", "warning", "info"}


def test_side_by_side_mistakes_are_flagged(contracts):
    items = contracts(alpha=ALPHA, beta=BETA)
    found = {f["check"]: f for f in compare(items)}
    assert {
        "compare.latency-mixed-basis",
        "compare.direction-mixed",
        "compare.rack-power-omitted",
        "compare.domain-size-omitted",
    } <= set(found)
    lat = found["compare.latency-mixed-basis"]
    assert "alpha.md (130 ns)" in lat["message"] and "beta.md (2 µs)" in lat["message"]
    assert found["compare.rack-power-omitted"]["sheets"] == ["beta.md"]
    assert "about 40 kW derived from node power" in found["compare.rack-power-omitted"]["message"]
    assert found["compare.domain-size-omitted"]["sheets"] == ["beta.md"]
    assert "1.8 TB/s" in found["compare.direction-mixed"]["message"]
    beta_row = items[1][0]
    assert "compare.rack-power-omitted" in beta_row["compare"]
    for f in found.values():  # every code is declared with its why and fix
        assert f["why"] == load_rules().comparison[f["check"]]["why"] and f["fix"] and f["step"] in (1, 2, 3, 4)


def test_sheets_on_the_same_basis_raise_no_basis_findings(contracts):
    found = {f["check"] for f in compare(contracts(alpha=ALPHA, gamma=GAMMA))}
    assert not found & {
        "compare.latency-mixed-basis",
        "compare.direction-mixed",
        "compare.rack-power-omitted",
        "compare.domain-size-omitted",
        "compare.cooling-omitted",
    }


def test_a_sheet_is_never_compared_with_itself(contracts):
    """Alpha states a hardware and an end-to-end latency, Gamma only a hardware one: the index's columns keep
    Alpha's two apart, and no finding sets Alpha beside Alpha."""
    both = ALPHA.replace("| Rack power |", "| MPI latency | 1.9 µs end-to-end, 8-byte messages |\n| Rack power |")
    items = contracts(alpha=both, gamma=GAMMA.replace("| Switch latency | 130 ns port-to-port |\n", ""))
    assert items[0][0]["latency"].keys() == {"hardware", "end-to-end"}
    assert not any(f["check"] == "compare.latency-mixed-basis" for f in compare(items))
    items = contracts(alpha=both, gamma=GAMMA)  # Gamma's hardware latency beside Alpha's
    assert any(f["check"] == "compare.latency-mixed-basis" for f in compare(items))


def test_a_single_sheet_has_nothing_to_compare(contracts):
    assert compare(contracts(alpha=ALPHA)) == []


def test_printed_direction_basis_from_the_contract():
    assert printed_as({"value": 1.8, "unit": "TB/s", "normalized": {"value": 900.0}}) == "both"
    assert printed_as({"value": 400, "unit": "Gb/s", "normalized": {"value": 50.0}}) == "one"
    assert printed_as({"value": 32, "unit": "GT/s", "normalized": {"value": 3.938}}) is None


def test_neutralise_formula_cells():
    assert neutralise('=HYPERLINK("http://x")') == '\'=HYPERLINK("http://x")'
    assert [neutralise(s) for s in ("+1", "-x", "@SUM(A1)", "\tcmd")] == ["'+1", "'-x", "'@SUM(A1)", "'\tcmd"]
    assert neutralise("900 GB/s") == "900 GB/s" and neutralise(-3.5) == -3.5 and neutralise(None) is None


def test_walk_recurses_sorts_skips_and_survives_loops(tmp_path):
    (tmp_path / "b" / "c").mkdir(parents=True)
    for rel in ("z.pdf", "a.TXT", "b/c/d.md", "b/page.htm", "b/e.html"):
        (tmp_path / rel).write_text("x", encoding="utf-8")
    (tmp_path / "notes.docx").write_bytes(b"PK")
    (tmp_path / ".hidden.pdf").write_text("x", encoding="utf-8")
    os.symlink("..", tmp_path / "b" / "up")
    w = walk(tmp_path)
    assert [w.rel(p) for p in w.files] == ["a.TXT", "b/c/d.md", "b/e.html", "b/page.htm", "z.pdf"]
    skipped = dict(w.skipped)
    assert skipped["notes.docx"].startswith("not a spec sheet type")
    assert skipped[".hidden.pdf"] == "hidden"
    assert "not followed" in skipped["b/up"]


def test_outdir_must_not_overlap_the_input(tmp_path):
    (tmp_path / "in").mkdir()
    check_outdir(tmp_path / "in", tmp_path / "out")
    for bad in (tmp_path / "in", tmp_path / "in" / "out", tmp_path):
        with pytest.raises(UsageError):
            check_outdir(tmp_path / "in", bad)


def test_library_api_runs_twice_in_one_process(tmp_path):
    """run_batch from Python: the first run forks workers, the second (pandas now loaded) spawns them."""
    import shutil
    from pathlib import Path

    from sheetaudit.batch import BatchOptions, run_batch

    samples = Path(__file__).resolve().parents[1] / "samples"
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("osprey-o4-inference-server.txt", "gannet-gx800-xdr-switch.html"):
        shutil.copy(samples / name, folder)
    first = run_batch(folder, tmp_path / "out", BatchOptions(jobs=2, quiet=True))
    assert len(first.ok) == 2 and not first.failed and first.exit_code("never") == 0
    assert len(first.peak_rss_kb) == 2 and all(kb > 0 for kb in first.peak_rss_kb)
    again = run_batch(folder, tmp_path / "out2", BatchOptions(jobs=2, quiet=True, use_cache=False))
    assert [again.contract(s)["figures"] for s in again.ok] == [first.contract(s)["figures"] for s in first.ok]
