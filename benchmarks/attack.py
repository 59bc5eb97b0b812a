#!/usr/bin/env python3
"""Attack run: hostile mutants of every input sheetaudit takes, each read as the tool reads it, counting what
goes wrong.

    python benchmarks/attack.py                  # 10,500 mutants: 3,000 PDFs, 2,000 text/Markdown, 2,000 HTML,
                                                 # 1,500 requirement files, 1,000 facility profiles, 1,000 jobs
    python benchmarks/attack.py --scale 0.02     # the same mix, 2% of it (tests/test_attack_run.py)
    python benchmarks/attack.py --keep /tmp/bad  # copy each failing mutant there

Mutants (seeded: a run is reproducible):
  pdf           benchmarks/mutate.py's damage to the sample PDFs (bytes, streams, xref, numbers, keywords)
  text, html    the sample .txt, .md and .html sheets with bytes flipped, cut, repeated or deleted, and hostile
                pieces spliced in: runs of one figure, 5,000-digit numbers, nan and 1e308 with units, control and
                bidi characters, table rows by the hundred, broken and unbalanced tags, spans of 10^6, comments and
                marked sections left open
  requirements, facility, job
                the sample files with values replaced by nan, inf, 400-digit integers, negatives, 1.5 where a count
                is meant, 1 and true where a flag is, long text, deep lists; keys deleted, renamed or added; aliases
                nested to a billion values; the YAML itself damaged

Each mutant runs in a worker process under a time limit (sheetaudit.limits) with a hard limit in the parent and a
memory cap, as `check` runs a file. A sheet is audited and rendered (JSON, HTML); an input file is read and, when
accepted, used: a requirements file judges a sheet, a facility profile audits one, a job is built into the model.
Outcomes:

    accepted     read and used (an audit, or an input file that is valid after all)
    refused      a SheetAuditError: the one-line error with exit code 2
    over-time    the time limit fired (a clean error, but counted: must stay 0)
    uncaught     any other exception ("internal error"): a bug; must be 0
    killed       the worker did not answer in time, or died (crash, out of memory); must be 0

Exit status 1 when any mutant was uncaught, killed or over time.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import mutate  # noqa: E402

SAMPLES = ROOT / "samples"
MIX = {"pdf": 3000, "text": 2000, "html": 2000, "requirements": 1500, "facility": 1000, "job": 1000}
FAILING = ("uncaught", "killed", "over-time")

# -- documents ------------------------------------------------------------------------------------------------

# Runs of one figure stay short (100): a long run is the quadratic case of the figure finder, a known fault with
# its own test (tests/test_dense_page.py), which would turn most of this run into time-outs.
TEXT_PIECES = [
    "400 Gb/s " * 100,
    "NIC: " + "400 Gb/s, " * 100,
    "9" * 5000 + " GB/s",
    "1e308 GB/s",
    "nan kW",
    "-inf ns",
    "0 GB/s per GPU",
    "\x00\x01\x1b[31m",
    "\u202e\u2066",
    "\ufeff",
    "| a | b |\n" * 500,
    "|---|---|\n",
    "| " + "x | " * 300 + "\n",
    "=" * 5000 + "\n",
    "#" * 200 + " head\n",
    "(" * 3000,
    "NVLink 5 " * 300 + "1.8 TB/s",
    "8x 400GbE " * 100,
    "\t" * 1000,
    "- " * 5000,
    "GPU " * 3000,
    "Power: 10.2 kW max\n" * 100,
    ".. list-table::\n   * - a\n" * 50,
    "\r\r\r\n",
    "µs ns ms " * 500,
    "１２３ＧＢ／ｓ",
    "400 Gb/s" + "\u0301" * 500,
]
HTML_PIECES = [
    "<table>",
    "</table>",
    "<tr>",
    "</tr>",
    "<td>",
    "</td>",
    "<th>",
    "</th>",
    "<td colspan=99999>",
    "<td rowspan=1000000>",
    "<td colspan='-5' rowspan='x'>",
    "<table>" * 200,
    "</td></tr>" * 200,
    "<![",
    "<!--",
    "<![CDATA[",
    "<script>",
    "</script>",
    "<style>",
    "<br>" * 1000,
    "<h1>",
    "</h9>",
    "&amp;" * 1000,
    "&#xFFFFFFFF;",
    "&#0;",
    "&bogus;",
    "<title>",
    "<li>" * 2000,
    "<dd>" * 500,
    "<td>400 Gb/s</td>" * 100,
    "<p>" + "NIC: 400 Gb/s " * 100 + "</p>",
    "<!DOCTYPE",
    "<?xml",
    "<table><tr><td>x</tr></td></table>",
    "<caption>",
    "<dt>" * 300,
    "<th scope=col>" * 300,
]


def _splice(data: bytes, pieces: list[str], rng: random.Random) -> bytes:
    at = rng.randrange(len(data) + 1)
    return data[:at] + rng.choice(pieces).encode("utf-8") + data[at:]


def mutate_text(data: bytes, pieces: list[str], rng: random.Random) -> bytes:
    for _ in range(rng.randint(1, 3)):
        how = rng.choice(["splice", "splice", "splice", "flip", "truncate", "duplicate", "delete"])
        if how == "splice" or not data:
            data = _splice(data, pieces, rng)
        elif how == "flip":
            b = bytearray(data)
            for _ in range(rng.randint(1, 20)):
                b[rng.randrange(len(b))] = rng.randrange(256)
            data = bytes(b)
        elif how == "truncate":
            data = data[: rng.randrange(len(data))]
        elif how == "duplicate":
            a = rng.randrange(len(data))
            chunk = data[a : a + rng.randint(1, 2000)]
            data = data[:a] + chunk * rng.randint(2, 50) + data[a:]
        else:
            a = rng.randrange(len(data))
            data = data[:a] + data[a + rng.randint(1, 2000) :]
    return data


# -- input files ----------------------------------------------------------------------------------------------


def _bomb(depth: int = 9) -> str:
    text = "a: &a [" + ", ".join(["lol"] * 9) + "]\n"
    for p, n in zip("abcdefghijklmnop", "bcdefghijklmnopq"[: depth - 1]):
        text += f"{n}: &{n} [{', '.join(['*' + p] * 9)}]\n"
    return text


HOSTILE_VALUES = [
    float("nan"),
    float("inf"),
    float("-inf"),
    10**400,
    -(10**400),
    -1,
    0,
    1.5,
    0.5,
    1e308,
    -1e-308,
    True,
    False,
    1,
    None,
    "",
    "x" * 20000,
    [],
    {},
    [[[[[[1]]]]]],
    "1e400 GB/s",
    "9" * 400 + " GB/s",
    "-5 kW",
    "3.2 Tb/s",
    "0x10",
    "1_000",
    "½",
    "nan",
    "inf ns",
    "800 furlongs",
    "required",
    "air",
    ["air", "lava"],
    {"min": float("nan")},
    {"max": -1},
    {"min": 10**400},
    {"min": "fast"},
    {"min": 0.9, "at": 1.5},
    {"min": 0.9, "at": 10**400},
    2**63,
    1e18,
    7e9,
    "70B",
    "1e400",
    "15T",
]
TEXT_DAMAGE = [
    "\t",
    ": :",
    "- - -",
    "&x",
    "*nope",
    "!!python/object:os.system",
    "{",
    "]",
    "%YAML 9.9\n",
    "---\n",
    "? ",
    "'",
    '"',
    "\x00",
    "!!binary",
    "<<: *a",
    "[" * 500,
    "{" * 500,
]


def _hostile(rng: random.Random):
    import copy

    return copy.deepcopy(rng.choice(HOSTILE_VALUES))  # a shared list set twice would come to hold itself


def _paths(data, prefix=()):
    """Every (path, value) of a nested mapping or list."""
    yield prefix, data
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _paths(v, prefix + (i,))


def _set(data, path, value):
    target = data
    for k in path[:-1]:
        target = target[k]
    target[path[-1]] = value


def mutate_yaml(base: dict, rng: random.Random) -> str:
    import copy

    import yaml

    data = copy.deepcopy(base)
    for _ in range(rng.randint(1, 3)):
        paths = [p for p, _ in _paths(data) if p]
        how = rng.choice(["value", "value", "value", "delete", "add", "rename"])
        if not paths:
            data = {"x": _hostile(rng)}
            continue
        path = rng.choice(paths)
        parent = data
        for k in path[:-1]:
            parent = parent[k]
        if how == "value":
            _set(data, path, _hostile(rng))
        elif how == "delete":
            del parent[path[-1]]
        elif how == "add" and isinstance(parent, dict):
            parent[rng.choice(["unknown", "min", "max", "at", "cooling", "rdma", 7, "tp"])] = _hostile(rng)
        elif how == "rename" and isinstance(parent, dict):
            parent[str(path[-1]) + rng.choice(["_", "s", " ", "\u00a0"])] = parent.pop(path[-1])
    try:
        text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    except (yaml.YAMLError, OverflowError, ValueError):
        text = "{}\n"
    roll = rng.random()
    if roll < 0.08:
        text = _bomb(rng.randint(6, 12)) + text
    elif roll < 0.3:
        at = rng.randrange(len(text) + 1)
        text = text[:at] + rng.choice(TEXT_DAMAGE) + text[at:]
    elif roll < 0.35:
        text = text[: rng.randrange(len(text) + 1)]
    return text


def _load(path: Path):
    import yaml

    return yaml.safe_load(path.read_text(encoding="utf-8"))


def bases() -> dict[str, list[dict]]:
    return {
        "requirements": [_load(SAMPLES / "requirements.yaml")],
        "facility": [{"name": "Hall B", "rack_power_kw": 60, "cooling": ["air", "liquid"], "floor_load_kg_m2": 1500}],
        "job": [_load(p) for p in sorted((SAMPLES / "jobs").glob("*.yaml"))],
    }


# -- making the mutants ---------------------------------------------------------------------------------------


def make_mutants(out: Path, scale: float, seed: int) -> list[tuple[Path, str, str]]:
    """(path, source, kind) of every mutant, written into OUT."""
    counts = {k: max(1, round(n * scale)) for k, n in MIX.items()}
    made = []
    pdfs = sorted(SAMPLES.glob("*.pdf"))
    per = math.ceil(counts["pdf"] / len(pdfs))
    for path, src, kind in mutate.make_mutants(pdfs, per, seed, out)[: counts["pdf"]]:
        made.append((path, src, "pdf"))
    sheets = {
        "text": sorted(SAMPLES.glob("*.txt")) + sorted(SAMPLES.glob("*.md")),
        "html": sorted(SAMPLES.glob("*.html")),
    }
    for kind, pieces in (("text", TEXT_PIECES), ("html", HTML_PIECES)):
        for i in range(counts[kind]):
            rng = random.Random(f"{seed}:{kind}:{i}")
            src = sheets[kind][i % len(sheets[kind])]
            path = out / f"{kind}.{i:05d}{src.suffix}"
            path.write_bytes(mutate_text(src.read_bytes(), pieces + TEXT_PIECES[:6], rng))
            made.append((path, src.name, kind))
    for kind, base in bases().items():
        for i in range(counts[kind]):
            rng = random.Random(f"{seed}:{kind}:{i}")
            path = out / f"{kind}.{i:05d}.yaml"
            path.write_text(mutate_yaml(base[i % len(base)], rng), encoding="utf-8")
            made.append((path, kind, kind))
    return made


# -- checking one mutant (in a worker) ------------------------------------------------------------------------

_SHEET = SAMPLES / "osprey-o4-inference-server.txt"
_contract: dict = {}


def _judge(path: str) -> None:
    """Read an input file as the command line does and, when it is accepted, use it."""
    from sheetaudit import pipeline
    from sheetaudit.options import AuditOptions

    kind = Path(path).name.split(".")[0]
    if kind == "requirements":
        req, fac = pipeline.load_requirements(path)
        if "c" not in _contract:
            from sheetaudit.output.json_out import to_contract

            _contract["c"] = to_contract(pipeline.run(_SHEET))
        from sheetaudit.requirements import evaluate

        evaluate(req, _contract["c"], sheet=_SHEET.name)
        if fac is not None:
            pipeline.run(_SHEET, AuditOptions(facility=fac))
    elif kind == "facility":
        pipeline.run(_SHEET, AuditOptions(facility=pipeline.load_facility(path)))
    else:
        from sheetaudit.atscale.job import read_job

        read_job(path)


def check_one(path: str, timeout: float, formats: tuple[str, ...]) -> tuple[str, str, float]:
    """One mutant: (outcome, detail, seconds), as benchmarks/mutate.py's workers answer."""
    if not path.endswith(".yaml"):
        outcome, detail, seconds = mutate.audit_one(path, timeout, formats)
        return (
            "accepted" if outcome == "audited" else "refused" if outcome == "unreadable" else outcome,
            detail,
            seconds,
        )
    from sheetaudit.errors import SheetAuditError, TimeLimitExceeded
    from sheetaudit.limits import time_limit

    start = time.monotonic()
    try:
        with time_limit(timeout):
            _judge(path)
        outcome, detail = "accepted", ""
    except TimeLimitExceeded as exc:
        outcome, detail = "over-time", str(exc)
    except SheetAuditError as exc:
        outcome, detail = "refused", str(exc)[:200]
    except BaseException as exc:  # noqa: BLE001 - counting exactly these is the point
        tb = traceback.extract_tb(exc.__traceback__)
        ours = [f for f in tb if "/sheetaudit/" in f.filename.replace("\\", "/")]
        where = " <- ".join(f"{Path(f.filename).name}:{f.lineno}" for f in ([tb[-1]] + ours[-1:] if tb else []))
        outcome, detail = "uncaught", f"{type(exc).__name__}: {str(exc)[:120]} at {where}"
    return outcome, detail, time.monotonic() - start


