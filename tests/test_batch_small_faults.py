"""The smaller faults of the second reliability run (issue 23, item 8), each as a user meets it: a real batch, a real
folder, the outputs read back."""

import csv
import io
import json
import re
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
        assert all(len(row) == len(header) for row in rows), table  # no row split in two
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
    assert not (out / "reports" / "k.pdf.html").exists()  # it would read as the audit of the new bytes
    [row] = json.loads((out / "audit.json").read_text())
    assert row["status"] == "incomplete" and row["error"]


def test_ctrl_c_while_the_command_line_loads_prints_no_traceback():
    """It was: a KeyboardInterrupt traceback from inside click's or the engine's imports. Ctrl-C is pressed at
    several moments of the first fifth of a second, where the libraries load; each run ends quietly."""
    import signal
    import subprocess
    import sys
    import time

    from conftest import ROOT
    from test_batch import env

    tracebacks = []
    for delay in (0.03, 0.06, 0.09, 0.12, 0.15, 0.18, 0.21, 0.25):
        p = subprocess.Popen(
            [sys.executable, "-m", "sheetaudit", "check", str(TXT)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=env(),
        )
        time.sleep(delay)
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=120)
        # Python's own start-up (site-packages, before any line of sheetaudit runs) cannot be guarded by sheetaudit;
        # a traceback through sheetaudit's code can.
        if "Traceback" in err and re.search(r"[/\\]sheetaudit[/\\]\w+", err):
            tracebacks.append((delay, err.strip().splitlines()[-1]))
        assert p.returncode in (0, 1, 130, -signal.SIGINT), (delay, p.returncode, err)
    assert tracebacks == []
