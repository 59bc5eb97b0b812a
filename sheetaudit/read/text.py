"""Plain-text, Markdown and HTML spec pages -> segments, through the same segment model as PDFs.

Vendors publish spec pages on the web; a "Label: value" line, a Markdown table row or an HTML table row
becomes a labelled cell, anything else a sentence.
"""

from __future__ import annotations

import html
import json
import os
import re
from html.parser import HTMLParser

from ..errors import UnreadableInput
from ..records import Document, Segment
from ..regex_cache import cached as compiled
from .layout import FOOTNOTE_MARKERS, split_sentences

BULLET = compiled(r"^\s*[-*+•·]\s+(?=\S)")
CJK = compiled(r"[\u3400-\u9fff\uf900-\ufaff]")
KV_LINE = compiled(r"^\s*(?P<label>[^:：|]{1,48}?)\s*(?:[:]\s+|：\s*)(?P<value>.+)$")  # 全角冒号 needs no space
KV_DOTS = compiled(r"^\s*(?P<label>\S.{0,46}?\S)\s*(?:\.\s*){3,}\s*(?P<value>\S.*)$")
KV_DASH = compiled(r"^\s*(?:[-*]\s+)?(?P<label>[^—–|]{1,48}?)\s+[—–]{1,2}\s+(?P<value>\S.*)$")  # "Ports — 2 x 400GbE"
KV_GAP = compiled(r"^\s*(?P<label>\S.{0,46}?\S)(?:\t+| {3,})(?P<value>\S.*)$")


TITLE_HEADINGS = 6  # a text file's first headings (and first line) read as its cover


