"""Page layout: words and ruled tables -> segments in reading order.

Vendor sheets set prose in two or three columns, spec lists as un-ruled label/value columns, and product
variants side by side. pdfplumber's extract_text() interleaves such columns line by line, so we cut the page
recursively at its widest whitespace gap (XY-cut), which keeps each column, each label column and each
variant column whole. A vertical cut whose left side is a narrow column of short lines is read as a
label/value list, and each value is given its row label. Spec boxes whose labels and values share baselines are
found before the cut, by their geometry (read.specbox), and cut as one block: a page whose box sits beside running
text, over a footer as wide as the page, has no gutter that runs its height, and its rows would be sliced apart.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Optional

from ..records import Segment
from ..regex_cache import cached as compiled

FOOTNOTE_MARKERS = "¹²³⁴⁵⁶⁷⁸⁹*†‡§"
BULLETS = "•▪●◦■►–—-"
# A note from its marker up to the next marker that starts another note (after a space; "*" only at the start:
# it is too common inside a note's text)
_NOTES = compiled(r"[¹²³⁴⁵⁶⁷⁸⁹*†‡§].*?(?=\s[¹²³⁴⁵⁶⁷⁸⁹†‡§]\s|$)", re.S)
SENTENCE_END = compiled(r"(?<=[.!?])\s+(?=[A-Z\"“(¹²³⁴⁵*†])|(?<=[。！？；])")
ODD_SPACE = compiled(r"\s\s|[^\S ]")  # what re.sub(r"\s+", " ") would change
_BY_TOP = attrgetter("top", "x0")
# A variant's name: a short product code with a digit in it ("7050SDX4-48D8", "H100 NVL", "CloudEngine 16808"),
# not a bullet
MODEL_NAME = compiled(r"(?=.*\d)(?=\S*[A-Za-z])[A-Za-z0-9][\w.+/-]*(?: [\w.+/()-]+){0,3}$")
# A cell that prints a figure ("400 Gb/s", "900ns", "8x"): a row of such cells is data, not a row of model names
FIGURE_LIKE = compiled(r"\d\s*(?:[kMGT]?[bB]\b|[kMGT]?[bB]/|[kMGT]?W\b|[nuµμ]s\b|GbE|GE\b|x\b|%)")
_X0, _TOP, _X1, _BOTTOM = attrgetter("x0"), attrgetter("top"), attrgetter("x1"), attrgetter("bottom")


@dataclass(slots=True)
class Item:
    """A word, or a whole ruled table, placed on the page."""

    x0: float
    top: float
    x1: float
    bottom: float
    text: str = ""
    size: float = 9.0
    bold: bool = False
    table: Optional[list] = None  # rows of cells: [(text, bbox)] when the item is a table

    @property
    def is_table(self) -> bool:
        return self.table is not None


@dataclass(slots=True)
class Box(Item):
    """A spec box found by its geometry (read.specbox): its label words and its value words, laid out as one block
    (its table is empty: an opaque item, as a ruled table is)."""

    labels: list = field(default_factory=list)
    values: list = field(default_factory=list)


@dataclass
class Leaf:
    """A region the XY-cut leaves whole: its items, and its label and value columns where it is a list."""

    items: list[Item]
    kv: Optional[tuple[list[Item], list[Item]]] = None
    _lines: Optional[list[list[Item]]] = field(default=None, repr=False, compare=False)

    def lines(self) -> list[list[Item]]:
        """_lines of the items, clustered once (the page builder and the caption test both ask; read only)."""
        if self._lines is None:
            self._lines = _lines(self.items)
        return self._lines


@dataclass
class PageText:
    """One page's segments and footnotes, and its title in the largest type."""

    segments: list[Segment] = field(default_factory=list)
    footnotes: dict[str, str] = field(default_factory=dict)
    title: str = ""  # the page's heading in its largest type (a product's name over a "PRODUCT BRIEF" tag)
    title_size: float = 0.0


