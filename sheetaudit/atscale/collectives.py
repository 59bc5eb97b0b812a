"""An alpha-beta model of collective communication over a two-tier fabric: time = steps x step latency + bytes
moved / delivered bandwidth, for one accelerator (every accelerator does the same work).

Inside one scale-up domain (n <= domain size) the collective is a ring over the scale-up links. Across domains
(n > domain size, spread evenly over ceil(n / domain) domains) it is either
- a ring that runs through each domain and crosses the network once per domain per channel (NCCL's ring): every
  accelerator moves the ring's bytes over scale-up while each domain's share of the crossings is split over its
  accelerators' NICs; the two tiers work as one pipeline, so the slower sets the pace and every step waits for a
  network hop; or
- a tree (all-reduce only): a chain inside each domain and a double binary tree across domains (NCCL's tree):
  2 log2(domains) network steps instead of 2 (n - 1), at about the same bandwidth.

Algorithm and bus bandwidth follow nccl-tests (doc/PERFORMANCE.md): algbw = bytes / time; busbw = algbw x
2(n-1)/n for all-reduce and x (n-1)/n for all-gather, reduce-scatter and all-to-all, so busbw of a ring tends to the
bandwidth of the slowest link, which a user can hold against their own nccl-tests runs. As in nccl-tests, the
message size of all-gather and reduce-scatter is the whole gathered buffer, and of all-to-all one accelerator's
send buffer.

Pure arithmetic on plain numbers; no I/O, no rules: the caller passes delivered bandwidths (line rate x
efficiency) and step latencies.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

COLLECTIVES = ("all-reduce", "all-gather", "reduce-scatter", "all-to-all")
ALGORITHMS = ("auto", "ring", "tree")


@dataclass(frozen=True)
class Fabric:
    """One accelerator's view of the system, delivered rates (after efficiency), GB/s per direction."""

    scale_up_gbs: float
    domain_size: int
    scale_out_gbs: float | None  # per accelerator; None: unknown, so only counts inside a domain can be modelled
    up_step_s: float  # one step inside the domain (hop latency + library overhead)
    out_step_s: float  # one step that crosses the network


@dataclass(frozen=True)
class Estimate:
    accelerators: int
    collective: str
    message_bytes: int
    seconds: float
    algorithm: str  # ring | tree | direct (all-to-all)
    domains: int
    per_domain: int  # accelerators of the job in the smallest domain it uses
    latency_s: float  # the steps x step latency part of seconds
    bottleneck: str  # scale-up | scale-out: the tier that sets the bandwidth term

    @property
    def algbw_gbs(self) -> float:
        return self.message_bytes / self.seconds / 1e9 if self.seconds else 0.0

    @property
    def busbw_gbs(self) -> float:
        return self.algbw_gbs * bus_factor(self.collective, self.accelerators)

    @property
    def regime(self) -> str:
        """latency-bound when the step latencies are most of the time (small messages, many steps)."""
        return "latency-bound" if self.latency_s > self.seconds / 2 else "bandwidth-bound"


def bus_factor(collective: str, n: int) -> float:
    """nccl-tests' factor from algorithm to bus bandwidth."""
    if collective not in COLLECTIVES:
        raise ValueError(f"unknown collective {collective!r}")
    return (2 * (n - 1) / n) if collective == "all-reduce" else (n - 1) / n


def ring_steps(collective: str, n: int) -> int:
    """Steps of a ring over n accelerators: reduce-scatter then all-gather for all-reduce, one pass otherwise."""
    return 2 * (n - 1) if collective == "all-reduce" else n - 1


def spread(n: int, domain_size: int) -> tuple[int, int]:
    """(domains, accelerators in the smallest of them) when n accelerators are spread evenly over full domains."""
    m = math.ceil(n / domain_size)
    return m, n // m


