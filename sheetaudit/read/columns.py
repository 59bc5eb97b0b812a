"""Tables laid out in columns of spaces, as plain-text sheets and text exports of PDFs print them:

    项目              HC-9864D            HC-9828Q
    ------------------------------------------------
    交换容量（Tbps）  102.4               51.2
    端口拆分          1 × 800GE /         2 × 200GE
                      2 × 400GE

Columns are found where the header row's cells start, by display width (a Chinese character is two columns
wide, as the sheet's author aligned it), and every row below is cut at those places until a blank line. A line
whose label column is blank continues the row above; a row with a single value spanning the columns ("same for
all models") keeps it as one cell. The table is handed on as a pipe table (read.text's one table model).
"""

from __future__ import annotations

import unicodedata

from ..regex_cache import cached as compiled

MIN_COLUMNS = 3  # a label and at least two value columns; two columns are read as "label   value" lines
CELL = compiled(r"\S+(?: \S+)*")  # a cell: runs of non-spaces joined by single spaces
RULE = compiled(r"^\s*[-=─━]{10,}\s*$")


def _width(ch: str) -> int:
    return 2 if unicodedata.east_asian_width(ch) in "WF" else 1


def _cells(line: str) -> list[tuple[int, str]]:
    """(display column where it starts, text) of each cell: parts parted by two or more spaces."""
    line = line.replace("\t", "    ")
    cols, col = [], 0
    for ch in line:
        cols.append(col)
        col += _width(ch)
    return [(cols[m.start()], m.group(0)) for m in CELL.finditer(line)]


def _cut(line: str, starts: list[int]) -> list[str]:
    """The line's text under each column (columns begin at starts; the first at 0)."""
    cells = [""] * len(starts)
    for col, text in _cells(line):
        j = max(k for k, s in enumerate(starts) if s <= col + 1)
        cells[j] = f"{cells[j]} {text}".strip()
    return cells


def find(lines: list[str], i: int) -> tuple[list[list[str]], int] | None:
    """The table whose header is lines[i], as rows of cells (the header first), and the index after it; None
    when lines[i] does not start one: a header of MIN_COLUMNS cells followed by a rule or by a row of as many."""
    if "|" in lines[i]:
        return None  # a pipe or grid table: read.text reads those by their bars
    head = _cells(lines[i])
    if len(head) < MIN_COLUMNS or any(len(t) > 40 for _, t in head):
        return None
    j = i + 1
    if j < len(lines) and RULE.match(lines[j]):
        j += 1
    if j >= len(lines) or len(_cells(lines[j])) < MIN_COLUMNS:
        return None
    starts = [0] + [c for c, _ in head[1:]]
    rows = [[t for _, t in head]]
    while j < len(lines) and lines[j].strip() and not RULE.match(lines[j]) and "|" not in lines[j]:
        cells = _cells(lines[j])
        if len(cells) == 1 and cells[0][0] < starts[1] - 1:
            break  # a line of prose from the left margin: the table has ended
        if cells[0][0] >= starts[1] - 1 and len(rows) > 1:  # the label column blank: continues
            more = _cut(lines[j], starts)
            rows[-1] = [f"{a} {b}".strip() for a, b in zip(rows[-1], more)]
        elif len(cells) == 2:  # one value for every column ("三款相同", "same for all models")
            rows.append([cells[0][1]] + [cells[1][1]] * (len(starts) - 1))
        else:
            rows.append(_cut(lines[j], starts))
        j += 1
    if len(rows) < 3:
        return None
    return rows, j
