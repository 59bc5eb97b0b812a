"""Where the rules/ folder is: a module of its own, below everything, so that what reads a rule file before the
rules are loaded (sheetaudit.regex_cache, for rules/zh_variants.txt) imports nothing above it."""

from __future__ import annotations

import os
from pathlib import Path

from .errors import RulesError


def rules_dir() -> Path:
    env = os.environ.get("SHEETAUDIT_RULES")
    if env:
        return Path(env)
    here = Path(__file__).resolve().parent
    for cand in (here.parent / "rules", here / "_rules"):
        if (cand / "checks.yaml").exists():
            return cand
    raise RulesError(f"rules folder not found next to {here} (set SHEETAUDIT_RULES)")
