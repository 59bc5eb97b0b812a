"""Writing files into OUTDIR and the cache: always a temporary file renamed over the target (a reader sees the
old file or the new one, never half of one), with the usual permissions; and the check, before any sheet is
audited, that OUTDIR can be written at all."""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from ..errors import OutputNotWritable, describe_path
from ..fileio import atomic_write
from ..result_cache import file_sha256

PROBE_BYTES = 64 * 1024  # a full disk still creates an empty file; it refuses data


def check_writable(folder: str | Path) -> None:
    """Create OUTDIR and write (then remove) a probe file in it, so a folder that cannot be created, a permission
    problem or a full disk is one plain error before the batch starts, not after every sheet was audited."""
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".sheetaudit-probe.", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(b"\0" * PROBE_BYTES)
                fh.flush()
                os.fsync(fh.fileno())
        finally:
            os.unlink(probe)
    except OSError as exc:
        why = exc.strerror or str(exc)
        where = f" ({describe_path(exc.filename)})" if exc.filename and str(exc.filename) != str(folder) else ""
        raise OutputNotWritable(f"cannot write to the output folder {describe_path(folder)}: {why}{where}") from None


file_digest = file_sha256  # a written output's hash, as a sheet's


def write_json_list_if_changed(path: str | Path, texts) -> bool:
    """A JSON list of items, each given as its text (batch.spool.item_text), as json.dumps(list, ensure_ascii=False,
    indent=1) + newline writes it, byte for byte, one item at a time (a batch's audit.json is never one string in
    memory); a file that already holds those bytes is left alone."""

    def chunks():
        first = True
        for text in texts:
            yield ("[\n " if first else ",\n ") + text
            first = False
        yield "[]\n" if first else "\n]\n"

    return write_chunks_if_changed(path, chunks())


def write_chunks_if_changed(path: str | Path, chunks) -> bool:
    """The file made of CHUNKS (text as UTF-8, or bytes), written as they come (never all in memory), atomically;
    a file that already holds those bytes is left alone."""
    from ..fileio import Unchanged, atomic_writer

    h = hashlib.sha256()
    changed = True
    with atomic_writer(path) as fh:
        for chunk in chunks:
            raw = chunk.encode("utf-8") if isinstance(chunk, str) else chunk
            h.update(raw)
            fh.write(raw)
        try:
            if file_digest(path) == h.hexdigest():
                changed = False
                raise Unchanged
        except OSError:
            pass
    return changed


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
