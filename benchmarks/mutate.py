#!/usr/bin/env python3
"""Mutation run: damage the sample PDFs in many small ways and audit every mutant, counting what goes wrong.

    python benchmarks/mutate.py                      # 1,050 mutants of samples/*.pdf, one worker per core
    python benchmarks/mutate.py -n 30 --seed 7       # 30 mutants per sample PDF
    python benchmarks/mutate.py --corpus ../shared/corpus --keep /tmp/failures
    python benchmarks/mutate.py -n 20 --cli           # through `sheetaudit check` in a subprocess

Mutations (seeded, so a run is reproducible): byte flips anywhere, byte flips inside a stream, truncation,
duplication of a chunk, deletion of a chunk, a chunk overwritten with zeros, a number token replaced by a huge
or negative one, a PDF keyword or delimiter replaced by another, cross-reference damage (wrong offsets, startxref,
counts, free/in-use flags, no table) and recompressed content streams (decoded, random operators and now and then
a deep nest spliced in, compressed again with a correct /Length, so the damage reaches the content parser).

Each mutant is audited as `sheetaudit check` audits a file (pipeline.run, then the JSON, text and HTML
outputs) in a pool of worker processes, with the per-file time limit of sheetaudit.limits inside the worker
and a hard limit in the parent (a worker that does not answer within --timeout + 10 s is killed and replaced).
Outcomes:

    audited      the mutant was read and audited (the damage was repaired or harmless)
    unreadable   a SheetAuditError: the one-line error `check` prints, exit code 2
    over-time    the per-file time limit fired (a clean error too, but counted: it must stay 0 at 30 s)
    uncaught     any other exception: `check` would print "internal error" -- a bug; must be 0
    killed       the worker did not answer in time, or died (segfault, out of memory); must be 0

Exit status 1 when any mutant was uncaught or killed, or over time.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import random
import re
import shutil
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
KINDS = ("flip", "stream-flip", "truncate", "duplicate", "delete", "zero", "number", "keyword", "xref", "recompress")
KEYWORDS = [
    b"obj",
    b"endobj",
    b"stream",
    b"endstream",
    b"xref",
    b"trailer",
    b"startxref",
    b"/Length",
    b"/Type",
    b"/Page",
    b"/Pages",
    b"/Kids",
    b"/Count",
    b"/Root",
    b"/Font",
    b"/Filter",
    b"/FlateDecode",
    b"<<",
    b">>",
    b"[",
    b"]",
    b"(",
    b")",
    b"R",
    b"BT",
    b"ET",
    b"Tf",
    b"Tj",
    b"TJ",
    b"Td",
    b"cm",
    b"Do",
    b"/MediaBox",
]
NUMBER = re.compile(rb"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])")
XREF_ROW = re.compile(rb"(\d{10}) (\d{5}) ([nf])")
STREAM = re.compile(rb"(<<(?:(?!endobj).)*?>>)\s*stream\r?\n(.*?)endstream", re.S)
# Content-stream operators with operands, valid and not: random drawing state, text state, inline images,
# unbalanced save/restore and text objects, huge counts -- what a broken or hostile producer writes.
OPERATORS = [
    b"q",
    b"Q",
    b"BT",
    b"ET",
    b"0 0 Td",
    b"1e308 0 Td",
    b"/F1 1e9 Tf",
    b"/F9 12 Tf",
    b"(x) Tj",
    b"[(a) -99999 (b)] TJ",
    b"<FFFE> Tj",
    b"999999 Tz",
    b"-1 Tr",
    b"1 0 0 1 0 0 cm",
    b"0 0 0 0 0 0 cm",
    b"NaN 1 0 1 0 0 cm",
    b"/Im1 Do",
    b"BI /W 99999 /H 99999 /BPC 8 /CS /G ID \x00\xff EI",
    b"0 0 m",
    b"1 1 l",
    b"S",
    b"f",
    b"W n",
    b"/GS1 gs",
    b"1 g",
    b"0.5 0.5 0.5 rg",
    b"'",
    b'"',
    b"T*",
    b"12 TL",
    b"(\\) Tj",
    b"[ [ [ [",
    b"] ] ]",
    b"<< /A << /B",
    b">>",
    b"%comment",
    b"99999999999999999999 w",
]


# ---------------------------------------------------------------------------------------------------------
# Mutations


def mutate(data: bytes, kind: str, rng: random.Random) -> bytes:
    b = bytearray(data)
    n = len(b)
    if n < 16:
        return bytes(b)
    if kind == "flip":
        for _ in range(rng.choice([1, 1, 2, 4, 16, 64])):
            i = rng.randrange(n)
            b[i] = rng.randrange(256) if rng.random() < 0.5 else b[i] ^ (1 << rng.randrange(8))
    elif kind == "stream-flip":
        spans = [(m.end(), m.end() + 4096) for m in re.finditer(rb"stream\r?\n", data)]
        if not spans:
            return mutate(data, "flip", rng)
        a, z = rng.choice(spans)
        z = min(z, n)
        for _ in range(rng.choice([1, 3, 10, 50])):
            if z > a:
                i = rng.randrange(a, z)
                b[i] = rng.randrange(256)
    elif kind == "truncate":
        cut = rng.choice([rng.randrange(1, n), n - rng.randrange(1, min(n, 200)), rng.randrange(1, max(2, n // 10))])
        del b[max(1, cut) :]
    elif kind == "duplicate":
        size = rng.choice([1, 16, 256, 4096, n // 4 or 1])
        a = rng.randrange(n)
        chunk = bytes(b[a : a + size])
        at = rng.randrange(n)
        b[at:at] = chunk * rng.choice([1, 1, 2, 20])
    elif kind == "delete":
        size = rng.choice([1, 8, 128, 2048])
        a = rng.randrange(n)
        del b[a : a + size]
    elif kind == "zero":
        size = rng.choice([4, 64, 1024, 16384])
        a = rng.randrange(n)
        b[a : a + size] = bytes(len(b[a : a + size]))
    elif kind == "number":
        nums = list(NUMBER.finditer(data))
        if not nums:
            return mutate(data, "flip", rng)
        for m in rng.sample(nums, min(len(nums), rng.choice([1, 1, 3, 10]))):
            new = rng.choice(
                [
                    b"0",
                    b"-1",
                    b"99999999999",
                    b"2147483648",
                    b"1e308",
                    b"-0.0",
                    b"1" * 40,
                    b"NaN",
                    str(rng.randrange(1 << 31)).encode(),
                ]
            )
            s, e = m.span()
            b[s:e] = new + b" " * max(0, (e - s) - len(new)) if len(new) <= e - s else new
            break  # offsets after a longer replacement have moved: one per pass
    elif kind == "keyword":
        for _ in range(rng.choice([1, 2, 5])):
            old, new = rng.choice(KEYWORDS), rng.choice(KEYWORDS)
            hits = [m.start() for m in re.finditer(re.escape(old), bytes(b))]
            if hits:
                i = rng.choice(hits)
                b[i : i + len(old)] = new
    elif kind == "xref":
        return _damage_xref(data, rng)
    elif kind == "recompress":
        return _recompress(data, rng)
    return bytes(b)


def _damage_xref(data: bytes, rng: random.Random) -> bytes:
    """Wrong offsets in the cross-reference table, a wrong or missing startxref, a table that claims more or fewer
    objects than it lists, or no table at all: the reader must rebuild the file or refuse it in one line."""
    how = rng.choice(["offsets", "startxref", "count", "drop", "free"])
    rows = list(XREF_ROW.finditer(data))
    if how == "startxref" or not rows:
        return re.sub(rb"startxref\s+\d+", b"startxref\n" + rng.choice([b"0", b"1", b"99999999", b"-5"]), data)
    if how == "drop":
        return re.sub(rb"xref\r?\n.*?trailer", b"trailer", data, count=1, flags=re.S)
    if how == "count":
        return re.sub(rb"xref\r?\n0 \d+", b"xref\n0 " + str(rng.choice([0, 1, 3, 10**6])).encode(), data, count=1)
    b = bytearray(data)
    for m in rng.sample(rows, min(len(rows), rng.choice([1, 2, len(rows)]))):
        if how == "free":
            b[m.start(3)] = ord("f") if m.group(3) == b"n" else ord("n")
        else:
            b[m.start(1) : m.end(1)] = b"%010d" % rng.choice(
                [0, 1, len(data) - 1, len(data) + 10**6, rng.randrange(len(data))]
            )
    return bytes(b)


def _recompress(data: bytes, rng: random.Random) -> bytes:
    """Decode a stream, splice random operators into it, compress it again with a correct /Length and a plain
    /FlateDecode filter: the damage reaches the content parser instead of being stopped by the decoder."""
    import base64
    import zlib

    streams = list(STREAM.finditer(data))
    if not streams:
        return mutate(data, "stream-flip", rng)
    m = rng.choice(streams)
    head, raw = m.group(1), m.group(2).rstrip(b"\r\n")
    try:
        if b"ASCII85Decode" in head:
            raw = base64.a85decode(raw if raw.startswith(b"<~") else b"<~" + raw, adobe=True)
        if b"FlateDecode" in head:
            raw = zlib.decompress(raw)
    except Exception:  # noqa: BLE001 - a stream this benchmark cannot decode is damaged as bytes instead
        return mutate(data, "stream-flip", rng)
    tokens = raw.split(b"\n")
    for _ in range(rng.choice([1, 3, 10, 100])):
        tokens.insert(rng.randrange(len(tokens) + 1), rng.choice(OPERATORS))
    if rng.random() < 0.1:  # a deep nest of arrays or saves
        tokens.insert(rng.randrange(len(tokens) + 1), rng.choice([b"[", b"q ", b"<<"]) * rng.choice([1000, 100000]))
    body = zlib.compress(b"\n".join(tokens), rng.choice([0, 1, 9]))
    head = re.sub(rb"/Filter\s*(\[[^\]]*\]|/\w+)", b"/Filter /FlateDecode", head)
    head = re.sub(rb"/Length\s+\d+(\s+\d+\s+R)?", b"/Length %d" % len(body), head)
    return data[: m.start()] + head + b"\nstream\n" + body + b"\nendstream" + data[m.end() :]


def make_mutants(sources: list[Path], per_source: int, seed: int, out: Path) -> list[tuple[Path, str, str]]:
    """Write per_source mutants of each source into out; returns (path, source name, kind)."""
    made = []
    for src in sources:
        data = src.read_bytes()
        for i in range(per_source):
            rng = random.Random(f"{seed}:{src.name}:{i}")
            kind = KINDS[i % len(KINDS)]
            mutant = mutate(data, kind, rng)
            if rng.random() < 0.15:  # now and then, two kinds of damage at once
                mutant = mutate(mutant, rng.choice(KINDS), rng)
            path = out / f"{src.stem}.{i:04d}.{kind}.pdf"
            path.write_bytes(mutant)
            made.append((path, src.name, kind))
    return made


# ---------------------------------------------------------------------------------------------------------
# Workers: audit one file as `check` does; answer with (outcome, detail, seconds)


def audit_one(path: str, timeout: float, formats: tuple[str, ...]) -> tuple[str, str, float]:
    from sheetaudit.errors import SheetAuditError, TimeLimitExceeded
    from sheetaudit.limits import time_limit
    from sheetaudit import pipeline

    start = time.monotonic()
    stage = "audit"
    try:
        with time_limit(timeout):
            result = pipeline.run(path)
            if "json" in formats:
                stage = "json output"
                from sheetaudit.output.json_out import dumps

                dumps(result)
            if "text" in formats:
                stage = "text output"
                from sheetaudit.output.text_out import render

                render(result)
            if "html" in formats:
                stage = "html output"
                from sheetaudit.output.html_out import render as render_html

                render_html(result)
        outcome, detail = "audited", ""
    except TimeLimitExceeded as exc:
        outcome, detail = "over-time", str(exc)
    except SheetAuditError as exc:
        outcome, detail = "unreadable", str(exc)
    except MemoryError:
        outcome, detail = "unreadable", "out of memory (check: one-line error)"
    except BaseException as exc:  # noqa: BLE001 - counting exactly these is the point
        tb = traceback.extract_tb(exc.__traceback__)
        ours = [f for f in tb if "/sheetaudit/" in f.filename.replace("\\", "/")]
        where = " <- ".join(
            f"{Path(f.filename).parent.name}/{Path(f.filename).name}:{f.lineno}"
            for f in ([tb[-1]] + ours[-1:] if tb else [])
        )
        outcome, detail = "uncaught", f"in the {stage}: {type(exc).__name__}: {str(exc)[:120]} at {where}"
    return outcome, detail, time.monotonic() - start


def check_cli(path: str, timeout: float, formats: tuple[str, ...]) -> tuple[str, str, float]:
    """The same, through the real command line: `sheetaudit check --format F FILE` in a subprocess per format.
    An unreadable file must give exit 2 and exactly one stderr line naming it; never a traceback."""
    import subprocess

    start = time.monotonic()
    outcome, detail = "audited", ""
    for fmt in formats:
        cmd = [sys.executable, "-m", "sheetaudit", "check", "--format", fmt, "--timeout", f"{timeout:g}", "--", path]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=timeout + 20)
        except subprocess.TimeoutExpired:
            return "killed", f"{fmt}: no answer after {timeout + 20:g} s", time.monotonic() - start
        errors = [line for line in p.stderr.splitlines() if not line.startswith("sheetaudit: note: ")]
        if "Traceback" in p.stderr or "internal error" in p.stderr:
            return "uncaught", f"{fmt}: {(errors or ['?'])[-1][:200]}", time.monotonic() - start
        if p.returncode in (0, 1) and not errors:
            continue
        if p.returncode == 2 and len(errors) == 1 and errors[0].startswith(f"sheetaudit: error: {path}: "):
            outcome = "over-time" if "time limit" in errors[0] else "unreadable"
            detail = errors[0][len(f"sheetaudit: error: {path}: ") :]
            break
        return "uncaught", f"{fmt}: exit {p.returncode}, stderr {p.stderr[-200:]!r}", time.monotonic() - start
    return outcome, detail, time.monotonic() - start


def _worker(conn, timeout: float, formats: tuple[str, ...], max_memory_mb: int, fn=None) -> None:
    import logging

    logging.disable(logging.CRITICAL)
    if max_memory_mb:
        import resource

        limit = max_memory_mb * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    while True:
        try:
            path = conn.recv()
        except EOFError:
            return
        if path is None:
            return
        conn.send((fn or audit_one)(path, timeout, formats))


class Pool:
    """Worker processes with a hard per-file limit: a worker that does not answer in time is killed and replaced."""

    def __init__(
        self, jobs: int, timeout: float, formats: tuple[str, ...], max_memory_mb: int, grace: float = 10.0, fn=None
    ):
        methods = mp.get_all_start_methods()
        self.ctx = mp.get_context("forkserver" if "forkserver" in methods else "spawn")
        self.timeout, self.formats, self.max_memory_mb = timeout, formats, max_memory_mb
        self.grace, self.fn = grace, fn  # fn(path, timeout, formats) -> (outcome, detail, seconds)
        self.workers = [self._start() for _ in range(jobs)]

    def _start(self):
        parent, child = self.ctx.Pipe()
        p = self.ctx.Process(
            target=_worker, args=(child, self.timeout, self.formats, self.max_memory_mb, self.fn), daemon=True
        )
        p.start()
        child.close()
        return {"proc": p, "conn": parent, "task": None, "since": 0.0}

    def run(self, tasks: list, on_result) -> None:
        from multiprocessing.connection import wait

        queue = list(tasks)
        hard = self.timeout + self.grace if self.timeout else None
        while queue or any(w["task"] for w in self.workers):
            for w in self.workers:
                if w["task"] is None and queue:
                    w["task"], w["since"] = queue.pop(0), time.monotonic()
                    w["conn"].send(str(w["task"][0]))
            busy = [w for w in self.workers if w["task"]]
            ready = wait([w["conn"] for w in busy], timeout=1.0)
            now = time.monotonic()
            for i, w in enumerate(self.workers):
                if not w["task"]:
                    continue
                if w["conn"] in ready:
                    task, w["task"] = w["task"], None
                    try:
                        res = w["conn"].recv()
                    except (EOFError, OSError):
                        w["proc"].join(1)
                        res = ("killed", f"worker died (exit code {w['proc'].exitcode})", now - w["since"])
                        self._replace(i)
                    on_result(task, res)
                elif not w["proc"].is_alive():
                    on_result(w["task"], ("killed", f"worker died (exit code {w['proc'].exitcode})", now - w["since"]))
                    w["task"] = None
                    self._replace(i)
                elif hard and now - w["since"] > hard:
                    on_result(w["task"], ("killed", f"no answer after {hard:g} s", now - w["since"]))
                    w["task"] = None
                    self._replace(i)

    def _replace(self, i: int) -> None:
        old = self.workers[i]
        if old["proc"].is_alive():
            old["proc"].kill()
        old["proc"].join(5)
        old["conn"].close()
        self.workers[i] = self._start()

    def close(self) -> None:
        for w in self.workers:
            try:
                w["conn"].send(None)
            except (OSError, BrokenPipeError):
                pass
        for w in self.workers:
            w["proc"].join(5)
            if w["proc"].is_alive():
                w["proc"].kill()


def run(
    sources: list[Path],
    per_source: int = 150,
    seed: int = 20250101,
    jobs: int | None = None,
    timeout: float = 30.0,
    formats=("json", "text", "html"),
    max_memory_mb: int = 2048,
    keep: Path | None = None,
    quiet: bool = False,
    cli: bool = False,
) -> dict:
    """Make and audit the mutants; returns the counts, the failures and the slowest files."""
    jobs = jobs or os.cpu_count() or 1
    with tempfile.TemporaryDirectory(prefix="sheetaudit-mutants-") as tmp:
        mutants = make_mutants(sources, per_source, seed, Path(tmp))
        pool = Pool(
            jobs,
            timeout,
            tuple(formats),
            0 if cli else max_memory_mb,
            grace=30 if cli else 10,
            fn=check_cli if cli else None,
        )
        return {
            "mutants": len(mutants),
            "sources": [s.name for s in sources],
            "seed": seed,
            "timeout": timeout,
            "jobs": jobs,
            **run_pool(pool, mutants, ("uncaught", "killed", "over-time"), keep, quiet),
        }


def run_pool(
    pool: Pool,
    mutants: list[tuple[Path, str, str]],
    failing: tuple[str, ...],
    keep: Path | None = None,
    quiet: bool = False,
) -> dict:
    """Run the (path, source, kind) mutants through POOL (closed after), counting outcomes overall and per kind;
    the mutants whose outcome is in FAILING are listed (and copied into KEEP)."""
    counts: Counter = Counter()
    by_kind: dict[str, Counter] = {}
    failures, times = [], []
    start = time.monotonic()

    def on_result(task, res):
        path, src, kind = task
        outcome, detail, seconds = res
        counts[outcome] += 1
        by_kind.setdefault(kind, Counter())[outcome] += 1
        times.append((seconds, path.name))
        if outcome in failing:
            failures.append({"file": path.name, "source": src, "kind": kind, "outcome": outcome, "detail": detail})
            if keep:
                keep.mkdir(parents=True, exist_ok=True)
                shutil.copy(path, keep / path.name)
        if not quiet and sys.stderr.isatty():
            print(f"\r{sum(counts.values())}/{len(mutants)} {dict(counts)}", end="", file=sys.stderr, flush=True)

    try:
        pool.run(mutants, on_result)
    finally:
        pool.close()
    if not quiet and sys.stderr.isatty():
        print(file=sys.stderr)
    times.sort(reverse=True)
    return {
        "seconds": round(time.monotonic() - start, 1),
        "counts": dict(counts),
        "by_kind": {k: dict(v) for k, v in sorted(by_kind.items())},
        "failures": failures,
        "slowest": [(round(s, 2), n) for s, n in times[:5]],
    }


def report_tail(r: dict) -> list[str]:
    """The lines per kind, the slowest files and the failures of a run's result."""
    lines = [
        f"  {kind:<13} " + ", ".join(f"{k} {v}" for k, v in sorted(kc.items())) for kind, kc in r["by_kind"].items()
    ]
    lines.append("  slowest: " + ", ".join(f"{n} {s} s" for s, n in r["slowest"]))
    for f in r["failures"][:40]:
        lines.append(f"  FAIL {f['outcome']:<9} {f['file']} ({f['source']}): {f['detail']}")
    return lines


