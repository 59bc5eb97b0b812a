#!/usr/bin/env python3
"""Batch audit benchmark: one run prints wall time with --jobs 1 and with every core, a cached re-run, and the
peak memory of each worker.

    .venv/bin/python benchmarks/bench_batch.py            # 110 sheets in a temporary folder
    .venv/bin/python benchmarks/bench_batch.py --sheets 200 --repeat 3 --keep /tmp/bench
    .venv/bin/python benchmarks/bench_batch.py --goals --repeat 5                  # the goals below, medians
    .venv/bin/python benchmarks/bench_batch.py --goals --src /tmp/main-tree        # another build, same machine

The folder is generated here, nothing is downloaded: the bundled samples (PDF, text, Markdown, HTML) plus
ReportLab spec sheets of fictional servers, racks, switches and NICs with seeded random figures, some of them as
Markdown and text. Every run is the real CLI in a subprocess (`python -m sheetaudit audit`), as a user runs it.
Targets (issue 3, on the 2-core machine): every core >= 1.7x faster than one; cached re-run >= 20x faster than
the first run. Needs reportlab (the dev extra).

--goals measures, each ratio within one round and the median over --repeat rounds (other work on the machine
slows single runs; a round alternates the runs it compares so a burst hits both alike):
  1. 50 PDFs, 2 jobs against 1 (no cache): speed-up >= 1.9x;
  2. a folder holding each of 20 files under two names: every sheet from cache on a re-run;
  3. 2,000 small text sheets (--small): a cached re-run <= 10% of the uncached run's time;
  4. the batch parent's peak RSS (its own, not the workers') on 400 sheets (--memory-sheets), uncached.
--src runs another source tree's sheetaudit/ and rules/ (from a neutral folder, as benchmarks/same_outputs.py does),
so a before/after is two runs of this script on one machine.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"

VENDORS = [
    "Aster",
    "Bittern",
    "Curlew",
    "Dunlin",
    "Egret",
    "Fulmar",
    "Grebe",
    "Harrier",
    "Ibis",
    "Jacana",
    "Kittiwake",
    "Lapwing",
    "Merlin",
    "Nightjar",
    "Oriole",
    "Petrel",
    "Quail",
    "Redstart",
    "Shrike",
    "Tern",
]


def _server(rng: random.Random, name: str) -> tuple[str, list[tuple[str, str]], list[str]]:
    gpus = rng.choice([4, 8, 8, 16])
    nv = rng.choice([(4, "900 GB/s"), (5, "1.8 TB/s"), (3, "600 GB/s")])
    nic = rng.choice(["400 Gb/s InfiniBand NDR", "800 Gb/s InfiniBand XDR", "400GbE RoCE v2", "200 Gb/s HDR"])
    node_kw = round(rng.uniform(4.5, 15.5), 1)
    rows = [
        ("Accelerators", f"{gpus}x GPUs, fully connected in one NVLink domain"),
        ("GPU-to-GPU interconnect", f"NVLink {nv[0]}, {nv[1]} per GPU"),
        ("Compute network", f"{gpus}x {nic}, one per GPU"),
        ("Management", "1x 1GbE BMC port"),
        ("Storage network", f"2x {rng.choice([100, 200])} Gb/s Ethernet"),
        ("Memory bandwidth", f"{rng.choice([3.35, 4.8, 8])} TB/s HBM per GPU"),
        ("System power", f"{node_kw} kW max"),
        ("Cooling", rng.choice(["Air-cooled", "Direct liquid cooling", "Air-cooled, front-to-back"])),
    ]
    prose = [
        f"The {name} joins {gpus} accelerators over NVLink for tensor and expert parallelism; each GPU has its "
        f"own {nic.split(' ')[0]} {nic.split(' ')[1]} port for the scale-out fabric.",
        f"Switch latency below {rng.choice([130, 240, 600])} ns port-to-port; end-to-end MPI latency "
        f"{rng.choice([1.5, 2, 2.5])} µs for 8-byte messages.",
    ]
    return "GPU server", rows, prose


def _rack(rng, name):
    gpus = rng.choice([36, 72])
    kw = rng.choice([66, 120, 132, 135])
    rows = [
        ("Domain", f"{gpus} GPUs in one NVLink domain"),
        ("Scale-up bandwidth", f"1.8 TB/s bidirectional per GPU, {gpus * 1.8:g} TB/s in total"),
        ("Scale-out", "800 Gb/s per GPU, InfiniBand XDR or Ethernet"),
        ("Rack power", f"~{kw} kW per rack"),
        ("Cooling", "Liquid-cooled, 45 °C inlet"),
        ("Power distribution", "48 V busbar, 6x 33 kW power shelves"),
    ]
    prose = [f"The {name} rack needs liquid cooling: at {kw} kW it is far above what air can remove."]
    return "AI rack", rows, prose


def _switch(rng, name):
    ports, speed = rng.choice([(64, 800), (128, 400), (32, 800), (64, 400)])
    rows = [
        ("Ports", f"{ports}x {speed} Gb/s OSFP"),
        ("Switching capacity", f"{ports * speed / 1000:g} Tb/s"),
        ("Port-to-port latency", f"{rng.choice([130, 240, 560, 700])} ns (cut-through)"),
        ("Typical power", f"{rng.choice([1.2, 1.6, 2.2])} kW"),
        ("Airflow", "Air-cooled, port-to-power"),
    ]
    prose = ["Lossless RoCE with PFC and ECN; adaptive routing for AI fabrics."]
    return "Ethernet switch", rows, prose


def _nic(rng, name):
    speed = rng.choice([200, 400, 800])
    rows = [
        ("Ports", f"1x {speed} Gb/s"),
        ("Host interface", "PCIe Gen5 x16"),
        ("Latency", f"{rng.choice([0.6, 0.9, 1.2])} µs end-to-end (RDMA write, 8 B)"),
        ("Power", f"{rng.choice([18, 25, 30])} W typical"),
    ]
    prose = ["RDMA over InfiniBand and RoCE v2; GPUDirect RDMA."]
    return "network adapter", rows, prose


KINDS = [_server, _server, _server, _rack, _switch, _nic]


def _pdf(path: Path, title: str, kind: str, rows, prose, pages: int) -> None:
    from reportlab import rl_config

    rl_config.invariant = 1
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    body = ParagraphStyle("b", fontName="Helvetica", fontSize=9.5, leading=12.5, spaceAfter=5)
    h1 = ParagraphStyle("h1", fontName="Helvetica-Bold", fontSize=18, leading=22, spaceAfter=8)
    cell = ParagraphStyle("c", fontName="Helvetica", fontSize=8.5, leading=10.5)
    story = [Paragraph(title, h1), Paragraph(f"Datasheet: {kind} (fictional, generated for benchmarks)", body)]
    t = Table([[Paragraph(a, cell), Paragraph(b, cell)] for a, b in rows], colWidths=[150, 320])
    t.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.grey), ("VALIGN", (0, 0), (-1, -1), "TOP")]))
    story += [Spacer(1, 8), t, Spacer(1, 8)] + [Paragraph(p, body) for p in prose]
    for i in range(pages - 1):
        story += [PageBreak(), Paragraph(f"Installation notes {i + 1}", h1)]
        story += [
            Paragraph(
                "Mount the chassis in a standard 19-inch rack with the supplied rail kit; keep the "
                "service label visible and record the asset tag in the inventory.",
                body,
            )
        ] * 12
    SimpleDocTemplate(str(path), pagesize=A4, title=title).build(story)


def _text(path: Path, title: str, rows, prose) -> None:
    if path.suffix == ".md":
        text = f"# {title}\n\n| Item | Specification |\n|---|---|\n" + "".join(f"| {a} | {b} |\n" for a, b in rows)
    else:
        text = f"{title}\n\n" + "".join(f"{a}: {b}\n" for a, b in rows)
    path.write_text(text + "\n" + "\n\n".join(prose) + "\n", encoding="utf-8")


def generate(folder: Path, n: int, seed: int = 20250101, pdf_only: bool = False, text_only: bool = False) -> int:
    """N sheets under FOLDER: the samples, then generated ones (PDF, or Markdown and text every tenth; only PDFs
    with pdf_only; only small text and Markdown sheets, no samples, with text_only)."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    count = 0
    (folder / "samples").mkdir(exist_ok=True)
    for p in sorted(SAMPLES.iterdir()):
        if p.suffix in ((".pdf",) if pdf_only else () if text_only else (".pdf", ".txt", ".md", ".html")):
            shutil.copy(p, folder / "samples" / p.name)
            count += 1
    i = 0
    while count < n:
        make = KINDS[i % len(KINDS)]
        vendor = VENDORS[i % len(VENDORS)]
        name = f"{vendor} {rng.choice('ABCDEFGHKLMNPRSTX')}{rng.randint(2, 99)}"
        kind, rows, prose = make(rng, name)
        sub = folder / vendor.lower()
        sub.mkdir(exist_ok=True)
        stem = name.lower().replace(" ", "-")
        if text_only:
            _text(sub / f"{stem}-{i}{'.md' if i % 2 else '.txt'}", name, rows, prose)
        elif i % 10 == 7 and not pdf_only:
            _text(sub / f"{stem}.md", name, rows, prose)
        elif i % 10 == 9 and not pdf_only:
            _text(sub / f"{stem}.txt", name, rows, prose)
        else:
            _pdf(sub / f"{stem}-{i}.pdf", name, kind, rows, prose, pages=1 + (i % 4 == 0) + (i % 8 == 0) * 2)
        i += 1
        count += 1
    return count


