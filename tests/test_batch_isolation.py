"""One file's hang, crash or memory blow-up is that file's error row; Ctrl-C keeps what was finished.

Real processes throughout: the CLI runs in a subprocess, and its worker processes are stopped, killed or starved
of memory for real (SIGSTOP is a hang no in-process time limit can break; SIGKILL is what the OOM killer does).
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from test_batch import ROOT, SAMPLES, batch, env

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")


def children(pid: int) -> list[int]:
    """The worker processes of the CLI process `pid` (not multiprocessing's helper processes, if any)."""
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            kids = [int(x) for x in (task / "children").read_text().split()]
        except OSError:
            continue
        for kid in kids:
            try:
                cmd = Path(f"/proc/{kid}/cmdline").read_bytes()
            except OSError:
                continue
            if b"resource_tracker" not in cmd and b"forkserver" not in cmd:
                out.append(kid)
    return out


def start(folder: Path, out: Path, *args) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "sheetaudit", "audit", str(folder), "-o", str(out), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env(),
    )


class OnTerminal:
    """The batch with its stderr on a pseudo-terminal, as a user at a terminal runs it: its progress line
    ("[2/3] ...") says how many results the parent has filed, an event to wait on (a report on disk is not one:
    the worker writes it before it sends the result)."""

    def __init__(self, folder: Path, out: Path, *args, extra_env: dict | None = None, new_session: bool = False):
        master, terminal = os.openpty()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sheetaudit", "audit", str(folder), "-o", str(out), *args],
            stdout=subprocess.PIPE,
            stderr=terminal,
            text=True,
            cwd=ROOT,
            env={**env(), **(extra_env or {})},
            start_new_session=new_session,
        )
        os.close(terminal)
        self.master, self.text = master, ""

    def read(self) -> str:
        """All the terminal has shown so far (read as it comes, so the batch never waits on a full terminal)."""
        while select.select([self.master], [], [], 0)[0]:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # EIO: the batch has closed the terminal
                break
            if not chunk:
                break
            self.text += chunk.decode("utf-8", "replace")
        return self.text

    def close(self) -> str:
        self.proc.communicate(timeout=60)
        text = self.read()
        os.close(self.master)
        return text


def wait_for(predicate, timeout=60.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out waiting")


def records(out: Path) -> dict:
    return {Path(r["source"]["path"]).name: r for r in json.loads((out / "audit.json").read_text(encoding="utf-8"))}


def make_slow_pdf(path: Path, pages: int = 40) -> None:
    """A real PDF that takes the engine far longer than any test waits: every line of every page is dense with
    figures (ports, latencies, power, NVLink), so no page can be skipped."""
    from reportlab import rl_config

    rl_config.invariant = 1
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), pagesize=A4)
    for page in range(pages):
        c.setFont("Helvetica", 7)
        for line in range(90):
            y = 800 - line * 8.6
            c.drawString(
                30,
                y,
                f"Port {line + 1}: 400 Gb/s InfiniBand NDR, switch latency 130 ns port-to-port, typical power 650 W",
            )
            c.drawString(330, y, f"Node {page}-{line}: 8x GPUs, NVLink 900 GB/s per GPU, 10.2 kW, air-cooled")
        c.showPage()
    c.save()


@pytest.fixture(scope="module")
def slow_pdf(tmp_path_factory):
    path = tmp_path_factory.mktemp("slow") / "slow.pdf"
    make_slow_pdf(path)
    return path


@pytest.fixture
def slow_folder(tmp_path, slow_pdf):
    """slow.pdf (the largest file, so it is dispatched first) and two quick sheets."""
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(slow_pdf, folder)
    shutil.copy(SAMPLES / "osprey-o4-inference-server.txt", folder)
    shutil.copy(SAMPLES / "gannet-gx800-xdr-switch.html", folder)
    return folder


def quick_sheets_cached(folder: Path, out: Path) -> None:
    """Audit the quick sheets into OUT first, without a tight limit: under a 1 s limit they then come from the
    cache, and only slow.pdf, designed to be slow, meets the clock (a good file may take seconds on a busy machine)."""
    aside = folder.parent / "slow.pdf.aside"
    (folder / "slow.pdf").rename(aside)
    try:
        assert batch(folder, "-o", out).returncode in (0, 1)
    finally:
        aside.rename(folder / "slow.pdf")