# -- the run --------------------------------------------------------------------------------------------------


def run(
    scale: float = 1.0,
    seed: int = 20261202,
    jobs: int | None = None,
    timeout: float = 30.0,
    max_memory_mb: int = 2048,
    keep: Path | None = None,
    quiet: bool = False,
) -> dict:
    jobs = jobs or os.cpu_count() or 1
    with tempfile.TemporaryDirectory(prefix="sheetaudit-attack-") as tmp:
        mutants = make_mutants(Path(tmp), scale, seed)
        pool = mutate.Pool(jobs, timeout, ("json", "html"), max_memory_mb, fn=check_one)
        return {
            "mutants": len(mutants),
            "seed": seed,
            "scale": scale,
            "timeout": timeout,
            "jobs": jobs,
            **mutate.run_pool(pool, mutants, FAILING, keep, quiet),
        }


def report(r: dict) -> str:
    c = r["counts"]
    lines = [
        f"{r['mutants']} mutants (seed {r['seed']}, scale {r['scale']:g}), {r['jobs']} worker(s), "
        f"{r['seconds']} s; per-file limit {r['timeout']:g} s",
        "  " + ", ".join(f"{k} {c.get(k, 0)}" for k in ("accepted", "refused", *FAILING)),
    ]
    return "\n".join(lines + mutate.report_tail(r))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scale", type=float, default=1.0, help="fraction of the 10,500-mutant mix [1]")
    ap.add_argument("--seed", type=int, default=20261202)
    ap.add_argument("-j", "--jobs", type=int, default=None, help="worker processes [one per core]")
    ap.add_argument("--timeout", type=float, default=30.0, help="per-file time limit in seconds [30]")
    ap.add_argument("--max-memory", type=int, default=2048, help="address-space limit per worker in MB [2048]")
    ap.add_argument("--keep", type=Path, help="copy failing mutants here")
    ap.add_argument("--json", type=Path, help="write the full result as JSON here")
    args = ap.parse_args(argv)
    r = run(args.scale, args.seed, args.jobs, args.timeout, args.max_memory, args.keep)
    print(report(r))
    if args.json:
        args.json.write_text(json.dumps(r, indent=1) + "\n", encoding="utf-8")
    return 1 if any(r["counts"].get(k) for k in FAILING) else 0


if __name__ == "__main__":
    sys.exit(main())
