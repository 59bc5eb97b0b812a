"""Text laid out for a terminal: display widths that count a Chinese character as two columns (East Asian
Wide and Fullwidth, as wcwidth does), padding and clipping by those widths, and word wrapping that may break
between CJK characters, which have no spaces between words.

The standard library's unicodedata has the width table; that is all wcwidth adds for the text a sheet holds
(no emoji sequences, no zero-width joiners), so no dependency is needed.
"""

from __future__ import annotations

import re
import shutil
import unicodedata

_CJK = "\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef"
_TOKEN = re.compile(rf"\s+|[{_CJK}]|[^\s{_CJK}]+")


def char_width(ch: str) -> int:
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def width(s: str) -> int:
    """Columns `s` takes in a terminal."""
    return sum(char_width(ch) for ch in s)


def clip(s: str, cols: int) -> str:
    """`s` cut to `cols` columns, an ellipsis marking the cut."""
    if width(s) <= cols:
        return s
    out, used = [], 0
    for ch in s:
        w = char_width(ch)
        if used + w > cols - 1:
            break
        out.append(ch)
        used += w
    return "".join(out) + "…"


def pad(s: str, cols: int) -> str:
    """`s` clipped to `cols` columns and padded with spaces to exactly that many."""
    s = clip(s, cols)
    return s + " " * (cols - width(s))


def wrap(text: str, cols: int, first: str = "", rest: str = "") -> list[str]:
    """Greedy word wrap to `cols` columns; the first line starts with `first`, the others with `rest`."""
    lines: list[str] = []
    line, used, space = first, width(first), ""
    for tok in _TOKEN.findall(text):
        if tok.isspace():
            space = " "
            continue
        w = width(tok)
        if used + len(space) + w > cols and line.strip():
            lines.append(line.rstrip())
            line, used, space = rest, width(rest), ""
        while used + w > cols and w > 1:  # a token longer than the line: split it by characters
            room = cols - used - len(space)
            head = clip(tok, room + 1)[:-1] if room > 0 else ""
            if not head:
                lines.append(line.rstrip())
                line, used, space = rest, width(rest), ""
                continue
            lines.append(line + space + head)
            tok = tok[len(head) :]
            w = width(tok)
            line, used, space = rest, width(rest), ""
        line += space + tok
        used += len(space) + w
        space = ""
    if line.strip() or not lines:
        lines.append(line.rstrip())
    return lines


def columns(default: int = 100) -> int:
    """The terminal's width ($COLUMNS first); `default` when the output is not a terminal."""
    return max(40, shutil.get_terminal_size((default, 24)).columns)
