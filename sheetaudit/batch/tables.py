"""The four tables a buyer computes with (figures, findings, comparison, compliance): one set of columns and types
for the CSVs, audit.xlsx, audit.sqlite and the Python API's DataFrames, built from audit contracts.

Every numeric column holds numbers only (a range of readings is two columns, `low` and `high`; a cooling method is
a unit, never a value), and status, severity and result words are the contract's, lower case everywhere.

Sheet text is untrusted: in a CSV or a worksheet a cell that starts with = + - @ (or a tab / carriage return) is
prefixed with ' so a spreadsheet shows it as text instead of running it as a formula (CSV / formula injection)."""

from __future__ import annotations

import importlib.util
import io
import re
from dataclasses import dataclass
from pathlib import Path

from ..contract import product_of

TEXT, REAL, INT, BOOL = "text", "real", "int", "bool"


@dataclass(frozen=True)
class Table:
    name: str  # the SQLite table; its worksheet is the name capitalised
    columns: tuple[tuple[str, str], ...]  # (column, TEXT | REAL | INT | BOOL)

    @property
    def names(self) -> list[str]:
        return [c for c, _ in self.columns]

    @property
    def sheet(self) -> str:
        return self.name.capitalize()


def _cols(spec: str, kinds: dict[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple((c, kinds.get(c, TEXT)) for c in spec.split())


# value and unit are the normalised ones (bandwidth GB/s per direction, latency ns, power kW, domain_size
# accelerators); a cooling figure's value is empty and its unit the method; printed_value/printed_unit as printed
FIGURES = Table(
    "figures",
    _cols(
        "sheet product model figure quantity value unit tier direction scope basis certainty certainty_reason "
        "as_printed printed_value printed_unit page technology label context",
        {"value": REAL, "printed_value": REAL, "page": INT},
    ),
)
# source: sheet (the sheet's own audit) or comparison (what a side-by-side reading gets wrong; sheet names them all)
FINDINGS = Table(
    "findings",
    _cols(
        "sheet product source check step severity title message figures pages models certainty question why fix",
        {"step": INT},
    ),
)
# status: the sheet's fail | review | pass | incomplete, or error when it could not be audited. Bandwidths are GB/s
# per direction; the switch columns are a switch sheet's own (capacity, counted ports and their speed, power).
COMPARISON = Table(
    "comparison",
    _cols(
        "sheet product status kind scale_up_gbs_per_acc scale_out_gbs_per_acc scale_out_to_up_ratio scale_out_port_gbs "
        "scale_up_domain_size switch_capacity_gbs switch_ports switch_port_gbs switch_power_kw latency_hardware_ns "
        "latency_end_to_end_ns latency_unspecified_ns accelerator_power_kw node_power_kw rack_power_kw "
        "rack_power_derived cooling errors warnings infos figures report error implausible",
        {
            **{
                c: REAL
                for c in (
                    "scale_up_gbs_per_acc",
                    "scale_out_gbs_per_acc",
                    "scale_out_to_up_ratio",
                    "scale_out_port_gbs",
                    "scale_up_domain_size",
                    "switch_capacity_gbs",
                    "switch_port_gbs",
                    "switch_power_kw",
                    "latency_hardware_ns",
                    "latency_end_to_end_ns",
                    "latency_unspecified_ns",
                    "accelerator_power_kw",
                    "node_power_kw",
                    "rack_power_kw",
                )
            },
            **{c: INT for c in ("switch_ports", "errors", "warnings", "infos", "figures")},
            "rack_power_derived": BOOL,
        },
    ),
)
# low/high: the value, or the range of readings the sheet allows (450 and 900 for a bandwidth of no stated
# direction); value_text: as the report shows it (a transport, a cooling method, '450–900'); basis: sheet,
# assumption or model
COMPLIANCE = Table(
    "compliance",
    _cols(
        "sheet product requirement wanted low high unit value_text result basis page question",
        {"low": REAL, "high": REAL, "page": INT},
    ),
)
TABLES = (FIGURES, FINDINGS, COMPARISON, COMPLIANCE)

# the names the batch's tests and older callers use
FIGURE_COLUMNS, FINDING_COLUMNS, COMPARISON_COLUMNS, COMPLIANCE_COLUMNS = (t.names for t in TABLES)


def product(contract: dict) -> str:
    """The product's name, the one every output prints (sheetaudit.naming, via contract.product_of)."""
    return product_of(contract)


def _number(v):
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def figure_rows(pairs) -> list[dict]:
    """One row per figure of each (sheet, contract) pair."""
    return list(iter_figure_rows(pairs))


def iter_figure_rows(pairs):
    """figure_rows, one row at a time (PAIRS may be read one contract at a time)."""
    for sheet, c in pairs:
        name = product(c)
        for f in c.get("figures") or []:
            n = f.get("normalized") or {}
            value = _number(n.get("value"))
            method = n.get("value") if isinstance(n.get("value"), str) else None
            yield (
                {
                    "sheet": sheet,
                    "product": name,
                    "model": f.get("model"),
                    "figure": f.get("id"),
                    "quantity": f.get("quantity"),
                    "value": value,
                    "unit": n.get("unit") if value is not None else method,
                    "tier": f.get("tier"),
                    "direction": f.get("direction"),
                    "scope": f.get("scope"),
                    "basis": f.get("basis"),
                    "certainty": f.get("certainty"),
                    "certainty_reason": f.get("certainty_reason"),
                    "as_printed": f.get("text"),
                    "printed_value": _number(f.get("value")),
                    "printed_unit": f.get("unit") if _number(f.get("value")) is not None else None,
                    "page": f.get("page"),
                    "technology": f.get("technology"),
                    "label": f.get("label"),
                    "context": f.get("context"),
                }
            )


def finding_rows(pairs, comparison: list[dict] = (), products: dict | None = None) -> list[dict]:
    """One row per finding of each (sheet, contract) pair, then the cross-sheet findings of COMPARISON."""
    return list(iter_finding_rows(pairs, comparison, products))


def iter_finding_rows(pairs, comparison: list[dict] = (), products: dict | None = None):
    """finding_rows, one row at a time (PAIRS may be read one contract at a time)."""
    names = dict(products or {})
    for sheet, c in pairs:
        names[sheet] = name = product(c)
        for f in c.get("findings") or []:
            yield (
                {
                    "sheet": sheet,
                    "product": name,
                    "source": "sheet",
                    "check": f.get("check"),
                    "step": f.get("step"),
                    "severity": f.get("severity"),
                    "title": f.get("title"),
                    "message": f.get("message"),
                    "figures": " ".join(f.get("figures") or []),
                    "pages": ", ".join(str(p) for p in f.get("pages") or []),
                    "models": ", ".join(f.get("models") or []),
                    "certainty": f.get("certainty", "stated"),
                    "question": f.get("question"),
                    "why": f.get("why"),
                    "fix": f.get("fix"),
                }
            )
    for f in comparison:
        yield (
            {
                "sheet": " ".join(f["sheets"]),
                "product": "; ".join(names.get(s, "") for s in f["sheets"]),
                "source": "comparison",
                "check": f["check"],
                "step": f["step"],
                "severity": f["severity"],
                "title": f.get("title"),
                "message": f["message"],
                "certainty": "stated",
                "question": f.get("question") or None,
                "why": f["why"],
                "fix": f["fix"],
            }
        )


def comparison_rows(sheets: list[dict]) -> list[dict]:
    """One row per sheet: SHEETS are {"sheet", "row": the batch's comparison row (batch.compare.sheet_row) or
    None, "error": why it could not be audited, "contract": optional}."""

    def v(cell):
        return cell["value"] if cell else None

    out = []
    for s in sheets:
        r = s.get("row")
        if r is None:
            out.append({"sheet": s["sheet"], "status": "error", "error": s.get("error"), "rack_power_derived": False})
            continue
        lat = r["latency"]
        sw = r.get("switch") or {}
        out.append(
            {
                "sheet": r["sheet"],
                "product": r.get("title", ""),
                "status": r.get("status"),
                "kind": r["kind"],
                "scale_up_gbs_per_acc": v(r["scale_up"]),
                "scale_out_gbs_per_acc": v(r["scale_out"]),
                "scale_out_to_up_ratio": v(r["ratio"]),
                "scale_out_port_gbs": v(r["port"]),
                "scale_up_domain_size": v(r["domain"]),
                "switch_capacity_gbs": sw.get("capacity_gbs"),
                "switch_ports": sw.get("ports"),
                "switch_port_gbs": sw.get("port_gbs"),
                "switch_power_kw": sw.get("power_kw"),
                "latency_hardware_ns": (lat.get("hardware") or {}).get("value"),
                "latency_end_to_end_ns": (lat.get("end-to-end") or {}).get("value"),
                "latency_unspecified_ns": (lat.get("unspecified") or {}).get("value"),
                "accelerator_power_kw": v(r.get("accelerator_power")),
                "node_power_kw": v(r["node_power"]),
                "rack_power_kw": v(r["rack_power"]),
                "rack_power_derived": bool(r["rack_power"] and r["rack_power"]["how"] == "derived"),
                "cooling": " ".join(r["cooling"]),
                "errors": r["findings"]["error"],
                "warnings": r["findings"]["warning"],
                "infos": r["findings"]["info"],
                "figures": r["figures"],
                "report": r["report"],
                "error": None,
                "implausible": implausible(r) or None,
            }
        )
    return out


def compliance_rows(pairs) -> list[dict]:
    """One row per sheet and requirement of each (sheet, contract) pair judged against requirements."""
    rows = []
    for sheet, c in pairs:
        name = product(c)
        for r in (c.get("requirements") or {}).get("results", []):
            readings = [x for x in (r.get("readings") or []) if _number(x) is not None]
            one = _number(r.get("value"))
            low, high = (min(readings), max(readings)) if readings else (one, one)
            rows.append(
                {
                    "sheet": sheet,
                    "product": name,
                    "requirement": r["key"],
                    "wanted": r.get("wanted"),
                    "low": low,
                    "high": high,
                    "unit": r.get("unit"),
                    "value_text": r.get("value_text") or (None if r.get("value") is None else str(r["value"])),
                    "result": r.get("result"),
                    "basis": r.get("basis"),
                    "page": r.get("page"),
                    "question": r.get("question") or None,
                }
            )
    return rows


def implausible(row: dict) -> str:
    """Why a sheet's per-accelerator bandwidth cannot be a fact ('' when it can): above the highest per-accelerator
    rate of any technology in the knowledge base, it is a node- or domain-wide total read as one accelerator's,
    and is kept off the shared scale of the index."""
    from ..numfmt import num
    from ..technologies import load

    top = load().max_per_accelerator()
    if not top:
        return ""
    ceiling, g = top
    why = []
    for key, tier in (("scale_up", "scale-up"), ("scale_out", "scale-out")):
        cell = row.get(key)
        if cell and isinstance(cell.get("value"), (int, float)) and cell["value"] > ceiling:
            why.append(
                f"{tier} {num(cell['value'])} GB/s per accelerator per direction is above any technology's "
                f"ceiling ({g.label}: {num(ceiling)} GB/s)"
            )
    return "; ".join(why)


_DTYPES = {TEXT: "string", REAL: "float64", INT: "Int64", BOOL: "boolean"}


def frame(table: Table, rows: list[dict]):
    """ROWS as a DataFrame of TABLE's columns and types (text as pandas strings, numbers as float64 or Int64)."""
    import pandas as pd

    df = pd.DataFrame(rows, columns=table.names)
    return df.astype({c: _DTYPES[k] for c, k in table.columns})


def neutralise(value):
    if isinstance(value, str) and value.startswith(DANGEROUS):
        return "'" + value
    return value


DANGEROUS = ("=", "+", "-", "@", "\t", "\r")
_XLSX_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def xlsx_safe(value):
    """Control characters (a newline in a file name, an escape sequence) cannot be stored in a worksheet cell."""
    if isinstance(value, str):
        value = _XLSX_ILLEGAL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), value)
    return neutralise(value)


