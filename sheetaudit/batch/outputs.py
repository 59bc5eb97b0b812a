"""Everything OUTDIR holds besides the per-sheet reports: audit.json, comparison.json, figures.csv,
findings.csv, comparison.csv, compliance.csv (with --require), audit.sqlite (the same tables), run.json, audit.xlsx
(where openpyxl is installed) and index.html, each written
atomically. A manifest of what was written lets a re-run of an unchanged folder keep them as they are."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timezone
from pathlib import Path

from ..version import __version__
from .compare import compare, compared, fmt_num, sheet_row
from ..fileio import atomic_write
from ..textsafe import safe_text
from .files import file_digest, write_chunks_if_changed, write_if_changed, write_json_list_if_changed
from .spool import item_text, viewed
from .training import is_system

OK, ERROR, NOT_RUN = "ok", "error", "not-run"


def write_outputs(res, opts, warn=None) -> None:
    """Write every table and index.html for a finished (or interrupted) BatchResult."""
    from . import tables
    from .index import render_index

    out = res.outdir
    out.mkdir(parents=True, exist_ok=True)
    items, systems = [], []
    for s, contract in res.contracts():  # one at a time; what looks across sheets keeps only what it reads
        s["row"] = sheet_row(s["sheet"], contract, s.get("report"))
        s["row"]["html_error"] = s.get("html_error")
        items.append((s["row"], compared(contract)))
        systems.append((s["sheet"], viewed(contract, is_system(contract))))
    res.comparison = compare(items)
    del items
    xlsx = opts.xlsx and tables_xlsx_available()
    job = getattr(opts, "job", None)
    key = _outputs_key(res, xlsx, job)
    manifest = out / MANIFEST
    if opts.use_cache and _outputs_current(out, manifest, key):
        res.outputs_reused = True
        res.written = [n for n in OUTPUT_NAMES if (n != "audit.xlsx" or xlsx) and (out / n).is_file()]
        atomic_write(out / "run.json", json.dumps(run_stats(res), indent=1) + "\n")
        return
    training = judge_on_job(res, opts, systems)  # before the tables: the requirements on the job are judged on it
    if training is not None:  # the index shows the requirements as judged on the job
        judged = {s["sheet"]: s["facts"]["requirements"] for s in res.ok if s["facts"]["judged"]}
        for name, view in systems:
            if name in judged:
                view["requirements"] = judged[name]
    write_json_list_if_changed(out / "audit.json", records(res))  # streamed: by far the largest output
    res.written.append("audit.json")
    compliance = compliance_rows(res)

    def pairs():  # read afresh, one contract at a time
        return ((s["sheet"], c) for s, c in res.contracts())

    tables_ = [
        tables.Spooled(tables.COMPARISON, tables.comparison_rows(res.sheets), out),
        tables.Spooled(tables.FIGURES, tables.iter_figure_rows(pairs()), out),
        tables.Spooled(tables.FINDINGS, tables.iter_finding_rows(pairs(), res.comparison), out),
    ]
    if compliance is not None:
        tables_.append(tables.Spooled(tables.COMPLIANCE, compliance, out))
    else:  # a run without --require after one with it: an old matrix must not pass for this run's
        (out / "compliance.csv").unlink(missing_ok=True)
    try:
        xlsx = _write_tables(res, tables_, xlsx, warn)
    finally:
        for t in tables_:
            t.close()
    rows = sorted((s["row"] for s in res.ok), key=lambda r: r["sheet"])
    not_run = [s for s in res.sheets if s["status"] == NOT_RUN]
    ctx = {
        "total": len(res.sheets),
        "audited": len(res.ok),
        "failed": len(res.failed) + len(not_run),
        "skipped": len(res.skipped),
        "severity": res.severity_counts(),
        "comparison": res.comparison,
        "errors": [{"sheet": s["sheet"], "error": s.get("error")} for s in res.sheets if s["status"] != OK],
        "rows": rows,
        "skipped_files": res.skipped,
        "interrupted": res.interrupted,
        "not_run": len(not_run),
        "version": __version__,
        "rules_hash": res.rules_hash,
        "root": safe_text(str(res.root)),
        "xlsx": xlsx,
        "generated": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "verdict": verdict(res),
        "systems": sorted(systems, key=lambda x: x[0]),
        "statuses": {
            st: sum(1 for r in rows if r.get("status") == st) for st in ("fail", "incomplete", "review", "pass")
        },
        "training": _training_html(training),
    }
    write_if_changed(out / "index.html", render_index(ctx))
    res.written.append("index.html")
    reports = {s["report"]: s.get("sha256") for s in res.ok if s.get("report")}
    hashes = {
        name: file_digest(out / name)
        for name in [n for n in res.written if n != "run.json"] + list(reports)
        if (out / name).is_file()
    }
    rendered = {name: sha for name, sha in reports.items() if name in hashes and sha}
    atomic_write(
        manifest,
        json.dumps({"key": key, "files": hashes, "base": res.cache_base, "rendered": rendered}, ensure_ascii=False)
        + "\n",
    )


def _write_tables(res, tables_: list, xlsx: bool, warn) -> bool:
    """comparison.json, the CSVs, audit.sqlite, run.json and audit.xlsx, each written as it is made (the tables
    are spooled: batch.tables.Spooled); returns whether the workbook was written."""
    from . import tables

    files = {
        "comparison.json": lambda: [
            json.dumps(
                {"schema": "sheetaudit-batch/1", "rows": [s.get("row") for s in res.ok], "findings": res.comparison},
                ensure_ascii=False,
                indent=1,
            )
            + "\n"
        ],
        **{f"{t.table.name}.csv": (lambda t=t: tables.csv_chunks(t)) for t in tables_},
        "audit.sqlite": lambda: tables.sqlite_chunks(tables_),
        "run.json": lambda: [json.dumps(run_stats(res), indent=1) + "\n"],
    }
    if xlsx:
        files["audit.xlsx"] = lambda: tables.xlsx_chunks(tables_)
    for name, make in files.items():
        try:
            write_chunks_if_changed(res.outdir / name, make())
        except Exception as exc:  # noqa: BLE001 - the optional workbook never costs the other outputs
            if name != "audit.xlsx":
                raise
            (warn or res.warnings.append)(f"audit.xlsx not written: {type(exc).__name__}: {exc}")
            xlsx = False
            continue
        res.written.append(name)
    return xlsx


def rendered_reports(out: Path, base: str) -> dict[str, tuple[str, str]]:
    """The reports the last run left in OUT, each as (the sha256 of the content it was rendered from, its own
    digest), when that run used the same rules, code and options (BASE). A cache entry holds the report of the
    last name its content was audited under; a file kept under two names has a report for each, and this
    record tells that the other name's report is as current."""
    try:
        m = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
        if m.get("base") != base:
            return {}
        return {name: (sha, m["files"][name]) for name, sha in m["rendered"].items() if name in m["files"]}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def records(res):
    """What audit.json holds, one item's text at a time: each sheet's contract, or an error record for a file that
    could not be audited."""
    from ..output.json_out import error_record

    for s in res.sheets:
        if s["status"] == OK:
            yield res.spool.text(id(s))
        else:
            rec = error_record(s["path"], s.get("error") or "not audited")
            rec["error_kind"] = s.get("error_kind", "not-run")
            yield item_text(rec)


