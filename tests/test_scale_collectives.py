"""The what-if's arithmetic, pinned with cases computed by hand: bus-bandwidth factors, ring step counts, the
domain edge, monotone curves and the latency-bound regime of small messages."""

import math

import pytest

from sheetaudit.atscale.collectives import (
    Fabric,
    Step,
    bus_factor,
    compute_seconds,
    counts,
    estimate,
    first_below,
    ring_steps,
    spread,
)

GiB = 1 << 30
# An 8-accelerator domain at 400 GB/s delivered, 40 GB/s delivered scale-out per accelerator, 1 µs and 4 µs steps.
F = Fabric(scale_up_gbs=400.0, domain_size=8, scale_out_gbs=40.0, up_step_s=1e-6, out_step_s=4e-6)


def test_bus_factors_follow_nccl_tests():
    assert bus_factor("all-reduce", 8) == pytest.approx(2 * 7 / 8)
    assert bus_factor("all-gather", 8) == bus_factor("reduce-scatter", 8) == bus_factor("all-to-all", 8) == 7 / 8
    assert bus_factor("all-reduce", 2) == 1.0


def test_ring_step_counts():
    assert ring_steps("all-reduce", 8) == 14  # reduce-scatter then all-gather: 2(n-1)
    assert ring_steps("all-gather", 8) == 7
    assert ring_steps("reduce-scatter", 64) == 63


def test_ring_inside_the_domain_by_hand():
    # 14 steps x 1 µs + 2*7/8 * 2^30 B / 400e9 B/s = 14e-6 + 4.697620...e-3
    e = estimate(F, "all-reduce", 8, GiB)
    assert e.seconds == pytest.approx(14e-6 + 1.75 * GiB / 400e9)
    assert e.algorithm == "ring" and e.domains == 1 and e.bottleneck == "scale-up"
    assert e.algbw_gbs == pytest.approx(GiB / e.seconds / 1e9)
    assert e.busbw_gbs == pytest.approx(e.algbw_gbs * 1.75)
    assert 395 < e.busbw_gbs < 400  # a large message's bus bandwidth tends to the link's


def test_all_gather_inside_the_domain_by_hand():
    e = estimate(F, "all-gather", 4, 4 * 10**8)
    assert e.seconds == pytest.approx(3e-6 + 0.75 * 4e8 / 400e9)


def test_ring_across_domains_is_paced_by_the_slower_tier():
    # 64 = 8 domains of 8; the network carries 2*63/64*S split over 8 NICs at 40 GB/s = 320 GB/s per domain,
    # slower than 400 GB/s scale-up: busbw tends to 320; 126 steps each wait for a network hop.
    e = estimate(F, "all-reduce", 64, GiB, "ring")
    v = 2 * 63 / 64 * GiB
    assert e.seconds == pytest.approx(126 * 4e-6 + v / (8 * 40e9))
    assert e.domains == 8 and e.bottleneck == "scale-out"
    assert e.busbw_gbs == pytest.approx(GiB / e.seconds / 1e9 * 126 / 64)


def test_tree_across_domains_by_hand():
    # Chain of 8 (2*7 steps at 1 µs) and tree of 8 domains (2*log2(8) = 6 steps at 4 µs); 2S over 8 NICs.
    e = estimate(F, "all-reduce", 64, GiB, "tree")
    assert e.seconds == pytest.approx(14e-6 + 6 * 4e-6 + 2 * GiB / (8 * 40e9))
    assert e.algorithm == "tree"


def test_auto_takes_the_faster_algorithm():
    big, small = estimate(F, "all-reduce", 4096, GiB), estimate(F, "all-reduce", 4096, 8)
    assert big.seconds == min(estimate(F, "all-reduce", 4096, GiB, a).seconds for a in ("ring", "tree"))
    assert small.algorithm == "tree"  # 8190 ring steps against 2*7 + 2*9
    assert estimate(F, "all-reduce", 16, 64 * GiB).algorithm == "ring"


def test_all_to_all_across_domains_by_hand():
    # Each accelerator sends 1/64 of its buffer to each peer: 7/64 over scale-up, 56/64 over its own NIC.
    e = estimate(F, "all-to-all", 64, GiB)
    assert e.seconds == pytest.approx(4e-6 + max(7 / 64 * GiB / 400e9, 56 / 64 * GiB / 40e9))
    assert e.bottleneck == "scale-out"


def test_the_domain_edge():
    assert spread(8, 8) == (1, 8) and spread(9, 8) == (2, 4) and spread(72, 72) == (1, 72)
    assert spread(512, 72) == (8, 64)  # spread evenly: 8 domains of 64
    inside, outside = estimate(F, "all-reduce", 8, GiB), estimate(F, "all-reduce", 16, GiB)
    assert inside.domains == 1 and outside.domains == 2
    assert outside.seconds > inside.seconds  # leaving the domain costs time
    assert 8 in counts(8, 1 << 12) and 72 in counts(72, 1 << 12) and 144 in counts(72, 1 << 12)


def test_curves_are_monotone_in_domain_multiples():
    for coll in ("all-reduce", "all-gather", "reduce-scatter", "all-to-all"):
        times = [estimate(F, coll, n, GiB).seconds for n in (2, 4, 8, 16, 32, 64, 512, 4096, 32768)]
        assert times == sorted(times), coll


def test_small_messages_are_latency_bound():
    e = estimate(F, "all-reduce", 8, 8)
    assert e.regime == "latency-bound"
    assert e.seconds == pytest.approx(14e-6, rel=1e-3)  # the step count times the step latency
    assert estimate(F, "all-reduce", 8, GiB).regime == "bandwidth-bound"
    # Bus bandwidth of a small message is far below the link: latency, not bandwidth, decides.
    assert estimate(F, "all-reduce", 8, 1024).busbw_gbs < 1


def test_training_step_by_hand():
    s = Step(compute_s=1.0, comm_s=0.25, overlap=0.0)
    assert s.seconds == 1.25 and s.comm_share == pytest.approx(0.2) and s.efficiency == pytest.approx(0.8)
    hidden = Step(compute_s=1.0, comm_s=0.25, overlap=0.5)
    assert hidden.efficiency == 1.0 and hidden.comm_share == 0.0
    part = Step(compute_s=1.0, comm_s=0.75, overlap=0.5)
    assert part.efficiency == pytest.approx(1 / 1.25)


def test_compute_seconds_from_tokens():
    # 6 x 7e9 x 8192 / (1000e12 x 0.4) = 0.86016 s
    assert compute_seconds(7e9, 8192, 1000, 0.4) == pytest.approx(0.86016)


def test_first_below():
    curve = [(1, 1.0), (8, 0.95), (16, 0.7), (64, 0.4)]
    assert first_below(curve, 0.9) == 16 and first_below(curve, 0.5) == 64 and first_below(curve, 0.3) is None


@pytest.mark.parametrize("bad", [dict(n=1), dict(collective="broadcast"), dict(size=0), dict(algorithm="mesh")])
def test_inputs_the_model_cannot_take(bad):
    args = dict(n=8, collective="all-reduce", size=GiB, algorithm="auto") | bad
    with pytest.raises(ValueError):
        estimate(F, args["collective"], args["n"], args["size"], args["algorithm"])


def test_no_scale_out_means_no_estimate_beyond_the_domain():
    f = Fabric(400.0, 8, None, 1e-6, 4e-6)
    assert math.isfinite(estimate(f, "all-reduce", 8, GiB).seconds)
    with pytest.raises(ValueError, match="scale-out"):
        estimate(f, "all-reduce", 16, GiB)
