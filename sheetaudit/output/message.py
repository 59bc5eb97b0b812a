"""A finding's message as its parts: a lead sentence, one item per figure where it lists figures ("A (p1) read
as ...; B (p2) read as ..."), and any closing sentence, so every format can show a list as a list."""

from __future__ import annotations

import re
from typing import NamedTuple

_FIGURE_REF = re.compile(r"\(p\d+")
_CLOSING = re.compile(r"\.\s+(?=[A-Z])")


class Parts(NamedTuple):
    lead: str
    items: list[str]
    tail: str = ""


def _top_level(message: str, sep: str = "; ") -> list[str]:
    """MESSAGE cut at SEP where it stands outside parentheses: a list inside '(...)' is part of its sentence."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(message):
        c = message[i]
        depth += c in "([" and 1 or (-1 if c in ")]" and depth else 0)
        if depth == 0 and message.startswith(sep, i):
            parts.append(message[start:i])
            start = i = i + len(sep)
            continue
        i += 1
    return parts + [message[start:]]


def split_list(message: str) -> Parts:
    """The figures a message lists, one item each; no items when it lists fewer than two (a list inside
    parentheses stays in its sentence)."""
    parts = _top_level(message)
    if len(parts) < 2 or not all(_FIGURE_REF.search(p) for p in parts):
        return Parts(message, [])
    first = parts[0]
    at = _FIGURE_REF.search(first).start()
    cut = max(first.rfind(". ", 0, at), first.rfind(": ", 0, at))
    lead, items = (first[: cut + 1], [first[cut + 2 :]] + parts[1:]) if cut >= 0 else ("", parts)
    tail = ""
    m = _CLOSING.search(items[-1])
    if m and not _FIGURE_REF.search(items[-1][m.end() :]):
        items[-1], tail = items[-1][: m.start()], items[-1][m.end() :]
    return Parts(lead, [i.strip().rstrip(".") for i in items], tail)
