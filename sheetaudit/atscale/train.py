"""The training what-if's hardware and knobs from the assumptions: the accelerator (peak compute, memory, the
achieved efficiencies for its generation and precision) and the overlaps of the schedule."""

from __future__ import annotations

from .assumptions import Assumptions
from .layout import search
from .step import Accelerator, Overlaps

__all__ = ["accelerator", "overlaps", "search", "efficiency_key"]


def efficiency_key(generation: str | None, precision: str, table: dict) -> str:
    """The matmul_efficiency entry for an accelerator generation and precision ('h100-bf16'), else the default
    for the precision ('default-bf16')."""
    key = f"{(generation or 'default').lower()}-{precision}"
    return key if key in table else f"default-{precision}"


def accelerator(hw: dict, a: Assumptions) -> Accelerator:
    """hw: peak_tflops (dense, at the precision), memory_gb, memory_gbs, generation, precision."""
    table = a.value("matmul_efficiency")
    key = efficiency_key(hw.get("generation"), hw.get("precision", "bf16"), table)
    return Accelerator(
        peak_tflops=float(hw["peak_tflops"]),
        memory_gb=hw.get("memory_gb"),
        memory_gbs=float(hw["memory_gbs"]),
        matmul_efficiency=float(table[key]),
        memory_efficiency=a.value("memory_efficiency"),
    )


def overlaps(a: Assumptions) -> Overlaps:
    return Overlaps(
        tp=a.value("tp_overlap"),
        ep=a.value("ep_overlap"),
        dp=a.value("dp_overlap"),
        pp_p2p=a.value("pp_p2p_overlap"),
        optimizer_bytes_per_param=a.value("optimizer_bytes_per_param"),
        dp_bucket_params=a.value("dp_bucket_params"),
        dp_bucket_params_per_rank=a.value("dp_bucket_params_per_rank"),
        memory_reserve_gb=a.value("memory_reserve_gb"),
    )
