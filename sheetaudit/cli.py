"""Command line: a thin layer that parses options, calls the library and maps its errors to exit codes.

Exit codes (ruff's convention): 0 no finding at or above --fail-on; 1 findings; 2 usage or unreadable input.
Machine formats go to stdout; progress and summaries to stderr.
"""
from __future__ import annotations

import sys

import click

from . import __version__

SEVERITIES = ("info", "warning", "error", "never")
RANK = {"info": 0, "warning": 1, "error": 2, "never": 99}


class Exit2Group(click.Group):
    """click exits 2 on usage errors already; library errors are mapped here in one place."""

    def invoke(self, ctx):
        from .errors import SheetAuditError
        def debug():
            return bool(ctx.obj and ctx.obj.get("debug")) or "--debug" in sys.argv[1:]
        try:
            return super().invoke(ctx)
        except SheetAuditError as exc:
            if debug():
                raise
            click.echo(f"sheetaudit: error: {exc}", err=True)
            ctx.exit(exc.exit_code)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except KeyboardInterrupt:
            if debug():
                raise
            click.echo("sheetaudit: interrupted", err=True)
            ctx.exit(130)
        except BrokenPipeError:     # `sheetaudit check x | head`: the reader left; nothing more to say
            _quiet_stdout()
            ctx.exit(1)
        except Exception as exc:    # a bug, not the user's input: one line, the traceback with --debug
            if debug():
                raise
            click.echo(f"sheetaudit: error: internal error ({type(exc).__name__}: {str(exc)[:200]}); "
                       f"rerun with --debug for the traceback and report it", err=True)
            ctx.exit(2)


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


def fails(findings, fail_on: str) -> bool:
    return any(RANK[f["severity"] if isinstance(f, dict) else f.severity] >= RANK[fail_on] for f in findings)


def _same_file(output: str, sheet: str) -> bool:
    """True when writing OUTPUT would replace SHEET (same path after symlinks, or a hard link to it)."""
    import os
    try:
        if os.path.realpath(output) == os.path.realpath(sheet):
            return True
        return os.path.exists(output) and os.path.samefile(output, sheet)
    except (OSError, ValueError):
        return False


@main.command()
@click.argument("sheet", type=click.Path(path_type=str))
@click.option("--format", "fmt", type=click.Choice(["text", "json", "html"]), default="text", show_default=True,
              help="Output format.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=str), help="Write to FILE (atomically).")
@click.option("--fail-on", type=click.Choice(SEVERITIES), default="error", show_default=True,
              help="Exit 1 when a finding of this severity or worse is raised.")
@click.option("--facility", type=click.Path(exists=True, dir_okay=False), help="Facility profile (YAML).")
@click.option("--password", help="Password of an encrypted PDF.")
@click.option("--max-pages", type=click.IntRange(min=1), help="Read at most this many pages.")
@click.option("--thorough", is_flag=True, hidden=True, expose_value=False,
              help="Deprecated and ignored: every page is read in full (kept so that scripts passing it still run).")
@click.option("--timeout", type=click.FloatRange(min=0), default=120, show_default=True,
              help="Give up on the sheet after this many seconds (0: no limit).")
@click.option("--max-memory", type=click.IntRange(min=0), default=2048, show_default=True,
              help="Address-space limit in MB while the sheet is audited (0: no limit).")
@click.option("--ocr", is_flag=True,
              help="Read pages without a text layer by OCR (needs the ocr extra and Debian's tesseract-ocr); "
                   "figures read so are marked OCR-read.")
@click.pass_context
def check(ctx, sheet, fmt, output, fail_on, facility, password, max_pages, timeout, max_memory, ocr):
    """Audit one spec sheet (PDF, .txt, .md or .html)."""
    import os
    from .errors import SheetAuditError, UsageError, describe_path
    from .limits import memory_limit, time_limit
    from .pipeline import audit, load_facility
    name = describe_path(sheet)
    if os.path.isdir(sheet):
        raise UsageError(f"{name}: is a directory; to audit a folder use 'sheetaudit audit FOLDER -o OUTDIR'")
    if output and _same_file(output, sheet):
        raise UsageError(f"-o {describe_path(output)} is the input file itself; choose another output file")
    fac = load_facility(facility) if facility else None
    if ocr:
        os.environ["SHEETAUDIT_OCR"] = "1"      # read_document follows it (and so do worker processes)
    try:
        with memory_limit(max_memory), time_limit(timeout, hard_exit_after=10, name=name):
            result = audit(sheet, password=password, max_pages=max_pages, facility=fac)
    except SheetAuditError as exc:
        raise type(exc)(f"{name}: {exc}") from None
    except (KeyboardInterrupt, MemoryError, RecursionError) as exc:
        if isinstance(exc, KeyboardInterrupt) or ctx.obj.get("debug"):
            raise
        raise SheetAuditError(f"{name}: " + (f"out of memory while auditing (over --max-memory {max_memory} MB)"
                                             if isinstance(exc, MemoryError) else "nested too deeply to audit")) from None
    except Exception as exc:
        if ctx.obj.get("debug"):
            raise
        raise SheetAuditError(f"{name}: internal error while auditing ({type(exc).__name__}: {str(exc)[:160]}); "
                              f"rerun with --debug for the traceback") from None
    for note in result.document.notes:
        click.echo(f"sheetaudit: note: {name}: {note}", err=True)
    try:
        with memory_limit(max_memory), time_limit(timeout, hard_exit_after=10, name=name):
            if fmt == "json":
                from .output.json_out import dumps
                text = dumps(result) + "\n"
            elif fmt == "html":
                from .output.html_out import render
                text = render(result, password=password)
            else:
                from .output.text_out import render
                text = render(result)
    except SheetAuditError as exc:
        raise type(exc)(f"{name}: {exc}") from None
    except Exception as exc:
        if ctx.obj.get("debug"):
            raise
        raise SheetAuditError(f"{name}: internal error while writing the {fmt} report ({type(exc).__name__}: "
                              f"{str(exc)[:160]}); rerun with --debug for the traceback") from None
    if output:
        from .fileio import atomic_write
        try:
            atomic_write(output, text)
        except OSError as exc:
            raise SheetAuditError(f"cannot write {describe_path(output)}: {exc.strerror or exc}") from None
    else:
        click.echo(text, nl=False)
    ctx.exit(1 if fails(result.findings, fail_on) else 0)


@main.command()
@click.argument("code", required=False)
def rules(code):
    """List every check, or explain one CODE (why it matters, how to fix)."""
    from .rules import load_rules
    r = load_rules()
    if code:
        c = r.checks.get(code)
        if c is None:
            raise click.UsageError(f"no check {code!r}; run 'sheetaudit rules' for the list")
        click.echo(f"{code}  (step {c['step']}, {c['severity']})\n{c['title']}\n\nWhy it matters: {c['why']}\n"
                   f"How to fix / what to ask: {c['fix']}\nFires on: {c['example_fail']}\nPasses: {c['example_pass']}")
        return
    for name, c in r.checks.items():
        click.echo(f"{name:<34} step {c['step']}  {c['severity']:<8} {c['title']}")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())


# Batch audit of a folder (sheetaudit/batch/): registered here, imported lightly (click only).
from .batch.command import audit as _batch_audit  # noqa: E402

main.add_command(_batch_audit)
