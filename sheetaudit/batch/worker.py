"""The child side of the pool: audit one file at a time, under an address-space cap, and send back plain data
(the contract dict, or a one-line error); the sheet's report and cache entry are written here. Runs in its own
process, so a crash, a hang or a memory blow-up here ends this process only; the parent turns it into that file's
error row.

The worker reads each file once, hashes those bytes and audits a private copy of them, so the result, its report
and its cache key all describe the same content even when the file is rewritten while the batch runs."""

from __future__ import annotations

import hashlib
import logging
import os
import resource
import signal
from pathlib import Path

from .spool import as_item


def limit_memory(max_memory_mb: int | None) -> None:
    if not max_memory_mb:
        return
    limit = int(max_memory_mb) * 1024 * 1024
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


class _Collect(logging.Handler):
    """Library warnings (pdfminer's xref repair, ...) become the file's notes, not stray lines on stderr."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record):
        try:
            msg = record.getMessage().strip().splitlines()[0][:300]
        except Exception:  # noqa: BLE001 - a broken log record never fails an audit
            return
        if msg and msg not in self.messages and len(self.messages) < 10:
            self.messages.append(msg)


def _quiet_process() -> _Collect:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C (and a hang-up) and stops the
    signal.signal(signal.SIGHUP, signal.SIG_IGN)  # workers
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # (not the parent's handler, inherited through fork)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # stdout belongs to the parent; C libraries' chatter goes
    os.dup2(devnull, 2)  # nowhere rather than through the progress line
    os.close(devnull)
    handler = _Collect()
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)
    logging.captureWarnings(True)
    return handler


OUT_OF_MEMORY_EXIT = 3  # the parent reads this exit code as "ran out of memory"
BATCH_DEBUG_HINT = "audit it alone with 'sheetaudit --debug check FILE' for the traceback, and report it"


def worker_main(
    conn, max_memory_mb: int | None, options: dict, parent_pid: int | None = None, inherited: tuple = ()
) -> None:
    die_with_parent(parent_pid, inherited)
    try:
        _loop(conn, max_memory_mb, options)
    except MemoryError:
        os._exit(OUT_OF_MEMORY_EXIT)


def die_with_parent(parent_pid: int | None, inherited: tuple = ()) -> None:
    """End this worker when the batch's parent ends, whatever killed it (kill -9, SIGHUP, a crash).

    The kernel sends SIGKILL on the parent's death (Linux's PR_SET_PDEATHSIG), and the parent's ends of the pipes
    that fork copied into this process (`inherited`: ours and the other workers') are closed, so that where that
    signal does not exist the pipe still reads as closed once the parent is gone, instead of staying open forever
    through the copy each worker held."""
    for fd in inherited:
        try:
            os.close(fd)
        except OSError:
            pass
    if parent_pid is None:
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the closed pipe ends the loop instead
        pass
    if os.getppid() != parent_pid:  # the parent died before the line above: go now
        os._exit(0)


def _loop(conn, max_memory_mb: int | None, options: dict) -> None:
    handler = _quiet_process()
    limit_memory(max_memory_mb)
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        if msg is None:
            return
        task_id, path, files = msg if len(msg) == 3 else (*msg, {})
        handler.messages = []
        result = as_item(file_result(audit_as_read(path, options, max_memory_mb), files, options), files)
        if handler.messages:
            result["warnings"] = handler.messages
        result["rss_kb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        result["pid"] = os.getpid()
        try:
            conn.send((task_id, result))
        except MemoryError:  # pickling the result needed more than --max-memory allows
            os._exit(OUT_OF_MEMORY_EXIT)
        except (OSError, ValueError):
            return
        if result.get("recycle"):
            return


def audit_as_read(path: str, options: dict, max_memory_mb: int | None = None) -> dict:
    """Read the file once, audit a private copy of exactly those bytes (in the parent's `snapshots` folder, which the
    file's owner cannot rewrite meanwhile) and return the result with the sha256 and size of what was read."""
    from ..errors import UnreadableInput
    from ..failures import explain
    from ..read import read_bytes

    folder = options.get("snapshots")
    if not folder:
        return run_one(path, options, max_memory_mb)
    try:
        data = read_bytes(path)
    except UnreadableInput as exc:  # missing, vanished or unreadable now: not about any content, not cached
        return {**explain(exc).as_row(), "cacheable": False}
    except MemoryError:
        return out_of_memory(max_memory_mb)
    read = {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
    copy = Path(folder) / str(os.getpid()) / Path(path).name
    try:
        copy.parent.mkdir(exist_ok=True)
        copy.write_bytes(data)
    except OSError:  # no room for the copy: audit the file itself, and cache nothing
        return {**run_one(path, options, max_memory_mb), "cacheable": False, **read}
    del data
    try:
        return {**run_one(str(copy), options, max_memory_mb), **read}
    finally:
        copy.unlink(missing_ok=True)


def file_result(result: dict, files: dict, options: dict) -> dict:
    """Write the sheet's report and its cache entry here, in parallel with the other workers, and send the
    parent only what it needs to compare the sheets (the contract, not the HTML). The entry is keyed by the hash
    of the bytes this worker read, and holds the report's hash, never the report."""
    from ..failures import report_not_written
    from ..fileio import atomic_write

    html = result.pop("html", None)
    if result.get("status") == "ok" and html and files.get("report"):
        raw = html.encode("utf-8")
        try:
            atomic_write(files["report"], raw, durable=False)
            result.update(report_written=True, report_sha256=hashlib.sha256(raw).hexdigest())
        except OSError as exc:
            result.update(html_error=report_not_written(exc), cacheable=False)
    read = result.get("sha256")
    same_file = (result.get("contract") or {}).get("source", {}).get("sha256") == read
    cache = options.get("cache")  # result_cache.Writer
    if cache and read and result.get("cacheable") and (result.get("status") == "error" or same_file):
        try:
            cache.put(read, files["name"], result)
        except OSError as exc:
            result["cache_error"] = exc.strerror or str(exc)
    result.pop("cacheable", None)
    return result


def limited(contract: dict) -> bool:
    """A page the engine skipped for lack of memory or time depends on this run's limits: such a result is not
    cached (the reader marks it: source.limited)."""
    return bool((contract.get("source") or {}).get("limited"))


def out_of_memory(max_memory_mb: int | None) -> dict:
    from ..failures import explain

    return explain(MemoryError(), max_memory_mb=max_memory_mb).as_row()


def _time_limit(seconds):
    """The engine's own per-file limit where it has one (a clean one-line error, the worker lives on); the
    parent's deadline, a little later, kills the worker whatever happens."""
    try:
        from ..limits import time_limit
    except ImportError:
        import contextlib

        return contextlib.nullcontext()
    return time_limit(seconds)


def run_one(path: str, options: dict, max_memory_mb: int | None = None) -> dict:
    """Audit one file with options["audit"] (sheetaudit.options.AuditOptions); never raises. `cacheable` marks
    results that depend only on the file and the rules. The sheet's HTML report is rendered unless
    options["report"] is False (nobody would read it)."""
    from ..failures import explain, report_not_written
    from ..output.json_out import contract as contract_of
    from .. import pipeline

    try:
        with _time_limit(options.get("timeout")):
            a = pipeline.run(path, options.get("audit"))
        contract = contract_of(a)
    except Exception as exc:  # noqa: BLE001 - any failure on one untrusted file is that file's error row
        return explain(exc, max_memory_mb=max_memory_mb, debug_hint=BATCH_DEBUG_HINT).as_row()
    out = {"status": "ok", "contract": contract, "cacheable": not limited(contract)}
    if options.get("report") is False:
        return out
    try:
        from ..output.html_out import render

        out["html"] = render(a)
    except MemoryError:
        out.update(html=None, html_error=report_not_written(MemoryError()), cacheable=False, recycle=True)
    except Exception as exc:  # noqa: BLE001 - the audit stands even when its report cannot be rendered
        out.update(html=None, html_error=report_not_written(exc), cacheable=False)
    return out
