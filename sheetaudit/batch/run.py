"""The whole batch: walk, look up the cache, audit the rest in the pool, compare, write every output atomically
(or, without an output folder, only return the results: no report is rendered and nothing is written but the cache).

Library first: `run_batch` returns a BatchResult and raises SheetAuditError subclasses for usage problems (and
OutputNotWritable, before any sheet is audited, for an output folder it cannot write; OutdirBusy while another
run holds OUTDIR: batch.lock); the click command only
parses options, prints and maps the result to an exit code. Ctrl-C or SIGTERM, once or any number of times, stops
the workers, and the files finished so far are still written out (and were cached as they finished).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import OutputNotWritable, describe_path
from ..options import AuditOptions
from ..textsafe import safe_data, safe_text
from ..result_cache import Cache, default_cache_dir, file_sha256
from .files import check_writable, file_digest
from .interrupts import Interrupts
from .outputs import write_outputs
from .progress import Progress
from .spool import Spool, item_text
from .walk import check_cache_dir, check_outdir, walk

from ..severity import reaches, zero_counts

OK, ERROR, NOT_RUN = "ok", "error", "not-run"


@dataclass
class BatchOptions:
    jobs: int | None = None  # None: one per core
    timeout: float | None = 120.0  # seconds per file; None or 0: no limit
    max_memory_mb: int | None = 2048  # address-space cap per worker; None or 0: none
    use_cache: bool = True
    cache_dir: str | None = None  # default $SHEETAUDIT_CACHE_DIR or OUTDIR/.cache
    audit: AuditOptions = field(default_factory=AuditOptions)  # what decides each sheet's audit (and cache key)
    job: object = None  # a training job (atscale.job.Job): the index ranks the systems on it
    quiet: bool = False
    progress: bool | None = None  # None: only when stderr is a terminal (and not quiet)
    xlsx: bool = True  # write audit.xlsx when openpyxl is importable


@dataclass
class BatchResult:
    root: Path
    outdir: Path | None  # None: results only, nothing written
    sheets: list[dict] = field(default_factory=list)  # one per file found, in path order
    skipped: list[tuple[str, str]] = field(default_factory=list)
    comparison: list[dict] = field(default_factory=list)
    interrupted: bool = False
    elapsed: float = 0.0
    jobs: int = 1
    cache_hits: int = 0
    cache_corrupt: int = 0
    peak_rss_kb: list[int] = field(default_factory=list)  # per worker slot, as reported by the workers
    restarts: int = 0  # workers replaced after a crash, hang or memory error
    written: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    rules_hash: str = ""
    cache_base: str = ""  # rules + code + options part of every cache key
    outputs_reused: bool = False  # nothing changed: the previous outputs stand
    spool: Spool | None = field(default=None, repr=False)  # the audited sheets' contracts, off the heap

    def contract(self, s: dict) -> dict:
        """An audited sheet's contract, read back (a fresh copy each time: `store` keeps a change)."""
        return self.spool.get(id(s))

    def contracts(self):
        """(sheet, contract) of each audited sheet in path order, one contract in memory at a time."""
        for s in self.ok:
            yield s, self.contract(s)

    def store(self, s: dict, contract: dict, text: str | None = None) -> None:
        """Keep the sheet's contract (TEXT: its audit.json text, when the worker sent that)."""
        self.spool.put_text(id(s), text if text is not None else item_text(contract))
        s["facts"] = {
            "severities": [f.get("severity") for f in contract.get("findings", [])],
            "sheet_kind": contract.get("sheet_kind"),
            "requirements": contract.get("requirements"),
            "judged": "requirements" in contract,
        }

    @property
    def ok(self) -> list[dict]:
        return [s for s in self.sheets if s["status"] == OK]

    @property
    def failed(self) -> list[dict]:
        return [s for s in self.sheets if s["status"] == ERROR]

    def severity_counts(self) -> dict:
        counts = zero_counts()
        for s in self.ok:
            for severity in s["facts"]["severities"]:
                counts[severity or "info"] = counts.get(severity or "info", 0) + 1
        return counts

    def exit_code(self, fail_on: str = "error") -> int:
        if self.interrupted:
            return 130
        if self.failed:
            return 2
        if fail_on == "requirement":
            return 1 if any((s["facts"]["requirements"] or {}).get("outcome") == "falls-short" for s in self.ok) else 0
        severities = [v for s in self.ok for v in s["facts"]["severities"]] + [
            f.get("severity") for f in self.comparison
        ]
        return 1 if any(reaches(v, fail_on) for v in severities) else 0