def estimate(fabric: Fabric, collective: str, n: int, message_bytes: int, algorithm: str = "auto") -> Estimate:
    """Time of one collective over n accelerators. Raises ValueError for inputs the model cannot take."""
    if n < 2:
        raise ValueError("a collective needs at least 2 accelerators")
    if collective not in COLLECTIVES:
        raise ValueError(f"unknown collective {collective!r}")
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}")
    if message_bytes <= 0:
        raise ValueError("the message must be at least one byte")
    f = fabric
    S = float(message_bytes)
    up = f.scale_up_gbs * 1e9
    m, d = spread(n, f.domain_size)
    if m == 1:
        if collective == "all-to-all":
            lat = f.up_step_s
            return _est(n, collective, message_bytes, lat + (n - 1) / n * S / up, "direct", 1, n, lat, "scale-up")
        lat = ring_steps(collective, n) * f.up_step_s
        t = lat + bus_factor(collective, n) * S / up
        return _est(n, collective, message_bytes, t, "ring", 1, n, lat, "scale-up")
    if f.scale_out_gbs is None:
        raise ValueError("the scale-out bandwidth is unknown: only counts inside one domain can be modelled")
    out = f.scale_out_gbs * 1e9
    if collective == "all-to-all":
        # Each accelerator sends 1/n of its buffer to every peer: (d-1) peers over scale-up, (n-d) over its own NIC.
        t_up, t_out = (d - 1) / n * S / up, (n - d) / n * S / out
        lat = f.out_step_s
        return _est(
            n,
            collective,
            message_bytes,
            lat + max(t_up, t_out),
            "direct",
            m,
            d,
            lat,
            "scale-out" if t_out >= t_up else "scale-up",
        )
    candidates = []
    if algorithm in ("auto", "ring") or collective != "all-reduce":
        v = bus_factor(collective, n) * S
        t_up, t_out = v / up, v / (d * out)
        lat = ring_steps(collective, n) * f.out_step_s
        candidates.append(
            _est(
                n,
                collective,
                message_bytes,
                lat + max(t_up, t_out),
                "ring",
                m,
                d,
                lat,
                "scale-out" if t_out >= t_up else "scale-up",
            )
        )
    if collective == "all-reduce" and algorithm in ("auto", "tree"):
        # Reduce up a chain of d and a tree of m, broadcast back down: each accelerator moves the message twice over
        # scale-up; each domain sends and receives it twice over the network, split over its d NICs.
        t_up, t_out = 2 * S / up, 2 * S / (d * out)
        lat = 2 * (d - 1) * f.up_step_s + 2 * math.ceil(math.log2(m)) * f.out_step_s
        candidates.append(
            _est(
                n,
                collective,
                message_bytes,
                lat + max(t_up, t_out),
                "tree",
                m,
                d,
                lat,
                "scale-out" if t_out >= t_up else "scale-up",
            )
        )
    return min(candidates, key=lambda e: e.seconds)


def _est(n, collective, size, seconds, algorithm, m, d, lat, bottleneck) -> Estimate:
    return Estimate(n, collective, int(size), seconds, algorithm, m, d, lat, bottleneck)


@dataclass(frozen=True)
class Step:
    """One data-parallel training step: compute, then the gradient all-reduce, part of it hidden behind compute."""

    compute_s: float
    comm_s: float
    overlap: float  # fraction of compute time the all-reduce can run under

    @property
    def exposed_s(self) -> float:
        return max(0.0, self.comm_s - self.overlap * self.compute_s)

    @property
    def seconds(self) -> float:
        return self.compute_s + self.exposed_s

    @property
    def comm_share(self) -> float:
        """Share of the step spent waiting for communication."""
        return self.exposed_s / self.seconds

    @property
    def efficiency(self) -> float:
        """Throughput per accelerator against the same accelerator without communication (perfect scaling = 1)."""
        return self.compute_s / self.seconds


def compute_seconds(params: float, tokens: float, tflops: float, mfu: float) -> float:
    """Forward and backward pass of a dense transformer: 6 x parameters x tokens FLOPs at mfu of peak."""
    return 6.0 * params * tokens / (tflops * 1e12 * mfu)


def counts(domain_size: int, upto: int) -> list[int]:
    """Accelerator counts a curve is drawn on: powers of two, the domain edge and its multiples by powers of two."""
    out = {1 << k for k in range(1, upto.bit_length() + 1) if 1 << k <= upto}
    out |= {domain_size << k for k in range(0, upto.bit_length() + 1) if domain_size << k <= upto}
    return sorted(c for c in out if c >= 2)


def first_below(curve: list[tuple[int, float]], mark: float) -> int | None:
    """The first count of a (count, efficiency) curve whose efficiency is under mark."""
    return next((n for n, e in curve if e < mark), None)
