"""Text fit for UTF-8 outputs (JSON, HTML, CSV, a terminal).

Two things put lone surrogates in a Python string, and UTF-8 cannot encode either: a file name that is not UTF-8
(a Latin-1 name from an old zip; Python keeps each bad byte as U+DC80..U+DCFF, "surrogateescape"), and a damaged
PDF text layer (half of a UTF-16 pair). Both are made printable here, once, where a result leaves the engine: a
name's byte is shown as \\xe9 (the name stays recognisable and distinct), any other lone surrogate as U+FFFD.

    safe_text("caf\\udce9.pdf")       # 'caf\\\\xe9.pdf'
    safe_data({"text": "a\\ud800b"})   # {'text': 'a\\ufffdb'}
"""

from __future__ import annotations

import re

_SURROGATE = re.compile("[\ud800-\udfff]")


def _printable(m: re.Match) -> str:
    c = ord(m.group())
    return f"\\x{c - 0xDC00:02x}" if 0xDC80 <= c <= 0xDCFF else "\ufffd"


def safe_text(s: str) -> str:
    if s.isascii() or not _SURROGATE.search(s):
        return s
    return _SURROGATE.sub(_printable, s)


def safe_data(obj):
    """`obj` (dicts, lists, strings, numbers) rebuilt with every string made safe."""
    if isinstance(obj, str):
        return safe_text(obj)
    if isinstance(obj, dict):
        return {safe_data(k): safe_data(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return type(obj)(safe_data(v) for v in obj)
    return obj
