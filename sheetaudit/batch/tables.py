"""figures.csv, findings.csv, comparison.csv and audit.xlsx (pandas; openpyxl only where installed).

Sheet text is untrusted: a cell that starts with = + - @ (or a tab / carriage return) is prefixed with ' so a
spreadsheet shows it as text instead of running it as a formula (CSV / formula injection)."""
from __future__ import annotations

import importlib.util
import io
import re

FIGURE_COLUMNS = ["sheet", "figure", "quantity", "text", "value", "unit", "normalized_value", "normalized_unit",
                  "tier", "direction", "scope", "basis", "page", "technology", "label", "context"]
FINDING_COLUMNS = ["sheet", "source", "check", "step", "severity", "figures", "pages", "message", "why", "fix"]
# status: the sheet's fail | review | pass | incomplete (README, "Use"), or error when it could not be audited;
# product: the sheet's title, beside its file name
COMPARISON_COLUMNS = ["sheet", "product", "status", "kind", "scale_up_gbs_per_acc", "scale_out_gbs_per_acc",
                      "scale_out_to_up_ratio", "scale_out_port_gbs", "scale_up_domain_size", "latency_hardware_ns",
                      "latency_end_to_end_ns", "latency_unspecified_ns", "accelerator_power_kw", "node_power_kw",
                      "rack_power_kw",
                      "rack_power_derived", "cooling", "errors", "warnings", "infos", "figures", "report", "error",
                      "implausible"]
DANGEROUS = ("=", "+", "-", "@", "\t", "\r")


def neutralise(value):
    if isinstance(value, str) and value.startswith(DANGEROUS):
        return "'" + value
    return value


_XLSX_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def xlsx_safe(value):
    """Control characters (a newline in a file name, an escape sequence) cannot be stored in a worksheet cell."""
    if isinstance(value, str):
        value = _XLSX_ILLEGAL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), value)
    return neutralise(value)


def _frame(rows: list[dict], columns: list[str], clean=neutralise):
    import pandas as pd
    df = pd.DataFrame(rows, columns=columns)
    for col in df.columns:
        if df[col].dtype == object or str(df[col].dtype) in ("string", "str"):
            df[col] = df[col].map(clean)
    return df


def figure_rows(sheets: list[dict]) -> list[dict]:
    rows = []
    for s in sheets:
        c = s.get("contract")
        if not c:
            continue
        for f in c.get("figures", []):
            n = f.get("normalized") or {}
            rows.append({"sheet": s["sheet"], "figure": f.get("id"), "quantity": f.get("quantity"),
                         "text": f.get("text"), "value": _scalar(f.get("value")), "unit": f.get("unit"),
                         "normalized_value": _scalar(n.get("value")), "normalized_unit": n.get("unit"),
                         "tier": f.get("tier"), "direction": f.get("direction"), "scope": f.get("scope"),
                         "basis": f.get("basis"), "page": f.get("page"), "technology": f.get("technology"),
                         "label": f.get("label"), "context": f.get("context")})
    return rows


def _scalar(v):
    return v if isinstance(v, (int, float, str)) or v is None else str(v)


def finding_rows(sheets: list[dict], comparison: list[dict]) -> list[dict]:
    rows = []
    for s in sheets:
        for f in (s.get("contract") or {}).get("findings", []):
            rows.append({"sheet": s["sheet"], "source": "sheet", "check": f.get("check"), "step": f.get("step"),
                         "severity": f.get("severity"), "figures": " ".join(f.get("figures") or []),
                         "pages": " ".join(str(p) for p in f.get("pages") or []), "message": f.get("message"),
                         "why": f.get("why"), "fix": f.get("fix")})
    for f in comparison:
        rows.append({"sheet": " ".join(f["sheets"]), "source": "comparison", "check": f["check"], "step": f["step"],
                     "severity": f["severity"], "figures": "", "pages": "", "message": f["message"],
                     "why": f["why"], "fix": f["fix"]})
    return rows


def comparison_rows(sheets: list[dict]) -> list[dict]:
    def v(cell):
        return cell["value"] if cell else None

    out = []
    for s in sheets:
        r = s.get("row")
        if r is None:
            out.append({"sheet": s["sheet"], "status": "error", "error": s.get("error")})
            continue
        lat = r["latency"]
        out.append({"sheet": r["sheet"], "product": r.get("title", ""), "status": r.get("status"), "kind": r["kind"],
                    "scale_up_gbs_per_acc": v(r["scale_up"]),
                    "scale_out_gbs_per_acc": v(r["scale_out"]), "scale_out_to_up_ratio": v(r["ratio"]),
                    "scale_out_port_gbs": v(r["port"]), "scale_up_domain_size": v(r["domain"]),
                    "latency_hardware_ns": (lat.get("hardware") or {}).get("value"),
                    "latency_end_to_end_ns": (lat.get("end-to-end") or {}).get("value"),
                    "latency_unspecified_ns": (lat.get("unspecified") or {}).get("value"),
                    "accelerator_power_kw": v(r.get("accelerator_power")), "node_power_kw": v(r["node_power"]),
                    "rack_power_kw": v(r["rack_power"]),
                    "rack_power_derived": bool(r["rack_power"] and r["rack_power"]["how"] == "derived"),
                    "cooling": " ".join(r["cooling"]), "errors": r["findings"]["error"],
                    "warnings": r["findings"]["warning"], "infos": r["findings"]["info"], "figures": r["figures"],
                    "report": r["report"], "error": None, "implausible": implausible(r)})
    return out


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
            why.append(f"{tier} {num(cell['value'])} GB/s per accelerator per direction is above any technology's "
                       f"ceiling ({g.label}: {num(ceiling)} GB/s)")
    return "; ".join(why)


def csv_text(rows: list[dict], columns: list[str]) -> str:
    # RFC 4180's CRLF rows: Python's csv quotes a field only for the characters of its line terminator, so with "\n"
    # alone a carriage return in a file name was written bare and split the row in two.
    return _frame(rows, columns).to_csv(index=False, lineterminator="\r\n")


def xlsx_available() -> bool:
    return importlib.util.find_spec("openpyxl") is not None


def xlsx_bytes(tables: dict[str, tuple[list[dict], list[str]]]) -> bytes:
    """One worksheet per table, header row frozen. The frames are built with pandas (cells neutralised as for the
    CSVs) and streamed with openpyxl's write-only mode, several times faster than DataFrame.to_excel."""
    import math

    from openpyxl import Workbook
    wb = Workbook(write_only=True)
    for name, (rows, columns) in tables.items():
        df = _frame(rows, columns, clean=xlsx_safe)
        ws = wb.create_sheet(title=name[:31])
        ws.freeze_panes = "A2"
        for i, col in enumerate(columns):
            ws.column_dimensions[_col_letter(i)].width = min(60, max(10, len(col) + 2))
        ws.append(columns)
        for row in df.itertuples(index=False, name=None):
            ws.append([None if v is None or (isinstance(v, float) and math.isnan(v)) else
                       (v.item() if hasattr(v, "item") else v) for v in row])
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def _col_letter(i: int) -> str:
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(65 + r) + s
    return s
