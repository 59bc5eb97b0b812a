"""Writing files into OUTDIR and the cache: always a temporary file renamed over the target (a reader sees the
old file or the new one, never half of one), with the usual permissions."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ..fileio import atomic_write


def fast_atomic_write(path: str | Path, data: str | bytes) -> None:
    """Atomic, without fileio.atomic_write's fsync: for the many per-sheet files (reports, cache entries) written
    while the pool runs, where a file lost to a power cut is only written again by the next run."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_file(path: str | Path, data: str | bytes, durable: bool = True) -> None:
    """Atomic, with the permissions a new file normally gets (mkstemp's are private, 0600: a report is for
    sharing). durable=True also fsyncs (fileio.atomic_write)."""
    if durable:
        atomic_write(path, data)
    else:
        fast_atomic_write(path, data)
    os.chmod(path, 0o666 & ~_umask())


def write_if_changed(path: str | Path, data: str | bytes, durable: bool = True) -> bool:
    """Leave a file that already holds these bytes alone (a cached re-run rewrites nothing)."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        if Path(path).read_bytes() == raw:
            return False
    except OSError:
        pass
    write_file(path, raw, durable)
    return True
