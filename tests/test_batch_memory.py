"""The batch's parent holds no sheet's contract for longer than it takes to file it: its memory does not grow with
the number of sheets (the contracts wait in a spool on disk, and the tables are written as they are made).

A real run in a real process (workers forked, outputs written); the parent reports its own peak RSS, the
workers' are not counted. The sheets are long (300 lines of figures each: a contract of ~700 KB of JSON), so
that holding each one, as the parent once did, shows plainly: several times audit.json's size."""

from __future__ import annotations

import json
import subprocess
import sys

from test_batch import ROOT

PEAK = """
import resource, sys
from sheetaudit.batch.run import BatchOptions, run_batch
res = run_batch(sys.argv[1], sys.argv[2], BatchOptions(jobs=2, use_cache=False, quiet=True))
print(len(res.ok), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""


def _long_sheet() -> str:
    lines = ["Spine switch S9 datasheet", ""]
    for i in range(300):
        lines.append(f"Port group {i}: {(i % 4 + 1) * 100} Gb/s Ethernet, latency {500 + i} ns, power {10 + i % 7} W")
    return "\n".join(lines) + "\n"


def _parent_peak_mb(folder, out) -> tuple[int, int]:
    p = subprocess.run(
        [sys.executable, "-c", PEAK, str(folder), str(out)], capture_output=True, text=True, cwd=ROOT, timeout=900
    )
    assert p.returncode == 0, p.stderr[-2000:]
    audited, mb = (int(x) for x in p.stdout.split()[-2:])
    return audited, mb


def test_parent_memory_does_not_grow_with_the_batch(tmp_path):
    text = _long_sheet()
    peaks = {}
    for n in (2, 16):
        folder = tmp_path / f"in{n}"
        folder.mkdir()
        for i in range(n):
            (folder / f"switch-{i}.txt").write_text(text, encoding="utf-8")
        audited, peaks[n] = _parent_peak_mb(folder, tmp_path / f"out{n}")
        assert audited == n
    audit_json_mb = (tmp_path / "out16" / "audit.json").stat().st_size / 2**20
    assert audit_json_mb > 8  # the contracts are large: holding them would show
    records = json.loads((tmp_path / "out16" / "audit.json").read_text(encoding="utf-8"))
    assert len(records) == 16 and all(r["figures"] for r in records)
    # Loose on purpose (allocator and load vary): holding the 14 extra contracts cost several times audit.json.
    assert peaks[16] - peaks[2] < audit_json_mb, peaks
