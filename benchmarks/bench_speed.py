#!/usr/bin/env python3
"""Speed of `sheetaudit check` against plain pdfplumber and plain pypdfium2 reads, measured in one run.

    python benchmarks/bench_speed.py [--repeat 3] [--keep DIR] [--source CHECKOUT] [--skip-short] [--skip-long] [--skip-real]

Prints, for every file, the ratio of check's CPU time to a plain pdfplumber extract_text() of every page of the
same file and to the floor, a bare pypdfium2 get_text_range() of every page (the least any PDF reader must do),
all measured in the same run; and whether each goal holds:
  (a) the one- and two-page PDFs of samples/: geometric mean <= 0.6 of pdfplumber; the PDFs of at most 3 pages
      of ../shared/corpus/: geometric mean <= 0.8 of pdfplumber;
  (b) a 400-page service manual with a small dimensions/weight table on every page (<= 0.15 of pdfplumber);
  (c) a 200-page guide whose figures sit on 2 pages (<= 0.05 of pdfplumber);
  (d) check --format html over check --format json, the same sheets as (a) and the 2-page generated sheet
      (geometric mean, target <= 1.2);
  (e) peak memory (max RSS of the child process) of check on a 1,000-page guide (target <= 100 MB), and
      the wall time of `sheetaudit --version` (start-up, target < 0.3 s);
  (f) every real vendor PDF (real-*.pdf of ../shared/corpus/ and tests/real/dev/): each <= 3x the floor;
  (g) the pages of the longest real switch datasheet repeated to 100 and 400 pages: linear, <= 4x the floor at
      400 pages (and the extra CPU per page over the floor printed at both lengths).

Every time is that of a fresh process (interpreter start-up and imports included, as a user sees it): wall
time, and CPU time (user + system, from os.wait4), which a busy machine disturbs less; the median of repeated
runs, the commands of a ratio run alternately. Warm-up runs come first (bytecode, rule caches, libraries in
the page cache). --source runs the sheetaudit package of another checkout (e.g. an older commit unpacked with
`git archive`), so that before and after are measured by the same script. Not a test: the numbers depend on
the machine and its load.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

PY = sys.executable
# Children keep compiled bytecode (__pycache__), as an installed package has it from pip.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
SHEETAUDIT = [PY, "-m", "sheetaudit"]
CWD = {"cwd": str(ROOT)}  # `python -m` puts the working directory first on the path: the checkout measured
PLUMBER = (
    "import sys, pdfplumber\n"
    "with pdfplumber.open(sys.argv[1]) as pdf:\n"
    "    for page in pdf.pages:\n"
    "        page.extract_text()\n"
    "        page.close()\n"
)
PDFIUM = (
    "import sys, pypdfium2\n"
    "pdf = pypdfium2.PdfDocument(sys.argv[1])\n"
    "for page in pdf:\n"
    "    page.get_textpage().get_text_range()\n"
    "    page.close()\n"
)


class Run:
    """One child process: wall seconds, CPU seconds (user + system) and peak RSS in MB, from os.wait4."""

    def __init__(self, cmd: list[str]):
        t = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV, **CWD)
        out, err = proc.stdout.read(), proc.stderr.read()
        _, status, usage = os.wait4(proc.pid, 0)
        self.wall = time.perf_counter() - t
        proc.stdout.close()
        proc.stderr.close()
        code = os.waitstatus_to_exitcode(status)
        if code not in (0, 1):  # 1: findings at or above --fail-on, not a failure
            raise SystemExit(f"{' '.join(cmd)} failed ({code}):\n{err.decode(errors='replace')}")
        self.cpu = usage.ru_utime + usage.ru_stime
        self.mb = usage.ru_maxrss / 1024  # Linux reports kilobytes
        self.out = out


def alternate(cmds: list[list[str]], repeat: int) -> list[Run]:
    """The commands run in turn `repeat` times (a change of load hits all alike); the median of each."""
    runs: list[list[Run]] = [[] for _ in cmds]
    for _ in range(repeat):
        for k, cmd in enumerate(cmds):
            runs[k].append(Run(cmd))
    return [_median(r) for r in runs]


def _median(runs: list[Run]) -> Run:
    m = runs[0]
    m.wall = statistics.median(r.wall for r in runs)
    m.cpu = statistics.median(r.cpu for r in runs)
    m.mb = max(r.mb for r in runs)
    return m


def gmean(xs: list[float]) -> float:
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def summary(runs: list[list[Run]], target: float) -> bool:
    """Geometric means of the ratios of each first run to the second (and to the third, if any); prints them
    against the target (CPU time), returns whether it is met."""
    cpu = gmean([r[0].cpu / r[1].cpu for r in runs])
    wall = gmean([r[0].wall / r[1].wall for r in runs])
    third = f"; x{gmean([r[0].cpu / r[2].cpu for r in runs]):.1f} a pdfium read" if len(runs[0]) > 2 else ""
    mean = f"geometric mean of {len(runs)}: " if len(runs) > 1 else ""
    seconds = " / ".join(f"{gmean([r[k].cpu for r in runs]):.3f}" for k in range(len(runs[0])))
    print(
        f"    {mean}{cpu:.3f} CPU, {wall:.3f} wall{third} (CPU s: {seconds})   (target <= {target})  "
        f"{verdict(cpu <= target)}\n"
    )
    return cpu <= target


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def pages_of(path: Path) -> int:
    import pypdfium2

    pdf = pypdfium2.PdfDocument(str(path))
    try:
        return len(pdf)
    finally:
        pdf.close()


def versus(label: str, path: Path, repeat: int, check: list[str]) -> list[Run]:
    """check, pdfplumber and pdfium on one file, alternately; prints one line of ratios."""
    c, plumber, pdfium = alternate(
        [check + [str(path)], [PY, "-c", PLUMBER, str(path)], [PY, "-c", PDFIUM, str(path)]], repeat
    )
    print(
        f"    {label:<44} check {c.cpu:6.3f} s CPU {c.wall:6.3f} s wall | pdfplumber {plumber.cpu:6.3f} CPU "
        f"| pdfium {pdfium.cpu:6.3f} CPU | ratio {c.cpu / plumber.cpu:5.3f} CPU {c.wall / plumber.wall:5.3f} wall"
        f" (x{c.cpu / pdfium.cpu:4.1f} pdfium)"
    )
    return [c, plumber, pdfium]


def repeat_pages(source: Path, path: Path, pages: int) -> Path:
    """A PDF of `pages` pages: the source's pages over and over (a long document of real pages)."""
    import pypdfium2

    src = pypdfium2.PdfDocument(str(source))
    out = pypdfium2.PdfDocument.new()
    try:
        while len(out) < pages:
            n = min(len(src), pages - len(out))
            out.import_pages(src, list(range(n)))
        out.save(str(path))
    finally:
        out.close()
        src.close()
    return path