def report(r: dict) -> str:
    c = r["counts"]
    lines = [
        f"{r['mutants']} mutants of {len(r['sources'])} PDFs (seed {r['seed']}), {r['jobs']} worker(s), "
        f"{r['seconds']} s; per-file limit {r['timeout']:g} s",
        f"  audited {c.get('audited', 0)}, unreadable (clean one-line error) {c.get('unreadable', 0)}, "
        f"over the time limit {c.get('over-time', 0)}, uncaught exceptions {c.get('uncaught', 0)}, "
        f"workers killed {c.get('killed', 0)}",
    ]
    return "\n".join(lines + report_tail(r))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", "--per-source", type=int, default=150, help="mutants per source PDF [150]")
    ap.add_argument("--seed", type=int, default=20250101)
    ap.add_argument("-j", "--jobs", type=int, default=None, help="worker processes [one per core]")
    ap.add_argument("--timeout", type=float, default=30.0, help="per-file time limit in seconds [30]")
    ap.add_argument("--max-memory", type=int, default=2048, help="address-space limit per worker in MB [2048]")
    ap.add_argument("--formats", default="json,text,html", help="outputs rendered per mutant [json,text,html]")
    ap.add_argument(
        "--corpus", type=Path, action="append", default=[], help="also mutate the PDFs of this folder (repeatable)"
    )
    ap.add_argument("--keep", type=Path, help="copy failing mutants here")
    ap.add_argument("--json", type=Path, help="write the full result as JSON here")
    ap.add_argument(
        "--cli",
        action="store_true",
        help="run `sheetaudit check` in a subprocess per mutant and format (slower): checks exit codes "
        "and that stderr is one line naming the file, never a traceback",
    )
    args = ap.parse_args(argv)
    sources = sorted(SAMPLES.glob("*.pdf"))
    for folder in args.corpus:
        sources += sorted(folder.glob("*.pdf"))
    r = run(
        sources,
        args.per_source,
        args.seed,
        args.jobs,
        args.timeout,
        tuple(args.formats.split(",")),
        args.max_memory,
        args.keep,
        cli=args.cli,
    )
    print(report(r))
    if args.json:
        import json

        args.json.write_text(json.dumps(r, indent=1), encoding="utf-8")
    c = r["counts"]
    return 1 if c.get("uncaught") or c.get("killed") or c.get("over-time") else 0


if __name__ == "__main__":
    sys.exit(main())
