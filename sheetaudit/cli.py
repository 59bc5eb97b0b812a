"""Command line: a thin layer that parses options, calls the library and maps its errors to exit codes.

Exit codes (ruff's convention): 0 no finding at or above --fail-on; 1 findings; 2 usage or unreadable input.
Machine formats go to stdout; progress and summaries to stderr.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager

import click

from .version import __version__

from .batch.command import OCR_HELP, SECONDS
from .severity import FAIL_ON, reaches

# --fail-on requirement: exit 1 when a sheet falls short of a --require file (findings do not count then).
FAIL_ON_CHOICES = FAIL_ON + ("requirement",)
REQUIRE_HELP = (
    "Requirements file (YAML): each sheet is held against it (meets, falls short, uncertain, not "
    "stated, with the question for the vendor); it may hold the facility profile under 'facility:'."
)


class Exit2Group(click.Group):
    """click exits 2 on usage errors already; every other failure is worded by sheetaudit.failures.explain."""

    def invoke(self, ctx):
        def debug():
            return bool(ctx.obj and ctx.obj.get("debug")) or "--debug" in sys.argv[1:]

        try:
            return super().invoke(ctx)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except BrokenPipeError:  # `sheetaudit check x | head`: the reader left; nothing more to say
            _quiet_stdout()
            ctx.exit(1)
        except (Exception, KeyboardInterrupt) as exc:  # one line; the traceback with --debug
            if debug():
                raise
            from .failures import explain

            failure = explain(exc, during="running the command")
            click.echo(failure.line, err=True)
            ctx.exit(failure.exit_code)


def _quiet_stdout() -> None:
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


@click.group(cls=Exit2Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="sheetaudit")
@click.option("--debug", is_flag=True, help="Show Python tracebacks instead of one-line errors.")
@click.pass_context
def main(ctx, debug):
    """Audit vendor spec sheets of AI accelerator clusters: tiers, bandwidth basis, latency basis, power."""
    ctx.ensure_object(dict)
    ctx.obj["debug"] = debug


def _same_file(output: str, sheet: str) -> bool:
    """True when writing OUTPUT would replace SHEET (same path after symlinks, or a hard link to it)."""
    import os

    try:
        if os.path.realpath(output) == os.path.realpath(sheet):
            return True
        return os.path.exists(output) and os.path.samefile(output, sheet)
    except (OSError, ValueError):
        return False


def _audit_file(
    ctx,
    sheet: str,
    timeout: float,
    max_memory: int,
    options=None,
    report: str | None = None,
    in_process: bool = False,
    all_figures: bool = False,
):
    """Audit one file under the time and memory limits; every failure becomes one line naming the file.
    With report (json, html or text), the child that audits also writes the report and returns only what the
    parent needs: (the reader's notes, the findings' severities, the text, the exception writing it raised or
    None). An HTML report's evidence crops are rendered by the pdfium the audit already loaded, and the audit
    itself is never sent back (pickling a 400-page manual's audit costs more than writing its JSON).
    options: sheetaudit.options.AuditOptions. in_process: run in this process (a profiler sees the audit), still
    under the memory cap."""
    import os
    from .errors import UsageError, describe_path
    from .limits import memory_limit, run_isolated, time_limit

    name = describe_path(sheet)
    if os.path.isdir(sheet):
        raise UsageError(f"{name}: is a directory; to audit a folder use 'sheetaudit audit FOLDER -o OUTDIR'")
    with _failures_named(ctx, name, "auditing", max_memory):
        with time_limit(timeout, hard_exit_after=10, name=name):
            if in_process:
                from . import pipeline

                with memory_limit(max_memory):
                    return (
                        pipeline.run(sheet, options)
                        if report is None
                        else _audit_and_report(sheet, report, options, all_figures)
                    )
            if report is None:
                from . import pipeline

                return run_isolated(pipeline.run, max_memory, sheet, options)
            return run_isolated(_audit_and_report, max_memory, sheet, report, options, all_figures)


def _audit_and_report(sheet: str, fmt: str, options, all_figures: bool = False):
    from . import pipeline

    result = pipeline.run(sheet, options)
    short = [r["key"] for r in (result.requirements or {}).get("results", []) if r["result"] == "falls-short"]
    sent = (result.document.notes, [f.severity for f in result.findings] + ["requirement"] * bool(short))
    try:
        return (*sent, _report(result, fmt, options.password, all_figures), None)
    except Exception as exc:  # noqa: BLE001 - named as a failure writing the report, by the parent
        return (*sent, None, exc)


def _report(result, fmt: str, password: str | None, all_figures: bool = False) -> str:
    if fmt == "json":
        from .output.json_out import dumps

        return dumps(result) + "\n"
    if fmt == "html":
        from .output.html_out import render

        return render(result, password=password, all_figures=all_figures)
    from .output.text_out import render

    return render(result, all_figures=all_figures)


@contextmanager
def _failures_named(ctx, name: str, during: str, max_memory: int):
    """Any failure inside becomes one line naming the file (sheetaudit.failures); with --debug our own bugs
    keep their traceback."""
    from .errors import SheetAuditError
    from .failures import Reported, explain

    try:
        yield
    except KeyboardInterrupt:
        raise
    except (Exception, MemoryError) as exc:
        if ctx.obj.get("debug") and not isinstance(exc, SheetAuditError):
            raise
        raise Reported(explain(exc, name=name, during=during, max_memory_mb=max_memory)) from None


@main.command()
@click.argument("sheet", type=click.Path(path_type=str))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "html"]),
    default="text",
    show_default=True,
    help="Output format.",
)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=str), help="Write to FILE (atomically).")
@click.option(
    "--fail-on",
    type=click.Choice(FAIL_ON_CHOICES),
    default="error",
    show_default=True,
    help="Exit 1 when a finding of this severity or worse is raised ('requirement': when the sheet "
    "falls short of a --require file).",
)
@click.option("--facility", type=click.Path(exists=True, dir_okay=False), help="Facility profile (YAML).")
@click.option("--require", "require", type=click.Path(exists=True, dir_okay=False), help=REQUIRE_HELP)
@click.option("--password", help="Password of an encrypted PDF.")
@click.option("--max-pages", type=click.IntRange(min=1), help="Read at most this many pages.")
@click.option(
    "--thorough",
    is_flag=True,
    hidden=True,
    expose_value=False,
    help="Deprecated and ignored: every page is read in full (kept so that scripts passing it still run).",
)
@click.option(
    "--timeout",
    type=SECONDS,
    default=120,
    show_default=True,
    help="Give up on the sheet after this many seconds (0: no limit).",
)
@click.option(
    "--max-memory",
    type=click.IntRange(min=0),
    default=2048,
    show_default=True,
    help="Address-space limit in MB while the sheet is audited (0: no limit).",
)
@click.option("--ocr", is_flag=True, help=OCR_HELP)
@click.option(
    "--all-figures",
    is_flag=True,
    help="List every figure read, not only those the findings rest on (the terminal summary; the "
    "printed HTML report's appendix).",
)
@click.option(
    "--in-process",
    is_flag=True,
    help="Audit in this process rather than a forked child, so that a profiler sees the work "
    "(python -m cProfile -m sheetaudit check --in-process SHEET); a crash of the PDF library "
    "then ends sheetaudit itself.",
)
@click.pass_context
def check(
    ctx,
    sheet,
    fmt,
    output,
    fail_on,
    facility,
    require,
    password,
    max_pages,
    timeout,
    max_memory,
    ocr,
    all_figures,
    in_process,
):
    """Audit one spec sheet (PDF, .txt, .md or .html)."""
    from .errors import UsageError, describe_path
    from .options import AuditOptions

    name = describe_path(sheet)
    if output and _same_file(output, sheet):
        raise UsageError(f"-o {describe_path(output)} is the input file itself; choose another output file")
    fac = None
    if facility:
        from .pipeline import load_facility

        fac = load_facility(facility)
    req = None
    if require:
        from .pipeline import load_requirements

        req, fac = load_requirements(require, fac)
    elif fail_on == "requirement":
        raise UsageError("--fail-on requirement needs --require FILE")
    options = AuditOptions(password=password, max_pages=max_pages, facility=fac, requirements=req, ocr=ocr)
    notes, severities, text, failed = _audit_file(
        ctx, sheet, timeout, max_memory, options, report=fmt, all_figures=all_figures, in_process=in_process
    )
    for note in notes:
        click.echo(f"sheetaudit: note: {name}: {note}", err=True)
    if failed is not None:
        with _failures_named(ctx, name, f"writing the {fmt} report", max_memory):
            raise failed
    _emit(text, output)
    if output:
        click.echo(f"sheetaudit: wrote {describe_path(output)} ({fmt})", err=True)
    ctx.exit(1 if any(_fails(s, fail_on) for s in severities) else 0)


def _fails(severity: str, fail_on: str) -> bool:
    """'requirement' (a sheet falling short) fails only --fail-on requirement; a finding's severity the others."""
    if fail_on == "requirement" or severity == "requirement":
        return fail_on == severity
    return reaches(severity, fail_on)


@main.command("read")
@click.argument("sheet", type=click.Path(path_type=str))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Output format: the segments as text, or as data (pages of segments: text, kind, page, "
    "heading, label, column, row, bbox).",
)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=str), help="Write to FILE (atomically).")
@click.option("--password", help="Password of an encrypted PDF.")
@click.option("--max-pages", type=click.IntRange(min=1), help="Read at most this many pages.")
@click.option(
    "--timeout",
    type=SECONDS,
    default=120,
    show_default=True,
    help="Give up on the sheet after this many seconds (0: no limit).",
)
@click.option(
    "--max-memory",
    type=click.IntRange(min=0),
    default=2048,
    show_default=True,
    help="Address-space limit in MB while the sheet is read (0: no limit).",
)
@click.pass_context
def read(ctx, sheet, fmt, output, password, max_pages, timeout, max_memory):
    """Show the text as read (PDF, .txt, .md or .html), page by page: each segment with its kind, heading, row
    label and column header. Where to start when a figure was missed."""
    import os
    from .errors import UsageError, describe_path
    from .limits import run_isolated, time_limit

    name = describe_path(sheet)
    if os.path.isdir(sheet):
        raise UsageError(f"{name}: is a directory; give one sheet")
    if output and _same_file(output, sheet):
        raise UsageError(f"-o {describe_path(output)} is the input file itself; choose another output file")
    with _failures_named(ctx, name, "reading", max_memory):
        with time_limit(timeout, hard_exit_after=10, name=name):
            text = run_isolated(_read_shown, max_memory, sheet, fmt, password=password, max_pages=max_pages)
    _emit(text, output)