def report_path(rel: str) -> str:
    return f"reports/{rel}.html"


def _fresh_rules() -> str:
    """Validate the rules (a broken rule file stops the batch before any work) and hash them afresh: a long-lived
    process that edited its rules must not key the cache on an old hash."""
    from ..rules import load_rules, rules_hash

    for fn in (load_rules, rules_hash):
        getattr(fn, "cache_clear", lambda: None)()
    load_rules()
    return rules_hash()


def _warm() -> None:
    """Import the engine in the parent so the workers forked after it (and replacements) start ready."""
    try:
        from ..output import html_out, json_out  # noqa: F401
        from .. import pipeline  # noqa: F401
        from ..read import pdf  # noqa: F401
        from ..units import factor

        factor("bandwidth", "Gb/s")  # the table of unit factors, from disk: never pint's registry (~0.3 s)
    except Exception:  # noqa: BLE001 - warming is an optimisation; the worker reports any real failure
        pass


def run_batch(
    root: str | Path, outdir: str | Path | None, options: BatchOptions | None = None, warn=None
) -> BatchResult:
    """Audit every sheet under `root` into `outdir`. Raises UsageError (overlapping folders), RulesError or
    OutputNotWritable before any work; per-file problems are error rows. `warn(message)` is called for each warning
    (corrupt cache, ...). Interrupts (SIGINT, SIGTERM) stop the audit; the finished sheets are still written.
    outdir None: the results only (BatchResult.sheets, `records`), no report rendered, nothing written but the
    cache (whose default folder then is $SHEETAUDIT_CACHE_DIR: give options.cache_dir otherwise)."""
    with Interrupts() as interrupts:
        opts = options or BatchOptions()
        if outdir is None:
            return _run_locked(root, None, opts, warn, interrupts)
        return _run(root, outdir, opts, warn, interrupts)


def records(res: BatchResult) -> list:
    """What audit.json holds (a contract per sheet, an error record per file not audited), as JSON gives it back."""
    import json

    from .outputs import records as items

    return [json.loads(text) for text in items(res)]


def _run(root, outdir, opts: BatchOptions, warn, interrupts: Interrupts) -> BatchResult:
    from .lock import outdir_lock, remove_leftovers

    check_outdir(root, outdir)
    check_writable(outdir)
    with outdir_lock(outdir):
        remove_leftovers(outdir)
        return _run_locked(root, outdir, opts, warn, interrupts)


def _run_locked(root, outdir, opts: BatchOptions, warn, interrupts: Interrupts) -> BatchResult:
    from .pool import default_jobs

    found = walk(root)
    res = BatchResult(
        root=found.root, outdir=Path(outdir) if outdir is not None else None, skipped=safe_data(found.skipped)
    )
    res.jobs = max(1, opts.jobs or default_jobs())
    res.spool = Spool(outdir)
    started = time.monotonic()

    def _warn(msg):
        res.warnings.append(msg)
        if warn:
            warn(msg)

    res.rules_hash = _fresh_rules()
    cache_dir = (opts.cache_dir or default_cache_dir(outdir)) if opts.use_cache else None
    if cache_dir:
        check_cache_dir(root, cache_dir)
    cache = Cache(cache_dir, res.rules_hash, opts.audit.cache_key(), warn=_warn)
    res.cache_base = cache.base
    progress = Progress.for_terminal(len(found.files), opts.quiet)
    if opts.progress is not None:
        progress.enabled = opts.progress and not opts.quiet
    for path in found.files:
        # A name that is not UTF-8 is opened as it is (the task holds the real path) and shown with its bad bytes
        # as \xe9 in every output, which UTF-8 could not otherwise hold.
        rel = found.rel(path)
        res.sheets.append(
            {
                "sheet": safe_text(rel),
                "path": safe_text(os.path.join(str(root), rel)),
                "status": NOT_RUN,
                "cached": False,
            }
        )
    tasks = _lookup(found.files, res, cache, progress, interrupts)
    if tasks and not res.interrupted:
        _audit(tasks, res, opts, cache, progress, interrupts)
    progress.clear()
    res.cache_hits = sum(1 for s in res.sheets if s["cached"])
    res.cache_corrupt = cache.corrupt
    for s in res.sheets:
        if s["status"] == NOT_RUN:
            s["error"] = "not audited: the batch was interrupted"
        elif s["status"] == ERROR and res.outdir is not None:  # an earlier run's report would read as this audit
            with contextlib.suppress(OSError):
                (res.outdir / report_path(s["sheet"])).unlink()
    res.elapsed = time.monotonic() - started
    if res.outdir is None:
        from .outputs import judge_on_job

        judge_on_job(res, opts)  # audit.json's contracts hold the requirements judged on the job
        if not res.interrupted:
            cache.prune()
        return res
    try:
        write_outputs(res, opts, warn=_warn)
    except OSError as exc:
        where = describe_path(exc.filename or outdir)
        raise OutputNotWritable(f"cannot write {where}: {exc.strerror or exc}") from None
    if not res.interrupted:
        cache.prune()
    res.elapsed = time.monotonic() - started
    return res


