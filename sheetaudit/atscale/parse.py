"""What a user types for the what-if: message sizes (1GiB, 256MiB, 8MB), counts (7e9, 70B) and contract files
(`sheetaudit check --format json` output) given in place of a sheet."""

from __future__ import annotations

import re
from pathlib import Path


_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?(?:e\d+)?)\s*([KMGT]i?B|B)?\s*$", re.I)
_FACTORS = {
    "B": 1,
    "KB": 10**3,
    "MB": 10**6,
    "GB": 10**9,
    "TB": 10**12,
    "KIB": 2**10,
    "MIB": 2**20,
    "GIB": 2**30,
    "TIB": 2**40,
}
_COUNT = re.compile(r"^\s*(\d+(?:\.\d+)?(?:e\d+)?)\s*([KMBT])?\s*$", re.I)
_SUFFIX = {"K": 1e3, "M": 1e6, "B": 1e9, "T": 1e12}
# Far beyond any real message or model, and finite: the model's arithmetic stays in float range.
MAX_SIZE = 2**50
MAX_COUNT = 1e18


def parse_size(text: str) -> int:
    """Bytes: 1GiB = 2^30, 1GB = 10^9, a bare number is bytes."""
    m = _SIZE.match(str(text))
    if not m:
        raise ValueError(f"{text!r}: expected a size such as 1GiB, 256MiB, 8MB or 4096")
    v = float(m.group(1)) * _FACTORS[(m.group(2) or "B").upper()]
    if v < 1:
        raise ValueError(f"{text!r}: the message must be at least one byte")
    if v > MAX_SIZE:  # 1e400B is infinite: int() of it raised OverflowError
        raise ValueError(f"{text!r}: the message must be at most 1 PiB")
    return int(round(v))


def parse_count(text: str) -> float:
    """A large count: 7e9, 7000000000, 70B (billion), 1.5T, 8192, 4K."""
    m = _COUNT.match(str(text))
    if not m:
        raise ValueError(f"{text!r}: expected a number such as 7e9, 70B or 8192")
    v = float(m.group(1)) * _SUFFIX.get((m.group(2) or "").upper(), 1)
    if v <= 0:
        raise ValueError(f"{text!r}: must be above 0")
    if not v <= MAX_COUNT:
        raise ValueError(f"{text!r}: must be at most 1e18")
    return v


def read_contract(path: str | Path) -> dict | None:
    """The audit contract in a .json file, or None when the path is not a .json file (a sheet to audit). The parts
    the what-if reads are checked (rules/inputs/audit-json.yaml): a hand-edited file is one line naming the key."""
    if Path(path).suffix.lower() != ".json":
        return None
    from ..validate import load_schema, read_json

    return read_json(path, load_schema("audit-json"), what="audit JSON")
