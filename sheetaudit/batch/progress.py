"""Progress on stderr: one line rewritten in place, only when stderr is a terminal and --quiet is not given."""

from __future__ import annotations

import re
import shutil
import sys
import time

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """A file name or message fit for a terminal: control characters (escape sequences, newlines) escaped."""
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), str(text))


def _clock(seconds: float) -> str:
    m, s = divmod(int(seconds), 60)
    h, m = divmod(m, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"


class Progress:
    def __init__(self, total: int, enabled: bool, stream=None):
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.total = total
        self.done = 0
        self.errors = 0
        self.cached = 0
        self.current = ""
        self.start = time.monotonic()
        self._last = 0.0
        self._shown = False

    @classmethod
    def for_terminal(cls, total: int, quiet: bool) -> "Progress":
        stream = sys.stderr
        return cls(total, enabled=(not quiet and hasattr(stream, "isatty") and stream.isatty()), stream=stream)

    def started(self, name: str) -> None:
        self.current = printable(name)
        self.draw()

    def finished(self, name: str, error: bool, cached: bool = False) -> None:
        self.done += 1
        self.errors += int(error)
        self.cached += int(cached)
        self.draw(force=self.done == self.total)

    def draw(self, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if not force and now - self._last < 0.1:
            return
        self._last = now
        width = shutil.get_terminal_size((100, 20)).columns
        head = (
            f"[{self.done}/{self.total}] {_clock(now - self.start)}  errors {self.errors}"
            + (f"  cached {self.cached}" if self.cached else "")
            + "  "
        )
        room = max(0, width - len(head) - 1)
        cur = self.current if len(self.current) <= room else "…" + self.current[-(room - 1) :] if room > 1 else ""
        self.stream.write("\r" + (head + cur)[: width - 1].ljust(width - 1))
        self.stream.flush()
        self._shown = True

    def clear(self) -> None:
        if self.enabled and self._shown:
            width = shutil.get_terminal_size((100, 20)).columns
            self.stream.write("\r" + " " * (width - 1) + "\r")
            self.stream.flush()
            self._shown = False

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.start
