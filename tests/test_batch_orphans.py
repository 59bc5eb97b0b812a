"""Workers end when their parent ends, whatever killed it (issue 23, item 5). It was: kill -9 or SIGHUP of the
batch's parent left both workers alive for ever (each held a copy of the parent's pipe end) and a
sheetaudit-batch-* folder behind; SIGHUP wrote no outputs.

Real processes: the CLI in a subprocess, killed for real; its workers watched through /proc."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from test_batch import ROOT, env
from test_batch_isolation import OnTerminal, children, records, slow_folder, slow_pdf, wait_for  # noqa: F401

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
OSPREY = "osprey-o4-inference-server.txt"


def start(folder: Path, out: Path, tmp: Path) -> subprocess.Popen:
    """The batch with its temporary folder in TMP, in a session of its own (a terminal's hang-up reaches only it)."""
    return subprocess.Popen(
        [sys.executable, "-m", "sheetaudit", "audit", str(folder), "-o", str(out), "--jobs", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**env(), "TMPDIR": str(tmp)},
        start_new_session=True,
    )


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has ended; only its parent's wait is missing


def snapshot_folders(tmp: Path) -> list[Path]:
    return sorted(tmp.glob("sheetaudit-batch-*"))


def test_kill_9_of_the_parent_ends_its_workers_and_the_next_start_removes_its_folder(slow_folder, tmp_path):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    p = start(slow_folder, tmp_path / "out", tmp)
    workers = wait_for(lambda: len(children(p.pid)) == 2 and children(p.pid))
    wait_for(lambda: snapshot_folders(tmp))
    p.kill()
    p.communicate(timeout=60)
    try:
        wait_for(lambda: not any(alive(w) for w in workers), timeout=30)
    finally:
        for w in workers:  # never leave a test's process behind, even when the test fails
            if alive(w):
                os.kill(w, signal.SIGKILL)
    assert snapshot_folders(tmp)  # kill -9 gives no chance to clean up ...
    again = start(slow_folder, tmp_path / "out2", tmp)
    try:
        wait_for(lambda: len(snapshot_folders(tmp)) == 1 and str(again.pid) in snapshot_folders(tmp)[0].name)
    finally:  # ... the next batch removes the dead one's folder
        os.killpg(again.pid, signal.SIGTERM)
        again.communicate(timeout=60)
    assert not snapshot_folders(tmp)  # and its own, on SIGTERM


def test_sighup_writes_the_finished_sheets_and_ends_the_workers(slow_folder, tmp_path):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    out = tmp_path / "out"
    t = OnTerminal(slow_folder, out, "--jobs", "2", extra_env={"TMPDIR": str(tmp)}, new_session=True)
    p = t.proc
    wait_for(lambda: "[2/3]" in t.read(), timeout=120)  # the parent holds the two quick sheets' results
    workers = children(p.pid)
    os.killpg(p.pid, signal.SIGHUP)  # the terminal closed: the whole session gets it
    err = t.close()
    assert p.returncode == 130, err
    assert "Traceback" not in err
    recs = records(out)
    assert "error" not in recs[OSPREY] and "interrupted" in recs["slow.pdf"]["error"]
    wait_for(lambda: not any(alive(w) for w in workers), timeout=30)
    assert not snapshot_folders(tmp)
