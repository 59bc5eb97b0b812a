"""The parent side of the pool: N long-lived worker processes, one file each at a time, a deadline per file.

Unlike concurrent.futures, a worker that dies (segfault, OOM kill) or overruns --timeout costs only the file it
held: that file gets an error row, the process is killed and a fresh one takes the next file. Workers are forked
(on Linux) from a parent that has already imported the audit engine, so a replacement starts in milliseconds.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import time
from collections import deque
from multiprocessing.connection import wait

from .worker import OUT_OF_MEMORY_EXIT, worker_main


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _context():
    """fork where it is safe (Linux, no other Python thread: the CLI's case; OpenBLAS re-initialises its own
    threads after a fork), so workers start with the engine already imported; spawn otherwise (a library caller
    running threads, or macOS)."""
    import sys
    import threading

    safe = (
        "fork" in multiprocessing.get_all_start_methods()
        and threading.active_count() == 1
        and sys.platform.startswith("linux")
    )
    return multiprocessing.get_context("fork" if safe else "spawn")


def describe_exit(code: int | None) -> str:
    from ..failures import process_ended

    return process_ended(code, OUT_OF_MEMORY_EXIT)


class _Slot:
    def __init__(self, index: int):
        self.index = index
        self.proc = None
        self.conn = None
        self.task = None  # (task_id, path)
        self.deadline = 0.0
        self.peak_rss_kb = 0
        self.pids: list[int] = []

    @property
    def busy(self) -> bool:
        return self.task is not None


class Pool:
    def __init__(self, jobs: int, timeout: float | None, max_memory_mb: int | None, options: dict):
        self.jobs = max(1, jobs)
        self.timeout = timeout if timeout and timeout > 0 else None
        self.max_memory_mb = max_memory_mb
        self.options = options
        self.ctx = _context()
        self.slots = [_Slot(i) for i in range(self.jobs)]
        self.restarts = 0

    # -- process management ------------------------------------------------------------------------------
    def _start(self, slot: _Slot) -> None:
        parent, child = self.ctx.Pipe(duplex=True)
        # A forked worker holds copies of the parent's pipe ends (its own and the other workers'); it closes them,
        # so that the parent's death reads as a closed pipe in every worker (batch.worker.die_with_parent).
        inherited = ()
        if self.ctx.get_start_method() == "fork":
            inherited = (parent.fileno(), *(s.conn.fileno() for s in self.slots if s.conn is not None))
        proc = self.ctx.Process(
            target=worker_main,
            args=(child, self.max_memory_mb, self.options, os.getpid(), inherited),
            name=f"sheetaudit-worker-{slot.index}",
            daemon=True,
        )
        proc.start()
        child.close()
        slot.proc, slot.conn = proc, parent
        slot.pids.append(proc.pid)

    def _stop(self, slot: _Slot, kill: bool) -> None:
        if slot.proc is None:
            return
        if kill:
            slot.proc.kill()
        else:
            try:
                slot.conn.send(None)
            except (OSError, ValueError):
                pass
        slot.proc.join(timeout=None if kill else 5)
        if slot.proc.is_alive():
            slot.proc.kill()
            slot.proc.join()
        slot.conn.close()
        slot.proc = slot.conn = None

    def close(self, kill: bool = False) -> None:
        for slot in self.slots:
            self._stop(slot, kill)

    @property
    def peak_rss_kb(self) -> list[int]:
        return [s.peak_rss_kb for s in self.slots if s.pids]

    # -- scheduling ----------------------------------------------------------------------------------------
    def run(
        self, tasks, on_start=None, on_done=None, on_tick=None, on_drained=None, should_stop=None, tick: float = 0.25
    ) -> None:
        """Run (task_id, path, ...) tasks; on_done(task_id, result) is called as each finishes, on_drained() once
        when about two rounds of tasks are left (the parent's chance to prepare the outputs while the last files
        are audited, rather than after them). When should_stop() turns true (checked every tick), or on a
        KeyboardInterrupt, every worker is killed, the results already received are delivered and
        KeyboardInterrupt propagates."""
        pending = deque(tasks)
        finished: list = []
        try:
            while pending or any(s.busy for s in self.slots):
                if should_stop and should_stop():
                    raise KeyboardInterrupt
                for slot in self.slots:
                    if not slot.busy and pending:
                        self._dispatch(slot, pending.popleft(), on_start)
                if len(pending) <= 2 * self.jobs and on_drained:
                    on_drained, drained = None, on_drained
                    drained()
                busy = [s for s in self.slots if s.busy]
                now = time.monotonic()
                wait_for = tick
                if self.timeout:
                    wait_for = max(0.0, min([wait_for] + [s.deadline - now for s in busy]))
                ready = wait([s.conn for s in busy], timeout=wait_for) if busy else []
                for slot in busy:
                    result = None
                    if slot.conn in ready:
                        result = self._receive(slot)
                    elif self.timeout and time.monotonic() >= slot.deadline:
                        self._stop(slot, kill=True)
                        self.restarts += 1
                        result = {
                            "status": "error",
                            "kind": "timeout",
                            "error": f"timed out after {self.timeout:g} s (--timeout); the worker was stopped",
                        }
                    if result is not None:
                        finished.append((slot.task[0], result))
                        slot.task = None
                        if pending:  # keep the worker busy while the parent files the result
                            self._dispatch(slot, pending.popleft(), on_start)
                while finished:
                    task_id, result = finished.pop(0)
                    if on_done:
                        on_done(task_id, result)
                if on_tick:
                    on_tick()
        except BaseException:
            with contextlib.suppress(BaseException):  # results already sitting in the pipes are kept too
                for slot in self.slots:
                    if slot.busy and slot.conn is not None and slot.conn.poll(0):
                        finished.append((slot.task[0], slot.conn.recv()[1]))
            self.close(kill=True)
            for task_id, result in finished:  # received before the interruption: still delivered
                if on_done:
                    on_done(task_id, result)
            raise
        self.close()

    def _dispatch(self, slot: _Slot, task, on_start) -> None:
        if slot.proc is None or not slot.proc.is_alive():
            if slot.proc is not None:
                self._stop(slot, kill=True)
            self._start(slot)
        slot.task = task
        slot.deadline = time.monotonic() + (self.timeout or 0)
        try:
            slot.conn.send(task)
        except (OSError, ValueError):  # the worker died as it started: its pipe reads as closed, the file's crash
            pass
        if on_start:
            on_start(task[0], task[1])

    def _receive(self, slot: _Slot) -> dict:
        try:
            task_id, result = slot.conn.recv()
        except (EOFError, OSError, MemoryError) as exc:
            slot.proc.join(timeout=5)
            how = describe_exit(slot.proc.exitcode) if not isinstance(exc, MemoryError) else "a result too large"
            aborted = slot.proc.exitcode == -signal.SIGABRT
            self._stop(slot, kill=True)
            self.restarts += 1
            return {
                "status": "error",
                "kind": "memory" if aborted else "crash",
                "error": f"the worker process crashed while auditing this file ({how})",
            }
        slot.peak_rss_kb = max(slot.peak_rss_kb, int(result.pop("rss_kb", 0) or 0))
        if result.pop("recycle", False):
            self._stop(slot, kill=False)
            self.restarts += 1
        return result
