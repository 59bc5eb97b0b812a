"""Ruled tables from a page's line segments: pdfplumber's table-finding algorithm ("lines" strategy, its
default tolerances), on plain tuples.

It is written out here rather than imported because importing pdfplumber loads pdfminer (about a third of
the time of auditing a one-page sheet) and pdfminer parses nothing here any more. The steps and their order
are pdfplumber's, so a page gives the same cells:

1. snap: edges of one orientation whose positions lie within SNAP of each other (chained) move to the mean;
2. join: edges on one line whose ends lie within JOIN of each other become one; edges shorter than
   MIN_LENGTH are dropped;
3. intersections: each vertical edge crossing a horizontal one (within INTERSECT) makes a vertex;
4. cells: from each vertex, the smallest rectangle whose four corners are vertices joined by shared edges;
5. tables: cells that share a corner, grown until no cell joins; tables of one cell are dropped;
6. rows: each table's cells grouped by top, placed by their left edge (None where a cell spans columns).
"""

from __future__ import annotations

from itertools import groupby

SNAP = 3.0
JOIN = 3.0
MIN_LENGTH = 3.0
INTERSECT = 3.0

Edge = tuple[float, float, float]  # (position, start, end): h (top, x0, x1), v (x, top, bottom)
Cell = tuple[float, float, float, float]  # x0, top, x1, bottom


def _snap(edges: list[Edge]) -> list[Edge]:
    """Each chain of positions within SNAP of the next moves to the mean position of its edges."""
    if not edges:
        return []
    values = sorted({e[0] for e in edges})
    cluster, n = {values[0]: 0}, 0
    for a, b in zip(values, values[1:]):
        n += b > a + SNAP
        cluster[b] = n
    members: dict[int, list[Edge]] = {}
    for e in edges:
        members.setdefault(cluster[e[0]], []).append(e)
    out = []
    for group in members.values():
        mean = sum(e[0] for e in group) / len(group)
        out.extend((mean, e[1], e[2]) for e in group)
    return out


def _join(edges: list[Edge]) -> list[Edge]:
    out = []
    for _, line in groupby(sorted(edges), key=lambda e: e[0]):
        joined: list[list[float]] = []
        for pos, start, end in line:
            if joined and start <= joined[-1][2] + JOIN:
                joined[-1][2] = max(joined[-1][2], end)
            else:
                joined.append([pos, start, end])
        out.extend(tuple(e) for e in joined if e[2] - e[1] >= MIN_LENGTH)
    return out


def _cells(h: list[Edge], v: list[Edge]) -> list[Cell]:
    vertices: dict[tuple[float, float], tuple[set, set]] = {}
    h = sorted(h)
    for x, vtop, vbottom in sorted(v):
        for top, x0, x1 in h:
            if vtop <= top + INTERSECT and vbottom >= top - INTERSECT and x0 - INTERSECT <= x <= x1 + INTERSECT:
                ve, he = vertices.setdefault((x, top), (set(), set()))
                ve.add((x, vtop, vbottom))
                he.add((top, x0, x1))

    def joined(p, q) -> bool:
        return bool(
            (p[0] == q[0] and vertices[p][0] & vertices[q][0]) or (p[1] == q[1] and vertices[p][1] & vertices[q][1])
        )

    points = sorted(vertices)
    # the vertices after each one in sorted order that share its x (those below it) or its top (those right
    # of it), found by column and by row instead of by scanning all the vertices after it
    columns: dict[float, list] = {}
    rows: dict[float, list] = {}
    for pt in points:
        columns.setdefault(pt[0], []).append(pt)
        rows.setdefault(pt[1], []).append(pt)
    cells = []
    for pt in points:
        below = [p for p in columns[pt[0]] if p[1] > pt[1] and joined(pt, p)]
        right = [p for p in rows[pt[1]] if p[0] > pt[0] and joined(pt, p)]
        cell = next(
            (
                (pt[0], pt[1], r[0], b[1])
                for b in below
                for r in right
                if (r[0], b[1]) in vertices and joined((r[0], b[1]), r) and joined((r[0], b[1]), b)
            ),
            None,
        )
        if cell:
            cells.append(cell)
    return cells


def _tables(cells: list[Cell]) -> list[list[Cell]]:
    remaining = list(cells)
    tables: list[list[Cell]] = []
    corners: set = set()
    current: list[Cell] = []
    while remaining:
        before = len(current)
        for cell in list(remaining):
            x0, top, x1, bottom = cell
            mine = {(x0, top), (x0, bottom), (x1, top), (x1, bottom)}
            if not current or corners & mine:
                corners |= mine
                current.append(cell)
                remaining.remove(cell)
        if len(current) == before:
            tables.append(current)
            corners, current = set(), []
    if current:
        tables.append(current)
    tables.sort(key=lambda t: min((c[1], c[0]) for c in t))
    return [t for t in tables if len(t) > 1]


def _rows(cells: list[Cell]) -> list[list[Cell | None]]:
    xs = sorted({c[0] for c in cells})
    rows = []
    for _, row in groupby(sorted(cells, key=lambda c: (c[1], c[0])), key=lambda c: c[1]):
        at = {c[0]: c for c in row}
        rows.append([at.get(x) for x in xs])
    return rows


def find_tables(h_edges: list[Edge], v_edges: list[Edge]) -> list[tuple[Cell, list[list[Cell | None]]]]:
    """Ruled tables: [(table box, rows of cell boxes)], top to bottom."""
    h, v = _join(_snap(h_edges)), _join(_snap(v_edges))
    if len(h) < 2 or len(v) < 2:
        return []
    out = []
    for cells in _tables(_cells(h, v)):
        box = (min(c[0] for c in cells), min(c[1] for c in cells), max(c[2] for c in cells), max(c[3] for c in cells))
        out.append((box, _rows(cells)))
    return out
