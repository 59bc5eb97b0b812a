"""What a user types for the what-if: message sizes (1GiB, 256MiB, 8MB), counts (7e9, 70B) and contract files
(`sheetaudit check --format json` output) given in place of a sheet."""
from __future__ import annotations

import json
import re
from pathlib import Path

from ..errors import UnreadableInput

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?(?:e\d+)?)\s*([KMGT]i?B|B)?\s*$", re.I)
_FACTORS = {"B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12,
            "KIB": 2**10, "MIB": 2**20, "GIB": 2**30, "TIB": 2**40}
_COUNT = re.compile(r"^\s*(\d+(?:\.\d+)?(?:e\d+)?)\s*([KMBT])?\s*$", re.I)
_SUFFIX = {"K": 1e3, "M": 1e6, "B": 1e9, "T": 1e12}


def parse_size(text: str) -> int:
    """Bytes: 1GiB = 2^30, 1GB = 10^9, a bare number is bytes."""
    m = _SIZE.match(str(text))
    if not m:
        raise ValueError(f"{text!r}: expected a size such as 1GiB, 256MiB, 8MB or 4096")
    v = float(m.group(1)) * _FACTORS[(m.group(2) or "B").upper()]
    if v < 1:
        raise ValueError(f"{text!r}: the message must be at least one byte")
    return int(round(v))


def parse_count(text: str) -> float:
    """A large count: 7e9, 7000000000, 70B (billion), 1.5T, 8192, 4K."""
    m = _COUNT.match(str(text))
    if not m:
        raise ValueError(f"{text!r}: expected a number such as 7e9, 70B or 8192")
    v = float(m.group(1)) * _SUFFIX.get((m.group(2) or "").upper(), 1)
    if v <= 0:
        raise ValueError(f"{text!r}: must be above 0")
    return v


def read_contract(path: str | Path) -> dict | None:
    """The audit contract in a .json file, or None when the path is not a .json file (a sheet to audit)."""
    p = Path(path)
    if p.suffix.lower() != ".json":
        return None
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UnreadableInput(f"{path}: not a readable audit JSON ({exc})") from None
    if not isinstance(data, dict) or not str(data.get("schema", "")).startswith("sheetaudit/") \
            or not isinstance(data.get("figures"), list):
        raise UnreadableInput(f"{path}: not the JSON of 'sheetaudit check --format json' (schema sheetaudit/1)")
    return data