def judge_on_job(res, opts, systems=None) -> dict | None:
    """The training what-if of the sheets on opts.job, with the requirements on the job judged into each contract
    (before audit.json, which holds them); None without a job. SYSTEMS: (sheet, batch.spool.viewed contract) of
    each audited sheet, when the caller has them."""
    job = getattr(opts, "job", None)
    if job is None:
        return None
    from .training import judge_requirements, training_doc

    if systems is None:
        systems = [(s["sheet"], viewed(c, is_system(c))) for s, c in res.contracts()]
    training = training_doc(systems, job)
    judge_requirements(res, training, opts.audit.requirements)
    return training


def compliance_rows(res) -> list[dict] | None:
    """compliance.csv: one row per sheet and requirement, sheets in path order; None without --require."""
    from .tables import compliance_rows as rows

    ok = sorted(res.ok, key=lambda s: s["sheet"])
    if not any(s["facts"]["judged"] for s in ok):
        return None
    return rows((s["sheet"], res.contract(s)) for s in ok)


MANIFEST = ".sheetaudit-outputs.json"
OUTPUT_NAMES = (
    "audit.json",
    "comparison.json",
    "figures.csv",
    "findings.csv",
    "comparison.csv",
    "compliance.csv",
    "audit.sqlite",
    "run.json",
    "audit.xlsx",
    "index.html",
)