def _typed(kind: str, v):
    """V as the column's type holds it (None for a missing value), as DataFrame.astype(_DTYPES) converts it."""
    if v is None or (isinstance(v, float) and v != v):
        return None
    if kind == TEXT:
        return v if isinstance(v, str) else str(v)
    if kind == REAL:
        return float(v)
    if kind == INT:
        return int(v)
    return bool(v)


class Spooled:
    """A table's rows as typed cells (its columns' order and types, None for a missing value), written once to an
    unnamed temporary file and read back as often as the outputs need them: a batch's tables are never all in
    memory (the figures of 850 datasheets are hundreds of megabytes as Python objects)."""

    BATCH = 500  # rows a record

    def __init__(self, table: Table, rows, folder=None):
        import itertools
        import marshal
        import tempfile

        self.table = table
        self.count = self._batches = 0
        self._file = tempfile.TemporaryFile(dir=folder)
        batch = []
        for r in itertools.chain(rows, [None]):
            if r is not None:
                batch.append([_typed(k, r.get(c)) for c, k in table.columns])
            if batch and (r is None or len(batch) == self.BATCH):
                raw = marshal.dumps(batch)
                self._file.write(len(raw).to_bytes(8, "little") + raw)
                self.count += len(batch)
                self._batches += 1
                batch = []

    def cells(self, clean=None):
        """The rows as lists of values, text cells passed through CLEAN."""
        import marshal

        text = [i for i, (_, k) in enumerate(self.table.columns) if k == TEXT] if clean is not None else []
        self._file.seek(0)
        for _ in range(self._batches):
            size = int.from_bytes(self._file.read(8), "little")
            for row in marshal.loads(self._file.read(size)):  # marshal.load reads a file piece by piece: slow
                for i in text:
                    if row[i] is not None:
                        row[i] = clean(row[i])
                yield row

    def close(self) -> None:
        self._file.close()