def read_text(data: bytes, kind: str) -> Document:
    text = _decode(data)
    page_title = ""
    if kind == "html":
        lines, page_title = _html_lines(text)
    else:
        lines = text.splitlines()
    rst = kind != "html" and _looks_like_rst(lines)
    if rst:
        lines = _rst_lines(lines)
    elif kind == "text":
        lines = _column_tables(lines)
    if kind == "markdown":
        lines = _piped_tables(lines)
    if kind != "html":
        lines = _json_tables(lines)
    doc = Document(path="", sha256="", pages=1, kind=kind)
    _segments_from_lines(lines, doc, markdown=(kind in ("markdown", "html") or rst))
    if doc.segments:
        doc.title = next((s.text for s in doc.segments if s.kind == "heading"), doc.segments[0].text)[:200]
    if page_title and len(page_title) > len(doc.title):
        doc.title = page_title[:200]  # "Kestrel HX8-B GPU Server | Technical Specifications" over "Kestrel HX8-B"
    doc.meta_title = page_title[:200]
    # A text file has no type sizes: its first headings and sentences, in order, stand for a cover's display lines
    # (the first the largest): a plain file's first line is its usual title, a web page's first sentence names
    # what it sells ("The Cisco UCS C885A M8 Rack Server is ...").
    firsts = [s.text for s in doc.segments if s.kind == "heading"][:TITLE_HEADINGS]
    firsts += [s.text for s in doc.segments if s.kind != "heading"][: TITLE_HEADINGS // 2]
    order = {s.text: i for i, s in reversed(list(enumerate(doc.segments)))}
    firsts = sorted(set(firsts), key=order.get)[:TITLE_HEADINGS]
    doc.cover = [(t[:160], round(2.0 - 0.1 * i, 2), 1) for i, t in enumerate(firsts)]
    return doc


def _decode(data: bytes) -> str:
    for enc in ("utf-8-sig", "gb18030"):
        try:
            return data.decode(enc)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def _segments_from_lines(lines: list[str], doc: Document, markdown: bool) -> None:
    heading, block, header, one_row = "", 0, [], False
    table_heading = None  # the heading above a table whose group rows head its rows for a while
    trail: dict[int, str] = {}  # heading level -> text: a value under "AI chip / Server 1" knows both
    para: list[str] = []

    def flush():
        nonlocal para, block
        if para:
            block += 1
            for s in split_sentences(" ".join(para)):
                doc.segments.append(
                    Segment(s, 1, "sentence", heading=heading, block=block, section=" / ".join(trail.values()))
                )
            para = []

    for i, raw in enumerate(lines):
        line = raw.rstrip()
        if table_heading is not None and not line.lstrip().startswith("|"):
            heading, table_heading = table_heading, None
        if not line.strip():
            flush()
            header = []
            continue
        m_head = compiled(r"^\s*#{1,6}\s+(.*)$").match(line) if markdown else None
        if m_head or (
            not markdown
            and line.isupper()
            and len(line) < 60
            and not line.lstrip().startswith("|")
            and not CJK.search(line)
        ):  # "SPECIFICATIONS"; not "8 张 GPU 卡" nor a table row
            flush()
            heading = (m_head.group(1) if m_head else line).strip()
            level = len(line.lstrip()) - len(line.lstrip().lstrip("#")) if m_head else 1
            trail = {k: v for k, v in trail.items() if k < level} | {level: heading}
            block += 1
            doc.segments.append(Segment(heading, 1, "heading", heading=heading, block=block))
            continue
        if line.lstrip().startswith("|"):
            flush()
            cells = [_cell_text(c) for c in line.strip().strip("|").split("|")]
            if all(compiled(r":?-{2,}:?").fullmatch(c) for c in cells if c):
                continue
            # A header row is the one a Markdown separator (|---|) follows; HTML <th> rows are written that way.
            nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
            if nxt.startswith("|") and all(
                compiled(r":?-{2,}:?").fullmatch(c.strip()) for c in nxt.strip("|").split("|") if c.strip()
            ):
                header = cells
                block += 1
                # one data row under a header: a record laid sideways, each header names its value's field
                rows = 0
                for later in lines[i + 2 :]:
                    if not later.strip().startswith("|"):
                        break
                    rows += 1
                one_row = rows == 1
                continue
            if len(header) > 1 and cells[0] and not any(cells[1:]):
                # a row that names a group of the rows below it ("| Fibre Channel Transceivers |"): their heading
                # until the table ends
                table_heading = table_heading if table_heading is not None else heading
                heading = cells[0]
                doc.segments.append(Segment(heading, 1, "heading", heading=heading, block=block))
                continue
            _row(doc, cells, header, heading, block, " / ".join(trail.values()), one_row)
            continue
        if (
            line.lstrip()[:1] in FOOTNOTE_MARKERS
            and not (markdown and compiled(r"^\s*(?:[*+-]\s+\S|\*\*[^*]+\*\*)").match(line))
            and not compiled(r"^\s+[*+-]\s+\S").match(line)
        ):  # an indented "  * item" is a bullet in any text
            flush()
            marker, note = _footnote(line.strip())
            doc.footnotes.setdefault(marker, note)
            doc.segments.append(Segment(line.strip(), 1, "footnote", heading=heading, block=block))
            continue
        numbered = NUMBERED_NOTE.match(line)
        if numbered:  # "(1) Adapter pipeline latency, ...": a note that "0.62 us (1)" points to; the line
            doc.footnotes.setdefault(numbered.group(1), numbered.group(2))  # stays text (it may be a list item)
        line = compiled(r"(\*\*|__|`)").sub("", line)
        m = KV_DOTS.match(line) or KV_LINE.match(line) or KV_DASH.match(line) or KV_GAP.match(line)
        if (
            m
            and len(m.group("label").split()) <= 6
            and not m.group("label").rstrip().endswith(".")
            and _balanced(m.group("label"))
        ):  # "3.2 带宽（单位：GB/s）" is a caption, not "label: value"
            flush()
            block += 1
            value = compiled(r"^[-*]\s+").sub("", m.group("value").strip())
            label = compiled(r"^\s*[-*]\s+").sub("", m.group("label")).strip("*_ ")
            doc.segments.append(
                Segment(value, 1, "cell", label=label, heading=heading, block=block, section=" / ".join(trail.values()))
            )
            continue
        if BULLET.match(line):
            flush()  # a bullet is an item of its own: "8 chips per server" is not one sentence with the next
        para.append(BULLET.sub("", line).strip())
    flush()


NUMBERED_NOTE = compiled(r"^\s*(\(\d{1,2}\))\s+(\S.*)$")


_BARE_SEPARATOR = compiled(r"^\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)+\|?\s*$")


def _piped_tables(lines: list[str]) -> list[str]:
    """Markdown tables written without the outer pipes ("Item | Specs" over "---|---"), as GitHub and most
    converters allow, given their outer pipes, so each row is read as cells and not as a sentence."""
    out = list(lines)
    for i, line in enumerate(lines):
        if i == 0 or line.lstrip().startswith("|") or not _BARE_SEPARATOR.match(line) or "|" not in lines[i - 1]:
            continue
        j = i - 1
        while j < len(lines) and (
            j == i
            or ("|" in lines[j] and lines[j].strip())
            or (GROUP_ROW.match(lines[j]) and j + 1 < len(lines) and "|" in lines[j + 1])
        ):
            if not lines[j].lstrip().startswith("|"):
                out[j] = "| " + lines[j].strip().rstrip("|") + " |"
            if j > i and _LABEL_ALONE.match(lines[j]) and j + 1 < len(lines) and _VALUES_ROW.match(lines[j + 1]):
                # "Maximum Power Consumption |" over "605 W | 555 W | 470 W |": a row broken after its label
                out[j] = "| " + lines[j].strip().rstrip("|").strip() + " | " + lines[j + 1].strip().strip("|") + " |"
                out[j + 1] = ""
                j += 1
            j += 1
    return out


_LABEL_ALONE = compiled(r"^\s*[^|\s][^|]*\|\s*$")  # one cell: a row's label, its values on the next line
_VALUES_ROW = compiled(r"^\s*[^|\s][^|]*\|")  # a line of cells that does not open with an empty one


# A front-matter value that is a table written as JSON ('table: {"single":[[{"text":"型号"},{"text":"CE16804"}],
# ...]}', '[["Model","X1","X2"],["Power (W)","300","450"]]'), as site generators keep a spec grid.
JSON_VALUE = compiled(r"^\s*[\w\-]{1,40}\s*:\s*(?P<json>[\[{].*[\]}])\s*$")
JSON_SPAN_KEYS = ("colspan", "col")  # a cell's count of columns, where the generator writes one


def _json_tables(lines: list[str]) -> list[str]:
    """Each front-matter line whose value is a JSON grid (a list of rows, each a list of cells: a string, a number
    or an object with "text") as a pipe table, so its rows are read as a table's cells. JSON marks no header: a
    grid of three or more columns is headed by its first row (the models, "型号 | CE16804 | CE16808"); one of two
    is a list of labels and values, its first row one of them ("产品 | Atlas 500 Pro")."""
    out: list[str] = []
    for line in lines:
        m = JSON_VALUE.match(line) if "[" in line else None
        grid = _json_grid(m.group("json")) if m else None
        if grid:
            out += ["", *_pipe_table(grid, 1 if max(map(len, grid)) >= 3 else 0), ""]
        else:
            out.append(line)
    return out


def _json_grid(text: str) -> list[list[str]] | None:
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or nested past the parser's depth (a hostile page)
        return None
    found = [value] + (list(value.values()) if isinstance(value, dict) else [])
    for v in found:
        if (
            isinstance(v, list)
            and len(v) >= 2
            and all(isinstance(r, list) for r in v)
            and sum(len(r) >= 2 for r in v) >= 2
        ):
            rows = [[c for cell in r for c in _json_cell(cell)] for r in v]
            return rows if all(rows) else None
    return None


def _json_cell(cell) -> list[str]:
    """A JSON cell's text (its line breaks as '; '), repeated over the columns it spans."""
    span = 1
    if isinstance(cell, dict):
        span = next((_span(cell[k]) for k in JSON_SPAN_KEYS if cell.get(k)), 1)
        cell = cell.get("text", "")
    text = "; ".join(x.strip() for x in str("" if cell is None else cell).splitlines() if x.strip())
    return [text] * span


# A bold line alone between a table's rows ("**QSFP+ 40-Gbps Transceivers**" over its part-number rows), as
# converters write a row that spans the table: the rows under it are its group.
GROUP_ROW = compiled(r"^\s*\*\*[^*|]+\*\*\s*$")


def _balanced(text: str) -> bool:
    return text.count("(") + text.count("（") == text.count(")") + text.count("）")


def _footnote(line: str) -> tuple[str, str]:
    """'*For cards only.' -> ('*', ...); in Markdown the footnote is often in italics, so '**For cards only.*'
    is marker '*' and '***Type this*' marker '**': the last star of the run opens the italics."""
    stars = len(line) - len(line.lstrip("*"))
    if stars == 0:
        return line[0], line[1:].strip()
    rest = line[stars:]
    if stars > 1 and rest[:1].strip() and "*" in rest:
        stars -= 1
    return "*" * stars, compiled(r"^\*|\*(?=\s|$|[.`])").sub("", line[stars:]).strip()


def _cell_text(cell: str) -> str:
    """A table cell as text: emphasis marks dropped, line breaks (<br>) and bullets kept apart as '; '."""
    cell = compiled(r"(\*\*|__|`)").sub("", cell)
    cell = compiled(r"<br\s*/?>", re.I).sub("; ", cell)
    return cell.strip().strip(";").strip()


# reStructuredText (docs sites publish spec pages this way): headings underlined with punctuation, grid tables
# drawn with +---+ and | and list-tables written as nested bullets. They are rewritten as Markdown headings and
# pipe tables, so one table model reads all of them.
RST_UNDERLINE = compiled(r"^([=\-~^\"'`#*+:.])\1{2,}\s*$")
RST_BORDER = compiled(r"^\s*\+(?:[-=]+\+)+\s*$")


def _looks_like_rst(lines: list[str]) -> bool:
    return (
        any(RST_BORDER.match(x) or x.lstrip().startswith(".. list-table::") for x in lines)
        or sum(
            1
            for a, b in zip(lines, lines[1:])
            if a.strip() and RST_UNDERLINE.match(b) and len(b.strip()) >= len(a.strip())
        )
        >= 2
    )


def _rst_lines(lines: list[str]) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if (
            RST_UNDERLINE.match(line)
            and RST_UNDERLINE.match(lines[i + 2] if i + 2 < len(lines) else "")
            and nxt.strip()
        ):
            out += ["", "# " + nxt.strip(), ""]  # overlined title
            i += 3
            continue
        if (
            line.strip()
            and not RST_BORDER.match(line)
            and RST_UNDERLINE.match(nxt)
            and len(nxt.strip()) >= len(line.strip())
        ):
            out += ["", "## " + line.strip(), ""]
            i += 2
            continue
        if RST_BORDER.match(line):
            rows, i = _grid_table(lines, i)
            out += [""] + rows + [""]
            continue
        if line.lstrip().startswith(".. list-table::"):
            rows, i = _list_table(lines, i)
            out += [""] + rows + [""]
            continue
        if compiled(r"^\s*\.\.\s+\w[\w-]*::").match(line) or compiled(r"^\s*\.\. _").match(line):
            i += 1  # other directives (images, labels): not spec text
            while i < len(lines) and lines[i].startswith((" ", "\t")) and lines[i].strip().startswith(":"):
                i += 1
            continue
        out.append(compiled(r":ref:`([^<`]*?)\s*(?:<[^>]*>)?`").sub(r"\1", line))
        i += 1
    return out


def _column_tables(lines: list[str]) -> list[str]:
    """Tables laid out in columns of spaces (read.columns) as pipe tables; other lines as they are."""
    from . import columns

    out, i = [], 0
    while i < len(lines):
        found = columns.find(lines, i) if lines[i].strip() else None
        if found:
            rows, i = found
            out.extend(_pipe_table(rows, 1))
        else:
            out.append(lines[i])
            i += 1
    return out


def _pipe_table(rows: list[list[str]], header_rows: int) -> list[str]:
    """Rows as Markdown pipe lines, the separator after the header row (as a Markdown table marks it). Several header
    rows are one header, each column's cells joined, for a Markdown table has a single header row; a header row that
    fills only its first cell is a section's title over the data (":header-rows: 2", the models over "Configuration")."""
    if header_rows > 1:
        heads = [r for r in rows[:header_rows] if any(c.strip() for c in r[1:])] or rows[:1]
        sections = [r for r in rows[:header_rows] if not any(c.strip() for c in r[1:]) and r is not heads[0]]
        width = max(len(r) for r in heads)
        rows = (
            [[" ".join(dict.fromkeys(r[k] for r in heads if k < len(r) and r[k].strip())) for k in range(width)]]
            + sections
            + rows[header_rows:]
        )
        header_rows = 1
    out = []
    for n, row in enumerate(rows):
        out.append(_pipe_row(row))
        if n + 1 == header_rows:
            out.append("|" + "---|" * len(row))
    return out


def _pipe_row(cells: list[str]) -> str:
    return "| " + " | ".join(c.replace("|", "/") or " " for c in cells) + " |"


def _grid_table(lines: list[str], i: int) -> tuple[list[str], int]:
    """+----+----+ grid: cells span the columns between '+' of the border; a cell's lines are joined."""
    border = lines[i]
    cols = [k for k, ch in enumerate(border) if ch == "+"]
    rows, cur, header_rows = [], None, 0
    i += 1
    while i < len(lines) and (lines[i].lstrip().startswith(("|", "+"))):
        line = lines[i]
        if RST_BORDER.match(line):
            if cur is not None:
                rows.append(cur)
                if "=" in line:
                    header_rows = len(rows)
            cur = None
        else:
            parts = [line[a + 1 : b] if b <= len(line) else line[a + 1 :] for a, b in zip(cols, cols[1:])]
            cur = cur or [[] for _ in parts]
            for k, p in enumerate(parts[: len(cur)]):
                p = p.strip().strip("|").strip()
                if p:
                    cur[k].append(compiled(r"^[*\-•]\s+").sub("", p) if compiled(r"^[*\-•]\s+").match(p) else p)
        i += 1
    return _pipe_table([[_join_cell(c) for c in row] for row in rows], header_rows), i


def _join_cell(parts: list[str]) -> str:
    """Lines of one cell: a bullet list is a list ('; '), wrapped prose is one sentence."""
    text = ""
    for p in parts:
        sep = (
            "; "
            if text.endswith(":") or (text and compiled(r"^\d").match(p) and not text.endswith((",", "of")))
            else " "
        )
        text = f"{text}{sep}{p}" if text else p
    return text.strip()


def _list_table(lines: list[str], i: int) -> tuple[list[str], int]:
    """.. list-table:: with :header-rows: N; rows are '* - a' then '  - b' bullets."""
    header_rows = 0
    i += 1
    while i < len(lines) and (not lines[i].strip() or lines[i].strip().startswith(":")):
        m = compiled(r"\s*:header-rows:\s*(\d+)").match(lines[i])
        if m:
            header_rows = int(m.group(1))
        i += 1
    rows: list[list[str]] = []
    indent = None
    while i < len(lines):
        line = lines[i]
        if line.strip() and indent is None:
            indent = len(line) - len(line.lstrip())
        if line.strip() and len(line) - len(line.lstrip()) < (indent or 0):
            break
        m_row = compiled(r"^\s*\*\s+-\s?(.*)$").match(line)
        m_cell = compiled(r"^\s*-\s?(.*)$").match(line)
        if m_row:
            rows.append([m_row.group(1).strip()])
        elif m_cell and rows:
            rows[-1].append(m_cell.group(1).strip())
        elif line.strip() and rows:
            rows[-1][-1] = f"{rows[-1][-1]} {line.strip()}".strip()
        i += 1
    return _pipe_table([[compiled(r"^\\").sub("", c) for c in row] for row in rows], header_rows), i


FEATURE_HEADER = compiled(r"^(?:(?:key )?features?|highlights?|capabilit(?:y|ies)|功能|特性|特点|亮点)$", re.I)
GENERIC_HEADER = compiled(
    r"^(?:feature|item|spec(?:ification)?s?|parameter|property|attribute|name|参数|项目|规格|指标)?$", re.I
)


# A header cell that names a measured field (a unit in brackets, a word such as bandwidth or 功耗) rather than a
# product: where the header row holds the fields and the first column does not, the table is a record laid
# out sideways (a test report's "监控项 | 系统平均功耗 | ..." over "监控结果 | 2015.9W | ..."), and each value's
# label is its column's header.
FIELD_HEADER = compiled(
    r"[(（\[]\s*[A-Za-zµμ/]{1,12}(?:/[A-Za-z]+)?\s*[)）\]]|bandwidth|latency|power|speed|rate|"
    r"throughput|TDP|consumption|带宽|时延|延迟|功耗|速率|功率",
    re.I,
)


# A header whose first cell names what each row is ("Model", "Instance size", 型号) over columns that are fields:
# the models are rows, and each value is labelled by its column. Where the other header cells are model codes
# ("| Model | X100 | X200 |"), the models are columns as usual.
MODEL_KEY = compiled(
    r"^(?:models?|SKUs?|products?|part(?: number)?|instance(?: size| type)?|system|configuration|"
    r"型号|产品型号|规格型号|产品|名称|配置|机型)$",
    re.I,
)
MODEL_CODE = compiled(r"^[A-Za-z]{0,12}[-\s]?\d[\w.\-]*$")


def _shared_prefix(headers: list[str]) -> str:
    """The words that two or more column headers begin with, when something follows them in each."""
    heads = [h for h in headers if h]
    if len(heads) < 2:
        return ""
    prefix = os.path.commonprefix(heads)
    prefix = (
        prefix[: prefix.rfind(" ") + 1]
        if not all(len(h) > len(prefix) and h[len(prefix)] == " " for h in heads)
        else prefix
    )
    return prefix if len(prefix.strip()) >= 6 and all(len(h) > len(prefix) for h in heads) else ""


def _row(doc, cells, header, heading, block, section="", one_row=False):
    if (
        len(cells) == 2
        and not header
        and compiled(r"(?<![A-Za-z\d.,])\d[\d.,]*\s?(?:[A-Za-zµμ]|纳秒|微秒|瓦)").search(cells[0])
        and not compiled(r"\d").search(cells[1])
    ):
        cells = [cells[1], cells[0]]  # "| under 2 µs | latency across the pod |": the figure first, its label after
    label = cells[0]
    keyed = bool(header) and bool(MODEL_KEY.match(header[0].strip()))  # "型号 | CloudEngine 16804 | ...": models
    shared = "" if keyed else _shared_prefix(header[1:])
    if shared:  # "Power consumption (W) P8-A | ... P8-L": one field over model columns (a two-level header)
        header = [header[0]] + [h[len(shared) :].strip() or h for h in header[1:]]
        label = f"{label} {shared.strip()}"
    models_as_rows = (
        keyed
        and sum(  # a model code may follow its brand ("CloudEngine 16804", "恒达 HD-12804")
            bool(MODEL_CODE.match((h.split() or [""])[-1])) for h in header[1:]
        )
        * 2
        < len(header) - 1
    )
    sideways = (
        len(header) > 1
        and not shared
        and not FEATURE_HEADER.match(header[0].strip())
        and (
            models_as_rows
            or (one_row or sum(bool(FIELD_HEADER.search(h)) for h in header[1:]) * 2 >= len(header) - 1)
            and not FIELD_HEADER.search(cells[0])
        )
    )
    if header and not sideways and not GENERIC_HEADER.match(header[0].strip()) and not keyed:
        label = f"{label} {header[0].strip()}"  # "Compute" under "Network": the compute network
    if not sideways and (
        header
        and FEATURE_HEADER.match(header[0].strip())
        or len(cells[0].split()) >= 6
        and re.search(r"\d|\b(?:two|four|eight|sixteen)\b", cells[0], re.I)
    ):
        # a row header that is a sentence ("Eight NVIDIA HGX H100 GPUs with NVLink | GPU density for ...") or a
        # feature ("Front-to-back cooling | Supports hot- and cold-aisle designs") is the row's content as much as
        # its label
        doc.segments.append(
            Segment(
                cells[0],
                1,
                "cell",
                label=header[0].strip() if header else "",
                heading=heading,
                block=block,
                section=section,
            )
        )
    for k, c in enumerate(cells[1:], start=1):
        if c:
            col = header[k] if k < len(header) else ""
            row = " | ".join(x for j, x in enumerate(cells[1:], start=1) if j != k and x and x != "/")
            if sideways:
                doc.segments.append(
                    Segment(
                        c, 1, "cell", label=col, column=label, heading=heading, block=block, section=section, row=row
                    )
                )
            else:
                doc.segments.append(
                    Segment(
                        c, 1, "cell", label=label, column=col, heading=heading, block=block, section=section, row=row
                    )
                )


class _HTMLLines(HTMLParser):
    """Flattens HTML into Markdown-like lines: headings as '#', blocks as lines, and each table as one grid of
    '| a | b |' rows (colspan repeated across its columns, rowspan carried down, a header of several rows joined
    column by column, a row's leading <th> cells joined into its label), so one table model reads every format."""

    BLOCK = {
        "p",
        "div",
        "li",
        "br",
        "section",
        "article",
        "dt",
        "dd",
        "tr",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "table",
        "ul",
        "ol",
        "dl",
        "header",
        "footer",
        "caption",
    }
    SKIP = {"script", "style", "noscript", "template", "head"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.cur = ""
        self.table: list[list[dict]] | None = None
        self.row: list[dict] | None = None
        self.cell: dict | None = None
        self.skip = 0
        self.prefix = ""
        self.title = ""  # the page's <title>: often the only place a product page names its kind
        self.in_title = False

    def handle_starttag(self, tag, attrs):
        if tag == "title":
            self.in_title = True
        if tag in self.SKIP:
            self.skip += 1
            return
        if tag == "table" and self.table is None:
            self._end()
            self.table = []
        elif tag == "tr" and self.table is not None:
            self._close_row()
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self._close_cell()
            a = dict(attrs)
            self.cell = {
                "th": tag == "th",
                "text": "",
                "colspan": _span(a.get("colspan")),
                "rowspan": _span(a.get("rowspan")),
            }
            self.cur = ""
        elif self.cell is not None:
            if tag in ("br", "p", "li", "div") and self.cur.strip():
                self.cur += "; "  # lines inside one cell stay apart
        elif tag in ("dt",):
            self._end()
        elif tag == "dd":
            self.cur = self.cur.rstrip() + ": "
            return
        elif tag in self.BLOCK and self.table is None:
            self._end()
            if tag[0] == "h" and tag[1:].isdigit():
                self.prefix = "#" * int(tag[1:]) + " "

    def handle_endtag(self, tag):
        if tag == "title":
            self.in_title = False
        if tag in self.SKIP:
            self.skip = max(0, self.skip - 1)
            return
        if tag in ("td", "th") and self.cell is not None:
            self._close_cell()
        elif tag == "tr" and self.row is not None:
            self._close_row()
        elif tag == "table" and self.table is not None:
            self._close_row()
            self.lines += [""] + _grid_lines(self.table) + [""]
            self.table = self.row = self.cell = None
            self.cur = ""
        elif self.table is not None:
            return
        elif tag == "dd":
            self._end()
        elif tag in self.BLOCK:
            self._end()

    def _close_cell(self):
        """End the open cell, if any, into its row (a browser closes it at the next cell, row or table end too:
        `<td>x</tr></td>` is one cell)."""
        if self.cell is not None and self.row is not None:
            self.cell["text"] = compiled(r"\s+").sub(" ", self.cur).strip().strip(";").strip()
            self.row.append(self.cell)
            self.cur = ""
        self.cell = None

    def _close_row(self):
        self._close_cell()
        if self.row:
            self.table.append(self.row)
        self.row = None

    def handle_data(self, data):
        if self.in_title:
            self.title += data
        elif not self.skip:
            self.cur += data

    def _end(self):
        t = compiled(r"\s+").sub(" ", self.cur).strip()
        if t and self.table is None:
            self.lines.append(self.prefix + t)
            self.lines.append("")
        self.prefix = ""
        if self.table is None:
            self.cur = ""

    def close(self):
        super().close()
        if self.table is not None:
            self._close_row()
            self.lines += [""] + _grid_lines(self.table) + [""]
            self.table = None
        self._end()


def _span(v) -> int:
    try:
        return max(1, min(int(v), 64))
    except (TypeError, ValueError):
        return 1


def _grid_lines(rows: list[list[dict]]) -> list[str]:
    grid: list[list[tuple[str, bool]]] = []
    carry: dict[int, list] = {}  # column -> [rows left, text, is_th] of a cell spanning rows
    for row in rows:
        line: dict[int, tuple[str, bool]] = {}
        pending = dict(carry)
        col = 0
        for cell in row:
            while col in pending and col not in line:
                line[col] = (pending[col][1], pending[col][2])
                col += 1
            for k in range(cell["colspan"]):
                line[col + k] = (cell["text"], cell["th"])
            col += cell["colspan"]
        for c, v in pending.items():
            line.setdefault(c, (v[1], v[2]))
        for c in pending:
            carry[c][0] -= 1
            if carry[c][0] <= 0:
                del carry[c]
        col = 0
        for cell in row:
            while col in pending:
                col += 1
            if cell["rowspan"] > 1:
                for k in range(cell["colspan"]):
                    carry[col + k] = [cell["rowspan"] - 1, cell["text"], cell["th"]]
            col += cell["colspan"]
        width = max(line) + 1 if line else 0
        grid.append([line.get(c, ("", False)) for c in range(width)])
    head: list[list[str]] = []
    while grid and all(th or not text for text, th in grid[0]) and len(grid) > 1:
        head.append([text for text, _ in grid.pop(0)])
    if head:
        width = max(len(h) for h in head)
        header = [" ".join(dict.fromkeys(h[k] for h in head if k < len(h) and h[k])) for k in range(width)]
    else:
        header = []
    stub = 0
    for r in grid:
        n = 0
        while n < len(r) and r[n][1]:
            n += 1
        stub = max(stub, n)
    stub = max(stub, 1)
    if header and stub > 1:
        header = [" ".join(dict.fromkeys(h for h in header[:stub] if h))] + header[stub:]
    rows = []
    for r in grid:
        texts = [t for t, _ in r]
        if stub > 1:
            texts = [" / ".join(dict.fromkeys(t for t in texts[:stub] if t))] + texts[stub:]
        if any(texts):
            rows.append(texts)
    return _pipe_table([header] + rows, 1) if header else _pipe_table(rows, 0)


def _parsed(text: str) -> "_HTMLLines":
    p = _HTMLLines()
    p.feed(text)
    p.close()
    return p


def _html_lines(text: str) -> tuple[list[str], str]:
    try:
        p = _parsed(text)
    except AssertionError:
        # html.parser asserts on a broken marked section ("<![" then no name) and cannot go on: read the page with
        # such openings as text, so that nothing else on it is lost
        try:
            p = _parsed(text.replace("<![", "&lt;!["))
        except AssertionError as exc:
            raise UnreadableInput(f"not readable as HTML ({exc})") from None
    return [html.unescape(x) if "&" in x else x for x in p.lines], compiled(r"\s+").sub(" ", p.title).strip()
