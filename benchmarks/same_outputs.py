"""Does a change keep the audit's behaviour? `sheetaudit check --format json` of every labelled sheet (samples/,
tests/labelled, tests/real/dev, ../shared/corpus; never tests/real/blind) under two builds, and what differs.

    python benchmarks/same_outputs.py                      # main (a git ref) against this working tree
    python benchmarks/same_outputs.py --base HEAD~3 --out /tmp/same
    python benchmarks/same_outputs.py --dump SRC OUT       # one build's outputs only (SRC: a source tree)
    python benchmarks/same_outputs.py --diff OUT_A OUT_B   # two dumps compared

A build is a source tree (its sheetaudit/ and rules/), run with this checkout's interpreter from a neutral folder
so that the tree given, not the installed one, is imported. The sheets are this checkout's, so both builds read
the same files. Exit 1 when any output differs.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SETS = ("samples", "tests/labelled", "tests/real/dev", "../shared/corpus")
KINDS = (".pdf", ".txt", ".md", ".html")
NOT_SHEETS = {"README.md", "REAL-PDFS.md", "SOURCES.md"}


def sheets() -> list[Path]:
    out = []
    for s in SETS:
        d = (ROOT / s).resolve()
        if d.is_dir():
            out += sorted(p for p in d.iterdir() if p.suffix in KINDS and p.name not in NOT_SHEETS and p.is_file())
    return out


def _name(p: Path) -> str:
    return f"{p.parent.name}__{p.name}"


def dump(src: Path, out: Path, jobs: int = 1) -> None:
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(src), "SHEETAUDIT_RULES": str(src / "rules")}

    def one(p: Path) -> None:
        r = subprocess.run(
            [sys.executable, "-m", "sheetaudit", "check", "--format", "json", "--fail-on", "never", str(p)],
            cwd=tempfile.gettempdir(),
            env=env,
            capture_output=True,
            text=True,
        )
        (out / f"{_name(p)}.json").write_text(
            r.stdout if r.returncode == 0 else json.dumps({"exit": r.returncode, "stderr": r.stderr[-2000:]})
        )

    with ThreadPoolExecutor(jobs) as pool:
        list(pool.map(one, sheets()))


def _flat(obj, prefix=""):
    """Leaves of a JSON document as path -> value; figures and findings keyed by what they are, not their place."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _flat(v, f"{prefix}.{k}" if prefix else k)
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _flat(v, f"{prefix}[{i}]")
    else:
        yield prefix, obj


def diff(a: Path, b: Path, show: int = 12) -> int:
    changed = 0
    names = sorted({p.name for p in a.glob("*.json")} | {p.name for p in b.glob("*.json")})
    for name in names:
        pa, pb = a / name, b / name
        ta = pa.read_text() if pa.exists() else "{}"
        tb = pb.read_text() if pb.exists() else "{}"
        if ta == tb:
            continue
        changed += 1
        fa, fb = dict(_flat(json.loads(ta or "{}"))), dict(_flat(json.loads(tb or "{}")))
        keys = [k for k in sorted(fa.keys() | fb.keys()) if fa.get(k, "<absent>") != fb.get(k, "<absent>")]
        print(f"--- {name}: {len(keys)} values differ")
        for k in keys[:show]:
            print(f"    {k}: {fa.get(k, '<absent>')!r} -> {fb.get(k, '<absent>')!r}")
    print(f"{len(names)} sheets, {changed} with different output")
    return 1 if changed else 0


def _export(ref: str, into: Path) -> Path:
    """The tree of a git ref, written out (sheetaudit/ and rules/ are what a build is)."""
    data = subprocess.run(
        ["git", "-C", str(ROOT), "archive", ref, "sheetaudit", "rules"], check=True, capture_output=True
    ).stdout
    tmp = into / "archive.tar"
    tmp.write_bytes(data)
    with tarfile.open(tmp) as tar:
        tar.extractall(into / "tree", filter="data")
    return into / "tree"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="main", help="git ref of the build to compare against (default main)")
    ap.add_argument("--out", type=Path, help="where the outputs go (default: a temporary folder)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--dump", nargs=2, metavar=("SRC", "OUT"), type=Path)
    ap.add_argument("--diff", nargs=2, metavar=("OUT_A", "OUT_B"), type=Path)
    args = ap.parse_args(argv)
    if args.dump:
        dump(args.dump[0].resolve(), args.dump[1], args.jobs)
        return 0
    if args.diff:
        return diff(*args.diff)
    out = args.out or Path(tempfile.mkdtemp(prefix="same-outputs-"))
    base = _export(args.base, out)
    dump(base, out / "base", args.jobs)
    dump(ROOT, out / "new", args.jobs)
    print(f"outputs in {out}")
    return diff(out / "base", out / "new")


if __name__ == "__main__":
    sys.exit(main())
