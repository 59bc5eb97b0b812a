"""What one transformer layer costs: FLOPs, memory traffic of its element-wise kernels, parameters and stored
activations, from the model's shape. Pure arithmetic, per token or per sequence; no hardware, no layout.

Counts follow the published derivations:
- matrix FLOPs: 2 x parameters per token forward, twice that backward (Kaplan et al. 2020; Narayanan et al. 2021,
  eq. 3, whose 96 B s l h^2 (1 + s/6h + V/16lh) this reproduces for a GPT layer with full recomputation);
- attention scores: 4 x s x h per token forward (QK^T and AV) over the whole sequence, half of it for a causal
  model whose kernel skips the masked blocks (FlashAttention); the unfused kernels of 2021 compute all of it;
- stored activations: Korthikanti et al. 2022 ("Reducing Activation Recomputation"), s b h (34 + 5 a s / h) bytes
  per layer, divided by tensor parallelism with sequence parallelism;
- element-wise traffic (norms, residual adds, dropout, the MLP's activation, softmax over unfused scores), counted
  kernel by kernel in bytes read and written per token, 16-bit activations: it is what makes small layers
  memory-bound, since it grows with h while the matrix work grows with h^2.
"""

from __future__ import annotations

from dataclasses import dataclass

ACT_BYTES = 2  # bf16/fp16 activations (fp8 matmuls still keep 16-bit activations between kernels)


@dataclass(frozen=True)
class Moe:
    experts: int
    top_k: int
    expert_hidden: int
    shared_experts: int = 0
    layers: int | None = None  # MoE layers; None: every layer
    active_params: float | None = None


@dataclass(frozen=True)
class Model:
    params: float
    layers: int
    hidden: int
    heads: int
    seq_len: int
    vocab: int
    kv_heads: int | None = None  # grouped-query attention; None: as many as heads
    ffn: int | None = None  # gated (SwiGLU) MLP width; None: a GELU MLP of 4 x hidden
    moe: Moe | None = None

    @property
    def gated(self) -> bool:
        return self.ffn is not None

    @property
    def mlp_width(self) -> int:
        return self.ffn if self.ffn is not None else 4 * self.hidden

    @property
    def kv_dim(self) -> int:
        return (self.kv_heads or self.heads) * (self.hidden // self.heads)

    @property
    def embedding_params(self) -> float:
        return float(self.vocab * self.hidden)

    @property
    def moe_layers(self) -> int:
        if self.moe is None:
            return 0
        return self.layers if self.moe.layers is None else self.moe.layers

    @property
    def expert_params_per_layer(self) -> float:
        """Routed experts' weights of one MoE layer (gated MLPs of expert_hidden)."""
        if self.moe is None:
            return 0.0
        return 3.0 * self.hidden * self.moe.expert_hidden * self.moe.experts

    @property
    def expert_params(self) -> float:
        return self.expert_params_per_layer * self.moe_layers

    @property
    def dense_params(self) -> float:
        """Every weight outside the routed experts: attention, dense MLPs, shared experts, embeddings."""
        return max(self.params - self.expert_params, self.embedding_params)

    @property
    def active_params(self) -> float:
        """Weights one token passes through."""
        if self.moe is None:
            return self.params
        if self.moe.active_params is not None:
            return self.moe.active_params
        routed = 3.0 * self.hidden * self.moe.expert_hidden * self.moe.top_k * self.moe_layers
        return self.dense_params + routed

    def layer_matmul_params(self) -> float:
        """Weights a token multiplies per layer, on average (the output projection counted apart, as logits)."""
        return max(self.active_params - self.embedding_params, 0.0) / self.layers


def attention_flops_per_token(m: Model, causal_skip: bool) -> float:
    """Forward FLOPs of the attention scores per token per layer: QK^T and AV over the sequence."""
    return 4.0 * m.seq_len * m.hidden * (0.5 if causal_skip else 1.0)


def model_flops_per_token(m: Model) -> float:
    """Model FLOPs (PaLM's MFU count) per token, forward and backward: 6 x active weights (the logits included)
    plus the causal attention (half the score matrix: the work a causal model needs, as Megatron-LM counts it)."""
    return (
        6.0 * m.layer_matmul_params() * m.layers
        + 6.0 * m.hidden * m.vocab
        + 3.0 * m.layers * attention_flops_per_token(m, causal_skip=True)
    )


def elementwise_bytes_per_token(m: Model, unfused_attention: bool) -> tuple[float, float]:
    """Bytes read and written per token per layer by the forward pass's element-wise kernels, as (the part that
    tensor/sequence parallelism shards in every case, the part it shards only with sequence parallelism).

    Kernel by kernel, 16-bit: two norms (read h, write h: 4h bytes each); two residual adds with dropout (read two
    h, write one h, a one-byte mask: 7h each); the MLP's activation (GELU reads and writes the 4h hidden: 4 x
    width bytes; a gated MLP reads two and writes one: 6 x width). Unfused attention also writes the scores,
    reads and writes them through the fused scale-mask-softmax and through dropout (with its mask) and reads them
    into AV: 11 bytes per score, a x s scores per token. FlashAttention keeps the scores on chip."""
    h = m.hidden
    replicated = 2 * 4 * h + 2 * 7 * h  # norms and residual/dropout: outside the tp regions
    sharded = (6 if m.gated else 4) * m.mlp_width
    if unfused_attention:
        sharded += 11 * m.heads * m.seq_len
    return float(sharded), float(replicated)


def activation_bytes_per_layer(
    m: Model, micro: int, seq: int, tp: int, sequence_parallel: bool, recompute: str, unfused_attention: bool
) -> float:
    """Activations one layer keeps for the backward pass, per micro-batch, on one accelerator (Korthikanti et al.
    2022, Table 2): seq is the tokens of the sequence this accelerator holds (s / cp)."""
    s, b, h, a = seq, micro, m.hidden, m.heads
    sbh = s * b * h
    if recompute == "full":
        return 2.0 * sbh / (tp if sequence_parallel else 1)  # the layer's input only
    scores = 5.0 * a * s * m.seq_len * b / tp if unfused_attention and recompute == "none" else 0.0
    width = m.mlp_width / (4.0 * h)  # Korthikanti's counts assume a 4h MLP
    per = sbh * (10 + 24 * width) / tp if sequence_parallel else sbh * 10 + sbh * 24 * width / tp
    return per + scores
