"""Ctrl-C, SIGTERM and SIGHUP during a batch: a request to stop, never an exception in the middle of the
parent's work.

The first interrupt asks the pool to stop (it kills the workers within a tick); the parent then writes the outputs
of every sheet finished so far and the command exits 130. Any further interrupt is counted and changes nothing: a
KeyboardInterrupt raised inside the cleanup or inside the writing of index.html would lose the finished work, which
is what a second Ctrl-C in quick succession used to do.

    with Interrupts() as stop:
        pool.run(tasks, should_stop=stop.requested)
        write_outputs(...)            # a Ctrl-C here is only counted
"""

from __future__ import annotations

import signal
import threading

# SIGHUP (the terminal closed, the ssh session ended) is a request to stop like the others: the finished sheets are
# written, rather than the process dying with no outputs.
SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class Interrupts:
    def __init__(self):
        self.count = 0
        self._old: dict = {}

    def requested(self) -> bool:
        return self.count > 0

    def _on_signal(self, signum, frame) -> None:
        self.count += 1

    def __enter__(self) -> "Interrupts":
        # Only the main thread may set handlers; a library caller running a batch in a thread keeps its own.
        if threading.current_thread() is threading.main_thread():
            for sig in SIGNALS:
                self._old[sig] = signal.signal(sig, self._on_signal)
        return self

    def hold(self) -> None:
        """Ignore any further interrupt until the process exits (which it is about to): the outputs are written, and
        one more Ctrl-C must not turn exit 130 into a traceback or a death by signal."""
        for sig in self._old:
            signal.signal(sig, signal.SIG_IGN)
        self._old.clear()

    def __exit__(self, *exc) -> None:
        for sig, old in self._old.items():
            signal.signal(sig, old if old is not None else signal.SIG_DFL)
        self._old.clear()
