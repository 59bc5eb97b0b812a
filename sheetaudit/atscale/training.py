"""The training what-if of one system for a job (`scale --job`): the accelerator read from the job, the
assumptions or the sheet; the step at the job's accelerator count with the chosen layout and where its time goes;
the curve of throughput against accelerator count at the job's fixed global batch, with its knee.

Every input says where it came from; one the job, the assumptions and the sheet all leave out is listed as missing
with the question for the vendor, and what needs it is not modelled."""

from __future__ import annotations

from .assumptions import Assumptions
from .inputs import Inputs
from .job import Job
from .collectives import Fabric
from .step import StepResult
from .train import accelerator, efficiency_key, overlaps, search

HARDWARE_QUESTIONS = {
    "peak_tflops": (
        "the sheet states no peak compute per accelerator",
        "ask for each accelerator's dense (not sparse) tensor TFLOP/s at the job's precision",
    ),
    "memory_gbs": ("the sheet states no memory bandwidth per accelerator", "ask for each accelerator's HBM bandwidth"),
    "memory_gb": ("the sheet states no memory capacity per accelerator", "ask for each accelerator's HBM capacity"),
}
MAX_CURVE = 1 << 17


def _sheet_memory_gbs(contract: dict) -> tuple[float, str] | None:
    """The first memory-tier bandwidth the sheet states for one accelerator (GB/s), with how it was read: the first
    column of a table of models, as for compute. A figure with no scope is taken as one accelerator's (HBM
    bandwidths are printed per device) and says so."""
    from ..basis import norm

    got = [
        (norm(f), f)
        for f in contract.get("figures", [])
        if isinstance(f, dict)
        and f.get("quantity") == "bandwidth"
        and f.get("tier") == "memory"
        and f.get("scope") in (None, "per-accelerator")
        and norm(f)
    ]
    if not got:
        return None
    v, f = got[0]
    how = "stated" if f.get("scope") == "per-accelerator" else "inferred (no scope printed: read as one accelerator's)"
    return v, f"{how}: {f['text']} (p{f.get('page')})"


def hardware(job: Job, contract: dict, a: Assumptions, sheet_specs: dict | None = None) -> tuple[dict, dict, list]:
    """(values, how each was read, missing) for peak_tflops, memory_gb and memory_gbs: the job's hardware block
    first, then --assume, then the sheet (sheet_specs: the accelerator of several sheets combined; else the
    contract's compute and memory figures)."""
    from .specs import read_specs

    values, how, missing = {}, {}, []
    specs = dict(sheet_specs if sheet_specs is not None else read_specs(contract, job.precision))
    mem = _sheet_memory_gbs(contract)
    if mem and "memory_gbs" not in specs:
        specs["memory_gbs"] = mem
    for key in ("peak_tflops", "memory_gb", "memory_gbs"):
        if job.hardware.get(key) is not None:
            values[key], how[key] = float(job.hardware[key]), "job file: hardware." + key
        elif a.value(key) is not None:
            values[key], how[key] = float(a.value(key)), f"assumed: --assume {key}"
        elif key in specs:
            values[key], how[key] = float(specs[key][0]), specs[key][1]
        else:
            why, ask = HARDWARE_QUESTIONS[key]
            if key == "peak_tflops" and specs.get("flags"):
                why = f"{why} ({'; '.join(specs['flags'])})"
            missing.append(
                {
                    "input": key,
                    "why": why,
                    "ask": ask,
                    "fill": f"--assume {key}=VALUE or hardware.{key} in the job file",
                }
            )
    values["generation"] = job.hardware.get("generation") or specs.get("generation", (None, ""))[0]
    values["precision"] = job.precision
    values["flags"] = specs.get("flags", [])
    return values, how, missing


def _row(r: StepResult, n: int, job: Job, peak: float) -> dict:
    tokens = job.training.global_batch * job.model.seq_len
    tps = tokens / r.seconds
    return {
        "accelerators": n,
        "layout": r.layout.to_json(),
        "step_seconds": _sig(r.seconds),
        "tokens_per_second": _sig(tps),
        "tokens_per_second_per_accelerator": _sig(tps / n),
        "model_tflops_per_accelerator": _sig(r.model_flops / r.seconds / n / 1e12),
        "mfu": round(r.model_flops / r.seconds / n / (peak * 1e12), 4),
        "hfu": round(r.hardware_flops / r.seconds / n / (peak * 1e12), 4),
        "memory_gb_per_accelerator": round(r.memory_gb, 1),
        "fits": r.fits,
        "breakdown_seconds": {k: _sig(v) for k, v in r.breakdown.items()},
    }


