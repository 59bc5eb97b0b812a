"""`sheetaudit audit FOLDER -o OUTDIR`: the real CLI in real processes on real files (samples/ and the hostile
inputs of tests/hostile/files), no mocks."""

from __future__ import annotations

import csv
import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest

from conftest import ROOT, SAMPLES, run_cli
from sheetaudit.batch.tables import COMPARISON_COLUMNS, FIGURE_COLUMNS, FINDING_COLUMNS

HOSTILE = ROOT / "tests" / "hostile" / "files"

GOOD = [
    "kestrel-k8x-gpu-server.pdf",
    "osprey-o4-inference-server.txt",
    "gannet-gx800-xdr-switch.html",
    "cormorant-c8x-platform.md",
]


def env(**extra):
    e = {k: v for k, v in os.environ.items() if k not in ("SHEETAUDIT_CACHE_DIR", "SHEETAUDIT_RULES")}
    e["PYTHONIOENCODING"] = "utf-8"
    e.update(extra)
    return e


def batch(*args, extra_env=None, timeout=300):
    """`sheetaudit audit ARGS` in a real process: the batch forks workers and handles signals."""
    return run_cli("audit", *args, isolated=True, env=extra_env, timeout=timeout)


def tree_digest(folder: Path) -> dict:
    return {
        p.relative_to(folder).as_posix(): (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns)
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


def make_mixed(folder: Path) -> Path:
    """Good sheets of every input kind, a nested folder, a corrupt PDF, a non-PDF named .pdf, an injection
    payload, and files that are not spec sheets at all."""
    folder.mkdir(parents=True)
    for name in GOOD:
        shutil.copy(SAMPLES / name, folder / name)
    (folder / "nested" / "deeper").mkdir(parents=True)
    shutil.copy(HOSTILE / "nested" / "deeper" / "good-sheet.pdf", folder / "nested" / "deeper" / "good-sheet.pdf")
    shutil.copy(HOSTILE / "truncated.pdf", folder / "nested" / "truncated.pdf")
    shutil.copy(HOSTILE / "png-named.pdf", folder / "png-named.pdf")
    shutil.copy(HOSTILE / "injection.pdf", folder / "injection.pdf")
    shutil.copy(HOSTILE / 'quote\'s "name".pdf', folder / 'quote\'s "name".pdf')
    shutil.copy(HOSTILE / "规格 spec é.pdf", folder / "规格 spec é.pdf")
    shutil.copy(SAMPLES / "osprey-o4-inference-server.txt", folder / "evil\x1b[2J\nname.txt")
    (folder / "price-list.xlsx").write_bytes(b"PK\x03\x04 not really a workbook")
    (folder / "kestrel-k8x-gpu-server.expected.json").write_text("{}", encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def mixed_run(tmp_path_factory):
    base = tmp_path_factory.mktemp("mixed")
    folder = make_mixed(base / "vendors")
    before = tree_digest(folder)
    out = base / "out"
    proc = batch(folder, "-o", out, "--jobs", "2")
    return folder, out, proc, before


def read_csv(path: Path):
    with path.open(encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        return reader.fieldnames, list(reader)


# -- a mixed folder --------------------------------------------------------------------------------------------


def test_mixed_folder_audits_every_good_sheet_and_reports_each_bad_one(mixed_run):
    folder, out, proc, _ = mixed_run
    assert proc.returncode == 2, proc.stderr
    records = json.loads((out / "audit.json").read_text(encoding="utf-8"))
    by_path = {Path(r["source"]["path"]).relative_to(folder).as_posix(): r for r in records}
    good = GOOD + [
        "nested/deeper/good-sheet.pdf",
        "injection.pdf",
        'quote\'s "name".pdf',
        "规格 spec é.pdf",
        "evil\x1b[2J\nname.txt",
    ]
    assert sorted(by_path) == sorted(good + ["nested/truncated.pdf", "png-named.pdf"])
    for name in good:
        assert "error" not in by_path[name], by_path[name]
        assert by_path[name]["schema"] == "sheetaudit/1" and by_path[name]["figures"], name
        assert (out / "reports" / f"{name}.html").is_file()
    assert (
        "damaged" in by_path["nested/truncated.pdf"]["error"] or "truncated" in by_path["nested/truncated.pdf"]["error"]
    )
    assert "not a PDF" in by_path["png-named.pdf"]["error"]
    nested = by_path["nested/deeper/good-sheet.pdf"]
    assert {f["text"] for f in nested["figures"]} >= {"900 GB/s", "10.2 kW"}
    # the summary names each bad file; skipped files are notes, not errors
    assert "png-named.pdf" in proc.stderr and "nested/truncated.pdf" in proc.stderr
    assert "Traceback" not in proc.stderr
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "png-named.pdf" in index and "not a PDF" in index
    assert "price-list.xlsx" in index and "not a spec sheet type (.xlsx)" in index


def test_inputs_are_never_modified(mixed_run):
    folder, _, _, before = mixed_run
    assert tree_digest(folder) == before


def test_csv_columns_and_one_row_per_figure_and_finding(mixed_run):
    folder, out, _, _ = mixed_run
    records = [r for r in json.loads((out / "audit.json").read_text(encoding="utf-8")) if "error" not in r]
    cols, rows = read_csv(out / "figures.csv")
    assert cols == FIGURE_COLUMNS
    assert len(rows) == sum(len(r["figures"]) for r in records)
    sheets = {Path(r["source"]["path"]).relative_to(folder).as_posix() for r in records}
    assert {r["sheet"] for r in rows} == sheets
    kestrel = [r for r in rows if r["sheet"] == "kestrel-k8x-gpu-server.pdf"]
    nv = next(r for r in kestrel if r["as_printed"] == "900 GB/s")
    assert (nv["quantity"], nv["tier"], float(nv["value"]), nv["unit"], float(nv["printed_value"])) == (
        "bandwidth",
        "scale-up",
        450.0,
        "GB/s",
        900.0,
    )
    cols, rows = read_csv(out / "findings.csv")
    assert cols == FINDING_COLUMNS
    per_sheet = [r for r in rows if r["source"] == "sheet"]
    assert len(per_sheet) == sum(len(r["findings"]) for r in records)
    assert {r["severity"] for r in rows} <= {"error", "warning", "info"}
    assert any(r["source"] == "comparison" and r["check"].startswith("compare.") for r in rows)
    cols, rows = read_csv(out / "comparison.csv")
    assert cols == COMPARISON_COLUMNS
    verdicts = {
        Path(r["source"]["path"]).relative_to(folder).as_posix(): r["status"] for r in records if "error" not in r
    }
    assert {r["sheet"]: r["status"] for r in rows if r["status"] != "error"} == verdicts  # the sheet's verdict
    assert set(verdicts.values()) <= {"fail", "review", "pass", "incomplete"} and "error" in {r["status"] for r in rows}
    k = next(r for r in rows if r["sheet"] == "kestrel-k8x-gpu-server.pdf")
    assert float(k["scale_up_gbs_per_acc"]) == 450.0 and float(k["scale_up_domain_size"]) == 8
    assert k["product"] == "Kestrel K8X-H GPU Server" and float(k["accelerator_power_kw"]) == 0.7


def test_csv_cells_that_look_like_formulas_are_neutralised(mixed_run):
    _, out, _, _ = mixed_run
    for name in ("figures.csv", "findings.csv", "comparison.csv"):
        _, rows = read_csv(out / name)
        for row in rows:
            for value in row.values():
                assert not (value or "").startswith(("=", "+", "@", "\t", "\r")), (name, value)
                if value and value.startswith("-"):
                    float(value)  # only a negative number may start with '-'
    _, figs = read_csv(out / "figures.csv")
    assert any(r["label"].startswith("'=HYPERLINK") for r in figs if r["sheet"] == "injection.pdf")


def test_index_is_self_contained_escaped_and_links_every_report(mixed_run):
    _, out, _, _ = mixed_run
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "Content-Security-Policy" in index
    assert "<script src" not in index and "<link" not in index and "@import" not in index
    assert "<script>alert" not in index and "<img src=x" not in index
    assert 'href="reports/quote%27s%20%22name%22.pdf.html"' in index
    assert 'href="reports/nested/deeper/good-sheet.pdf.html"' in index
    for col in (
        "Scale-up",
        "Scale-out",
        "Out : up",
        "Domain",
        "Latency, hardware",
        "Latency, end-to-end",
        "Node power",
        "Rack power",
        "Cooling",
        "Errors",
        "Warnings",
    ):
        assert col in index
    assert 'data-sort="450' in index  # kestrel's 900 GB/s NVLink total, per direction


def test_odd_names_round_trip_and_never_reach_the_terminal_raw(mixed_run):
    _, out, proc, _ = mixed_run
    assert "\x1b" not in proc.stderr and "evil\\x1b[2J\\nname.txt" not in proc.stdout
    _, figs = read_csv(out / "figures.csv")
    sheets = {r["sheet"] for r in figs}
    assert {"规格 spec é.pdf", 'quote\'s "name".pdf', "evil\x1b[2J\nname.txt"} <= sheets
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "规格 spec é.pdf" in index and "quote&#39;s &#34;name&#34;.pdf" in index
    assert (out / "reports" / "规格 spec é.pdf.html").is_file()


# -- the cache ---------------------------------------------------------------------------------------------------


def test_cache_hit_then_invalidated_by_a_changed_file(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    for name in GOOD[:3]:
        shutil.copy(SAMPLES / name, folder / name)
    out = tmp_path / "out"
    first = batch(folder, "-o", out)
    assert first.returncode in (0, 1), first.stderr
    assert "from cache" not in first.stderr
    report = (out / "audit.json").read_text(encoding="utf-8")
    second = batch(folder, "-o", out)
    assert second.returncode == first.returncode
    assert "3 audited (3 from cache)" in second.stderr
    assert (out / "audit.json").read_text(encoding="utf-8") == report
    with (folder / "osprey-o4-inference-server.txt").open("a", encoding="utf-8") as fh:
        fh.write("\nRack power: 38 kW per rack\n")
    third = batch(folder, "-o", out)
    assert "3 audited (2 from cache)" in third.stderr
    osprey = next(
        r
        for r in json.loads((out / "audit.json").read_text(encoding="utf-8"))
        if r["source"]["path"].endswith("osprey-o4-inference-server.txt")
    )
    assert any(f["text"] == "38 kW" for f in osprey["figures"])


def test_the_same_file_under_two_names_comes_from_cache_on_every_re_run(tmp_path):
    """Both names share one cache entry, and each has its own report (the report names its file): neither is
    audited again on a re-run."""
    folder = tmp_path / "in"
    (folder / "copies").mkdir(parents=True)
    for name in ("one.pdf", "copies/two.pdf"):
        shutil.copy(SAMPLES / GOOD[0], folder / name)
    shutil.copy(SAMPLES / GOOD[1], folder / GOOD[1])
    out = tmp_path / "out"
    assert batch(folder, "-o", out, "--fail-on", "never").returncode == 0
    reports = {p.name: p.read_bytes() for p in (out / "reports").rglob("*.html")}
    for _ in range(2):
        again = batch(folder, "-o", out, "--fail-on", "never")
        assert "3 audited (3 from cache)" in again.stderr, again.stderr
    assert {p.name: p.read_bytes() for p in (out / "reports").rglob("*.html")} == reports


def test_cache_invalidated_by_a_changed_rule(tmp_path):
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(SAMPLES / "kestrel-k8x-gpu-server.pdf", folder)
    out = tmp_path / "out"
    renv = {"SHEETAUDIT_RULES": str(rules)}
    first = batch(folder, "-o", out, extra_env=renv)
    assert "1 audited" in first.stderr and "from cache" not in first.stderr
    assert "1 audited (1 from cache)" in batch(folder, "-o", out, extra_env=renv).stderr
    # Kestrel draws 10.2 kW per node: 4 nodes per rack is 40.8 kW; at 2 nodes per rack it is 20.4 kW.
    text = (rules / "thresholds.yaml").read_text(encoding="utf-8")
    import yaml

    data = yaml.safe_load(text)
    data["typical_nodes_per_rack"]["value"] = 2
    (rules / "thresholds.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    third = batch(folder, "-o", out, extra_env=renv)
    assert "1 audited" in third.stderr and "from cache" not in third.stderr, third.stderr
    rec = json.loads((out / "audit.json").read_text(encoding="utf-8"))[0]
    assert any(d["name"].startswith("rack power") and d["value"] == 20.4 for d in rec["derived"])


def test_corrupt_cache_is_ignored_with_a_warning(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(SAMPLES / "osprey-o4-inference-server.txt", folder)
    out = tmp_path / "out"
    cache = tmp_path / "cache"
    batch(folder, "-o", out, "--cache-dir", cache)
    expected = (out / "audit.json").read_text(encoding="utf-8")
    entries = list(cache.rglob("*.json.gz"))
    assert len(entries) == 1
    entries[0].write_bytes(b"\x1f\x8b not gzip at all")
    again = batch(folder, "-o", out, "--cache-dir", cache)
    assert "warning: cache entry" in again.stderr and "corrupt" in again.stderr
    assert "from cache" not in again.stderr
    assert (out / "audit.json").read_text(encoding="utf-8") == expected
    assert "1 audited (1 from cache)" in batch(folder, "-o", out, "--cache-dir", cache).stderr


def test_no_cache_writes_and_reads_no_cache(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(SAMPLES / "osprey-o4-inference-server.txt", folder)
    out = tmp_path / "out"
    batch(folder, "-o", out, "--no-cache")
    assert not (out / ".cache").exists()
    batch(folder, "-o", out)
    assert "from cache" not in batch(folder, "-o", out, "--no-cache").stderr


# -- usage -------------------------------------------------------------------------------------------------------


def test_output_folder_inside_or_around_the_input_is_refused(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(SAMPLES / "osprey-o4-inference-server.txt", folder)
    before = tree_digest(folder)
    inside = batch(folder, "-o", folder / "out")
    assert inside.returncode == 2 and "inside the input folder" in inside.stderr
    same = batch(folder, "-o", folder)
    assert same.returncode == 2
    around = batch(folder, "-o", tmp_path)
    assert around.returncode == 2 and "contains the input folder" in around.stderr
    cache_inside = batch(folder, "-o", tmp_path / "out", "--cache-dir", folder / ".cache")
    assert cache_inside.returncode == 2 and "cache folder" in cache_inside.stderr
    assert tree_digest(folder) == before and not (folder / "out").exists() and not (folder / ".cache").exists()


def test_symlink_loops_are_not_followed(tmp_path):
    folder = tmp_path / "in"
    (folder / "a").mkdir(parents=True)
    shutil.copy(SAMPLES / "osprey-o4-inference-server.txt", folder / "a" / "osprey.txt")
    os.symlink("..", folder / "a" / "loop")
    os.symlink("a", folder / "again")
    os.symlink("a/osprey.txt", folder / "link.txt")
    os.symlink("missing.pdf", folder / "broken.pdf")
    proc = batch(folder, "-o", tmp_path / "out", timeout=120)
    assert proc.returncode in (0, 1), proc.stderr
    records = json.loads((tmp_path / "out" / "audit.json").read_text(encoding="utf-8"))
    assert len(records) == 1
    index = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "broken symlink" in index and "not followed" in index and "audited once" in index


def test_exit_codes_follow_fail_on(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(SAMPLES / "osprey-o4-inference-server.txt", folder)
    out = tmp_path / "out"
    assert batch(folder, "-o", out, "--fail-on", "never", "-q").returncode == 0
    assert batch(folder, "-o", out, "--fail-on", "info", "-q").returncode == 1


def test_quiet_and_no_progress_line_when_not_a_terminal(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(SAMPLES / "osprey-o4-inference-server.txt", folder)
    loud = batch(folder, "-o", tmp_path / "out")
    assert "\r" not in loud.stderr and "sheetaudit: 1 sheet(s): 1 audited" in loud.stderr
    assert len(loud.stderr.splitlines()) < 25 and loud.stdout == ""
    quiet = batch(folder, "-o", tmp_path / "out", "-q")
    assert quiet.stderr == "" and quiet.stdout == ""


def test_empty_folder_writes_an_empty_index(tmp_path):
    (tmp_path / "in").mkdir()
    proc = batch(tmp_path / "in", "-o", tmp_path / "out")
    assert proc.returncode == 0 and "no spec sheet" in proc.stderr
    assert json.loads((tmp_path / "out" / "audit.json").read_text(encoding="utf-8")) == []
    assert (tmp_path / "out" / "index.html").is_file()


def test_xlsx_written_when_openpyxl_is_installed(mixed_run):
    _, out, _, _ = mixed_run
    openpyxl = pytest.importorskip("openpyxl")
    wb = openpyxl.load_workbook(out / "audit.xlsx")
    assert wb.sheetnames == ["Comparison", "Figures", "Findings"]
    header = [c.value for c in next(wb["Figures"].iter_rows(max_row=1))]
    assert header == FIGURE_COLUMNS
    for ws in wb.worksheets:
        for row in ws.iter_rows(min_row=2, values_only=True):
            assert not any(isinstance(v, str) and v.startswith("=") for v in row)