SRC = ROOT  # the source tree whose sheetaudit runs (--src)


def _where() -> dict:
    """cwd and environment that make `python -m sheetaudit` import SRC's package and rules."""
    if SRC == ROOT:
        return {"cwd": ROOT}
    return {
        "cwd": tempfile.gettempdir(),
        "env": {**os.environ, "PYTHONPATH": str(SRC), "SHEETAUDIT_RULES": str(SRC / "rules")},
    }


def run(folder: Path, out: Path, *args: str) -> tuple[float, dict, float]:
    """Wall time, run.json, and the CPU seconds (user + system) of the CLI and its workers."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "sheetaudit", "audit", str(folder), "-o", str(out), "-q", *args],
        capture_output=True,
        text=True,
        **_where(),
    )
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        sys.exit(f"sheetaudit audit failed (exit {proc.returncode}):\n{proc.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, json.loads((out / "run.json").read_text(encoding="utf-8")), cpu


IN_PROCESS = """
import resource, sys, time
from sheetaudit.batch import pool
from sheetaudit.batch.run import BatchOptions, run_batch
marks = []
run_pool = pool.Pool.run
def timed(*a, **k):
    marks.append(time.process_time())
    try:
        return run_pool(*a, **k)
    finally:
        marks.append(time.process_time())