def _sig(x: float, digits: int = 4) -> float:
    return float(f"{x:.{digits}g}")


def curve_counts(job: Job, domain: int) -> list[int]:
    """The job's count halved and doubled (one family of counts, so the global batch divides the same way along
    the curve): from an eighth of it, but no fewer than one scale-up domain, to sixteen times it."""
    n = job.accelerators or domain
    out = [n]
    k = n
    while k % 2 == 0 and k // 2 >= max(domain, n // 8, 2):
        k //= 2
        out.insert(0, k)
    k = n
    while k * 2 <= min(MAX_CURVE, n * 16):
        k *= 2
        out.append(k)
    return out


def knee(curve: list[dict], gain: float) -> int | None:
    """The last count from which doubling the accelerators still adds at least `gain` of the ideal speed-up:
    past it, more accelerators at this global batch buy little."""
    pts = [(c["accelerators"], c["tokens_per_second"]) for c in curve]
    for (n1, t1), (n2, t2) in zip(pts, pts[1:]):
        if (t2 / t1 - 1) / (n2 / n1 - 1) < gain:
            return n1
    return None


def job_block(
    job: Job,
    inp: Inputs,
    f: Fabric | None,
    contract: dict,
    a: Assumptions,
    sheet_specs: dict | None = None,
    with_curve: bool = True,
) -> dict:
    hw, how, missing = hardware(job, contract, a, sheet_specs)
    out = {
        "job": job.name,
        "hardware": {k: hw.get(k) for k in ("peak_tflops", "memory_gb", "memory_gbs")},
        "hardware_how": how,
        "missing": missing,
    }
    if f is None or "peak_tflops" not in hw or "memory_gbs" not in hw:
        out["unknown"] = "missing " + " and ".join(
            [m["input"] for m in missing if m["input"] != "memory_gb"]
            + [m["input"] for m in inp.missing if m["input"] != "scale_out_gbs"]
        )
        return out
    key = efficiency_key(hw.get("generation"), job.precision, a.value("matmul_efficiency"))
    out["matmul_efficiency"] = {"key": key, "value": a.value("matmul_efficiency")[key]}
    acc = accelerator(hw, a)
    ov = overlaps(a)
    n = job.accelerators or f.domain_size
    r = search(job.training, n, f, acc, ov, job.fixed)
    if r is None:
        out["unknown"] = (
            f"{n} accelerators span more than one scale-up domain and the scale-out bandwidth is missing"
            if f.scale_out_gbs is None and n > f.domain_size
            else f"no layout of {n} accelerators fits the job's constraints (the global batch of "
            f"{job.training.global_batch} must divide by the data-parallel degree)"
        )
        return out
    out.update(_row(r, n, job, acc.peak_tflops))
    if r.fits is False:
        out["not_fitting"] = (
            f"no layout fits {acc.memory_gb:g} GB per accelerator: the one needing least "
            f"memory needs {r.memory_gb:.0f} GB"
        )
    if job.tokens:
        out["time_to_train_days"] = _sig(job.tokens / out["tokens_per_second"] / 86400)
    out["notes"] = list(hw.get("flags", [])) + r.notes
    if with_curve:
        free = {k: v for k, v in job.fixed.items() if k != "dp"}
        curve = []
        for c in curve_counts(job, f.domain_size):
            got = r if c == n else search(job.training, c, f, acc, ov, free)
            if got is not None and got.fits is not False and got.seconds < float("inf"):
                curve.append(
                    {
                        k: v
                        for k, v in _row(got, c, job, acc.peak_tflops).items()
                        if k
                        in (
                            "accelerators",
                            "layout",
                            "step_seconds",
                            "tokens_per_second",
                            "tokens_per_second_per_accelerator",
                            "mfu",
                        )
                    }
                )
        out["curve"] = curve
        out["knee"] = knee(curve, a.value("knee_gain"))
    return out
