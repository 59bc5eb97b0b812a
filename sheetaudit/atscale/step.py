"""One training step of a Megatron-style job on one system, for one parallel layout: where its time goes and what
it keeps in memory. Pure arithmetic on plain numbers; every collective goes through the alpha-beta model
(model.estimate) over the fabric the sheet describes.

The layout places ranks as Megatron-LM does, tensor parallelism innermost, then context, then data (with expert
parallelism carved out of it), pipeline stages outermost: a group whose ranks fit in one scale-up domain talks over
scale-up, one that does not crosses the network, each accelerator through its own share of the NICs.

The step, per pipeline stage (the slowest sets the pace):
- compute: FLOPs at the achieved matrix efficiency of peak, plus element-wise traffic at the achieved fraction of
  memory bandwidth, plus the optimizer's pass over its shard of the weights;
- tensor parallelism: per layer and micro-batch two all-gathers and two reduce-scatters of the layer's activations
  forward (with sequence parallelism; two all-reduces without, the same bytes), the same backward and again for a
  fully recomputed forward;
- expert all-to-all: dispatch and combine per MoE layer, forward and backward;
- context parallelism: keys and values all-gathered forward, their gradients reduce-scattered backward, hidden
  behind the attention they feed as far as it lasts;
- pipeline: the 1F1B bubble, (pp - 1) / vp micro-batch times, and the point-to-point sends of each micro-batch's
  activations between stages, forward and backward, once per virtual stage;
- data parallelism: gradients reduce-scattered and weights all-gathered once a step (the same bytes as an
  all-reduce), the reduction hidden under the last backward and the gathering under the first forward as far as
  the overlap allows (unsharded, the whole all-reduce under the last backward).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from .collectives import Fabric, estimate
from .transformer import (
    ACT_BYTES,
    Model,
    activation_bytes_per_layer,
    attention_flops_per_token,
    elementwise_bytes_per_token,
    model_flops_per_token,
)

GB = 1e9
BACKWARD_SHARE = 2 / 3  # of a micro-batch's compute: the backward pass is twice the forward's FLOPs


@dataclass(frozen=True)
class Accelerator:
    peak_tflops: float  # dense, at the job's precision
    memory_gb: float | None  # capacity; None: unknown, the fit is not judged
    memory_gbs: float  # HBM bandwidth
    matmul_efficiency: float  # achieved fraction of peak on the layer's matrix multiplications
    memory_efficiency: float  # achieved fraction of memory bandwidth by element-wise kernels


@dataclass(frozen=True)
class Training:
    """The job, apart from its layout."""

    model: Model
    global_batch: int  # sequences per step
    recompute: str = "selective"  # none | selective | full
    sequence_parallel: bool = True
    attention: str = "flash"  # flash | unfused
    sharding: str = "optimizer"  # none | optimizer (distributed optimizer, ZeRO-1) | full (FSDP, ZeRO-3)
    grad_bytes: float = 2.0  # gradient reduction precision
    weight_bytes: float = 2.0


@dataclass(frozen=True)
class Layout:
    tp: int = 1
    pp: int = 1
    dp: int = 1
    ep: int = 1
    cp: int = 1
    vp: int = 1
    micro: int = 1

    @property
    def accelerators(self) -> int:
        return self.tp * self.pp * self.dp * self.cp

    def to_json(self) -> dict:
        return {
            "tp": self.tp,
            "pp": self.pp,
            "dp": self.dp,
            "ep": self.ep,
            "cp": self.cp,
            "vp": self.vp,
            "micro": self.micro,
        }


@dataclass(frozen=True)
class Overlaps:
    tp: float = 0.0  # share of tensor-parallel communication hidden under compute
    ep: float = 0.0  # share of the expert all-to-all hidden under compute
    dp: float = 1.0  # share of the first forward and last backward the dp collectives can run under
    pp_p2p: float = 0.0  # share of the pipeline sends hidden
    optimizer_bytes_per_param: float = 16.0  # bytes the optimizer reads and writes per parameter it updates
    dp_bucket_params: float = 0.0  # the data-parallel bucket: its last reduction and first gathering
    dp_bucket_params_per_rank: float = 0.0  # wait for no compute (max(this, per_rank x dp) parameters)
    memory_reserve_gb: float = 0.0  # what the framework and allocator keep out of reach


@dataclass
class StepResult:
    layout: Layout
    seconds: float
    breakdown: dict  # compute, tp, pp_bubble, pp_p2p, dp_exposed, ep_all_to_all, cp (seconds)
    memory_gb: float
    fits: bool | None
    model_flops: float  # per step, the whole job
    hardware_flops: float  # with recomputation
    micro_batches: int
    notes: list


def _group(f: Fabric, members_per_domain: int) -> Fabric:
    """The fabric as one group sees it: members_per_domain of its ranks share each scale-up domain."""
    return Fabric(f.scale_up_gbs, max(1, members_per_domain), f.scale_out_gbs, f.up_step_s, f.out_step_s)


@lru_cache(maxsize=65536)
def _collective(f: Fabric, collective: str, n: int, per_domain: int, size: float) -> float:
    """Seconds of one collective of a group of n, per_domain of them in each scale-up domain (cached: the layout
    search asks the same ones many times)."""
    if n < 2 or size <= 0:
        return 0.0
    g = _group(f, min(n, per_domain))
    if n > g.domain_size and g.scale_out_gbs is None:
        return math.inf
    return estimate(g, collective, n, max(1, int(size)), "auto").seconds


def stage_layers(m: Model, lay: Layout) -> int:
    """Layers on the slowest stage: layers are whole, so a stage of an uneven split holds one more."""
    return math.ceil(m.layers / (lay.pp * lay.vp)) * lay.vp


def step(job: Training, lay: Layout, f: Fabric, acc: Accelerator, ov: Overlaps) -> StepResult:
    m = job.model
    notes = []
    tp, pp, dp, ep, cp, vp, b = lay.tp, lay.pp, lay.dp, lay.ep, lay.cp, lay.vp, lay.micro
    micro_batches = math.ceil(job.global_batch / (dp * b))
    seq = m.seq_len / cp  # tokens of a sequence one accelerator holds
    tokens = b * seq  # per micro-batch per accelerator, before tp
    unfused = job.attention == "unfused"
    full = job.recompute == "full"
    passes = 4.0 if full else 3.0  # forward, backward (2x), recomputed forward

    # -- compute per layer per micro-batch
    flops_mm = 2.0 * m.layer_matmul_params() * tokens * passes / tp
    att_fwd = attention_flops_per_token(m, causal_skip=not unfused) * tokens / tp
    att_passes = passes + (1.0 if job.recompute == "selective" else 0.0)
    flops_att = att_fwd * att_passes
    peak = acc.peak_tflops * 1e12 * acc.matmul_efficiency
    sharded, replicated = elementwise_bytes_per_token(m, unfused and job.recompute != "selective")
    if unfused and job.recompute == "selective":
        sharded += 11 * m.heads * m.seq_len * 2  # the scores are recomputed: written and read again
    per_tok = sharded / tp + (replicated / tp if job.sequence_parallel else replicated)
    bytes_el = per_tok * tokens * passes
    mem_bw = acc.memory_gbs * GB * acc.memory_efficiency
    t_layer = (flops_mm + flops_att) / peak + bytes_el / mem_bw
    t_attention = flops_att / peak

    # -- tensor parallelism, per layer per micro-batch
    per_domain = f.domain_size
    t_tp = 0.0
    if tp > 1:
        buf = tokens * m.hidden * ACT_BYTES  # the gathered activation of one layer's input
        one = _collective(f, "all-gather", tp, per_domain, buf) + _collective(f, "reduce-scatter", tp, per_domain, buf)
        t_tp = 2 * one * (3 if full else 2) * (1 - ov.tp)
        if tp > per_domain:
            notes.append(f"tensor parallelism of {tp} spans more than one scale-up domain of {per_domain}")

    # -- expert all-to-all, per MoE layer per micro-batch
    t_ep = 0.0
    if m.moe is not None and ep > 1:
        send = tokens / (tp if job.sequence_parallel else 1) * m.moe.top_k * m.hidden * ACT_BYTES
        inside = max(1, per_domain // (tp * cp)) if tp * cp <= per_domain else 1
        a2a = _collective(f, "all-to-all", ep, inside, send)
        t_ep = a2a * 2 * (3 if full else 2) * m.moe_layers / m.layers * (1 - ov.ep)  # averaged over the layers

    # -- context parallelism: keys and values gathered forward, their gradients reduce-scattered backward
    t_cp = 0.0
    if cp > 1:
        kv = 2 * b * m.seq_len * m.kv_dim * ACT_BYTES / tp
        inside = max(1, per_domain // tp)
        t = _collective(f, "all-gather", cp, inside, kv) * (2 if full else 1) + _collective(
            f, "reduce-scatter", cp, inside, kv
        )
        t_cp = max(0.0, t - t_attention)

    t_mb_layer = t_layer + t_tp + t_ep + t_cp
    n_layers = stage_layers(m, lay)
    # logits and loss: 6 h V per token, on the last stage (or balanced by giving it fewer layers)
    flops_logit = 6.0 * m.hidden * m.vocab * tokens / tp
    logit_bytes = 4.0 * tokens * m.vocab / tp * ACT_BYTES  # logits written, read by the loss and back
    t_logit = flops_logit / peak + logit_bytes / mem_bw
    if pp == 1:
        share = 1.0
        t_stage = n_layers * t_mb_layer + t_logit
    else:
        t_stage = max(n_layers * t_mb_layer, (m.layers * t_mb_layer + t_logit) / pp)
        share = n_layers * t_mb_layer / t_stage if t_stage else 1.0
    compute_mb = t_stage - share * n_layers * (t_tp + t_ep + t_cp)

    # -- pipeline
    bubble = (pp - 1) / vp * t_stage if pp > 1 else 0.0
    t_p2p = 0.0
    if pp > 1:
        send = tokens * m.hidden * ACT_BYTES / (tp if job.sequence_parallel or tp > 1 else 1)
        crosses = tp * cp * dp >= per_domain
        if crosses and f.scale_out_gbs is None:
            t_send = math.inf
        elif crosses:
            t_send = f.out_step_s + send / (f.scale_out_gbs * GB)
        else:
            t_send = f.up_step_s + send / (f.scale_up_gbs * GB)
        t_p2p = 2 * t_send * (micro_batches * vp + pp - 1) * (1 - ov.pp_p2p)

    # -- parameters per accelerator, data parallelism, optimizer
    # the embedding (and the output layer) sit on the first (last) stage, split by tp: the first stage's memory
    dense_local = (m.dense_params - m.embedding_params) / (tp * pp) + m.embedding_params / tp
    expert_local = m.expert_params / (tp * pp * ep) if m.moe is not None else 0.0
    params_local = dense_local + expert_local
    dp_group = dp * cp
    inside_dp = max(1, per_domain // (tp * cp)) if tp * cp < per_domain else 1
    t_rs = t_ag = 0.0
    if dp_group > 1:
        t_rs = _collective(f, "reduce-scatter", dp_group, inside_dp, dense_local * job.grad_bytes)
        t_ag = _collective(f, "all-gather", dp_group, inside_dp, dense_local * job.weight_bytes)
        if expert_local and dp_group // ep > 1:
            edp = dp_group // ep
            t_rs += _collective(f, "reduce-scatter", edp, max(1, inside_dp // ep), expert_local * job.grad_bytes)
            t_ag += _collective(f, "all-gather", edp, max(1, inside_dp // ep), expert_local * job.weight_bytes)
    t_dp = t_rs + t_ag
    # the gradients' reduction runs under the stage's last backward, the parameters' gathering under its first
    # forward; unsharded, the whole all-reduce waits for the gradients, under the backward alone
    backward, forward = ov.dp * compute_mb * BACKWARD_SHARE, ov.dp * compute_mb * (1 - BACKWARD_SHARE)
    dp_exposed = (
        max(0.0, t_dp - backward) if job.sharding == "none" else max(0.0, t_rs - backward) + max(0.0, t_ag - forward)
    )
    bucket = max(ov.dp_bucket_params, ov.dp_bucket_params_per_rank * dp_group)
    dp_exposed = max(dp_exposed, t_dp * min(1.0, bucket / params_local))  # the last bucket's, at least
    opt_shard = params_local / (dp_group if job.sharding != "none" else 1)
    t_opt = opt_shard * ov.optimizer_bytes_per_param / mem_bw

    compute = micro_batches * compute_mb + t_opt
    comm_tp = micro_batches * share * n_layers * t_tp
    comm_ep = micro_batches * share * n_layers * t_ep
    comm_cp = micro_batches * share * n_layers * t_cp
    seconds = micro_batches * t_stage + t_opt + bubble + t_p2p + dp_exposed

    # -- memory
    states = 18.0 if job.sharding == "none" else None
    if job.sharding == "optimizer":
        states = job.weight_bytes + 4.0 + 12.0 / dp_group  # bf16 weights, fp32 grads; Adam sharded
    elif job.sharding == "full":
        states = (job.weight_bytes + 4.0 + 12.0) / dp_group
    act_layer = activation_bytes_per_layer(m, b, int(seq), tp, job.sequence_parallel, job.recompute, unfused)
    # 1F1B keeps pp micro-batches in flight on the first stage; the interleaved schedule's warm-up keeps
    # (1 + (pp - 1) / (pp vp)) times that (Korthikanti et al. 2022, section 4.2.3)
    in_flight = min(micro_batches, pp) * (1 + (pp - 1) / (pp * vp) if vp > 1 else 1) if pp > 1 else 1
    layers_local = math.ceil(m.layers / pp)
    acts = act_layer * layers_local * in_flight
    logits_mem = tokens * m.vocab / tp * 4.0  # fp32 logits of the loss, one micro-batch
    gathered = 2 * job.weight_bytes * m.layer_matmul_params() / tp if job.sharding == "full" else 0.0
    memory = (params_local * states + gathered + acts + logits_mem) / GB + ov.memory_reserve_gb
    fits = None if acc.memory_gb is None else memory <= acc.memory_gb

    mflops = model_flops_per_token(m) * job.global_batch * m.seq_len
    recomputed = 0.0
    if full:
        recomputed = (2.0 * m.layer_matmul_params() + attention_flops_per_token(m, True)) * m.layers
    elif job.recompute == "selective":
        recomputed = attention_flops_per_token(m, True) * m.layers
    if unfused:  # the 2021 kernels compute the masked half of the scores too: executed, not needed
        masked = (attention_flops_per_token(m, False) - attention_flops_per_token(m, True)) * m.layers
        recomputed += masked * (4.0 if full else 3.0)
    hflops = mflops + recomputed * job.global_batch * m.seq_len
    breakdown = {
        "compute": compute,
        "tp": comm_tp,
        "pp_bubble": bubble,
        "pp_p2p": t_p2p,
        "dp_exposed": dp_exposed,
        "ep_all_to_all": comm_ep,
        "cp": comm_cp,
    }
    return StepResult(lay, seconds, breakdown, memory, fits, mflops, hflops, micro_batches, notes)