def tables_xlsx_available() -> bool:
    from .tables import xlsx_available

    return xlsx_available()


def _training_html(doc: dict | None):
    """The index's section on the buyer's job: the systems ranked by time to train, where each step goes."""
    if doc is None:
        return None
    from ..output.train_out import section_html

    return section_html(doc, "h2")


def _outputs_key(res, xlsx: bool, job=None) -> str:
    """Everything the outputs depend on: when it equals the last run's (and the files are as written), a re-run
    of an unchanged folder reuses them instead of rebuilding every table."""
    state = {
        "base": res.cache_base,
        "xlsx": xlsx,
        "root": str(res.root),
        "interrupted": res.interrupted,
        "skipped": res.skipped,
        "job": repr(job) if job is not None else None,
        "sheets": [
            (s["sheet"], s["path"], s["status"], s.get("sha256"), s.get("error"), s.get("html_error"), s.get("report"))
            for s in res.sheets
        ],
    }
    return hashlib.sha256(json.dumps(state, sort_keys=True).encode()).hexdigest()


def _outputs_current(out: Path, manifest: Path, key: str) -> bool:
    try:
        m = json.loads(manifest.read_text(encoding="utf-8"))
        return m.get("key") == key and all(file_digest(out / n) == h for n, h in m["files"].items())
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False


def run_stats(res) -> dict:
    """How the run went (for scripts and benchmarks): counts, cache, time, workers' peak memory."""
    return {
        "schema": "sheetaudit-run/1",
        "tool": __version__,
        "rules_hash": res.rules_hash,
        "files": len(res.sheets),
        "audited": len(res.ok),
        "failed": len(res.failed),
        "skipped": len(res.skipped),
        "from_cache": sum(1 for s in res.sheets if s.get("cached")),
        "cache_corrupt": res.cache_corrupt,
        "interrupted": res.interrupted,
        "jobs": res.jobs,
        "audit_seconds": round(res.elapsed, 3),
        "worker_restarts": res.restarts,
        "worker_peak_rss_mb": [round(kb / 1024, 1) for kb in res.peak_rss_kb],
    }


def verdict(res) -> str:
    ok = res.ok
    if not res.sheets:
        return "No spec sheet (PDF, .txt, .md, .html) was found in the folder."
    parts = []
    if res.failed:
        parts.append(f"{len(res.failed)} of {len(res.sheets)} files could not be audited (listed first)")
    # the range from the sheets' own figures: a value the audit derived (divided from a total, read through a
    # ratio) is shown in the table, in italics, but never heads the page
    ups = [
        (s["row"]["scale_up"]["value"], s["sheet"])
        for s in ok
        if s.get("row") and s["row"]["scale_up"] and s["row"]["scale_up"].get("how") == "stated"
    ]
    if len(ups) >= 2:
        hi, lo = max(ups), min(ups)
        parts.append(
            f"per accelerator and per direction, scale-up bandwidth as stated ranges from {fmt_num(lo[0])} "
            f"GB/s ({lo[1]}) to {fmt_num(hi[0])} GB/s ({hi[1]})"
        )
    if res.comparison:
        parts.append(f"{len(res.comparison)} thing(s) a side-by-side reading would get wrong (see below)")
    if not parts:
        parts.append(f"{len(ok)} sheet(s) audited; nothing in the comparison needs attention")
    s = "; ".join(parts)
    return s[0].upper() + s[1:] + "."