def _gaps(spans: list[tuple[float, float]], min_gap: float) -> list[tuple[float, float]]:
    """Whitespace intervals of at least min_gap between the union of spans."""
    out = []
    spans = sorted(spans)
    reach = spans[0][1]
    for a, b in spans[1:]:
        if a - reach >= min_gap:
            out.append((reach, a))
        if b > reach:
            reach = b
    return out


def _median(xs: list[float]) -> float:
    """statistics.median, without importing statistics (fractions, decimal, random: ~4 ms a run)."""
    xs = sorted(xs)
    mid = len(xs) // 2
    return xs[mid] if len(xs) % 2 else (xs[mid - 1] + xs[mid]) / 2


def _body_size(items: list[Item]) -> float:
    sizes = [i.size for i in items if i.table is None]
    return _median(sizes) if sizes else 9.0


def _lines(items: list[Item]) -> list[list[Item]]:
    """Cluster words into lines by their vertical position, each line left to right."""
    words = sorted((i for i in items if i.table is None), key=_BY_TOP)
    starts, tops = _line_starts(words)
    lines = [words[a:b] for a, b in zip(starts, starts[1:] + [len(words)])]
    for line in lines:
        line.sort(key=_X0)
    order = sorted(range(len(lines)), key=tops.__getitem__)
    return [lines[k] for k in order]


def _line_starts(words: list[Item], most: int | None = None) -> tuple[list[int], list[float]]:
    """Where each line starts in WORDS (sorted top to bottom), and its top: a word joins the line above when
    they overlap by more than half the smaller height. Only the first MOST lines where given (a caller that
    looks at a region's first lines need not cluster all of it)."""
    starts: list[int] = []
    tops: list[float] = []
    ref_top = ref_bottom = 0.0  # the extent of the last line, kept as it grows
    for k, w in enumerate(words):  # (comparisons written out: min() and max() calls were a third of a page's layout)
        top, bottom = w.top, w.bottom
        if starts:
            overlap = (ref_bottom if ref_bottom < bottom else bottom) - (ref_top if ref_top > top else top)
            height, ref_height = bottom - top, ref_bottom - ref_top
            if overlap > 0.5 * (height if height < ref_height else ref_height):
                if top < ref_top:
                    ref_top = tops[-1] = top
                if bottom > ref_bottom:
                    ref_bottom = bottom
                continue
            if most is not None and len(starts) == most:
                break
        starts.append(k)
        tops.append(top)
        ref_top, ref_bottom = top, bottom
    return starts, tops


def display_lines(items: list[Item], least: float = 1.1, few: int = 40) -> list[tuple[str, float]]:
    """Lines set larger than the page's body type, as (text, size in points): where a cover names its product
    (and its section headings, taglines and document type, which the namer tells apart). A page of a few words
    (a cover over a photograph) has no body type: all its lines are display lines."""
    body = _body_size(items)
    words = sum(1 for i in items if i.table is None)
    out = []
    for line in _lines(items):
        size = max(i.size for i in line)
        text = _line_text(line).strip()
        if (size >= least * body or words <= few) and text and len(text) <= 160:
            out.append((text, round(size, 1)))
    return out


def _line_text(line: list[Item]) -> str:
    plain = " ".join([i.text for i in line])
    if plain.isascii():  # no CJK characters to set without spaces
        return plain
    out = ""
    for a, b in zip(line, line[1:] + [None]):
        out += a.text
        if b is not None and not (_is_cjk(a.text[-1:]) and _is_cjk(b.text[:1]) and b.x0 - a.x1 < a.size * 0.3):
            out += " "
    return out