def _csv_cell(v) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return repr(v)  # pandas' float64 text: the shortest repr ('1e+16', '0.1', '123.0')
    return str(v)  # an int, True/False, or text


def csv_chunks(table: Spooled, batch: int = 1000):
    """The table as CSV text, a thousand rows at a time."""
    # RFC 4180's CRLF rows: Python's csv quotes a field only for the characters of its line terminator, so with "\n"
    # alone a carriage return in a file name was written bare and split the row in two.
    import csv

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(table.table.names)
    for i, row in enumerate(table.cells(clean=neutralise), 1):
        w.writerow([_csv_cell(v) for v in row])
        if i % batch == 0:
            yield buf.getvalue()
            buf.seek(0)
            buf.truncate()
    yield buf.getvalue()


def xlsx_available() -> bool:
    return importlib.util.find_spec("openpyxl") is not None


def xlsx_chunks(tables: list[Spooled]):
    """One worksheet per table: header frozen, an autofilter over every column, widths that fit the longest
    cell (within reason), numbers stored as numbers (batch.xlsx writes the parts); the workbook's bytes a
    megabyte at a time (built in a temporary file)."""
    import itertools
    import tempfile

    from .xlsx import filter_range, sheet_parts, write_workbook

    sheets = []
    for t in tables:
        head = list(itertools.islice(t.cells(clean=xlsx_safe), 2000))
        widths = [
            min(60, max(8, max([len(col) + 3] + [len(_shown(r[i])) for r in head]) + 1))
            for i, col in enumerate(t.table.names)
        ]  # + 3: the filter button
        sheets.append(
            (
                t.table.sheet[:31],
                lambda t=t, widths=widths: sheet_parts(t.table.names, t.cells(clean=xlsx_safe), widths, t.count),
                filter_range(len(t.table.columns), t.count),
            )
        )
    with tempfile.TemporaryFile() as fh:
        write_workbook(fh, sheets)
        yield from _file_chunks(fh)


