"""Terminal summary: the status word first, the verdict, the questions to ask the vendor, findings most severe first (wrapped to the terminal,
figures one per line), what was not read, and a table of normalised figures with page numbers."""

from __future__ import annotations

from ..records import SheetResult
from ..numfmt import num
from .message import split_list
from .termtext import columns, pad, width, wrap
from .verdict import SEVERITY_RANK, STATUS_TEXT, counts, facility_json, status, unread, vendor_questions, verdict

MARK = {"error": "✖ error", "warning": "▲ warning", "info": "● info"}
# (header, columns) of the figure table; the last column takes what the terminal has left
TABLE = (
    ("id", 5),
    ("quantity", 11),
    ("tier", 10),
    ("as printed", 24),
    ("normalised", 14),
    ("scope/basis", 16),
    ("page", 6),
)


def _figure_rows(a: SheetResult, figures=None) -> list[tuple]:
    """One row per figure; the same figure printed again (same text, reading and value) is one row with each
    page and the first id (a switch sheet prints its port speeds on every page)."""
    rows: dict[tuple, list] = {}
    for f in a.figures if figures is None else figures:
        n = f.normalized or {}
        val = n.get("value")
        norm = f"{num(val)} {n.get('unit') or ''}".strip() if isinstance(val, (int, float)) else str(val or "-")
        extra = f.basis if f.quantity == "latency" else (f.scope or "")
        key = (f.quantity, str(f.tier or "-"), f.text, norm, extra or "")
        row = rows.setdefault(key, [f.id, *key, []])
        if str(f.page) not in row[-1]:
            row[-1].append(str(f.page))
    return [(*r[:-1], ",".join(r[-1])) for r in rows.values()]


SHRINK = ((3, 8), (5, 9), (1, 8), (4, 11), (2, 9))  # (column, narrowest) in the order a narrow terminal takes them


def _table(rows: list[tuple], cols: int) -> list[str]:
    widths = [w for _, w in TABLE]
    # give the printed text what the terminal has beyond the fixed columns, up to the widest cell
    spare = cols - (sum(widths) + len(widths) - 1)
    widest = max([width(r[3]) for r in rows] + [widths[3]])
    widths[3] = max(widths[3], min(widest, widths[3] + spare))
    for i, narrowest in SHRINK:
        over = sum(widths) + len(widths) - 1 - cols
        if over <= 0:
            break
        widths[i] = max(narrowest, widths[i] - over)

    def line(cells):
        return " ".join(pad(str(c), w) for c, w in zip(cells, widths)).rstrip()

    return [line([h for h, _ in TABLE])] + [line(r) for r in rows]


def requirement_lines(sec: dict, cols: int) -> list[str]:
    """The block 'Against your requirements': one line per requirement, its question under it."""
    from ..requirements import spec

    words = spec()["results"]
    c = sec["counts"]
    head = ", ".join(f"{n} {words[r]['counted']}" for r, n in c.items() if n)
    lines = wrap(f"Against your requirements{' (' + sec['name'] + ')' if sec.get('name') else ''}: {head}.", cols)
    hang = " " * 4
    for r in sec["results"]:
        value = f"{r['value_text']}{' ' + r['unit'] if r.get('unit') else ''}" if r.get("value_text") else ""
        at = f" (p{r['page']})" if r.get("page") else ""
        got = f": {value}{at}" if value else ""
        lines += wrap(
            f"{words[r['result']]['word']}: {r['requirement']} {r['wanted']}{got}",
            cols,
            first=f"  {words[r['result']]['mark'] or ' '} ",
            rest=hang,
        )
        if r.get("question"):
            lines += wrap(f"Ask: {r['question']}", cols, first=hang, rest=hang + "  ")
    return lines + [""]


def question_lines(a: SheetResult, cols: int) -> list[str]:
    """'Ask the vendor': every question, most severe first, one numbered item each (wrapped under its number)."""
    asked = list(vendor_questions(a.findings))
    if not asked:
        return []
    lines = ["Ask the vendor:"]
    for i, text in enumerate(asked, 1):
        lead = f"  {i}. "
        lines += wrap(text, cols, first=lead, rest=" " * len(lead))
    return lines + [""]


def _n(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def render(a: SheetResult, cols: int | None = None, all_figures: bool = False) -> str:
    """The summary; the figure table holds the figures the findings (and requirements) rest on, every figure with
    all_figures (a 16-page switch sheet reads 200 of them: a screenful of findings, not 300 lines)."""
    cols = cols or columns()
    st = status(a)
    word, meaning = STATUS_TEXT[st]
    c = counts(a)
    pages = a.document.pages
    lines = wrap(f"{meaning}.", cols, first=f"{word}: ", rest=" " * (len(word) + 2))
    product = f"{a.document.product}: " if a.document.product else ""
    lines += wrap(
        f"{product}{a.document.path}  ({a.sheet_kind} sheet, {_n(pages, 'page')}, "
        f"{_n(len(a.figures), 'figure')}; {_n(c['error'], 'error')}, {_n(c['warning'], 'warning')}, "
        f"{c['info']} info)",
        cols,
    )
    lines.append("")
    lines += wrap(verdict(a), cols)
    if a.facility:
        lines += wrap(f"Checked against: {facility_json(a.facility)['text']}.", cols, rest="  ")
    for what in unread(a):
        lines += wrap(f"Not read: {what}.", cols, rest="  ")
    lines.append("")
    lines += question_lines(a, cols)
    if a.requirements:
        lines += requirement_lines(a.requirements, cols)
    hang = " " * 11
    for f in sorted(a.findings, key=lambda x: SEVERITY_RANK[x.severity]):
        lead, items, tail = split_list(f.message)
        lines += wrap(f"[{f.check}] {lead}".rstrip(), cols, first=f"{MARK[f.severity]:<10} ", rest=hang)
        for item in items:
            lines += wrap(item, cols, first=hang + "- ", rest=hang + "  ")
        if tail:
            lines += wrap(tail, cols, first=hang, rest=hang)
    if a.findings:
        lines.append("")
    cited = {i for f in a.findings for i in f.figures} | {
        i for r in (a.requirements or {}).get("results", []) for i in r.get("figures") or []
    }
    shown = a.figures if all_figures else [f for f in a.figures if f.id in cited]
    if shown:
        lines += _table(_figure_rows(a, shown), cols)
    if len(shown) < len(a.figures):
        rest = len(a.figures) - len(shown)
        lines += wrap(
            f"{'These are the figures the findings rest on; ' if shown else ''}{_n(rest, 'other figure')} "
            f"read {'are' if rest != 1 else 'is'} not listed: --all-figures lists every one.",
            cols,
        )
    for note in a.document.notes:
        lines += wrap(f"note: {note}", cols, rest="  ")
    return "\n".join(lines) + "\n"