def _is_cjk(ch: str) -> bool:
    return bool(ch) and ("\u3000" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef")


def _is_kv(left: list[Item], right: list[Item]) -> bool:
    """A narrow left column of short lines that line up with the right side: a label/value list."""
    if not left or not right or any(i.table is not None for i in left) or any(i.table is not None for i in right):
        return False
    lx0, lx1 = min(i.x0 for i in left), max(i.x1 for i in left)
    rx1 = max(i.x1 for i in right)
    if (lx1 - lx0) > 0.42 * (rx1 - lx0):
        return False
    llines, rlines = _lines(left), _lines(right)
    if sum(len(ln) for ln in llines) > 5 * len(llines):  # more than five words a line on average
        return False
    if _body_size(left) > 1.15 * _body_size(right):
        return False  # a title beside a small running header is not a label and its value
    if _is_prose(rlines):
        return False  # a sidebar beside running text: the text does not hold the sidebar's values
    if sum(1 for ln in llines if ln[0].text[:1] in BULLETS) >= 0.3 * len(llines):
        return False  # a bulleted list in the first of several columns: labels are not bullets
    rtops = [min(i.top for i in ln) for ln in rlines]
    aligned = sum(1 for ln in llines if any(abs(min(i.top for i in ln) - t) < 0.6 * ln[0].size for t in rtops))
    return aligned >= max(1, 0.5 * len(llines))


def _is_prose(lines: list[list[Item]]) -> bool:
    """Running text: most lines many words long and filled to the column's width (a value column's lines are
    short, or ragged)."""
    if len(lines) < 4:
        return False
    x0, x1 = min(ln[0].x0 for ln in lines), max(ln[-1].x1 for ln in lines)
    full = sum(1 for ln in lines if len(ln) >= 8 and ln[-1].x1 - ln[0].x0 >= 0.85 * (x1 - x0))
    return full >= 0.6 * len(lines)


def _continues(values: list[Item], more: list[Item]) -> bool:
    """A strip right of a value column whose lines share the value lines' positions: a second variant."""
    tops = {round(i.top) for i in values}
    shared = sum(1 for i in more if any(abs(round(i.top) - t) <= 2 for t in tops))
    return shared >= 0.6 * len(more)


def xy_cut(items: list[Item], depth: int = 0) -> list[Leaf]:
    if len(items) <= 1 or depth > 40:
        return [Leaf(items)]
    size = _body_size(items)
    vgaps = _gaps([(i.x0, i.x1) for i in items], max(7.0, 0.8 * size))
    hgaps = _gaps([(i.top, i.bottom) for i in items], max(4.0, 0.75 * size))
    best_v = max(vgaps, key=lambda g: g[1] - g[0], default=None)
    best_h = max(hgaps, key=lambda g: g[1] - g[0], default=None)
    if best_v is None:
        split = _under_caption(items, size)
        if split is not None:
            return xy_cut(split[0], depth + 1) + xy_cut(split[1], depth + 1)
    if best_v is None and best_h is None:
        return [Leaf(items)]
    # Any whitespace that runs the full height of the region is a gutter (between prose columns, or
    # between a label column and its values); cut there first, so that a list is not first sliced into
    # rows that no longer show which column is the label.
    vertical = best_v is not None
    if vertical:
        # Cut at every gutter at once, then pair a narrow label strip with the strip to its right:
        # cutting only at the widest gap would part a label column from its values before the
        # gutter between prose and list has been cut.
        strips, prev = [], float("-inf")
        for a, b in vgaps + [(float("inf"), float("inf"))]:
            cut = (a + b) / 2
            strip = [i for i in items if prev < i.x1 <= cut]
            if strip:
                strips.append(strip)
            prev = cut
        out: list[Leaf] = []
        k = 0
        while k < len(strips):
            right, j = (strips[k + 1], k + 2) if k + 1 < len(strips) else ([], k + 1)
            # Variant columns of the same list sit further right; keep them with the values (and judge the label
            # column's width against all of them: each of four model columns may be narrower than the labels).
            while right and j < len(strips) and _continues(right, strips[j]):
                right = right + strips[j]
                j += 1
            if right and _is_kv(strips[k], right):
                label = strips[k]
                k = j
                out.append(Leaf(label + right, kv=(label, right)))
            else:
                out.extend(xy_cut(strips[k], depth + 1))
                k += 1
        return out
    cut = (best_h[0] + best_h[1]) / 2
    top = [i for i in items if i.bottom <= cut]
    bottom = [i for i in items if i.bottom > cut]
    return xy_cut(top, depth + 1) + xy_cut(bottom, depth + 1)


def _under_caption(items: list[Item], size: float) -> tuple[list[Item], list[Item]] | None:
    """(caption, rest) where the region's first line or two run across a gutter that parts everything below them:
    "SYSTEM SPECIFICATIONS" over a label column and a value column set with less space between rows than a
    horizontal cut needs. None where no such gutter opens."""
    if len(items) < 8:
        return None
    tables = [i for i in items if i.table is not None]
    if tables:
        # a ruled header row over an unruled grid ("| H100 SXM | H100 NVL |" over the rows of values)
        words = [i for i in items if i.table is None]
        if len(tables) > 1 or not words or tables[0].bottom > min(map(_TOP, words)) + 1:
            return None
        if _gaps([(i.x0, i.x1) for i in words], max(7.0, 0.8 * size)):
            return tables, words
        return None
    # lines are runs of the words sorted top to bottom: the first five settle it, and the rest are a tail of them
    words = sorted(items, key=_BY_TOP)
    starts, _ = _line_starts(words, most=5)
    for k in (1, 2):
        if len(starts) < k + 3:
            break
        if _gaps([(i.x0, i.x1) for i in words[starts[k] :]], max(7.0, 0.8 * size)):
            lines = _lines(items)
            return [i for ln in lines[:k] for i in ln], [i for ln in lines[k:] for i in ln]
    return None


def _bbox(items: list[Item]):
    return min(map(_X0, items)), min(map(_TOP, items)), max(map(_X1, items)), max(map(_BOTTOM, items))


def _join_lines(texts: list[str]) -> str:
    out = ""
    for t in texts:
        t = t.strip()
        if not out:
            out = t
        elif out.endswith("-") and t[:1].islower() and not out.endswith(" -"):
            out += t
        elif _is_cjk(out[-1:]) and _is_cjk(t[:1]):
            out += t
        else:
            out += " " + t
    return out


def split_sentences(text: str) -> list[str]:
    parts = [p.strip() for p in SENTENCE_END.split(text)]
    return [p for p in parts if p]


class PageBuilder:
    """Turns the leaves of one page into segments, tracking the current heading across leaves."""

    def __init__(self, page_no: int, block_start: int, heading: str = ""):
        self.page_no = page_no
        self.block = block_start
        self.heading = heading
        self.out = PageText()

    def _seg(self, text, kind, items, label="", column="", block=None):
        text = (compiled(r"\s+").sub(" ", text) if ODD_SPACE.search(text) else text).strip()
        if not text:
            return
        self.out.segments.append(
            Segment(
                text=text,
                page=self.page_no,
                kind=kind,
                label=label,
                column=column,
                heading=self.heading,
                block=self.block if block is None else block,
                bbox=_bbox(items) if items else None,
            )
        )

    def prose(self, lines: list[list[Item]], body: float):
        """lines: as _lines gives them (the page builder has them already: clustering again gives the same)."""
        if not lines:
            return
        items = [w for ln in lines for w in ln]
        texts = [_line_text(ln) for ln in lines]
        big = all(max(i.size for i in ln) >= 1.15 * body or all(i.bold for i in ln) for ln in lines)
        short = sum(len(ln) for ln in lines) <= 14 and len(lines) <= 2
        if big and short and not compiled(r"[\d~<>≈]").match(texts[0].strip()):
            self.heading = _join_lines(texts)
            size = max(i.size for i in items)
            if size > self.out.title_size:
                self.out.title, self.out.title_size = self.heading, size
            self.block += 1
            self._seg(self.heading, "heading", items)
            return
        text = _join_lines(texts)
        first = text[:1]
        small = max(i.size for i in items) < 0.85 * body
        if first in FOOTNOTE_MARKERS or (small and compiled(r"\d\s").match(text)):
            # "¹ Port-to-port ... ² Typical: ...": notes set as one paragraph are each their own footnote
            notes = [m.group(0) for m in _NOTES.finditer(text)] if first in FOOTNOTE_MARKERS else [text]
            for note in notes:
                marker = note[0] if first in FOOTNOTE_MARKERS else note.split()[0]
                self.out.footnotes[marker] = note[len(marker) :].strip()
                self.block += 1
                self._seg(note, "footnote", items)
            return
        self.block += 1
        # Map sentence text back to the words that print it, for evidence boxes.
        pos = 0
        for sentence in split_sentences(text):
            n = len(sentence.split())
            self._seg(sentence, "sentence", items[pos : pos + n] or items)
            pos += n

    def kv(self, left: list[Item], right: list[Item]):
        """A label/value list: each label line that shares its top with a value line starts a row; a label line
        set close under another (a label's own leading) goes on with it unless a value shares its baseline; a
        label line alone, set apart from the row above (or larger), is a heading inside the list; a row without
        values over indented rows is their parent label ("GPU Memory" over "NVIDIA T400", "NVIDIA T400 4GB")."""
        llines, rlines = _lines(left), _lines(right)
        rows: list[tuple[list[list[Item]], float]] = []  # label lines, row top
        blocks = _value_blocks(rlines)
        rbases = [max(map(_BOTTOM, r)) for r in rlines]
        rtops = [min(map(_TOP, r)) for r in rlines]  # once, not once per label line
        label_size = _body_size(left)
        sections: set[int] = set()  # rows of a label line alone, set apart: a heading inside the list
        prev = None
        row_gap = _row_gap(llines, rlines)
        for ln in llines:
            top = min(i.top for i in ln)
            aligned = any(abs(t - top) < 0.6 * ln[0].size for t in rtops)
            gap = top - max(map(_BOTTOM, prev)) if prev is not None else float("inf")
            if aligned and gap < 0.5 * ln[0].size:
                # set close under the label line above it, at a label's leading: a wrapped label, unless a value
                # line shares its baseline ("Max Simultaneous / Displays" beside two lines of values)
                base = max(map(_BOTTOM, ln))
                aligned = any(abs(b - base) <= 0.15 * ln[0].size for b in rbases)
            if aligned or not rows or _new_block(ln, rows[-1][0], blocks):
                rows.append(([ln], top))
            elif (
                prev is not None
                and (gap >= max(0.5 * ln[0].size, 0.9 * row_gap) or max(i.size for i in ln) >= 1.15 * label_size)
                and not _faces(ln, blocks)
            ):
                sections.add(len(rows))
                rows.append(([ln], top))
            else:
                rows[-1][0].append(ln)
            prev = ln
        self.block += 1
        header_words = [i for i in right if i.bottom < rows[0][1] - 1]
        header = _text_of(header_words) if header_words else ""
        owner = _block_rows(blocks, rows)
        # the variants' names: set over the values ("H100 SXM  H100 NVL"), or in the list's first row ("Model")
        models = _heads([(col, _text_of(col)) for col in _subcolumns(header_words)]) if header_words else []
        parent, parent_x = "", float("inf")  # a row without values over indented rows: "GPU Memory" over models
        # an indent is more than a cell's padding: a caption set flush with a table whose labels are padded by a few
        # points is no parent of its rows
        indented = max(2.5, 0.5 * label_size)
        row_words = _RowWords(right, owner)
        for n, (label_lines, top) in enumerate(rows):
            nxt = rows[n + 1][1] if n + 1 < len(rows) else float("inf")
            label = _join_lines([_line_text(ln) for ln in label_lines])
            x0 = label_lines[0][0].x0
            if x0 <= parent_x + indented:
                parent, parent_x = "", float("inf")
            elif parent:
                label = f"{parent} {label}"
            # a word whose block tells its row is that row's; any other, the row whose label is above it
            words = row_words.of(n, top, nxt)
            if not words:
                indent = rows[n + 1][0][0][0].x0 - x0 if n + 1 < len(rows) else 0.0
                if (
                    indented < indent <= 4 * label_size
                    and max(i.size for ln in label_lines for i in ln) < 1.15 * label_size
                ):
                    parent, parent_x = label, x0
                elif n in sections:
                    self.heading = label
                    self._seg(label, "heading", [i for ln in label_lines for i in ln])
                continue
            cols = [(col, _text_of(col)) for col in _subcolumns(words)]
            if n == 0 and not models:
                models = _heads(cols)  # "Model | 7050SDX4 | 7050SPX4 | ...": the row heads the columns below
            for col, text in cols:
                self._seg(text, "cell", col, label=label, column=_under(models, col) or header)

    def table(self, item: Item):
        rows = item.table
        self.block += 1
        ncols = max(len(r) for r in rows)
        header: list[str] = []
        body_rows = rows
        # A first row of product names ("T8-A", "Q64-M (managed)") heads variant columns; a row with a figure
        # in it ("400 Gb/s") is data.
        if ncols >= 3 and len(rows) > 1 and not any(FIGURE_LIKE.search(c or "") for c, _ in rows[0]):
            header = [_join_lines((c or "").split("\n")) for c, _ in rows[0]]
            body_rows = rows[1:]
        generic = compiled(
            r"^(?:feature|item|spec(?:ification)?s?|parameter|property|name|参数|项目|规格|指标)?$", re.I
        )
        # a cell's lines are joined as a paragraph's are: Chinese wrapped in a narrow column has no space to put back
        for r in body_rows:
            label = _join_lines((r[0][0] or "").split("\n")) if len(r) > 1 else ""
            if header and label and not generic.match(header[0].strip()):
                label = f"{label} {header[0].strip()}"  # "Compute" under "Network": the compute network
            cells = r[1:] if len(r) > 1 else r
            for k, (text, bbox) in enumerate(cells, start=1 if len(r) > 1 else 0):
                if not text:
                    continue
                col = header[k] if header and k < len(header) else ""
                seg_items = [Item(*bbox)] if bbox else []
                self._seg(_join_lines(text.split("\n")), "cell", seg_items, label=label, column=col)


def _under(heads: list[tuple[float, float, str]], col: list[Item]) -> str:
    """The head whose centre is nearest the column's, or '' where the column is centred between two heads (a value
    set across two models' columns is both models', "128 GB total system") or lies under none."""
    x0, x1 = min(map(_X0, col)), max(map(_X1, col))
    centre = (x0 + x1) / 2
    spots = [((a + b) / 2, head) for a, b, head in heads if min(b, x1) > max(a, x0)]
    if len(spots) == 1:
        return spots[0][1]  # under one head only: a short value set flush left under a long name is that model's
    spots += [((a + b + c + d) / 4, "") for (a, b, _), (c, d, _) in zip(heads, heads[1:])]
    return min(spots, key=lambda spot: abs(spot[0] - centre))[1] if spots else ""


def _text_of(words: list[Item]) -> str:
    """Words as lines top to bottom, joined."""
    return _join_lines([_line_text(ln) for ln in _lines(words)])


def _block_rows(blocks, rows: list[tuple[list[list[Item]], float]]) -> dict[int, int]:
    """Value words whose row is told by their block rather than their top: {id(word): row index}.

    A label set beside the middle of a two-line value ("Ports" centred on "48x SFP-DD 100G / 8x QSFP-DD 400G")
    has its first value line above it, where the rule "a value belongs to the label above it" gives it to the row
    before. Value lines set close together (a gap under 0.6 of their size) are one block; a block that spans the
    label lines of exactly one row belongs to that row. Blocks that span no label, or several (a list set with
    no space between rows), keep the rule. blocks: _value_blocks of the value lines."""
    spans = [(min(i.top for ln in lines for i in ln), max(i.bottom for ln in lines for i in ln)) for lines, _ in rows]
    owner: dict[int, int] = {}
    for top, bottom, block in blocks:
        hits = [n for n, (a, b) in enumerate(spans) if a < bottom and b > top]
        if len(hits) == 1:
            owner.update((id(i), hits[0]) for ln in block for i in ln)
    return owner


def _value_blocks(rlines: list[list[Item]]) -> list[tuple[float, float, list[list[Item]]]]:
    """Value lines set close together (a gap under 0.6 of their size), as (top, bottom, lines)."""
    out: list[tuple[float, float, list[list[Item]]]] = []
    for ln in rlines:
        top, bottom = min(map(_TOP, ln)), max(map(_BOTTOM, ln))
        if out and top - out[-1][1] < 0.6 * _body_size(ln):
            a, b, lines = out[-1]
            out[-1] = (a, max(b, bottom), lines + [ln])
        else:
            out.append((top, bottom, [ln]))
    return out


def _row_gap(llines: list[list[Item]], rlines: list[list[Item]]) -> float:
    """The usual space between a list's rows: the median gap over each label line that shares its top with a value
    line, from the line above it."""
    tops = [min(map(_TOP, r)) for r in rlines]
    gaps = [
        min(map(_TOP, b)) - max(map(_BOTTOM, a))
        for a, b in zip(llines, llines[1:])
        if any(abs(min(map(_TOP, b)) - t) < 0.6 * b[0].size for t in tops)
    ]
    return _median(gaps) if gaps else 0.0


def _faces(ln: list[Item], blocks) -> bool:
    top, bottom = min(map(_TOP, ln)), max(map(_BOTTOM, ln))
    return any(a < bottom and b > top for a, b, _ in blocks)


def _new_block(ln: list[Item], row: list[list[Item]], blocks) -> bool:
    """A label line that aligns with no value line starts a row of its own when it faces a block of values that the
    row's label lines do not face: "Ports" set against the middle of a two-line value, under "Model"."""
    top, bottom = min(map(_TOP, ln)), max(map(_BOTTOM, ln))
    rtop, rbottom = min(i.top for x in row for i in x), max(i.bottom for x in row for i in x)
    return any(a < bottom and b > top and not (a < rbottom and b > rtop) for a, b, _ in blocks)


class _RowWords:
    """The value words of each row of a label/value list, in their order: those a block assigns to the row, and
    any other whose top lies in the row's band (top - 0.6 size <= word top < next row's top - 0.6 size). The free
    words are looked up by bisection on top + 0.6 size (with a little slack, the exact test deciding), not tested
    all again for every row: a long list was quadratic in its rows."""

    SLACK = 1e-3

    def __init__(self, right: list[Item], owner: dict[int, int]):
        self.right = right
        self.owned: dict[int, list[int]] = {}
        free = []
        for k, i in enumerate(right):
            if id(i) in owner:
                self.owned.setdefault(owner[id(i)], []).append(k)
            elif i.top + 0.6 * i.size == i.top + 0.6 * i.size:  # a NaN key would disorder the sort (and
                free.append((i.top + 0.6 * i.size, k))  # its word fits no band)
        free.sort()
        self.keys = [key for key, _ in free]
        self.free = [k for _, k in free]

    def of(self, n: int, top: float, nxt: float) -> list[Item]:
        right = self.right
        lo = bisect_left(self.keys, top - self.SLACK)
        hi = bisect_right(self.keys, nxt + self.SLACK)
        picked = self.owned.get(n, []) + [
            k for k in self.free[lo:hi] if top - 0.6 * right[k].size <= right[k].top < nxt - 0.6 * right[k].size
        ]
        return [right[k] for k in sorted(picked)]


def _subcolumns(words: list[Item]) -> list[list[Item]]:
    """Split the value words of one row into side-by-side variant columns, if the row has them."""
    size = _body_size(words)
    gaps = _gaps([(i.x0, i.x1) for i in words], max(7.0, 0.8 * size))
    if not gaps:
        return [words]
    cols, prev = [], float("-inf")
    for a, b in gaps + [(float("inf"), None)]:
        cut = (a + b) / 2 if b is not None else float("inf")
        col = [w for w in words if prev < (w.x0 + w.x1) / 2 <= cut]
        if col:
            cols.append(col)
        prev = cut
    return cols


def _heads(cols: list[tuple[list[Item], str]]) -> list[tuple[float, float, str]]:
    """Side-by-side texts that name two or more variants (short product codes, no figure), as (x0, x1, name);
    else []."""
    if len(cols) < 2 or not all(MODEL_NAME.match(t) and not FIGURE_LIKE.search(t) for _, t in cols):
        return []
    return [(min(map(_X0, col)), max(map(_X1, col)), text) for col, text in cols]


def overlaps(obj: dict, box) -> bool:
    """A word or character (x0, top, x1, bottom keys) overlaps a cell box with positive area."""
    return obj["x1"] > box[0] and obj["x0"] < box[2] and obj["bottom"] > box[1] and obj["top"] < box[3]


def _stat_caption(leaf: Leaf, nxt: Leaf | None, body: float) -> str | None:
    """The caption under a headline figure ("14.4 TB/s" over "GPU-to-GPU bandwidth in every node"), or None."""
    if leaf.kv or nxt is None or nxt.kv or any(i.is_table for i in leaf.items + nxt.items):
        return None
    lines, below = leaf.lines(), nxt.lines()
    if len(lines) != 1 or not (1 <= len(below) <= 2) or len(lines[0]) > 4:
        return None
    stat = lines[0]
    size = max(i.size for i in stat)
    if size < 1.2 * body or not compiled(r"[\d<>~≈≤≥]|up to|over", re.I).match(_line_text(stat)):
        return None
    x0, x1 = min(i.x0 for i in stat), max(i.x1 for i in stat)
    cx0, cx1 = min(i.x0 for i in nxt.items), max(i.x1 for i in nxt.items)
    gap = min(i.top for i in nxt.items) - max(i.bottom for i in stat)
    if gap > 2 * size or min(x1, cx1) - max(x0, cx0) <= 0:
        return None
    if max(i.size for i in nxt.items) >= size:
        return None
    return _join_lines([_line_text(ln) for ln in below])


def build_page(items: list[Item], page_no: int, block_start: int, heading: str) -> tuple[PageText, int, str]:
    """Segments of one page; returns them with the next free block id and the heading in force at the end."""
    b = PageBuilder(page_no, block_start, heading)
    if not items:
        return b.out, b.block, b.heading
    body = _body_size(items)
    from .specbox import find_boxes  # (here: read.specbox builds on this module's Item, Box and _lines)

    leaves = xy_cut(find_boxes(items))
    skip = set()
    for k, leaf in enumerate(leaves):
        if k in skip:
            continue
        caption = _stat_caption(leaf, leaves[k + 1] if k + 1 < len(leaves) else None, body)
        if caption is not None:
            # A headline tile: a big figure with its caption underneath. The caption is the figure's label.
            b.block += 1
            b._seg(_line_text(leaf.lines()[0]), "cell", leaf.items, label=caption)
            skip.add(k + 1)
            continue
        if leaf.kv:
            b.kv(*leaf.kv)
            continue
        # Tables and the words around them, top to bottom, so a heading precedes its table.
        pieces: list[tuple[float, object]] = [(t.top, t) for t in leaf.items if t.table is not None]
        for line in leaf.lines():
            pieces.append((min(i.top for i in line), line))
        pieces.sort(key=lambda p: p[0])
        run: list[list[Item]] = []
        for _, piece in pieces:
            if isinstance(piece, Item):
                if run:
                    b.prose(run, body)
                    run = []
                if isinstance(piece, Box):
                    b.kv(piece.labels, piece.values)
                else:
                    b.table(piece)
            else:
                run.append(piece)
        if run:
            b.prose(run, body)
    return b.out, b.block + 1, b.heading
