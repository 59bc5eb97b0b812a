"""audit.xlsx written directly: a workbook is a zip of a few XML parts, and the batch's tables need only text,
numbers and booleans, a frozen header, an autofilter and column widths. The cells are written as openpyxl's
write-only mode writes them (inline strings, numbers as '%.16g', booleans as 1 and 0, an error word as an error
cell, text cut at Excel's 32,767 characters), without importing openpyxl: its import alone cost more than a
batch of fifty sheets spent writing every table.

The caller passes plain Python values (None for an empty cell) whose text holds no character XML cannot carry
(batch.tables.xlsx_safe)."""

from __future__ import annotations

import itertools
import time
import zipfile
from xml.sax.saxutils import escape

MAX_TEXT = 32767
ERROR_WORDS = frozenset(("#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A"))
_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
_CT = "application/vnd.openxmlformats-officedocument."
_STYLES = (
    f'<styleSheet xmlns="{_MAIN}"><fonts count="1"><font><sz val="11"/><name val="Calibri"/>'
    '<family val="2"/></font></fonts><fills count="2"><fill><patternFill/></fill><fill>'
    '<patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/>'
    '<bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" '
    'borderId="0"/></cellStyleXfs><cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" '
    'xfId="0"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/>'
    "</cellStyles></styleSheet>"
)


def column_letter(n: int) -> str:
    """1 -> A, 27 -> AA."""
    s = ""
    while n:
        n, r = divmod(n - 1, 26)
        s = chr(65 + r) + s
    return s


def _cell(ref: str, v) -> str:
    if v is None:
        return ""
    if isinstance(v, str):
        v = v[:MAX_TEXT]
        if v in ERROR_WORDS:
            return f'<c r="{ref}" t="e"><v>{v}</v></c>'
        if not v:
            return f'<c r="{ref}" t="inlineStr"/>'
        space = ' xml:space="preserve"' if v.strip() and v.strip() != v else ""
        return f'<c r="{ref}" t="inlineStr"><is><t{space}>{escape(v)}</t></is></c>'
    if isinstance(v, bool):
        return f'<c r="{ref}" t="b"><v>{int(v)}</v></c>'
    if v != v or v in (float("inf"), float("-inf")):
        return f'<c r="{ref}" t="n"><v></v></c>'
    return f'<c r="{ref}" t="n"><v>{"%.16g" % v}</v></c>'


def sheet_parts(header: list[str], rows, widths: list[int], count: int):
    """One worksheet, piece by piece: HEADER frozen above the COUNT ROWS, an autofilter over them, each column
    WIDTHS wide."""
    letters = [column_letter(i + 1) for i in range(len(header))]
    cols = "".join(f'<col min="{i}" max="{i}" width="{w}" customWidth="1"/>' for i, w in enumerate(widths, 1))
    yield (
        f'<worksheet xmlns="{_MAIN}"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" '
        'topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" activeCell="A1" '
        f'sqref="A1"/></sheetView></sheetViews><sheetFormatPr baseColWidth="8" defaultRowHeight="15"/>'
        f"<cols>{cols}</cols><sheetData>"
    )
    lines = []
    for r, row in enumerate(itertools.chain([header], rows), 1):
        lines.append(f'<row r="{r}">' + "".join(_cell(f"{c}{r}", v) for c, v in zip(letters, row)) + "</row>")
        if len(lines) == 500:
            yield "".join(lines)
            lines = []
    yield "".join(lines)
    yield f'</sheetData><autoFilter ref="{filter_range(len(header), count)}"/></worksheet>'


def filter_range(columns: int, rows: int) -> str:
    return f"A1:{column_letter(columns)}{rows + 1}"


