"""What the tests share: how to run the command line, how to audit a sheet written on the spot, and how to pick
a figure or a finding out of the result. Each is written once, here, and reads as an example of use:

    r = run_cli("check", "--format", "json", SAMPLE)          # in-process (click's CliRunner), fast
    r = run_cli("audit", folder, "-o", out, isolated=True)     # a real process: for crashes, signals, limits
    a = sheet("NVLink: 900 GB/s per GPU")                      # fixture: write a sheet, audit it
    f = figure(a, "900 GB/s")                                  # the one figure printed as 900 GB/s
    f = figure(a, quantity="latency")                          # ... or the one latency
    w = finding(a, "tier.domain-size-missing")                 # the one finding of that check
"""

import os
import subprocess
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"

# Variables of the developer's shell that would change what a run does.
_FOREIGN_ENV = ("SHEETAUDIT_CACHE_DIR", "SHEETAUDIT_RULES")


def pytest_configure(config):
    config.addinivalue_line("markers", "timing: asserts a bound on time or CPU; deselect with -m 'not timing'")
    # sheetaudit.audit() keeps results in the user's cache by default: the tests' own calls keep them apart
    # (run_cli drops the variable, so a command's cache stays what each test gives it)
    import tempfile

    os.environ["SHEETAUDIT_CACHE_DIR"] = tempfile.mkdtemp(prefix="sheetaudit-test-cache-")


@dataclass
class Ran:
    """What a command run left: exit code, stdout and stderr (the same for both ways of running it)."""

    returncode: int
    stdout: str
    stderr: str

    @property
    def output(self) -> str:
        return self.stdout + self.stderr


def run_cli(
    *args, isolated: bool = False, cwd=None, env: dict | None = None, timeout: float = 300, python: tuple = ()
) -> Ran:
    """Run `sheetaudit ARGS` as a user does. In-process through click's CliRunner by default (no interpreter
    start-up); isolated=True starts a real process, for what must not touch the test process: crashes, hangs,
    signals, memory caps, worker pools, hostile files, start-up. ENV adds variables (a value of None removes one);
    PYTHON are interpreter options of the isolated process ("-X", "importtime")."""
    args = [str(a) for a in args]
    extra = {k: None for k in _FOREIGN_ENV} | dict(env or {})
    if isolated:
        e = {**os.environ, "PYTHONIOENCODING": "utf-8"}
        for k, v in extra.items():
            e.pop(k, None) if v is None else e.__setitem__(k, str(v))
        p = subprocess.run(
            [sys.executable, *python, "-m", "sheetaudit", *args],
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            cwd=cwd or ROOT,
            env=e,
            timeout=timeout,
        )
        return Ran(p.returncode, p.stdout, p.stderr)
    from click.testing import CliRunner

    from sheetaudit.cli import main

    with _cwd(cwd):
        r = CliRunner(env={k: (None if v is None else str(v)) for k, v in extra.items()}).invoke(
            main, args, catch_exceptions=False
        )
    return Ran(r.exit_code, r.stdout, r.stderr)


@contextmanager
def _cwd(path):
    if path is None:
        yield
        return
    old = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


@pytest.fixture
def sheet(tmp_path):
    """Write a small text spec sheet and audit it: sheet("GPU-to-GPU: 900 GB/s per GPU") -> SheetResult."""
    from sheetaudit.options import AuditOptions
    from sheetaudit import pipeline

    def make(text: str, name: str = "sheet.md", **options):
        p = tmp_path / name
        p.write_text(text, encoding="utf-8")
        return pipeline.run(p, AuditOptions(**options))

    return make


def figure(audit, text: str | None = None, first: bool = False, **attrs):
    """The figure of AUDIT (a SheetResult, or its contract dict) printed as TEXT and with the given attributes:
    figure(a, "900 GB/s"), figure(a, quantity="latency"). Fails, listing what was found, when there is none or
    (unless first=True: a sheet that prints it twice) several."""
    figs = audit["figures"] if isinstance(audit, dict) else audit.figures
    get = (lambda f, k: f.get(k)) if isinstance(audit, dict) else getattr
    want = {**attrs, **({"text": text} if text is not None else {})}
    found = [f for f in figs if all(get(f, k) == v for k, v in want.items())]
    assert found and (first or len(found) == 1), (
        f"{len(found)} figures {want}; found {[(get(f, 'text'), get(f, 'quantity')) for f in figs]}"
    )
    return found[0]


def finding(audit, code: str):
    """The one finding CODE that AUDIT raised."""
    found = [f for f in audit.findings if f.check == code]
    assert len(found) == 1, f"{len(found)} findings {code}; raised {sorted(checks(audit))}"
    return found[0]


def checks(audit) -> set:
    """The codes of the findings AUDIT raised (a SheetResult or its contract dict)."""
    found = audit["findings"] if isinstance(audit, dict) else audit.findings
    return {f["check"] if isinstance(f, dict) else f.check for f in found}
