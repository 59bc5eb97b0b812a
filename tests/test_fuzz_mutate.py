"""A small mutation run (benchmarks/mutate.py) for CI: a few dozen damaged copies of the sample PDFs, each audited
in a worker process as `check` audits it. None may raise anything but the one-line SheetAuditError, none may
run over the time limit, no worker may die. The full run (1,050 mutants) is `python benchmarks/mutate.py`."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import mutate  # noqa: E402

SOURCES = sorted((ROOT / "samples").glob("*.pdf"))


@pytest.mark.skipif(not SOURCES, reason="no sample PDFs")
def test_small_mutation_run():
    r = mutate.run(SOURCES, per_source=6, seed=20250102, jobs=2, timeout=30, formats=("json", "text"), quiet=True)
    assert r["mutants"] == 6 * len(SOURCES) >= 36
    c = r["counts"]
    assert sum(c.values()) == r["mutants"]
    assert c.get("uncaught", 0) == 0 and c.get("killed", 0) == 0 and c.get("over-time", 0) == 0, mutate.report(r)
    assert c.get("audited", 0) > 0 and c.get("unreadable", 0) > 0  # both kinds of outcome are reached


@pytest.mark.parametrize("kind", mutate.KINDS)
def test_every_mutation_changes_the_file_and_is_reproducible(kind):
    data = SOURCES[0].read_bytes()
    a = mutate.mutate(data, kind, random.Random(f"1:{kind}"))
    b = mutate.mutate(data, kind, random.Random(f"1:{kind}"))
    assert a == b
    assert any(mutate.mutate(data, kind, random.Random(f"{s}:{kind}")) != data for s in range(5))


def fake_audit(path, timeout, formats):
    """Stands in for mutate.audit_one in the pool test: hangs, dies or answers, by file name."""
    import os
    import time

    name = Path(path).name
    if name == "hang.pdf":
        time.sleep(120)
    if name == "crash.pdf":
        os._exit(3)
    return ("audited", name, 0.0)


def test_the_pool_kills_a_hang_reports_a_crash_and_goes_on():
    names = ["a.pdf", "hang.pdf", "b.pdf", "crash.pdf", "c.pdf"]
    results = {}
    pool = mutate.Pool(2, timeout=0.5, formats=("json",), max_memory_mb=0, grace=1.0, fn=fake_audit)
    try:
        pool.run([(Path(n), "x", n) for n in names], lambda t, r: results.setdefault(t[2], r))
    finally:
        pool.close()
    assert set(results) == set(names)
    assert results["hang.pdf"][0] == "killed" and "no answer after" in results["hang.pdf"][1]
    assert results["crash.pdf"][0] == "killed" and "worker died" in results["crash.pdf"][1]
    assert all(results[n] == ("audited", n, 0.0) for n in ("a.pdf", "b.pdf", "c.pdf"))
