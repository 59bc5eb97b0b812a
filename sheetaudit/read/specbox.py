"""Spec boxes read by their geometry: a borderless table of labels in one column and values in the next.

Desktop publishing sets a product's specifications as two columns with no rules, each value on the baseline of
its label ("Memory Bandwidth   Up to 80GB/s"), and puts the box wherever the page has room: beside running text,
under a caption, above a footer that runs the page's width. Cut as a whole page, such a page has no gutter that
runs its full height, and its rows, set further apart than the lines of a paragraph, are sliced one by one: the
labels come out as one list and the values as another. So the boxes are found first, on the page itself:

1. chunks: each line's words, parted where a gap reaches a gutter's width (a label, a value, a line of prose);
2. rows: two chunks side by side on one baseline; rows whose labels line up on their left (or right) edge are a
   candidate box, at least ROWS_MIN of them, their values where the values' column is (set flush left, centred
   or flush right: a short value may stand in a later variant's column where the first is blank on its row);
3. a candidate is a box when its labels are short, not running text, no bullets nor bare note numbers, not
   larger than the values nor more often figures than the values, its values are not running text, and its
   labels are not the values of a column further left (the leftmost column of a grid is its labels); columns
   of further variants right of the values (strips of short chunks on most rows' lines, in the values' type)
   belong to it, a chart's labels or a column of running text beside it do not;
4. its extent: from the first row to the last, and on while lines go on close below (a wrapped value, a wrapped
   label, the next item of a list of values); a line between them that crosses from the label column into the
   value column (a caption across, prose) or a gap of several lines ends it (each part with ROWS_MIN rows is a
   box). Above the first row it takes rows whose labels are indented (sub-rows) with the parent label over them,
   or one line of column heads over the values ("H100 SXM   H100 NVL").

The box's words become one opaque item (layout.Box) for the page's XY-cut, so it keeps its place in reading
order, and its labels and values are paired as a label/value list (layout.PageBuilder.kv).
"""

from __future__ import annotations

from .layout import BULLETS, FIGURE_LIKE, FOOTNOTE_MARKERS, MODEL_NAME, Box, Item, _body_size, _gaps, _is_prose, _lines

ROWS_MIN = 3  # rows that make a box
ALIGN = 0.35  # two chunks are on one baseline when their bottoms lie within this share of the size
EDGE = 2.5  # points: the slack of a column's edge
MAX_LABEL_WORDS = 5  # a label column's lines are this many words long at most, on average
_NOTE_NUMBER = set("0123456789.()" + FOOTNOTE_MARKERS)


def _X0(c):
    return c.x0


def _X1(c):
    return c.x1


class Chunk:
    """A run of words on one line, parted from the next by at least a gutter."""

    __slots__ = ("words", "x0", "x1", "top", "bottom", "size", "base")

    def __init__(self, words: list[Item]):
        self.words = words
        first = words[0]
        self.x0, self.x1 = first.x0, words[-1].x1
        self.top = min(w.top for w in words)
        self.bottom = max(w.bottom for w in words)
        self.size, self.base = first.size, first.bottom  # the first word's: a superscript note follows it


def _chunks(line: list[Item], gutter: float) -> list[Chunk]:
    out: list[Chunk] = []
    run = [line[0]]
    for w in line[1:]:
        if w.x0 - run[-1].x1 >= gutter or abs(w.bottom - run[-1].bottom) > w.size:
            out.append(Chunk(run))
            run = [w]
        else:
            run.append(w)
    out.append(Chunk(run))
    return out


def _clusters(values: list[tuple[float, object]], slack: float) -> list[list]:
    """The objects grouped by a position, each group a chain of positions at most slack apart."""
    values.sort(key=lambda v: v[0])
    groups: list[list] = []
    last = None
    for x, obj in values:
        if last is None or x - last > slack:
            groups.append([])
        groups[-1].append(obj)
        last = x
    return groups