def _lookup(
    files: list[Path], res: BatchResult, cache: Cache, progress: Progress, interrupts: Interrupts
) -> list[tuple[int, str, dict]]:
    """Hash every file and take what the cache holds; return the (index, path, files) tasks left, largest first so
    the pool's workers finish together."""
    from .outputs import rendered_reports

    tasks = []
    rendered = rendered_reports(res.outdir, cache.base) if cache.dir is not None and res.outdir else {}
    for i, path in enumerate(files):
        if interrupts.requested():
            res.interrupted = True
            return []
        s = res.sheets[i]
        try:
            s["sha256"] = file_sha256(path)
        except OSError as exc:
            _set_error(s, "unreadable", f"cannot read: {exc.strerror or exc}")
            progress.finished(s["sheet"], error=True)
            continue
        hit = cache.get(s["sha256"], s["sheet"])
        if hit is not None and (res.outdir is None or _report_in_place(hit, s, res.outdir, rendered)):
            _apply(res, s, hit, cached=True)
            progress.finished(s["sheet"], error=s["status"] == ERROR, cached=True)
        else:
            files = {"name": s["sheet"], "sha256": s["sha256"], "path": s["path"]}
            if res.outdir is not None:
                files["report"] = str(res.outdir / report_path(s["sheet"]))
            tasks.append((i, str(path), files))
    return sorted(tasks, key=lambda t: -_size(t[1]))


def _report_in_place(hit: dict, s: dict, outdir: Path, rendered: dict) -> bool:
    """A cached sheet's report is never taken from the cache: the one a worker rendered from a fresh audit must still
    be in OUTDIR, as it was written (the entry holds its hash, or the last run's record of OUTDIR, `rendered`, holds
    it for this name and content: the same file under another name shares the entry). Otherwise the sheet is
    audited again to write it: also when the entry holds no report's hash (stored by a run that rendered none:
    sheetaudit.audit, audit_folder without an output folder)."""
    want = hit.get("report_sha256")
    if hit["status"] != OK:
        return True
    if not want:
        return False
    name = report_path(s["sheet"])
    try:
        have = file_digest(outdir / name)
    except OSError:
        return False
    if have != want and rendered.get(name) != (s["sha256"], have):
        return False
    s["report"] = name
    return True