pool.Pool.run = timed
t = time.perf_counter()
run_batch(sys.argv[1], sys.argv[2], BatchOptions(jobs=int(sys.argv[3]), use_cache=False, quiet=True))
wall = time.perf_counter() - t
me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
total = me.ru_utime + me.ru_stime
print(me.ru_maxrss, total - (marks[1] - marks[0]), marks[1] - marks[0], kids.ru_utime + kids.ru_stime, wall)
"""


def in_process(folder: Path, out: Path, jobs: int) -> tuple[float, float, float, float, float]:
    """A batch run by a Python caller: the parent's own peak RSS in MB (a worker's is not counted); the parent's
    CPU seconds outside the pool (start-up, hashing, writing every output: work no worker shares) and inside it
    (filing results, loading what the outputs need while the last files are audited); the workers' CPU seconds;
    the wall time."""
    proc = subprocess.run(
        [sys.executable, "-c", IN_PROCESS, str(folder), str(out), str(jobs)], capture_output=True, text=True, **_where()
    )
    if proc.returncode != 0:
        sys.exit(f"the batch failed:\n{proc.stderr}")
    rss, *rest = (float(x) for x in proc.stdout.split()[-5:])
    return (rss / 1024, *rest)


def _median(xs: list[float]) -> float:
    return statistics.median(xs)


def goals(base: Path, repeat: int, small: int, memory_sheets: int) -> None:
    t = time.perf_counter()
    pdfs, dup, texts, mem = base / "pdf50", base / "dup", base / "small", base / "mem"
    for d in (pdfs, dup, texts, mem):
        shutil.rmtree(d, ignore_errors=True)
    generate(pdfs, 50, pdf_only=True)
    originals = sorted(pdfs.rglob("*.pdf"))[:20]
    for p in originals:
        (dup / "copies").mkdir(parents=True, exist_ok=True)
        shutil.copy(p, dup / p.name)
        shutil.copy(p, dup / "copies" / f"copy-of-{p.name}")
    generate(texts, small, text_only=True)
    generate(mem, memory_sheets)
    print(f"generated the folders in {time.perf_counter() - t:.0f} s; {SRC}")

    ratios, ones, twos = [], [], []
    for _ in range(repeat):
        for d in ("o1", "o2"):
            shutil.rmtree(base / d, ignore_errors=True)
        one = run(pdfs, base / "o1", "--jobs", "1", "--no-cache")[0]
        two = run(pdfs, base / "o2", "--jobs", "2", "--no-cache")[0]
        ones.append(one)
        twos.append(two)
        ratios.append(one / two)
    print(
        f"1. 50 PDFs, 2 jobs against 1: speed-up median {_median(ratios):.2f}x (goal >= 1.9x); "
        f"1 job {_median(ones):.2f} s, 2 jobs {_median(twos):.2f} s  [per round: "
        f"{', '.join(f'{r:.2f}' for r in ratios)}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} "
        "cores: other work takes the second core]"
    )
    split = []
    for _ in range(repeat):
        shutil.rmtree(base / "o2", ignore_errors=True)
        split.append(in_process(pdfs, base / "o2", 2)[1:4])
    serial, beside, workers = (_median([x[i] for x in split]) for i in range(3))
    print(
        f"   in CPU seconds (load skews them less than wall time), 2 jobs: the parent outside the pool (serial) "
        f"{serial:.2f} s, the parent beside the workers {beside:.2f} s, the workers {workers:.2f} s; on 2 idle "
        f"cores that bounds the speed-up at {(serial + beside + workers) / (serial + (beside + workers) / 2):.2f}x"
    )

    shutil.rmtree(base / "odup", ignore_errors=True)
    run(dup, base / "odup", "--fail-on", "never")
    again = [run(dup, base / "odup", "--fail-on", "never")[1] for _ in range(2)]
    print(
        f"2. the same file under two names ({len(originals)} files x 2): re-runs from cache "
        + ", ".join(f"{r['from_cache']} of {r['files']}" for r in again)
        + " (goal: every sheet)"
    )

    shutil.rmtree(base / "osmall", ignore_errors=True)
    uncached = run(texts, base / "osmall", "--fail-on", "never")[0]
    cached = [run(texts, base / "osmall", "--fail-on", "never") for _ in range(repeat)]
    hits = cached[-1][1]
    print(
        f"3. {small} small sheets: uncached {uncached:.1f} s, cached re-run median "
        f"{_median([c[0] for c in cached]):.2f} s = {_median([c[0] for c in cached]) / uncached:.1%} of uncached "
        f"(goal <= 10%); {hits['from_cache']} of {hits['files']} from cache  "
        f"[re-runs: {', '.join(f'{c[0]:.2f}' for c in cached)}]"
    )

    peaks = []
    for _ in range(max(1, repeat // 2)):
        shutil.rmtree(base / "omem", ignore_errors=True)
        peaks.append(in_process(mem, base / "omem", 2)[0])
    size = (base / "omem" / "audit.json").stat().st_size / 2**20
    print(
        f"4. batch parent's peak RSS, {memory_sheets} sheets (audit.json {size:.1f} MB): median "
        f"{_median(peaks):.0f} MB  [{', '.join(f'{m:.0f}' for m in peaks)}]"
    )


def main() -> None:
    global SRC
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sheets", type=int, default=110, help="how many sheets to audit (>= 100)")
    ap.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="rounds of the three runs; the best wall time of each is reported (noisy machines)",
    )
    ap.add_argument("--keep", type=Path, help="generate into this folder and keep it (and the outputs)")
    ap.add_argument("--goals", action="store_true", help="measure the goals listed above instead")
    ap.add_argument("--src", type=Path, default=ROOT, help="the source tree to run (default: this checkout)")
    ap.add_argument("--small", type=int, default=2000, help="--goals: how many small sheets for goal 3")
    ap.add_argument("--memory-sheets", type=int, default=400, help="--goals: how many sheets for goal 4")
    args = ap.parse_args()
    SRC = args.src.resolve()
    from sheetaudit.batch.pool import default_jobs

    cores = default_jobs()
    base = args.keep or Path(tempfile.mkdtemp(prefix="sheetaudit-bench-"))
    if args.goals:
        try:
            goals(base, max(1, args.repeat), args.small, args.memory_sheets)
        finally:
            if not args.keep:
                shutil.rmtree(base, ignore_errors=True)
        return
    try:
        folder = base / "sheets"
        if folder.exists():
            shutil.rmtree(folder)
        t = time.perf_counter()
        n = generate(folder, max(args.sheets, 1))
        print(f"generated {n} sheets in {time.perf_counter() - t:.1f} s under {folder}")
        ones, firsts, cacheds = [], [], []
        for _ in range(max(1, args.repeat)):  # alternate the runs: a burst of other work hits both alike
            for d in ("out-1", "out-all"):
                shutil.rmtree(base / d, ignore_errors=True)
            load = os.getloadavg()[0]
            ones.append(run(folder, base / "out-1", "--jobs", "1", "--no-cache") + (load,))
            firsts.append(run(folder, base / "out-all", "--jobs", str(cores)) + (load,))
            cacheds.append(run(folder, base / "out-all", "--jobs", str(cores)) + (load,))
        one, stats1, cpu1, _ = min(ones, key=lambda r: r[0])
        first, stats_all, cpu_all, _ = min(firsts, key=lambda r: r[0])
        cached, stats_c, _, _ = min(cacheds, key=lambda r: r[0])
        best = "best of %d; " % len(ones) if len(ones) > 1 else ""
        print(
            f"machine: {cores} core(s) available; load average before each round: "
            f"{', '.join(f'{r[3]:.2f}' for r in ones)} (other work on the machine slows the parallel run); "
            f"{stats_all['files']} sheets, {stats_all['audited']} audited, {stats_all['failed']} failed"
        )
        print(
            f"--jobs 1 (no cache):            {one:7.2f} s wall, {cpu1:6.2f} s CPU ({one / n * 1000:.0f} ms per sheet)"
            f"  [{best}all: {', '.join(f'{r[0]:.1f}' for r in ones)}]"
        )
        print(
            f"--jobs {cores} (first run, cold):   {first:7.2f} s wall, {cpu_all:6.2f} s CPU  speed-up "
            f"{one / first:.2f}x (target >= 1.7x on 2 cores); cores kept busy: {cpu_all / first:.2f} of {cores}"
            f"  [{best}all: {', '.join(f'{r[0]:.1f}' for r in firsts)}]"
        )
        print(
            f"--jobs {cores} (cached re-run):     {cached:7.2f} s wall  {first / cached:.1f}x faster than the first "
            f"run (target >= 20x); {stats_c['from_cache']} of {stats_c['files']} from cache"
            f"  [{best}all: {', '.join(f'{r[0]:.2f}' for r in cacheds)}]"
        )
        print(
            f"peak RSS per worker: --jobs 1: {', '.join(f'{m:.0f} MB' for m in stats1['worker_peak_rss_mb'])}; "
            f"--jobs {cores}: {', '.join(f'{m:.0f} MB' for m in stats_all['worker_peak_rss_mb'])}"
        )
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
