"""Per-file time limits: a deadline the readers check between pages, an alarm that interrupts a page that
never ends, and (for the CLI) a watchdog that ends the process when even the alarm cannot get through.

    with time_limit(60):
        audit(path)          # raises TimeLimitExceeded, a one-line error, when 60 s have passed

The deadline is a context variable, so a batch that runs files in threads or worker processes can give
each file its own.
"""

from __future__ import annotations

import contextvars
import os
import signal
import sys
import threading
import time
from contextlib import contextmanager

from .errors import TimeLimitExceeded

# Work a small file may ask for, capped before the work starts (read.pdf, read.inflate): a message names each.
MAX_PDF_PAGES = 10_000  # pages read without --max-pages (a page tree may repeat one page 200,000 times)
MAX_STREAM_BYTES = 256 * 2**20  # one stream, inflated (the largest real content stream is a few MB)
MAX_INFLATED_BYTES = 2 * 2**30  # all of a PDF's streams, inflated (pictures aside)
MAX_PHOTO_PIXELS = 25_000_000  # pictures on a page drawn to tell a photograph from a scan; more: not drawn

_deadline: contextvars.ContextVar[tuple[float, float] | None] = contextvars.ContextVar(
    "sheetaudit_deadline", default=None
)
_progress = threading.local()


def set_progress(text: str) -> None:
    """Where the reader is (e.g. 'page 341 of 100000'); named in the time-limit message."""
    _progress.text = text


def _where() -> str:
    text = getattr(_progress, "text", "")
    return f" ({text})" if text else ""


def _message(seconds: float) -> str:
    where = _where()
    hint = "raise --timeout or read fewer pages with --max-pages" if "page" in where else "raise --timeout"
    return f"time limit of {seconds:g} s exceeded{where}; {hint}"


def check_deadline() -> None:
    """Raise TimeLimitExceeded when the current file's time is up. Cheap: call it between pages."""
    d = _deadline.get()
    if d is not None and time.monotonic() > d[0]:
        raise TimeLimitExceeded(_message(d[1]))


def remaining() -> float | None:
    d = _deadline.get()
    return None if d is None else max(0.0, d[0] - time.monotonic())


@contextmanager
def time_limit(seconds: float | None, hard_exit_after: float | None = None, name: str = ""):
    """Limit the block to `seconds` (None or 0: no limit).

    In the main thread a SIGALRM raises TimeLimitExceeded inside whatever is running; elsewhere the deadline is
    checked between pages only. With hard_exit_after, a daemon thread prints a one-line error and ends the
    process with exit code 2 that many seconds after the limit, for code stuck where no exception reaches it.
    """
    if not seconds or seconds <= 0:
        yield
        return
    token = _deadline.set((time.monotonic() + seconds, seconds))
    set_progress("")
    use_alarm = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
    old_handler = None
    if use_alarm:

        def _on_alarm(signum, frame):
            raise TimeLimitExceeded(_message(seconds))

        old_handler = signal.signal(signal.SIGALRM, _on_alarm)
        signal.setitimer(signal.ITIMER_REAL, seconds)
    watchdog = None
    if hard_exit_after is not None:

        def _kill():
            label = f"{name}: " if name else ""
            try:
                sys.stderr.write(f"sheetaudit: error: {label}{_message(seconds)}\n")
                sys.stderr.flush()
            finally:
                os._exit(2)

        watchdog = threading.Timer(seconds + hard_exit_after, _kill)
        watchdog.daemon = True
        watchdog.start()
    try:
        yield
    finally:
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old_handler or signal.SIG_DFL)
        if watchdog is not None:
            watchdog.cancel()
        _deadline.reset(token)


@contextmanager
def memory_limit(megabytes: int | None):
    """Cap the process's address space (RLIMIT_AS) for the block, so a pathological file ends in a
    MemoryError (a one-line error) instead of the machine swapping. None or 0: no cap."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Windows
        resource = None
    if not megabytes or resource is None:
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    want = megabytes * 2**20
    if hard != resource.RLIM_INFINITY:
        want = min(want, hard)
    try:
        resource.setrlimit(resource.RLIMIT_AS, (want, hard))
    except (ValueError, OSError):
        yield
        return
    try:
        yield
    finally:
        try:
            resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
        except (ValueError, OSError):
            pass


def run_isolated(fn, memory_mb: int | None, *args, **kwargs):
    """fn(*args, **kwargs) in a forked child under the memory cap, its result or exception passed back.

    Why: a native library (pdfium) aborts the whole process when an allocation fails under RLIMIT_AS, and a
    hostile file can crash it outright; in a child, that ends as one clear error for the file instead of a dead
    `check` with no message. Where fork is missing the call runs in this process, as before."""
    import os
    import pickle
    import signal
    from .errors import MemoryLimitExceeded, SheetAuditError, UnreadableInput

    if not hasattr(os, "fork"):
        with memory_limit(memory_mb):
            return fn(*args, **kwargs)
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: run, send back, never return into the caller
        os.close(r)
        try:
            with memory_limit(memory_mb):
                outcome = ("ok", fn(*args, **kwargs))
        except BaseException as exc:  # noqa: BLE001 - every outcome goes back to the parent
            outcome = ("error", exc)
        try:
            data = pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # noqa: BLE001
            data = pickle.dumps(("error", SheetAuditError(f"internal error: result not transferable ({exc})")))
        with os.fdopen(w, "wb") as fh:
            fh.write(data)
        os._exit(0)
    os.close(w)
    try:
        with os.fdopen(r, "rb") as fh:
            data = fh.read()
    except BaseException:  # the time limit or Ctrl-C in the parent: end the child too
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        raise
    _, status = os.waitpid(pid, 0)
    if not data:
        sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
        if sig in (signal.SIGABRT, signal.SIGKILL) and memory_mb:
            from .failures import pdf_out_of_memory

            raise MemoryLimitExceeded(pdf_out_of_memory(memory_mb))
        how = signal.Signals(sig).name if sig else f"exit code {os.WEXITSTATUS(status)}"
        raise UnreadableInput(f"damaged PDF: the PDF library crashed on it ({how})")
    kind, value = pickle.loads(data)
    if kind == "error":
        raise value
    return value
