"""The layout search: where a job leaves its parallel degrees open, the fastest layout that fits in memory, among
the ones Megatron-LM and torchtitan users choose: tensor parallelism a power of two that divides the heads and
stays inside the scale-up domain; context parallelism only for long sequences; pipeline stages no more than the
layers; data parallelism what is left, dividing the global batch; expert parallelism a power of two dividing the
experts within the data-parallel ranks; virtual stages only when the micro-batches come in whole rounds of the
stages (Megatron-LM's interleaved schedule); micro-batch size that divides each replica's share of the batch."""

from __future__ import annotations

from .collectives import Fabric
from .step import Accelerator, Layout, Overlaps, StepResult, Training, step

KEYS = ("tp", "pp", "dp", "ep", "cp", "vp", "micro")
MAX_MICRO = 8
MIN_CP_TOKENS = 4096  # context parallelism splits a sequence into pieces no shorter than this


def _powers(upto: int) -> list[int]:
    out, k = [], 1
    while k <= upto:
        out.append(k)
        k *= 2
    return out


def _divisors(n: int) -> list[int]:
    small = [d for d in range(1, int(n**0.5) + 1) if n % d == 0]
    return sorted(set(small + [n // d for d in small]))


def candidates(job: Training, n: int, domain: int, fixed: dict) -> list[Layout]:
    """Every layout of n accelerators allowed by the job's fixed degrees and the rules above."""
    m = job.model
    out = []
    tps = [fixed["tp"]] if fixed.get("tp") else [t for t in _powers(domain) if m.heads % t == 0]
    cps = [fixed["cp"]] if fixed.get("cp") else [c for c in _powers(64) if c == 1 or m.seq_len // c >= MIN_CP_TOKENS]
    for tp in tps:
        for cp in cps:
            if n % (tp * cp):
                continue
            rest = n // (tp * cp)
            pps = [fixed["pp"]] if fixed.get("pp") else [p for p in _divisors(rest) if p <= m.layers]
            for pp in pps:
                if rest % pp:
                    continue
                dp = rest // pp
                if fixed.get("dp") and fixed["dp"] != dp:
                    continue
                if job.global_batch % dp:
                    continue
                eps = [1]
                if m.moe is not None:
                    eps = (
                        [fixed["ep"]]
                        if fixed.get("ep")
                        else [e for e in _powers(m.moe.experts) if m.moe.experts % e == 0 and (dp * cp) % e == 0]
                    )
                vps = (
                    [fixed["vp"]]
                    if fixed.get("vp")
                    else ([1] if pp == 1 else [v for v in _powers(m.layers) if m.layers // (pp * v) >= 1])
                )
                per_replica = job.global_batch // dp
                micros = (
                    [fixed["micro"]] if fixed.get("micro") else [b for b in _powers(MAX_MICRO) if per_replica % b == 0]
                )
                for ep in eps:
                    for vp in vps:
                        for b in micros:
                            # the interleaved schedule needs whole rounds of micro-batches through the stages
                            if vp > 1 and (per_replica // b) % pp:
                                continue
                            out.append(Layout(tp, pp, dp, ep, cp, vp, b))
    return out


def _key(seconds: float) -> float:
    return float(f"{seconds:.9g}")


def search(
    job: Training, n: int, f: Fabric, acc: Accelerator, ov: Overlaps, fixed: dict | None = None
) -> StepResult | None:
    """The fastest layout that fits (or, when none fits, the one needing least memory, marked as not fitting);
    None when no layout of n accelerators is allowed (say, a batch the data-parallel degree cannot divide)."""
    fixed = {k: v for k, v in (fixed or {}).items() if v}
    best_fit, least = None, None
    for lay in candidates(job, n, f.domain_size, fixed):
        r = step(job, lay, f, acc, ov)
        if r.seconds == float("inf"):  # crosses the network and the scale-out bandwidth is unknown
            continue
        if r.fits is not False:
            # equal times (a micro-batch size that changes nothing but memory): the smaller memory
            if best_fit is None or (_key(r.seconds), r.memory_gb) < (_key(best_fit.seconds), best_fit.memory_gb):
                best_fit = r
        elif least is None or r.memory_gb < least.memory_gb:
            least = r
    return best_fit or least
