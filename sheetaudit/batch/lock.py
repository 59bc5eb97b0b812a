"""One run at a time per output folder, and nothing left of a killed one.

Two batches writing one OUTDIR would mix their reports and tables into a result neither ran; the second is refused
with one line naming the first's process. The lock is an flock on OUTDIR/.sheetaudit.lock: the kernel releases it
when the run ends however it ends (kill -9 included), so a stale lock never blocks the next run. Holding it, a run
knows any temporary file of ours in OUTDIR (sheetaudit.fileio.atomic_write names them `.NAME.XXXXXXXX.tmp`)
belongs to a run that died mid-write, and removes it.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from contextlib import contextmanager
from pathlib import Path

from ..errors import UsageError, describe_path
from ..fileio import NOFOLLOW

LOCK_NAME = ".sheetaudit.lock"
_LEFTOVER = re.compile(r"\..+\.[A-Za-z0-9_]{8}\.tmp")  # tempfile.mkstemp(prefix=".NAME.", suffix=".tmp")


class OutdirBusy(UsageError):
    """Another run holds the output folder."""


@contextmanager
def outdir_lock(outdir: str | Path):
    """Hold OUTDIR for this run; OutdirBusy (exit 2) when another run holds it."""
    import fcntl

    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    fd = os.open(out / LOCK_NAME, os.O_RDWR | os.O_CREAT | NOFOLLOW | getattr(os, "O_CLOEXEC", 0), 0o666)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            who = f" (process {holder})" if holder.isdigit() else ""
            raise OutdirBusy(
                f"output folder {describe_path(outdir)} is in use by another sheetaudit run{who}; "
                "wait for it to end or choose another folder"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)


def remove_leftovers(outdir: str | Path) -> int:
    """Remove the temporary files a killed run left in OUTDIR and its reports/ (call it holding the lock): this
    user's regular files named as atomic_write names them. Links are not followed. Returns how many."""
    out = Path(outdir)
    removed = 0
    folders = [out]
    reports = out / "reports"
    if reports.is_dir() and not reports.is_symlink():
        folders += [Path(d) for d, _, _ in os.walk(reports)]
    for folder in folders:
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for e in entries:
            if not _LEFTOVER.fullmatch(e.name):
                continue
            try:
                st = e.stat(follow_symlinks=False)
                if stat.S_ISREG(st.st_mode) and st.st_uid == os.getuid():
                    os.unlink(e.path)
                    removed += 1
            except OSError:
                continue
    return removed
