"""CPU seconds, not wall-clock seconds, for tests that bound how much work something does.

On a busy machine the wall clock runs on while a process waits for a core; the CPU time it spends does not. So a
bound on CPU time still fails when the work itself grows (a repair loop, a limit that never fires) and holds while
other jobs share the machine.

    with cpu_seconds() as used:
        subprocess.run([...])        # children are counted once they have been waited for
    assert used() < 30
"""

from __future__ import annotations

import resource
from contextlib import contextmanager


def _total() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


@contextmanager
def cpu_seconds():
    start = _total()
    yield lambda: _total() - start