def _read_shown(sheet: str, fmt: str, **options) -> str:
    """The sheet read as the audit reads it (a long PDF's pages without figures kept as plain text), rendered."""
    from .read import read_document
    from .read.show import render
    from .stages.s2_triage import may_hold_figures

    return render(read_document(sheet, needs_layout=may_hold_figures, **options), fmt)


def _emit(text: str, output: str | None) -> None:
    """To FILE atomically, or to stdout."""
    if output:
        from .failures import not_writable
        from .fileio import atomic_write

        try:
            atomic_write(output, text)
        except OSError as exc:
            raise not_writable(output, exc) from None
    else:
        click.echo(text, nl=False)


def _counts(ctx, param, value):
    if value is None:
        return None
    try:
        got = tuple(int(v) for v in value.replace(" ", "").split(",") if v)
    except ValueError:
        raise click.BadParameter("expected whole numbers separated by commas, e.g. 8,64,512,4096") from None
    if not got or any(n < 2 for n in got):
        raise click.BadParameter("each count must be at least 2 (a collective needs two accelerators)")
    return got


def _parsed(name: str):
    """A click callback that reads the option with sheetaudit.atscale.parse.NAME; its ValueError is a usage error."""

    def callback(ctx, param, value):
        from .atscale import parse

        if value is None:
            return None
        try:
            return getattr(parse, name)(value)
        except ValueError as exc:
            raise click.BadParameter(str(exc)) from None

    return callback