def find_boxes(items: list[Item]) -> list[Item]:
    """The page's items with each spec box's words replaced by one layout.Box."""
    words = [i for i in items if i.table is None]
    if len(words) < 2 * ROWS_MIN:
        return items
    size = _body_size(words)
    gutter = max(7.0, 0.8 * size)
    lines = [_chunks(ln, gutter) for ln in _lines(words)]
    pairs = []
    for line in lines:
        for a, b in zip(line, line[1:]):
            if abs(a.base - b.base) <= ALIGN * min(a.size, b.size):
                pairs.append((a, b))
    pairs += _centred(lines, gutter, pairs)
    if len(pairs) < ROWS_MIN:
        return items
    # a label column: labels set flush left (or flush right) one under the other, each with a value beside it (set
    # flush left, centred or flush right in its own column: the value column is where the rows' values are)
    candidates = [
        g for edge in (_X0, _X1) for g in _clusters([(edge(a), (a, b)) for a, b in pairs], EDGE) if len(g) >= ROWS_MIN
    ]
    if not candidates:
        return items
    chunks = sorted((c for line in lines for c in line), key=lambda c: c.top)
    claimed: set[int] = set()
    boxes: list[Box] = []
    # the leftmost candidate of a grid first: its rows take the columns right of its values
    for rows in sorted(candidates, key=lambda g: (min(a.x0 for a, _ in g), -len(g))):
        rows = _value_column([(a, b) for a, b in rows if id(a) not in claimed and id(b) not in claimed])
        if len(rows) < ROWS_MIN or not _plausible(rows, lines):
            continue
        rows.sort(key=lambda r: r[1].top)
        for box in _boxes(rows, chunks, lines, gutter, claimed):
            boxes.append(box)
    if not boxes:
        return items
    taken = {id(w) for box in boxes for w in box.labels + box.values}
    return [i for i in items if id(i) not in taken] + boxes


def _centred(lines: list[list[Chunk]], gutter: float, pairs) -> list[tuple[Chunk, Chunk]]:
    """(label, value's first line) where a label is set against the middle of a value of two lines (or four): a line
    of one chunk whose centre lies midway between the centres of the two lines of one value beside it, on no
    baseline of theirs (a table set with its cells centred vertically, without rules)."""
    out = []
    paired = {id(c) for p in pairs for c in p}
    left_of = {id(b): a for a, b in pairs}  # a value line on another label's baseline is that label's
    for k in range(1, len(lines) - 1):
        if len(lines[k]) != 1 or id(lines[k][0]) in paired:
            continue
        a = lines[k][0]
        up, down = lines[k - 1], lines[k + 1]
        if any(c.x0 < a.x1 + gutter and c.x1 > a.x0 for c in up + down):
            continue  # a line above or below in the label's column: a paragraph, or a label of its own
        b1 = next((c for c in up if c.x0 >= a.x1 + gutter), None)
        b2 = next((c for c in down if c.x0 >= a.x1 + gutter), None)
        if b1 is None or b2 is None or abs(b1.x0 - b2.x0) > EDGE:
            continue
        if any(id(b) in left_of and abs(left_of[id(b)].x0 - a.x0) <= EDGE for b in (b1, b2)):
            continue
        if b2.top - b1.bottom > 0.6 * b1.size:
            continue  # two rows' values, not two lines of one
        mid = (b1.top + b1.bottom + b2.top + b2.bottom) / 4
        if abs((a.top + a.bottom) / 2 - mid) <= ALIGN * min(a.size, b1.size):
            out.append((a, b1))
    return out


def _value_column(rows):
    """The rows whose value starts where the values' column does (flush left, or centred or flush right within a
    few ems): a label's wrapped line beside a line of running text further right is no row."""
    if len(rows) < ROWS_MIN:
        return rows
    edge = _median([b.x0 for _, b in rows])
    return [(a, b) for a, b in rows if b.x0 <= edge + 4 * b.size or len(b.words) <= MAX_LABEL_WORDS]


