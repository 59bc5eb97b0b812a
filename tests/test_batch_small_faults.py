"""The smaller faults of the second reliability run (issue 23, item 8), each as a user meets it: a real batch, a real
folder, the outputs read back."""
import csv
import io
import json
import shutil

from conftest import SAMPLES, run_cli

TXT = SAMPLES / "osprey-o4-inference-server.txt"


def _folder(tmp_path, *names):
    folder = tmp_path / "sheets"
    folder.mkdir()
    for name in names:
        shutil.copy(TXT, folder / name)
    return folder


def test_a_carriage_return_in_a_file_name_stays_in_one_csv_row(tmp_path):
    folder = _folder(tmp_path, "osprey\rcopy.txt", "plain.txt")
    out = tmp_path / "out"
    r = run_cli("audit", folder, "-o", out, "--fail-on", "never", isolated=True)
    assert r.returncode == 0, r.stderr
    for table in ("comparison.csv", "figures.csv", "findings.csv"):
        raw = (out / table).read_bytes().decode("utf-8")
        rows = list(csv.reader(io.StringIO(raw, newline="")))
        header = rows[0]
        assert all(len(row) == len(header) for row in rows), table          # no row split in two
        assert {row[0] for row in rows[1:]} == {"osprey\rcopy.txt", "plain.txt"}, table


def test_the_summary_counts_only_the_reports_written(tmp_path):
    folder = _folder(tmp_path, "a.txt")
    out = tmp_path / "out"
    out.mkdir()
    (out / "reports").write_text("a file where the reports folder belongs")
    r = run_cli("audit", folder, "-o", out, "--no-cache", "--fail-on", "never", isolated=True)
    assert "(+ 0 report(s)" in r.stderr, r.stderr


def test_an_output_that_is_a_folder_is_named_not_its_temporary_file(tmp_path):
    folder = _folder(tmp_path, "a.txt")
    out = tmp_path / "out"
    (out / "index.html").mkdir(parents=True)
    r = run_cli("audit", folder, "-o", out, "--no-cache", isolated=True)
    assert r.returncode == 2
    assert f"cannot write {out / 'index.html'}: Is a directory" in r.stderr, r.stderr
    assert ".tmp" not in r.stderr


def test_a_sheet_that_fails_after_once_succeeding_loses_its_old_report(tmp_path):
    folder = tmp_path / "sheets"
    folder.mkdir()
    shutil.copy(SAMPLES / "kestrel-k8x-gpu-server.pdf", folder / "k.pdf")
    out = tmp_path / "out"
    run_cli("audit", folder, "-o", out, isolated=True)
    assert (out / "reports" / "k.pdf.html").is_file()
    (folder / "k.pdf").write_bytes(b"%PDF-1.7\nnot a PDF any more\n")
    r = run_cli("audit", folder, "-o", out, isolated=True)
    assert r.returncode == 2
    assert not (out / "reports" / "k.pdf.html").exists()      # it would read as the audit of the new bytes
    [row] = json.loads((out / "audit.json").read_text())
    assert row["status"] == "incomplete" and row["error"]
