"""Terminal summary: verdict, findings by severity, a table of normalised figures with page numbers."""
from __future__ import annotations

from ..model import Audit
from .verdict import verdict

MARK = {"error": "✖ error", "warning": "▲ warning", "info": "● info"}


def render(a: Audit) -> str:
    lines = [f"{a.document.path}  ({a.sheet_kind}, {a.document.pages} page(s))", "", verdict(a), ""]
    for sev in ("error", "warning", "info"):
        for f in [x for x in a.findings if x.severity == sev]:
            lines.append(f"{MARK[sev]:<10} [{f.check}] {f.message}")
    if a.findings:
        lines.append("")
    lines.append(f"{'id':<5} {'quantity':<11} {'tier':<10} {'as printed':<26} {'normalised':<16} {'scope/basis':<16} page")
    for f in a.figures:
        n = f.normalized or {}
        val = n.get("value")
        norm = f"{val:g} {n.get('unit') or ''}".strip() if isinstance(val, (int, float)) else str(val)
        extra = f.basis if f.quantity == "latency" else (f.scope or "")
        lines.append(f"{f.id:<5} {f.quantity:<11} {str(f.tier or '-'):<10} {f.text[:26]:<26} {norm:<16} {extra:<16} {f.page}")
    for note in a.document.notes:
        lines.append(f"note: {note}")
    return "\n".join(lines) + "\n"