def _audit(
    tasks, res: BatchResult, opts: BatchOptions, cache: Cache, progress: Progress, interrupts: Interrupts
) -> None:
    """Audit the tasks in the pool; each result is filed (cache, report) as it arrives."""
    from .pool import Pool

    def on_start(i, path):
        progress.started(res.sheets[i]["sheet"])

    def on_done(i, result):
        # The worker has already written the sheet's report and its cache entry (that work runs in parallel).
        s = res.sheets[i]
        result = safe_data(result)  # an error row may quote the file's (non-UTF-8) name
        read = result.get("sha256")
        if read and s.get("sha256") and read != s["sha256"]:
            # The file changed between the parent's hash and the worker's read: the result (and its cache entry)
            # belongs to the bytes the worker read, and says so.
            result.setdefault("warnings", []).append(
                f"the file changed while the batch ran; audited as read ({result.get('size', '?')} bytes, "
                f"sha256 {read[:12]}...)"
            )
            s["sha256"] = read
        _apply(res, s, result, cached=False)
        if result.get("report_written"):
            s["report"] = report_path(s["sheet"])
        if result.get("cache_error"):
            cache.unwritable(result["cache_error"])
        progress.finished(s["sheet"], error=s["status"] == ERROR)

    _warm()
    remove_orphaned_snapshots()
    snapshots = tempfile.mkdtemp(prefix=f"{SNAPSHOTS_PREFIX}{os.getpid()}-")
    worker_opts = {
        "audit": opts.audit,
        "report": res.outdir is not None,
        "timeout": opts.timeout,
        "snapshots": snapshots,
        "cache": cache.writer,  # None: nothing is cached
    }
    hard = (opts.timeout + max(2.0, opts.timeout * 0.1)) if opts.timeout else None
    pool = Pool(min(res.jobs, len(tasks)), hard, opts.max_memory_mb, worker_opts)
    drained = (lambda: _import_output_libraries(opts)) if res.outdir is not None else (lambda: None)
    try:
        pool.run(
            tasks,
            on_start=on_start,
            on_done=on_done,
            on_tick=progress.draw,
            on_drained=drained,
            should_stop=interrupts.requested,
        )
    except KeyboardInterrupt:
        res.interrupted = True
    finally:
        res.peak_rss_kb, res.restarts = pool.peak_rss_kb, pool.restarts
        shutil.rmtree(snapshots, ignore_errors=True)


SNAPSHOTS_PREFIX = "sheetaudit-batch-"


def remove_orphaned_snapshots(folder: str | None = None) -> int:
    """Remove the snapshot folders of batches that were killed (kill -9 leaves its folder behind): those of this
    user whose process (the pid in the name) no longer runs. Returns how many were removed."""
    import re

    folder = folder or tempfile.gettempdir()
    pattern = re.compile(re.escape(SNAPSHOTS_PREFIX) + r"(\d+)-")
    removed = 0
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    for entry in entries:
        m = pattern.match(entry.name)
        try:
            ours = m and entry.is_dir(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_uid == os.getuid()
        except OSError:
            continue
        if not ours:
            continue
        if _running(int(m.group(1))):
            continue
        shutil.rmtree(entry.path, ignore_errors=True)
        removed += 1
    return removed


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process of that number: not ours to judge
        return True
    return True


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _set_error(s: dict, kind: str, message: str) -> None:
    s.update(status=ERROR, error_kind=kind, error=message)


def _import_output_libraries(opts: BatchOptions) -> None:
    """Called once about two rounds of files are left, while the last files are audited: load what writing the
    outputs needs (the index's template, compiled; the modules of its charts and of the workbook) now rather than
    after the last result."""
    try:
        from .index import template_env

        template_env().get_template("index.html.j2")
        from ..atscale.assumptions import load_assumptions

        load_assumptions()  # its schemas parsed (YAML), for the index's scale chart
        from ..output import curves, scale_out  # noqa: F401
        from . import tables, xlsx  # noqa: F401
        import sqlite3  # noqa: F401
    except Exception:  # noqa: BLE001 - only a head start; write_outputs reports real problems
        pass


def _apply(res: BatchResult, s: dict, result: dict, cached: bool) -> None:
    s["cached"] = cached
    s["warnings"] = result.get("warnings") or []
    if result.get("status") == OK and isinstance(result.get("item"), str):  # batch.spool.as_item
        res.store(s, json.loads(result["item"]), result["item"])
        s.update(status=OK, html_error=result.get("html_error"))
    elif result.get("status") == OK and isinstance(result.get("contract"), dict):
        contract = result["contract"]
        contract.setdefault("source", {})["path"] = s["path"]
        res.store(s, contract)
        s.update(status=OK, html_error=result.get("html_error"))
    else:
        _set_error(s, result.get("kind", "error"), result.get("error") or "unknown error")


def summary_lines(res: BatchResult, fail_on: str) -> list[str]:
    from .summary import summary_lines as lines

    return lines(res, fail_on)