def test_time_limit_is_that_files_error_row(slow_folder, tmp_path):
    quick_sheets_cached(slow_folder, tmp_path / "out")
    proc = batch(slow_folder, "-o", tmp_path / "out", "--timeout", "1", "--jobs", "2")
    assert proc.returncode == 2, proc.stderr
    recs = records(tmp_path / "out")
    assert "time" in recs["slow.pdf"]["error"] and "--timeout" in recs["slow.pdf"]["error"]
    assert "error" not in recs["osprey-o4-inference-server.txt"] and "error" not in recs["gannet-gx800-xdr-switch.html"]
    assert len(list((tmp_path / "out" / ".cache").rglob("*.json.gz"))) == 2  # a timeout is never cached


def test_a_hung_worker_is_killed_at_the_deadline(slow_folder, tmp_path):
    out = tmp_path / "out"
    quick_sheets_cached(slow_folder, out)
    p = start(slow_folder, out, "--timeout", "1", "--jobs", "1")
    worker = wait_for(lambda: children(p.pid))[0]
    time.sleep(0.2)
    os.kill(worker, signal.SIGSTOP)  # a hang the in-process time limit cannot break
    _, err = p.communicate(timeout=120)
    assert p.returncode == 2, err
    recs = records(out)
    assert "timed out" in recs["slow.pdf"]["error"] and "worker was stopped" in recs["slow.pdf"]["error"]
    assert "error" not in recs["osprey-o4-inference-server.txt"] and "error" not in recs["gannet-gx800-xdr-switch.html"]
    with pytest.raises(ProcessLookupError):
        os.kill(worker, 0)


def test_a_crashed_worker_is_that_files_error_row(slow_folder, tmp_path):
    out = tmp_path / "out"
    p = start(slow_folder, out, "--jobs", "1", "--no-cache")
    worker = wait_for(lambda: children(p.pid))[0]
    time.sleep(0.2)
    os.kill(worker, signal.SIGKILL)  # what the kernel's OOM killer does
    _, err = p.communicate(timeout=120)
    assert p.returncode == 2, err
    recs = records(out)
    assert "crashed" in recs["slow.pdf"]["error"] and "SIGKILL" in recs["slow.pdf"]["error"]
    assert "error" not in recs["osprey-o4-inference-server.txt"] and "error" not in recs["gannet-gx800-xdr-switch.html"]
    assert "slow.pdf" in err and "Traceback" not in err


def test_memory_cap_is_an_error_row_not_the_end_of_the_batch(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(SAMPLES / "osprey-o4-inference-server.txt", folder)
    shutil.copy(SAMPLES / "kestrel-k8x-gpu-server.pdf", folder)
    proc = batch(folder, "-o", tmp_path / "out", "--max-memory", "32", "--jobs", "2", "--no-cache")
    assert proc.returncode == 2, proc.stderr
    recs = records(tmp_path / "out")
    assert len(recs) == 2
    for r in recs.values():
        assert "memory" in r["error"], r
    assert (tmp_path / "out" / "index.html").is_file() and "Traceback" not in proc.stderr


def test_ctrl_c_stops_cleanly_and_keeps_finished_results(slow_folder, tmp_path):
    out = tmp_path / "out"
    p = start(slow_folder, out, "--jobs", "2")
    wait_for(lambda: len(list((out / ".cache").rglob("*.json.gz"))) >= 2)  # the two quick sheets are done
    time.sleep(0.3)  # (their workers write the cache entry, then send the result)
    workers = children(p.pid)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    recs = records(out)
    assert "error" not in recs["osprey-o4-inference-server.txt"] and "error" not in recs["gannet-gx800-xdr-switch.html"]
    assert "interrupted" in recs["slow.pdf"]["error"]
    assert (out / "index.html").is_file()
    for w in workers:
        with pytest.raises(ProcessLookupError):
            os.kill(w, 0)
    # the finished files were cached as they finished: a re-run audits only what was left
    again = batch(slow_folder, "-o", out, "--timeout", "1")
    assert "3 sheet(s): 2 audited (2 from cache), 1 failed" in again.stderr, again.stderr
