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
