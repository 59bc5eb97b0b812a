#!/usr/bin/env python3
"""Speed of `sheetaudit check` against plain pdfplumber, measured in one run on inputs generated here.

    python benchmarks/bench_speed.py [--repeat 3] [--keep DIR] [--skip-thorough]

Prints:
  (a) check on a 200-page guide whose figures sit on 3 pages / pdfplumber extract_text() of all its pages
      (target <= 0.1), and whether its figures and findings equal those of check --thorough;
  (b) check on a 2-page spec sheet / pdfplumber extract_text() of its pages (target <= 1.5);
  (c) wall time of `sheetaudit --version` (target < 0.3 s);
  (d) peak memory (max RSS of the child process) of check on a 1,000-page guide (target < 500 MB), and of
      check --thorough on a 1,000-page file of short pages (every page analysed, pages closed after use).

Every time is that of a fresh process (interpreter start-up and imports included, as a user sees it): wall
time, and CPU time (user + system, from os.wait4), which a busy machine disturbs less; the median of repeated
runs, the two commands of a ratio run alternately. The baseline is a fresh `python -c` that opens the file with
pdfplumber and calls extract_text() on every page. Not a test: the numbers depend on the machine and its load.
Warm-up checks run first, as any earlier run would: it writes the bytecode of the modules and the caches of
parsed rules and unit factors (sheetaudit.rules, sheetaudit.units). The children run without
PYTHONDONTWRITEBYTECODE, so that sheetaudit loads compiled modules as an installed package does.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

PY = sys.executable
# Children keep compiled bytecode (__pycache__), as an installed package has it from pip: with
# PYTHONDONTWRITEBYTECODE set, an editable checkout would recompile every sheetaudit module on every run,
# while pdfplumber (the baseline) loads its compiled files.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
SHEETAUDIT = [PY, "-m", "sheetaudit"]
BASELINE = ("import sys, pdfplumber\n"
            "with pdfplumber.open(sys.argv[1]) as pdf:\n"
            "    for page in pdf.pages:\n"
            "        page.extract_text()\n"
            "        page.close()\n")


class Run:
    """One child process: wall seconds, CPU seconds (user + system) and peak RSS in MB, from os.wait4."""

    def __init__(self, cmd: list[str]):
        t = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
        out = proc.stdout.read()
        err = proc.stderr.read()
        _, status, usage = os.wait4(proc.pid, 0)
        self.wall = time.perf_counter() - t
        proc.returncode = os.waitstatus_to_exitcode(status)
        proc.stdout.close()
        proc.stderr.close()
        if proc.returncode not in (0, 1):      # 1: findings at or above --fail-on, not a failure
            raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{err.decode(errors='replace')}")
        self.cpu = usage.ru_utime + usage.ru_stime
        self.mb = usage.ru_maxrss / 1024        # Linux reports kilobytes
        self.out = out.decode()


def paired(a: list[str], b: list[str], repeat: int) -> tuple[Run, Run]:
    """Two commands run alternately `repeat` times (a change of load hits both alike); the median run of each,
    wall and CPU times taken separately."""
    ra, rb = [], []
    for _ in range(repeat):
        ra.append(Run(a))
        rb.append(Run(b))
    return _median(ra), _median(rb)


def _median(runs: list[Run]) -> Run:
    m = runs[0]
    m.wall = statistics.median(r.wall for r in runs)
    m.cpu = statistics.median(r.cpu for r in runs)
    m.mb = max(r.mb for r in runs)
    return m


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement (median); default 3")
    ap.add_argument("--keep", type=Path, help="write the generated inputs here and keep them")
    ap.add_argument("--skip-thorough", action="store_true",
                    help="skip the --thorough run on the 200-page guide (it reads every page: about a minute)")
    args = ap.parse_args()
    from make_inputs import guide, plain, sheet

    work = args.keep or Path(tempfile.mkdtemp(prefix="sheetaudit-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        t = time.perf_counter()
        g200 = guide(work / "guide-200.pdf", pages=200, figure_pages=(12, 97, 173))
        s2 = sheet(work / "sheet-2.pdf")
        g1000 = guide(work / "guide-1000.pdf", pages=1000, figure_pages=(12, 497, 973))
        p1000 = plain(work / "plain-1000.pdf", pages=1000)
        print(f"inputs generated in {time.perf_counter() - t:.1f} s in {work}")
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average "
              f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}\n")

        for warm in (s2, g200):      # warm-up: bytecode, rule and unit-factor caches, libraries in the page cache
            Run(SHEETAUDIT + ["check", "--format", "json", str(warm)])
        results = []

        def line(label, r, base=None, target=None):
            text = f"    {label:<38} {r.wall:7.3f} s wall {r.cpu:7.3f} s CPU"
            if base is not None:
                text += f"   ratio {r.wall / base.wall:.3f} wall, {r.cpu / base.cpu:.3f} CPU"
            if target is not None:
                text += f"   (target <= {target})  {verdict(r.wall / base.wall <= target)}"
            print(text)

        # (a) the 200-page guide
        check = SHEETAUDIT + ["check", "--format", "json"]
        base200, fast200 = paired([PY, "-c", BASELINE, str(g200)], check + [str(g200)], max(1, args.repeat))
        ratio_a = fast200.wall / base200.wall
        print("(a) 200-page guide, figures on pages 12, 97, 173")
        line("pdfplumber extract_text, all pages", base200)
        line("sheetaudit check", fast200, base200, 0.1)
        same = None
        if not args.skip_thorough:
            full200 = Run(check + ["--thorough", str(g200)])
            line("sheetaudit check --thorough", full200, base200)
            fast, full = json.loads(fast200.out), json.loads(full200.out)
            same = fast == full
            print(f"    figures ({len(fast['figures'])}) and findings ({len(fast['findings'])}): the whole JSON "
                  f"equals that of --thorough: {same}  {verdict(same)}")
        results.append(ratio_a <= 0.1 and same is not False)

        # (b) the 2-page sheet
        base2, check2 = paired([PY, "-c", BASELINE, str(s2)], check + [str(s2)], max(5, args.repeat * 3))
        ratio_b = check2.wall / base2.wall
        print("\n(b) 2-page spec sheet")
        line("pdfplumber extract_text, all pages", base2)
        line("sheetaudit check", check2, base2, 1.5)
        results.append(ratio_b <= 1.5)

        # (c) start-up
        version = _median([Run(SHEETAUDIT + ["--version"]) for _ in range(max(5, args.repeat * 3))])
        bare = _median([Run([PY, "-c", "pass"]) for _ in range(max(5, args.repeat * 3))])
        print("\n(c) start-up")
        line("python -c pass", bare)
        print(f"    {'sheetaudit --version':<38} {version.wall:7.3f} s wall {version.cpu:7.3f} s CPU   "
              f"(target < 0.3 s)  {verdict(version.wall < 0.3)}")
        results.append(version.wall < 0.3)

        # (d) memory
        d = Run(check + [str(g1000)])
        dt = Run(check + ["--thorough", str(p1000)])
        print("\n(d) peak memory (max RSS of the child process)")
        print(f"    {'check, 1,000-page guide':<38} {d.mb:7.1f} MB   in {d.wall:6.2f} s   (target < 500 MB)  "
              f"{verdict(d.mb < 500)}")
        print(f"    {'check --thorough, 1,000 short pages':<38} {dt.mb:7.1f} MB   in {dt.wall:6.2f} s   "
              f"(every page analysed)  {verdict(dt.mb < 500)}")
        results.append(d.mb < 500 and dt.mb < 500)
        print(f"\n{sum(results)} of {len(results)} targets met")
        return 0 if all(results) else 1
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
