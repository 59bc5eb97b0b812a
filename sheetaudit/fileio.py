"""Outputs are written to a temporary file beside the target and renamed, so an interrupted run never
leaves a half-written report."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write(path: str | Path, data: str | bytes, durable: bool = True) -> None:
    """Write beside the target, then rename; the file gets the permissions a plain open() would give it.

    durable=False skips the fsync: for the many per-sheet files a batch writes while its pool runs, where a file
    lost to a power cut is only written again by the next run."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        os.fchmod(fd, 0o666 & ~_umask())   # mkstemp makes 0600; a report is meant to be shared
        with os.fdopen(fd, "wb") as fh:
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        try:
            os.replace(tmp, p)
        except OSError as exc:      # name the target (index.html is a folder), not our temporary file
            raise type(exc)(exc.errno, exc.strerror, str(p)) from None
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
