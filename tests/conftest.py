import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"


@pytest.fixture
def sheet(tmp_path):
    """Write a small text spec sheet and audit it: sheet("GPU-to-GPU: 900 GB/s per GPU") -> Audit."""
    import sheetaudit

    def make(text: str, name: str = "sheet.md", **options):
        p = tmp_path / name
        p.write_text(text, encoding="utf-8")
        return sheetaudit.audit(p, **options)
    return make


def run_cli(*args, cwd=None):
    """The real CLI in a subprocess, as a user runs it."""
    return subprocess.run([sys.executable, "-m", "sheetaudit", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd or ROOT, env={**os.environ, "PYTHONIOENCODING": "utf-8"}, timeout=300)