def _plausible(rows, lines) -> bool:
    labels = [a for a, _ in rows]
    values = [b for _, b in rows]
    n = len(rows)
    if sum(len(a.words) for a in labels) > MAX_LABEL_WORDS * n:
        return False  # running text beside a column: its lines are not labels
    if sum(1 for a in labels if a.words[0].text[:1].islower()) >= 0.3 * n:
        return False  # lines of running text set in narrow columns: they go on from the line above
    if sum(1 for a in labels if a.words[0].text[:1] in BULLETS) >= 0.3 * n:
        return False  # bulleted lists side by side
    if sum(1 for a in labels if len(a.words) == 1 and set(a.words[0].text) <= _NOTE_NUMBER) >= 0.5 * n:
        return False  # numbered notes or a numbered list
    if _median([a.size for a in labels]) > 1.15 * _median([b.size for b in values]):
        return False  # headings beside small text
    if _running_text(labels) or (_running_text(values) and not _short_values(rows, lines)):
        return False  # columns of running text side by side, narrow enough that their lines are short
    if _digit_share(labels) > max(0.5, 0.8 * _digit_share(values)):
        return False  # figures beside figures: the columns of a grid whose labels are elsewhere
    if _is_prose([b.words for b in values]):
        return False  # a sidebar beside running text
    # a later column of a wider grid: most labels have a short chunk on their baseline to their left
    before = 0
    lefts = {id(a) for a in labels}
    for line in lines:
        for p, q in zip(line, line[1:]):
            if id(q) in lefts and len(p.words) <= MAX_LABEL_WORDS and abs(p.base - q.base) <= ALIGN * q.size:
                before += 1
    return before < 0.5 * n


def _short_values(rows, lines) -> bool:
    """Values of a line or two each, filled to a narrow column's width (a spec table in a side column), not
    paragraphs: the value column's lines from the first row to the last are at most 2.5 a row."""
    x0 = _median([b.x0 for _, b in rows])
    top, bottom = min(b.top for _, b in rows), max(b.bottom for _, b in rows)
    n = sum(1 for line in lines for c in line if abs(c.x0 - x0) <= EDGE and top - 1 <= c.top <= bottom + 2 * c.size)
    return n <= 2.5 * len(rows)


