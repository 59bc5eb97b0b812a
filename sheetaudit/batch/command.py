"""`sheetaudit audit FOLDER -o OUTDIR`: a thin click layer over sheetaudit.batch.run_batch."""

from __future__ import annotations

import click

from ..severity import FAIL_ON


class _Seconds(click.FloatRange):
    """Seconds from 0 to a million: a finite number (click's range lets nan and inf through, and a timeout of nan
    would fail every file)."""

    name = "seconds"

    def __init__(self):
        super().__init__(min=0, max=1e6)

    def convert(self, value, param, ctx):
        import math

        rv = super().convert(value, param, ctx)
        if not math.isfinite(rv):
            self.fail(f"{value!r} is not a finite number of seconds", param, ctx)
        return rv


SECONDS = _Seconds()
OCR_HELP = (
    "Read pages without a text layer by OCR (needs the ocr extra and Debian's tesseract-ocr); figures read so "
    "are marked OCR-read."
)
REQUIRE_HELP = (
    "Requirements file (YAML): the index opens with the compliance matrix and compliance.csv holds one "
    "row per sheet and requirement; it may hold the facility profile under 'facility:'."
)


@click.command("audit")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=str))
@click.option(
    "-o",
    "--output",
    "outdir",
    required=True,
    type=click.Path(file_okay=False, path_type=str),
    help="Folder for index.html, the per-sheet reports, audit.json, figures.csv, findings.csv, "
    "comparison.csv and audit.xlsx; must be outside FOLDER.",
)
@click.option("-j", "--jobs", type=click.IntRange(min=1), help="Worker processes [default: one per core].")
@click.option(
    "--timeout",
    type=SECONDS,
    default=120,
    show_default=True,
    help="Seconds per file before it is stopped and reported as an error (0: no limit).",
)
@click.option(
    "--max-memory",
    "max_memory",
    type=click.IntRange(min=0),
    default=2048,
    show_default=True,
    help="Address-space limit per worker in MB; a file that needs more is an error row (0: no limit).",
)
@click.option(
    "--fail-on",
    type=click.Choice(FAIL_ON + ("requirement",)),
    default="error",
    show_default=True,
    help="Exit 1 when a finding of this severity or worse is raised ('requirement': when a sheet falls "
    "short of --require); unreadable files: exit 2.",
)
@click.option("--no-cache", is_flag=True, help="Audit every file again and do not store results.")
@click.option(
    "--cache-dir",
    type=click.Path(file_okay=False, path_type=str),
    help="Where cached results live [default: $SHEETAUDIT_CACHE_DIR or OUTPUT/.cache].",
)
@click.option("--facility", type=click.Path(exists=True, dir_okay=False), help="Facility profile (YAML).")
@click.option("--require", "require", type=click.Path(exists=True, dir_okay=False), help=REQUIRE_HELP)
@click.option(
    "--job",
    "job_file",
    type=click.Path(exists=True, dir_okay=False),
    help="Training job (YAML, as `scale --job`): the index ranks the systems by time to train it, and "
    "--require's tokens_per_second and time_to_train_days are judged on it.",
)
@click.option("--password", help="Password for encrypted PDFs (the same for every file).")
@click.option("--max-pages", type=click.IntRange(min=1), help="Read at most this many pages of each file.")
@click.option(
    "--thorough",
    is_flag=True,
    hidden=True,
    expose_value=False,
    help="Deprecated and ignored: every page is read in full (kept so that scripts passing it still run).",
)
@click.option("--ocr", is_flag=True, help=OCR_HELP)
@click.option("--no-xlsx", is_flag=True, help="Do not write audit.xlsx even when openpyxl is installed.")
@click.option("-q", "--quiet", is_flag=True, help="No progress line and no summary on stderr.")
@click.pass_context
def audit_command(
    ctx,
    folder,
    outdir,
    jobs,
    timeout,
    max_memory,
    fail_on,
    no_cache,
    cache_dir,
    facility,
    require,
    job_file,
    password,
    max_pages,
    ocr,
    no_xlsx,
    quiet,
):
    """Audit every spec sheet in FOLDER (recursively) and compare them side by side on one basis.

    Exit codes: 0 no finding at or above --fail-on; 1 findings; 2 a file could not be audited (after the whole
    batch has run) or a usage error; 130 interrupted (finished results are still written).
    """
    from ..errors import UsageError
    from ..options import AuditOptions
    from ..pipeline import load_facility, load_requirements
    from .interrupts import Interrupts
    from .run import BatchOptions, run_batch, summary_lines

    def warn(msg):
        click.echo(f"sheetaudit: warning: {msg}", err=True)

    fac = load_facility(facility) if facility else None
    req = None
    if require:
        req, fac = load_requirements(require, fac)
    elif fail_on == "requirement":
        raise UsageError("--fail-on requirement needs --require FILE")
    job = None
    if job_file is not None:
        from ..atscale.job import read_job

        job = read_job(job_file)
    opts = BatchOptions(
        jobs=jobs,
        timeout=timeout or None,
        max_memory_mb=max_memory or None,
        use_cache=not no_cache,
        cache_dir=cache_dir,
        job=job,
        quiet=quiet,
        xlsx=not no_xlsx,
        audit=AuditOptions(password=password, max_pages=max_pages, facility=fac, requirements=req, ocr=ocr),
    )
    with Interrupts() as late:  # an interrupt after the batch (while the summary prints) is only counted
        result = run_batch(folder, outdir, opts, warn=warn)
        if not quiet:
            click.echo("\n".join(summary_lines(result, fail_on)), err=True)
        if not result.sheets:
            warn(f"no spec sheet (PDF, .txt, .md, .html) found in {folder}")
        code = 130 if late.requested() else result.exit_code(fail_on)
        if code == 130:
            late.hold()
    ctx.exit(code)