@main.command()
@click.argument("sheets", nargs=-1, type=click.Path(path_type=str))
@click.option(
    "--accelerators", callback=_counts, metavar="N,N,...", help="Accelerator counts to model.  [default: 8,64,512,4096]"
)
@click.option(
    "--collective",
    type=click.Choice(["all-reduce", "all-gather", "reduce-scatter", "all-to-all"]),
    default="all-reduce",
    show_default=True,
    help="Collective to model (nccl-tests' conventions).",
)
@click.option(
    "--message",
    callback=_parsed("parse_size"),
    metavar="SIZE",
    help="Message size: 1GiB, 256MiB, 8MB, 4096 (bytes), as nccl-tests counts it.  [default: 1GiB]",
)
@click.option(
    "--params",
    callback=_parsed("parse_count"),
    metavar="N",
    help="Training what-if: parameters whose gradients are all-reduced each step (7e9, 70B).",
)
@click.option(
    "--compute-s",
    type=click.FloatRange(min=0, min_open=True),
    metavar="SECONDS",
    help="Training what-if: compute time of one step on each of batch_accelerators accelerators (8); "
    "the global batch stays fixed, split across every count.",
)
@click.option(
    "--tokens",
    callback=_parsed("parse_count"),
    metavar="N",
    help="Training what-if: tokens per accelerator per step; compute time is 6 x params x tokens / "
    "(TFLOP/s x mfu), the TFLOP/s --tflops gives or each sheet's dense 16-bit peak per accelerator.",
)
@click.option(
    "--tflops",
    type=click.FloatRange(min=0, min_open=True),
    help="Peak dense TFLOP/s of one accelerator [default: what each sheet states].",
)
@click.option("--train", is_flag=True, help="Training what-if with the default model size and step time.")
@click.option(
    "--job",
    "job_file",
    type=click.Path(dir_okay=False),
    help="Training job (YAML: model, batch, parallel, accelerators, precision, recompute; see "
    "samples/jobs/): step time, MFU, memory and time to train on each system, the layout chosen.",
)
@click.option(
    "--assume",
    "assume",
    multiple=True,
    metavar="KEY=VALUE",
    help="Change one assumption (repeatable); see --list-assumptions.",
)
@click.option(
    "--assumptions",
    "assumptions_file",
    type=click.Path(exists=True, dir_okay=False),
    help="YAML file of KEY: VALUE assumptions (--assume wins over it).",
)
@click.option("--list-assumptions", is_flag=True, help="List every assumption: default, why and source.")
@click.option(
    "--require",
    "require",
    type=click.Path(exists=True, dir_okay=False),
    help="Requirements file (YAML): each system held against it on these assumptions (JSON: each "
    "system's 'requirements'; text: a block per system).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "html"]),
    default="text",
    show_default=True,
    help="Output format.",
)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=str), help="Write to FILE (atomically).")
@click.option(
    "--timeout",
    type=SECONDS,
    default=120,
    show_default=True,
    help="Give up on a sheet after this many seconds (0: no limit).",
)
@click.option(
    "--max-memory",
    type=click.IntRange(min=0),
    default=2048,
    show_default=True,
    help="Address-space limit in MB while a sheet is audited (0: no limit).",
)
@click.pass_context
def scale(
    ctx,
    sheets,
    accelerators,
    collective,
    message,
    params,
    compute_s,
    tokens,
    tflops,
    train,
    job_file,
    assume,
    assumptions_file,
    list_assumptions,
    require,
    fmt,
    output,
    timeout,
    max_memory,
):
    """What the figures mean at scale: a model (not a measurement) of collective time and training efficiency.

    SHEETS are spec sheets (audited first) or their `check --format json` output."""
    from .errors import UsageError, describe_path
    from .atscale.assumptions import assumptions
    from .atscale.whatif import DEFAULT_COUNTS, Request, whatif

    shortcuts = [f"params={params}"] if params is not None else []
    shortcuts += [f"compute_s={compute_s}"] if compute_s is not None else []
    a = assumptions(assumptions_file, list(assume) + shortcuts)
    if list_assumptions:
        from .output.scale_out import assumptions_text

        click.echo(assumptions_text(a), nl=False)
        return
    if not sheets:
        raise click.UsageError("give at least one SHEET (or --list-assumptions)")
    job = None
    if job_file is not None:
        if any(v is not None for v in (params, compute_s, tokens, message)) or train or collective != "all-reduce":
            raise click.UsageError(
                "--job models your own job's step; drop --params, --compute-s, --tokens, "
                "--train, --message and --collective"
            )
        from .atscale.job import read_job

        job = read_job(job_file)
        if accelerators:
            if len(accelerators) > 1:
                raise click.UsageError("with --job, --accelerators takes one count (the curve covers the others)")
            # another count for the same job: its data-parallel degree follows
            from dataclasses import replace

            job = replace(job, accelerators=accelerators[0], fixed=dict(job.fixed, dp=None))
        if tflops is not None:  # with a job, --tflops is the accelerator's peak
            a = a.with_overrides({"peak_tflops": tflops}, "--tflops")
    elif tflops is not None and tokens is None:
        raise click.UsageError("--tflops needs --tokens (compute time = 6 x params x tokens / FLOP/s)")
    training = train or any(v is not None for v in (params, compute_s, tokens))
    if training and (message is not None or collective != "all-reduce"):
        raise click.UsageError(
            "the training what-if all-reduces the gradients (--params x grad_bytes_per_param); "
            "drop --message/--collective, or drop the training options"
        )
    for sheet in sheets:
        if output and _same_file(output, sheet):
            raise UsageError(f"-o {describe_path(output)} is an input file; choose another output file")
    req = Request(
        accelerators=accelerators or DEFAULT_COUNTS,
        collective=collective,
        message_bytes=message or (1 << 30),
        training=training,
        tokens=tokens,
        tflops=None if job else tflops,
        job=job,
    )
    requirements = None
    if require:
        from .requirements import load_requirements

        requirements = load_requirements(require)
    contracts, specs = [], {}
    import os
    from .atscale.combine import combine, split

    for arg in sheets:
        parts = [(describe_path(s), _contract(ctx, s, timeout, max_memory)) for s in split(arg, os.path.exists)]
        name = "+".join(p[0] for p in parts)
        if len(parts) > 1:
            contract, specs[name] = combine(parts, job.precision if job else "bf16")
        else:
            contract = parts[0][1]
        contracts.append((name, contract))
    doc = whatif(contracts, a, req, specs)
    if requirements and requirements["keys"]:
        from .requirements import evaluate

        for system, (name, contract) in zip(doc["systems"], contracts):
            system["requirements"] = evaluate(
                requirements,
                contract,
                sheet=name,
                assumptions=a,
                training=system["training"] if job is not None else None,
            )
    from .output import scale_out

    text = getattr(scale_out, {"json": "dumps", "html": "render_html", "text": "render_text"}[fmt])(doc)
    if requirements and requirements["keys"] and fmt == "text":
        from .output.termtext import columns
        from .output.text_out import requirement_lines

        for system in doc["systems"]:
            text += "\n" + system["sheet"] + "\n" + "\n".join(requirement_lines(system["requirements"], columns()))
    _emit(text, output)