def _median(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[len(xs) // 2]


def _boxes(rows, chunks: list[Chunk], lines, gutter: float, claimed: set[int]):
    """The boxes the rows make (a line that crosses the columns between rows parts them), claiming their chunks."""
    label_lo = min(a.x0 for a, _ in rows) - EDGE
    if max(a.x1 for a, _ in rows) - min(a.x1 for a, _ in rows) <= 2 * EDGE:
        label_lo -= 4 * rows[0][0].size  # labels set flush right: a wrapped one may reach further left
    value_lo = min(b.x0 for _, b in rows)
    gutter_mid = (max(a.x1 for a, _ in rows) + value_lo) / 2
    if max(a.x1 for a, _ in rows) > value_lo:
        return
    right = _right_edge(rows, lines, gutter)
    size = _median([b.size for _, b in rows])

    def region(c: Chunk) -> str:
        if c.x1 < label_lo or c.x0 > right + EDGE:
            return "out"
        if c.x0 >= gutter_mid:
            return "value"  # starts right of the gutter's middle (a value centred in a wide column may start
            # left of the rows' values)
        if c.x0 >= label_lo and c.x1 <= value_lo + EDGE:
            return "label"
        return "foreign"

    inside = [c for c in chunks if id(c) not in claimed and region(c) != "out"]
    row_of = {id(a): k for k, (a, _) in enumerate(rows)}
    tol = ALIGN * size
    k = 0
    while k < len(rows):
        first = rows[k][0]
        # (a label set against the middle of its value starts below the value's first line)
        start = next(n for n, c in enumerate(inside) if c.top >= min(first.top, rows[k][1].top) - tol)
        # down from the first row: the next row joins while no line crosses the columns and no gap is wider than
        # a few lines
        members: list[Chunk] = []
        pending: list[Chunk] = []
        bottom, last = first.bottom, k
        for c in inside[start:]:
            if c.top > bottom + 2.5 * size or region(c) == "foreign":
                break
            pending.append(c)
            bottom = max(bottom, c.bottom)
            if row_of.get(id(c), -1) > last:
                last = row_of[id(c)]
                members += pending
                pending = []
        # after the last row: its own line and the lines close under it (a wrapped label; a wrapped value, or the
        # next item of a list of values)
        end = max(rows[last][0].bottom, rows[last][1].bottom)
        for c in pending:
            if c.top > end + (1.2 if region(c) == "value" else 0.8) * size:
                break
            members.append(c)
            end = max(end, c.bottom)
        if last - k + 1 >= ROWS_MIN:
            members += _above(first, inside[:start], region, size)
            members = [c for c in members if id(c) not in claimed]
            labels = [w for c in members if region(c) == "label" for w in c.words]
            values = [w for c in members if region(c) == "value" for w in c.words]
            if labels and values:
                claimed.update(id(c) for c in members)
                yield _box(labels, values)
        k = last + 1


def _right_edge(rows, lines, gutter: float) -> float:
    """Where the box ends on the right: its values' column and the columns of further variants beside it (strips
    of short chunks on most rows' lines, in the values' type, figures where its values are figures), not a column
    of running text, a chart's labels, nor the labels of a second box beside it."""
    edge = _median([b.x0 for _, b in rows]) + 4 * rows[0][1].size
    right = max(b.x1 for _, b in rows)
    by_value = {id(b) for _, b in rows}
    extra: list[list[Chunk]] = []
    for line in lines:
        for n, c in enumerate(line):
            if id(c) in by_value:
                # the chunks on the value's baseline right of it; a value set in a later column (the first one
                # blank on this row) is one of them
                start = n + 1 if c.x0 <= edge else n
                extra.append(line[start:])
                break
    more = [c for cs in extra for c in cs]
    if not more:
        return right
    digits = _digit_share([b for _, b in rows])
    size = _median([b.size for _, b in rows])
    first = rows[0][1]
    models = _model_name(first)  # the first row names the variants: a column it heads is one, however sparse
    edges = [(a + b) / 2 for a, b in _gaps([(c.x0, c.x1) for c in more], gutter)] + [float("inf")]
    lo = float("-inf")
    for hi in edges:
        strip = [c for c in more if lo < c.x0 < hi]
        lo = hi
        if not strip:
            continue
        share = sum(1 for cs in extra if any(c in strip for c in cs))
        headed = (
            models and share >= 2 and any(abs(c.base - first.base) <= ALIGN * size and _model_name(c) for c in strip)
        )
        if (
            (share < 0.5 * len(rows) and not headed)
            or sum(len(c.words) for c in strip) > 2 * MAX_LABEL_WORDS * len(strip)
            or _digit_share(strip) < 0.5 * digits
            or abs(_median([c.size for c in strip]) - size) > 0.15 * size
        ):
            break
        right = max(right, max(c.x1 for c in strip))
    return right


def _model_name(c: Chunk) -> bool:
    """A chunk that names a variant ("CloudEngine 16808", "H100 NVL"): a short product code with no figure."""
    text = " ".join(w.text for w in c.words)
    return bool(MODEL_NAME.match(text)) and not FIGURE_LIKE.search(text)


def _running_text(chunks: list[Chunk]) -> bool:
    """Lines of running text: most of them several words long and filled to their column's width (labels and values
    are ragged)."""
    if len(chunks) < 4:
        return False
    x0, x1 = min(c.x0 for c in chunks), max(c.x1 for c in chunks)
    full = sum(1 for c in chunks if len(c.words) >= 4 and c.x1 - c.x0 >= 0.8 * (x1 - x0))
    return full >= 0.6 * len(chunks)


def _digit_share(chunks: list[Chunk]) -> float:
    return sum(1 for c in chunks if any(ch.isdigit() for w in c.words for ch in w.text)) / len(chunks)


def _above(first: Chunk, before: list[Chunk], region, size: float) -> list[Chunk]:
    """Lines just above a box's first row that belong to it: rows of indented labels (sub-rows) with their parent
    label over them, or one line of column heads over the values ("H100 SXM   H100 NVL")."""
    tol = ALIGN * size
    lines: list[list[Chunk]] = []
    for c in reversed(before):  # nearest first
        if lines and abs(lines[-1][0].base - c.base) <= tol:
            lines[-1].append(c)
        else:
            lines.append([c])
    out: list[Chunk] = []
    top, label_x = first.top, first.x0
    for line in lines:
        if top - max(c.bottom for c in line) > 1.5 * size:
            break
        kinds = {region(c) for c in line}
        if kinds == {"label", "value"}:
            out += line  # a sub-row
            label_x = min(c.x0 for c in line if region(c) == "label")
        elif kinds == {"label"}:
            if out and min(c.x0 for c in line) < label_x - EDGE:
                out += line  # the sub-rows' parent
            break
        elif kinds == {"value"}:
            if not out and not any(c.size > 1.15 * size for c in line):
                out += line  # the heads of the value columns
            break
        else:
            break
        top = min(c.top for c in line)
    return out


def _box(labels: list[Item], values: list[Item]) -> Box:
    every = labels + values
    return Box(
        min(i.x0 for i in every),
        min(i.top for i in every),
        max(i.x1 for i in every),
        max(i.bottom for i in every),
        table=[],
        labels=labels,
        values=values,
    )