def _file_chunks(fh, size: int = 1 << 20):
    fh.seek(0)
    while chunk := fh.read(size):
        yield chunk


def _shown(v) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


_SQL_TYPES = {TEXT: "TEXT", REAL: "REAL", INT: "INTEGER", BOOL: "INTEGER"}


def sqlite_chunks(tables: list[Spooled]):
    """The tables as one SQLite database (the CSVs' columns and types; no formula neutralising: a database is not
    a spreadsheet), which pandas, sqlite-utils or Datasette open as it is; its bytes a megabyte at a time."""
    import sqlite3
    import tempfile

    with tempfile.TemporaryDirectory(prefix="sheetaudit-sqlite-") as tmp:
        path = Path(tmp) / "audit.sqlite"
        con = sqlite3.connect(path)
        try:
            with con:
                for t in tables:
                    cols = ", ".join(f'"{c}" {_SQL_TYPES[k]}' for c, k in t.table.columns)
                    con.execute(f'CREATE TABLE "{t.table.name}" ({cols})')
                    marks = ", ".join("?" * len(t.table.columns))
                    con.executemany(f'INSERT INTO "{t.table.name}" VALUES ({marks})', t.cells())
        finally:
            con.close()
        with path.open("rb") as fh:
            yield from _file_chunks(fh)