def write_workbook(fh, sheets: list[tuple[str, object, str]]) -> None:
    """The .xlsx of SHEETS into the binary file FH (seekable): (title, a function giving the worksheet's XML in
    pieces, autofilter range) each, in order."""
    n = len(sheets)
    names = "".join(
        f'<sheet name="{escape(t, {chr(34): "&quot;"})}" sheetId="{i}" r:id="rId{i}"/>'
        for i, (t, _, _) in enumerate(sheets, 1)
    )
    filters = "".join(
        f'<definedName name="_xlnm._FilterDatabase" localSheetId="{i}" hidden="1">'
        f"{escape(_quoted(t))}!{_absolute(ref)}</definedName>"
        for i, (t, _, ref) in enumerate(sheets)
    )
    parts = {
        "[Content_Types].xml": (
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            f'<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            f'<Override PartName="/xl/workbook.xml" ContentType="{_CT}spreadsheetml.sheet.main+xml"/>'
            f'<Override PartName="/xl/styles.xml" ContentType="{_CT}spreadsheetml.styles+xml"/>'
            '<Override PartName="/docProps/core.xml" '
            'ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>'
            f'<Override PartName="/docProps/app.xml" ContentType="{_CT}extended-properties+xml"/>'
            + "".join(
                f'<Override PartName="/xl/worksheets/sheet{i}.xml" ContentType="{_CT}spreadsheetml.worksheet+xml"/>'
                for i in range(1, n + 1)
            )
            + "</Types>"
        ),
        "_rels/.rels": (
            f'<Relationships xmlns="{_PKG_REL}"><Relationship Id="rId1" Type="{_REL}/officeDocument" '
            'Target="xl/workbook.xml"/><Relationship Id="rId2" '
            f'Type="{_PKG_REL}/metadata/core-properties" Target="docProps/core.xml"/>'
            f'<Relationship Id="rId3" Type="{_REL}/extended-properties" Target="docProps/app.xml"/></Relationships>'
        ),
        "docProps/app.xml": (
            '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/'
            'extended-properties"><Application>sheetaudit</Application></Properties>'
        ),
        "docProps/core.xml": _core(),
        "xl/workbook.xml": (
            f'<workbook xmlns="{_MAIN}" xmlns:r="{_REL}"><bookViews><workbookView activeTab="0"/>'
            f"</bookViews><sheets>{names}</sheets><definedNames>{filters}</definedNames>"
            '<calcPr calcId="124519" fullCalcOnLoad="1"/></workbook>'
        ),
        "xl/_rels/workbook.xml.rels": (
            f'<Relationships xmlns="{_PKG_REL}">'
            + "".join(
                f'<Relationship Id="rId{i}" Type="{_REL}/worksheet" Target="worksheets/sheet{i}.xml"/>'
                for i in range(1, n + 1)
            )
            + f'<Relationship Id="rId{n + 1}" Type="{_REL}/styles" Target="styles.xml"/></Relationships>'
        ),
        "xl/styles.xml": _STYLES,
        **{f"xl/worksheets/sheet{i}.xml": xml for i, (_, xml, _) in enumerate(sheets, 1)},
    }
    with zipfile.ZipFile(fh, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as z:
        for name, text in parts.items():
            if isinstance(text, str):
                z.writestr(name, text.encode("utf-8"))
                continue
            with z.open(name, "w") as part:  # as writestr writes it, the worksheet in pieces
                for piece in text():
                    part.write(piece.encode("utf-8"))


def _core() -> str:
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    return (
        '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
        'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:creator>sheetaudit</dc:creator>'
        f'<dcterms:created xsi:type="dcterms:W3CDTF">{now}</dcterms:created>'
        f'<dcterms:modified xsi:type="dcterms:W3CDTF">{now}</dcterms:modified></cp:coreProperties>'
    )


def _quoted(title: str) -> str:
    return "'" + title.replace("'", "''") + "'"


def _absolute(ref: str) -> str:
    """A1:T162 -> $A$1:$T$162."""
    import re

    return re.sub(r"([A-Z]+)(\d+)", r"$\1$\2", ref)