def _contract(ctx, path: str, timeout: float, max_memory: int) -> dict:
    """A sheet's contract: audited now, or read from a `check --format json` file."""
    from .atscale.parse import read_contract

    got = read_contract(path)
    if got is not None:
        return got
    from .output.json_out import contract

    return contract(_audit_file(ctx, path, timeout, max_memory))


def _where(step) -> str:
    """Which part of the audit a check belongs to, in words: a step of the four, or the sheet itself."""
    return f"step {step}" if step in (1, 2, 3, 4) else "sheet"


def _example(example) -> str:
    """A registry example on one line: its sheet's lines (headings left out) joined by ' / '."""
    if isinstance(example, dict) and "sheets" in example:
        return "  beside  ".join(f"[{_example(t)}]" for t in example["sheets"])
    if isinstance(example, dict):
        text = example.get("sheet") or " / ".join(p or "(a page without text)" for p in example.get("pdf") or [])
        facility = example.get("facility")
        return _example(text) + (f"  (facility: {facility})" if facility else "")
    return " / ".join(line for line in str(example).splitlines() if line.strip() and not line.startswith("#"))


@main.command()
@click.argument("code", required=False)
def rules(code):
    """List every check (per sheet and across sheets), or explain one CODE (why it matters, how to fix)."""
    from .rules import load_rules

    r = load_rules()
    if code:
        c = r.explain(code)
        if c is None:
            raise click.UsageError(f"no check {code!r}; run 'sheetaudit rules' for the list")
        scope = (
            "across sheets, raised by 'sheetaudit audit'"
            if code in (r.comparison or {})
            else "on the sheet itself"
            if _where(c["step"]) == "sheet"
            else "per sheet"
        )
        text = (
            f"{code}  ({scope}; {_where(c['step'])}, {c['severity']})\n{c['title']}\n\nWhy it matters: {c['why']}\n"
            f"How to fix / what to ask: {c['fix']}"
        )
        if c.get("on_ports"):
            text += f"\nOn a switch or NIC sheet: {c['on_ports']['title']}. {c['on_ports']['fix']}"
        if c.get("known_problems"):
            text += f"\nKnown problems: {c['known_problems']}"
        for label, key in (("Fires on", "fires_on"), ("Passes", "passes")):
            if c.get(key):
                text += f"\n{label}: {_example(c[key][0])}"
        click.echo(text)
        return
    sections = (
        (
            "Checks on the sheet itself (could it be read?)",
            [(k, c) for k, c in r.checks.items() if _where(c["step"]) == "sheet"],
        ),
        ("The four-step check, per sheet", [(k, c) for k, c in r.checks.items() if _where(c["step"]) != "sheet"]),
        (
            "Across sheets ('sheetaudit audit FOLDER': what a side-by-side reading gets wrong)",
            list((r.comparison or {}).items()),
        ),
    )
    for i, (title, items) in enumerate(sections):
        click.echo(("\n" if i else "") + title + ":")
        for name, c in items:
            click.echo(f"  {name:<34} {_where(c['step']):<7} {c['severity']:<8} {c['title']}")


@main.command()
@click.argument("name", required=False)
def tech(name):
    """List the interconnect knowledge base, or explain one generation NAME ('NVLink 4', 'PCIe Gen5', 'NDR')."""
    from .technologies import describe, load, summary

    kb = load()
    if name:
        gens = kb.lookup(name)
        if not gens:
            raise click.UsageError(f"no technology or generation {name!r}; run 'sheetaudit tech' for the list")
        click.echo("\n\n".join(describe(g, kb.get(g.technology)) for g in gens))
        return
    for t in kb.technologies:
        for g in t.generations:
            click.echo(f"{g.label:<24} {t.tier:<10} {summary(g)}")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())


# Batch audit of a folder (sheetaudit/batch/): registered here, imported lightly (click only).
from .batch.command import audit_command  # noqa: E402

main.add_command(audit_command)
