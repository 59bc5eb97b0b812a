"""One failure path (sheetaudit.failures.explain): each way an audit can end early gets its own wording, and
`check`, `scale`, the batch worker and the command line all print what it says."""

import pytest

from conftest import SAMPLES, run_cli

from sheetaudit import errors
from sheetaudit.failures import explain


@pytest.mark.parametrize(
    "exc, kind, words, cacheable",
    [
        (errors.TimeLimitExceeded("time limit of 5 s exceeded; raise --timeout"), "timeout", "raise --timeout", False),
        (MemoryError(), "memory", "out of memory (over the 300 MB per-file limit); raise --max-memory", False),
        (errors.MemoryLimitExceeded("out of memory while reading the PDF"), "memory", "raise --max-memory", False),
        (errors.UnreadableInput("damaged PDF, not repairable (no pages found)"), "unreadable", "damaged PDF", True),
        (
            errors.OutputNotWritable("cannot write out/r.html: Permission denied"),
            "output",
            "cannot write out/r.html",
            False,
        ),
        (
            ValueError("something broke"),
            "internal",
            "internal error while auditing (ValueError: something broke); rerun with --debug",
            False,
        ),
    ],
)
def test_each_failure_has_its_own_wording(exc, kind, words, cacheable):
    f = explain(exc, name="x.pdf", max_memory_mb=300)
    assert (f.kind, f.exit_code, f.cacheable) == (kind, 2, cacheable)
    assert words in f.message and "\n" not in f.message
    assert f.line.startswith("sheetaudit: error: ")


def test_a_limit_hit_is_never_called_damage():
    for exc in (MemoryError(), errors.TimeLimitExceeded("time limit of 1 s exceeded; raise --timeout")):
        assert "damaged" not in explain(exc, name="big.pdf").message


def test_the_batch_row_and_the_command_line_say_the_same(tmp_path):
    bad = tmp_path / "x.pdf"
    bad.write_bytes(b"not a pdf at all")
    from sheetaudit.batch.worker import run_one

    row = run_one(str(bad), {})
    r = run_cli("check", bad)
    assert r.returncode == 2 and row["kind"] == "unreadable"
    assert r.stderr.strip() == f"sheetaudit: error: {bad}: {row['error']}"


def test_ctrl_c_is_interrupted_with_exit_130():
    f = explain(KeyboardInterrupt())
    assert (f.line, f.exit_code) == ("sheetaudit: interrupted", 130)


@pytest.mark.parametrize(
    "crash, words",
    [
        ("import ctypes; ctypes.string_at(0)", "damaged PDF: the PDF library crashed on it (SIGSEGV)"),
        ("import os; os.abort()", "out of memory (over the 2048 MB per-file limit); raise --max-memory"),
    ],
)
def test_a_native_crash_while_auditing_is_one_line_naming_the_file(crash, words):
    """`check` audits in a forked child: a PDF library that segfaults or aborts (what a hostile file or a failed
    allocation under the cap does to pdfium) ends as that file's one-line error, exit 2, never a dead process.
    The crash is injected where pdfium would crash: inside the audit, in the child."""
    import subprocess
    import sys

    sheet = SAMPLES / "pelican-pn5164-ethernet-switch.pdf"
    script = (
        "import sys, sheetaudit.pipeline as p\n"
        f"def crashing_run(*a, **k):\n    {crash}\n"
        "p.run = crashing_run\n"
        "from sheetaudit.cli import main\n"
        "main(['check', '--format', 'json', sys.argv[1]])\n"
    )
    p = subprocess.run([sys.executable, "-c", script, str(sheet)], capture_output=True, text=True, timeout=300)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.splitlines() == [p.stderr.strip()] and "Traceback" not in p.stderr
    assert p.stderr.startswith(f"sheetaudit: error: {sheet}: ") and words in p.stderr
