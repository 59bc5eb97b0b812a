"""Where sheetaudit keeps what it can rebuild; a module of its own so the rule and pattern caches, read before
anything else, import nothing heavy to find it."""

from __future__ import annotations

import os
from pathlib import Path


def user_cache_dir() -> Path:
    """The one folder where sheetaudit keeps what it can rebuild (compiled rules and patterns, pint's registry,
    compiled templates): $XDG_CACHE_HOME/sheetaudit, else ~/.cache/sheetaudit. The XDG spec says a relative value
    is invalid; an empty one (XDG_CACHE_HOME=) is unset, not the working directory."""
    env = os.environ.get("XDG_CACHE_HOME", "")
    return (Path(env) if os.path.isabs(env) else Path.home() / ".cache") / "sheetaudit"


KEEP_PER_FAMILY = 8  # files of one family kept: the rules folders a user switches between (a copy, --rules)
HASH16 = "[0-9a-f]" * 16  # the rules hash in a family's names (a glob)


def store(path: Path, data: bytes, family: str) -> None:
    """Write a rebuildable file atomically (fileio.atomic_write, no fsync: a lost file is rebuilt), then remove the
    oldest files of its family (those named by the glob FAMILY, one per rules hash) past the newest
    KEEP_PER_FAMILY: each edit of the rules writes new ones, and nothing else ever removes the old. A link among
    them is removed, never followed. Raises OSError; a caller with nowhere to write runs without its cache."""
    from .fileio import atomic_write

    atomic_write(path, data, durable=False)
    aged = []
    for p in path.parent.glob(family):
        try:
            aged.append((p.lstat().st_mtime_ns, p))
        except OSError:
            continue
    for _, p in sorted(aged, reverse=True)[KEEP_PER_FAMILY:]:
        if p != path:
            try:
                p.unlink()
            except OSError:
                pass