def linear(work: Path, source: Path, repeat: int, check: list[str]) -> bool:
    """(g): the source's pages repeated to 100 and 400 pages; check against the floor at both lengths."""
    print(f"(g) {source.name}'s pages repeated to 100 and 400 pages")
    runs = {
        n: versus(f"{n} pages", repeat_pages(source, work / f"repeated-{n}.pdf", n), repeat, check) for n in (100, 400)
    }
    extra = {n: (r[0].cpu - r[2].cpu) / n for n, r in runs.items()}
    ratio = runs[400][0].cpu / runs[400][2].cpu
    print(
        f"    extra CPU per page over the floor: {extra[100] * 1000:.1f} ms at 100 pages, {extra[400] * 1000:.1f} ms "
        f"at 400 pages; x{ratio:.2f} the floor at 400 pages   (target <= 4x)  {verdict(ratio <= 4)}\n"
    )
    return ratio <= 4


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement (median); default 3")
    ap.add_argument("--keep", type=Path, help="write the generated inputs here and keep them")
    ap.add_argument("--source", type=Path, help="measure the sheetaudit package of this checkout")
    ap.add_argument(
        "--corpus",
        type=Path,
        default=ROOT.parent / "shared" / "corpus",
        help="folder of short sheets besides samples/ (default ../shared/corpus)",
    )
    ap.add_argument("--skip-short", action="store_true", help="skip (a) and (d), the per-sheet measurements")
    ap.add_argument("--skip-long", action="store_true", help="skip (b), (c) and (e), the long documents")
    ap.add_argument("--skip-real", action="store_true", help="skip (f) and (g), the real vendor PDFs")
    args = ap.parse_args()
    if args.source:
        ENV["PYTHONPATH"] = CWD["cwd"] = str(args.source.resolve())
    from make_inputs import guide, manual, sheet

    work = args.keep or Path(tempfile.mkdtemp(prefix="sheetaudit-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    repeat = max(1, args.repeat)
    check = SHEETAUDIT + ["check", "--format", "json", "--timeout", "0"]
    results = []
    try:
        t = time.perf_counter()
        s2 = sheet(work / "sheet-2.pdf")
        m400 = manual(work / "manual-400.pdf", pages=400)
        g200 = guide(work / "guide-200.pdf", pages=200, figure_pages=(12, 173))
        g1000 = guide(work / "guide-1000.pdf", pages=1000, figure_pages=(12, 497, 973))
        print(f"inputs generated in {time.perf_counter() - t:.1f} s in {work}")
        print(
            f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average "
            f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}; sheetaudit from "
            f"{args.source or 'this checkout'}\n"
        )
        for warm in (s2, g200):
            Run(check + [str(warm)])

        if not args.skip_short:
            samples = sorted((ROOT / "samples").glob("*.pdf"))
            corpus = sorted(p for p in args.corpus.glob("*.pdf") if pages_of(p) <= 3) if args.corpus.is_dir() else []
            shorts = samples + corpus
            print(f"(a) the one- and two-page samples ({len(samples)} PDFs of samples/)")
            results.append(summary([versus(p.name[:44], p, repeat, check) for p in samples], 0.6))
            print(f"(a) the corpus's sheets of one to three pages ({len(corpus)} PDFs)")
            results.append(summary([versus(p.name[:44], p, repeat, check) for p in corpus], 0.8))

        if not args.skip_long:
            print("(b) 400-page manual, a dimensions/weight table on every page")
            results.append(summary([versus("manual-400.pdf", m400, repeat, check)], 0.15))
            print("(c) 200-page guide, figures on 2 pages")
            results.append(summary([versus("guide-200.pdf", g200, repeat, check)], 0.05))

        if not args.skip_short:
            print("(d) --format html over --format json, the same sheets")
            html = [x if x != "json" else "html" for x in check]
            results.append(
                summary([alternate([html + [str(p)], check + [str(p)]], repeat) for p in [s2] + shorts], 1.2)
            )

        if not args.skip_real:
            reals = sorted(
                p
                for folder in (args.corpus, ROOT / "tests" / "real" / "dev")
                if folder.is_dir()
                for p in folder.glob("real-*.pdf")
            )
            print(f"(f) real vendor PDFs ({len(reals)}), each against the floor (a bare pypdfium2 text read)")
            runs = [versus(f"{p.name[:36]} ({pages_of(p)} p)", p, repeat, check) for p in reals]
            summary(runs, 0.8)
            worst = max(r[0].cpu / r[2].cpu for r in runs)
            print(f"    worst file x{worst:.2f} the floor   (target: every file <= 3x)  {verdict(worst <= 3)}\n")
            results.append(worst <= 3)
            if reals:
                # the longest datasheet: dense pages of tables and ports, the kind a long document repeats
                sheets = [p for p in reals if "datasheet" in p.name] or reals
                results.append(linear(work, max(sheets, key=pages_of), repeat, check))

        print("(e) memory and start-up")
        if not args.skip_long:
            d = Run(check + [str(g1000)])
            print(
                f"    {'check, 1,000-page guide':<44} {d.mb:7.1f} MB peak RSS, {d.cpu:6.2f} s CPU, "
                f"{d.wall:6.2f} s wall   (target <= 100 MB)  {verdict(d.mb <= 100)}"
            )
            results.append(d.mb <= 100)
        version = _median([Run(SHEETAUDIT + ["--version"]) for _ in range(max(5, repeat))])
        bare = _median([Run([PY, "-c", "pass"]) for _ in range(max(5, repeat))])
        print(
            f"    {'sheetaudit --version':<44} {version.wall:7.3f} s wall (python -c pass: {bare.wall:.3f} s)"
            f"   (target < 0.3 s)  {verdict(version.wall < 0.3)}"
        )
        results.append(version.wall < 0.3)
        print(f"\n{sum(results)} of {len(results)} targets met")
        return 0 if all(results) else 1
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
