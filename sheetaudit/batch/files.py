"""Writing files into OUTDIR and the cache: always a temporary file renamed over the target (a reader sees the
old file or the new one, never half of one), with the usual permissions."""
from __future__ import annotations

from pathlib import Path

from ..fileio import atomic_write


def write_if_changed(path: str | Path, data: str | bytes, durable: bool = True) -> bool:
    """Leave a file that already holds these bytes alone (a cached re-run rewrites nothing)."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        if Path(path).read_bytes() == raw:
            return False
    except OSError:
        pass
    atomic_write(path, raw, durable=durable)
    return True
