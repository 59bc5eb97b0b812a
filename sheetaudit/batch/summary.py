"""The one-screen summary printed on stderr at the end of a batch."""

from __future__ import annotations

from ..output.verdict import STATUS_TEXT
from .compare import STATUS_ORDER
from .progress import printable

NOT_RUN = "not-run"


def summary_lines(res, fail_on: str) -> list[str]:
    """The one-screen summary printed on stderr at the end."""
    sev = res.severity_counts()
    cached = sum(1 for s in res.ok + res.failed if s.get("cached"))
    lines = [
        f"sheetaudit: {len(res.sheets)} sheet(s): {len(res.ok)} audited"
        + (f" ({cached} from cache)" if cached else "")
        + f", {len(res.failed)} failed, {len(res.skipped)} other file(s) skipped"
        + f"  [{res.elapsed:.1f} s, {res.jobs} job(s)]",
        f"findings: {sev['error']} error, {sev['warning']} warning, {sev['info']} info; "
        f"comparison: {len(res.comparison)}",
    ]
    if res.interrupted:
        n = sum(1 for s in res.sheets if s["status"] == NOT_RUN)
        lines.append(f"interrupted: {n} file(s) not audited; the results so far are written")
    for s in res.failed[:8]:
        lines.append(printable(f"  ✖ {s['sheet']}: {s.get('error')}"))
    if len(res.failed) > 8:
        lines.append(f"  … and {len(res.failed) - 8} more failed file(s): see index.html")
    rows = [s["row"] for s in res.ok if s.get("row")]
    states = {st: sum(1 for r in rows if r.get("status") == st) for st in STATUS_ORDER}
    lines.append("status: " + ", ".join(f"{n} {STATUS_TEXT[st][0]}" for st, n in states.items() if n))
    worst = sorted(
        rows, key=lambda r: (STATUS_ORDER.get(r.get("status"), 9), -r["findings"]["error"], -r["findings"]["warning"])
    )
    for r in worst[:5]:
        f = r["findings"]
        if r.get("status") != "pass":
            lines.append(
                printable(
                    f"  {STATUS_TEXT.get(r.get('status'), ('?',))[0]:<10} {r['sheet']}: "
                    f"{f['error']} error, {f['warning']} warning"
                )
            )
    for f in res.comparison[:6]:
        mark = {"error": "✖", "warning": "▲", "info": "ℹ"}.get(f["severity"], "-")
        lines.append(f"  {mark} {f['check']}: {f['title']} ({len(f['sheets'])} sheet(s))")
    sections = [(s["sheet"], s["facts"]["requirements"]) for s in res.ok if s["facts"]["requirements"]]
    if sections:
        from .index import requirements_verdict

        short = [name for name, sec in sections if sec["outcome"] == "falls-short"]
        kinds = {s["sheet"]: s["facts"]["sheet_kind"] or "unknown" for s in res.ok}
        lines.append(
            printable(
                "requirements: "
                + requirements_verdict([dict(sec, kind=kinds.get(name, "unknown")) for name, sec in sections])
                + (f" Short: {', '.join(short[:4])}{', …' if len(short) > 4 else ''}." if short else "")
                + " See compliance.csv."
            )
        )
    reports = sum(1 for s in res.ok if s.get("report"))  # a sheet whose report failed has none
    lines.append(
        printable(f"wrote {res.outdir / 'index.html'} (+ {reports} report(s), ")
        + ", ".join(n for n in res.written if n != "index.html")
        + ")"
    )
    code = res.exit_code(fail_on)
    if fail_on == "requirement":
        lines.append(
            f"exit {code}: "
            + {
                0: "no sheet falls short of the requirements",
                1: "a sheet falls short of the requirements",
                2: "some files could not be audited",
                130: "interrupted",
            }[code]
        )
        return lines
    lines.append(
        f"exit {code}: "
        + {
            0: f"no finding at or above {fail_on}",
            1: f"findings at or above {fail_on}",
            2: "some files could not be audited",
            130: "interrupted",
        }[code]
    )
    return lines
