#!/usr/bin/env python3
"""The training what-if against published measurements: predicted against measured utilisation, per point and as
the median error.

    .venv/bin/python benchmarks/bench_training.py                      # tests/training/published-runs.yaml
    .venv/bin/python benchmarks/bench_training.py --runs ../shared/training/published-runs.yaml

Each point's hardware is taken as a datasheet states it (peak dense 16-bit TFLOP/s, scale-up GB/s per direction,
accelerators per scale-up domain, scale-out Gb/s per accelerator; HBM capacity and bandwidth from the GPU's own
datasheet, below) and its job as the source states it (model shape, global batch, the parallel degrees it prints).
What the source leaves open (the micro-batch size, the number of virtual pipeline stages, any degree not printed)
is chosen by the layout search, as for a user's job. The software each source describes is an input, the same for
every point of that source: Megatron-LM as of Narayanan et al. 2021 (full activation recomputation, no sequence
parallelism, unfused attention, replicated optimizer) and Llama 3 (FSDP-sharded data parallelism, FlashAttention,
sequence parallelism, no activation recomputation). Nothing is fitted per point.

The runs ran, so the search does not hold their layouts to the memory model: memory is printed beside each point
(the model's estimate against the GPU's capacity) as a check of the memory model, not as a filter.

Utilisation is compared as each source defines it: Narayanan et al. report eq. 3's FLOPs (which count the
recomputed forward pass) over 312 TFLOP/s; Llama 3 reports model FLOPs utilisation.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sheetaudit.atscale.assumptions import load_assumptions  # noqa: E402
from sheetaudit.atscale.parse import parse_count  # noqa: E402
from sheetaudit.atscale.train import accelerator, overlaps, search  # noqa: E402
from sheetaudit.atscale.step import Training  # noqa: E402
from sheetaudit.atscale.transformer import Model  # noqa: E402
from sheetaudit.atscale.whatif import fabric  # noqa: E402
from sheetaudit.atscale.inputs import Inputs  # noqa: E402

RUNS = ROOT / "tests" / "training" / "published-runs.yaml"

# HBM as each GPU's datasheet prints it (capacity GB, bandwidth GB/s): the published runs name the GPU, not these.
HBM = {
    "A100 80GB SXM": (80, 2039, "NVIDIA A100 datasheet: 80GB HBM2e, 2,039 GB/s (SXM)", "a100"),
    "H100 80GB": (80, 3350, "NVIDIA H100 datasheet: H100 SXM 80GB, 3.35 TB/s", "h100"),
}
# What each source says of its software (the same for all its points).
SOFTWARE = {
    "NAR21": {"recompute": "full", "sequence_parallel": False, "attention": "unfused", "sharding": "none"},
    # Llama 3, section 3.3.2: "we could pre-train Llama 3 on 8K tokens sequences without activation checkpointing"
    "LLAMA3": {"recompute": "none", "sequence_parallel": True, "attention": "flash", "sharding": "full"},
}


def _hbm(gpu: str):
    for key, v in HBM.items():
        if gpu.startswith(key):
            return v
    raise KeyError(f"no HBM figures for {gpu!r}")


def _int(v):
    return None if v is None else int(v)


def _global_batch(par: dict) -> int:
    g = par["gbs"]
    if isinstance(g, (int, float)):
        return int(g)
    m = re.match(r"(\d+) seq per DP group", str(g))
    return int(m.group(1)) * int(par["dp"])


def point_inputs(p: dict):
    """(Training, fixed layout, Inputs, hardware dict) of one published point."""
    hw, mo, par = p["hardware"], p["model"], p["parallel"]
    source = p["id"].split("-")[0]
    model = Model(
        params=parse_count(str(mo["params"])),
        layers=int(mo["layers"]),
        hidden=int(mo["hidden"]),
        heads=int(mo["heads"]),
        seq_len=int(mo["seq_len"]),
        vocab=int(mo["vocab"]),
        kv_heads=_int(mo.get("kv_heads")),
        ffn=_int(mo.get("ffn")),
    )
    software = dict(SOFTWARE[source])
    if source == "LLAMA3" and model.seq_len > 8192:
        software["recompute"] = "selective"  # the statement covers 8K sequences; Megatron's default otherwise
    job = Training(model=model, global_batch=_global_batch(par), **software)
    fixed = {k: _int(par.get(k)) for k in ("tp", "pp", "dp", "ep", "cp", "vp")}
    fixed["micro"] = _int(par.get("mbs"))
    cap, bw, _, gen = _hbm(hw["gpu"])
    inp = Inputs(
        "published",
        scale_up_gbs=float(hw["scale_up_GBps"]),
        domain_size=int(hw["gpus_per_node"]),
        scale_out_gbs=float(hw["scale_out_Gbps_per_gpu"]) / 8,
    )
    hardware = {
        "peak_tflops": float(hw["peak_tflops"]),
        "memory_gb": cap,
        "memory_gbs": bw,
        "generation": gen,
        "precision": "bf16",
    }
    return job, fixed, inp, hardware, int(hw["gpu_count"])


def measured_utilisation(p: dict) -> float:
    return float(p["result"]["tflops_per_gpu"]) / float(p["hardware"]["peak_tflops"])


def eq3_flops(job: Training) -> float:
    """Narayanan et al. 2021, eq. 3: 96 B s l h^2 (1 + s / 6h + V / 16 l h), the FLOPs their % of peak counts."""
    m = job.model
    B, s, L, h, V = job.global_batch, m.seq_len, m.layers, m.hidden, m.vocab
    return 96 * B * s * L * h * h * (1 + s / (6 * h) + V / (16 * L * h))


def predict(p: dict, a=None):
    """(predicted utilisation as the source counts it, the step result) of one point."""
    a = a or load_assumptions()
    job, fixed, inp, hardware, n = point_inputs(p)
    f = fabric(inp, a)
    acc = accelerator(dict(hardware, memory_gb=None), a)  # the runs ran: their memory is not in question
    r = search(job, n, f, acc, overlaps(a), fixed)
    flops = eq3_flops(job) if p["id"].startswith("NAR21") else r.model_flops
    return flops / r.seconds / n / (hardware["peak_tflops"] * 1e12), r


def evaluate(path: Path = RUNS) -> list[dict]:
    import yaml

    data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    a = load_assumptions()
    rows = []
    for p in data["points"]:
        got, r = predict(p, a)
        want = measured_utilisation(p)
        rows.append(
            {
                "id": p["id"],
                "gpus": int(p["hardware"]["gpu_count"]),
                "measured": want,
                "predicted": got,
                "error": got / want - 1,
                "layout": r.layout.to_json(),
                "step_s": r.seconds,
                "breakdown": r.breakdown,
                "memory_gb": r.memory_gb,
                "capacity_gb": _hbm(p["hardware"]["gpu"])[0],
            }
        )
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=Path, default=RUNS, help="published-runs.yaml")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each point's step breakdown")
    args = ap.parse_args(argv)
    rows = evaluate(args.runs)
    print(
        f"{'point':28} {'GPUs':>6} {'measured':>9} {'predicted':>9} {'error':>7}  {'memory (model)':>14}  "
        f"layout tp pp dp cp vp micro"
    )
    for r in rows:
        lay = r["layout"]
        print(
            f"{r['id']:28} {r['gpus']:6d} {r['measured']:9.1%} {r['predicted']:9.1%} {r['error']:+7.1%}  "
            f"{r['memory_gb']:5.0f} of {r['capacity_gb']:3d} GB  "
            f"{lay['tp']} {lay['pp']} {lay['dp']} {lay['cp']} {lay['vp']} {lay['micro']}"
        )
        if args.verbose:
            total = r["step_s"]
            print(
                "      step %.3g s, %.1f GB: " % (total, r["memory_gb"])
                + ", ".join(f"{k} {v / total:.1%}" for k, v in r["breakdown"].items() if v)
            )
    errs = [abs(r["error"]) for r in rows]
    over = [r["id"] for r in rows if r["memory_gb"] > r["capacity_gb"]]
    print(
        f"median |error| {statistics.median(errs):.1%}, largest {max(errs):.1%}, {len(rows)} points; "
        f"memory model above capacity on {len(over)} run(s) that ran" + (f": {', '.join(over)}" if over else "")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
