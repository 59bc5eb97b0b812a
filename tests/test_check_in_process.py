"""`check --in-process` audits in the command's own process, so that a profiler sees the work (`check` otherwise
forks a child for each sheet); the report is the same."""

import subprocess
import sys
from pathlib import Path

SHEET = Path(__file__).resolve().parents[1] / "samples" / "kestrel-k8x-gpu-server.pdf"


def test_in_process_gives_the_same_report_and_a_profiler_sees_the_audit(tmp_path):
    forked = subprocess.run(
        [sys.executable, "-m", "sheetaudit", "check", "--format", "json", str(SHEET)], capture_output=True, text=True
    )
    stats = tmp_path / "check.pstats"
    profiled = subprocess.run(
        [
            sys.executable,
            "-m",
            "cProfile",
            "-o",
            str(stats),
            "-m",
            "sheetaudit",
            "check",
            "--in-process",
            "--format",
            "json",
            str(SHEET),
        ],
        capture_output=True,
        text=True,
    )
    assert profiled.returncode == forked.returncode and profiled.stdout == forked.stdout
    import pstats

    seen = {(Path(file).name, name) for file, _, name in pstats.Stats(str(stats)).stats}
    assert {("pipeline.py", "run"), ("s1_find.py", "find_mentions"), ("s4_classify.py", "classify")} <= seen
    assert ("__init__.py", "run_checks") in seen  # stages/s8_checks/__init__.py
