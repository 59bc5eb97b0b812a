"""Does the PDF reader lose figures that the text reader finds? Each document of tests/layouts (drawn from a text
original of tests/real/dev or tests/real/fresh by samples/make_layouts.py) scored beside its original.

    python benchmarks/layouts_vs_text.py                  # per document: text F1, then each layout's F1
    python benchmarks/layouts_vs_text.py --only sidecol   # the PDFs whose name contains this
    python benchmarks/layouts_vs_text.py --verbose        # also the figures a layout misses or adds

The labels are the same for a document in every layout, so a layout that scores below its text is the PDF
reader's loss. Scoring is the benchmark's own (../shared/eval/score.py: figures matched on quantity and value).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYOUTS = ROOT / "tests" / "layouts"
SCORE = ROOT.parent / "shared" / "eval" / "score.py"


def load_score(path: Path):
    spec = importlib.util.spec_from_file_location("score", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def figures(tool: str, sheet: Path) -> list[dict]:
    out = subprocess.run([tool, "check", "--format", "json", str(sheet)], capture_output=True, text=True)
    try:
        return json.loads(out.stdout).get("figures") or []
    except ValueError:
        return []


def counts(score, labels: dict, got: list[dict]) -> tuple[int, int, int, list, list]:
    exp, got = score.dedupe(labels["figures"]), score.dedupe(got)
    pairs = score.match(exp, got)
    hit_e, hit_g = {id(e) for e, _ in pairs}, {id(g) for _, g in pairs}
    missed = [e.get("text") for e in exp if id(e) not in hit_e]
    extra = [g.get("text") for g in got if id(g) not in hit_g]
    return len(exp), len(got), len(pairs), missed, extra


def f1(exp: int, got: int, tp: int) -> float:
    return 2 * tp / (exp + got) if exp + got else 1.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool", default=str(ROOT / ".venv" / "bin" / "sheetaudit"))
    ap.add_argument("--score", type=Path, default=SCORE)
    ap.add_argument("--only", default="")
    ap.add_argument("--verbose", "-v", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    score = load_score(a.score)

    layouts = sorted(p for p in LAYOUTS.glob("*.pdf") if a.only in p.name)
    labels = {}
    originals, by_doc = {}, defaultdict(list)
    for pdf in layouts:
        lab = json.loads((pdf.parent / (pdf.stem + ".expected.json")).read_text(encoding="utf-8"))
        layout, doc = pdf.stem.split("-", 1)
        labels[pdf] = lab
        by_doc[doc].append((layout, pdf))
        for folder in ("dev", "fresh"):
            src = next(
                (p for p in (ROOT / "tests" / "real" / folder).glob(doc + ".*") if p.suffix in (".md", ".txt")), None
            )
            if src:
                originals[doc] = src
    jobs = list(layouts) + sorted(set(originals.values()))
    with ThreadPoolExecutor(a.jobs) as pool:
        got = dict(zip(jobs, pool.map(lambda s: figures(a.tool, s), jobs)))

    pooled = defaultdict(lambda: [0, 0, 0])  # per layout: expected, found, matched
    text_of = defaultdict(lambda: [0, 0, 0])  # the same documents' text originals
    print(f"{'document':<58} {'text':>5}  layouts (F1)")
    for doc in sorted(by_doc):
        src = originals[doc]
        lab = labels[by_doc[doc][0][1]]
        t = counts(score, lab, got[src])
        cells = []
        for layout, pdf in sorted(by_doc[doc]):
            c = counts(score, lab, got[pdf])
            for k in range(3):
                pooled[layout][k] += c[k]
                text_of[layout][k] += t[k]
                text_of["all"][k] += t[k]
                pooled["all"][k] += c[k]
            mark = " " if f1(*c[:3]) >= f1(*t[:3]) - 1e-9 else "!"
            cells.append(f"{layout} {f1(*c[:3]):.2f}{mark}")
            if a.verbose:
                lost = [m for m in c[3] if m not in t[3]]
                added = [x for x in c[4] if x not in t[4]]
                if lost or added:
                    print(f"    {layout}: lost {lost} added {added}", file=sys.stderr)
        print(f"{doc[:58]:<58} {f1(*t[:3]):>5.2f}  " + "  ".join(cells))
    print()
    print(f"{'layout':<10} {'PDF F1':>7} {'text F1':>8}  (PDF: expected, found, matched)")
    for name, (e, g, tp) in sorted(pooled.items(), key=lambda kv: (kv[0] == "all", kv[0])):
        print(f"{name:<10} {f1(e, g, tp):>7.3f} {f1(*text_of[name]):>8.3f}  ({e}, {g}, {tp})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
