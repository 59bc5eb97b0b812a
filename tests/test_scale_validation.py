"""The what-if against published nccl-tests measurements it was not fitted to.

The two default efficiencies are fitted to two facts only (8-GPU NVLink 4 ring all-reduce at ~0.82 of 450 GB/s;
a 400 Gb/s NIC at ~46.5 GB/s). Every other row is validation: line rates as a spec sheet prints them, the default
assumptions, the measured message size (all 256 MiB or more), and the published bus bandwidth. The model must come
within 25 % of each; the errors are printed (pytest -s) and stated in the README.
"""

import pytest

from sheetaudit.atscale.assumptions import assumptions
from sheetaudit.atscale.inputs import Inputs
from sheetaudit.atscale.collectives import estimate
from sheetaudit.atscale.whatif import fabric

GiB = 1 << 30
# name, scale-up GB/s per direction (line), domain size, scale-out GB/s per accelerator (line), accelerators,
# message bytes, algorithm (as measured), measured busbw GB/s, source
CASES = [
    (
        "8x H100 NVLink 4 (fitted, not validation)",
        450,
        8,
        50,
        8,
        8 * GiB,
        "auto",
        367.5,
        "NVIDIA/nccl-tests#212: ~370 GB/s effective NVLink with ring",
    ),
    (
        "8x A100 NVLink 3, one node",
        300,
        8,
        25,
        8,
        4 * GiB,
        "auto",
        232.54,
        "NVIDIA/nccl-tests#175: single node all_reduce_perf",
    ),
    (
        "2x HGX A100, 4x HDR 200 Gb/s per node",
        300,
        8,
        4 * 25 / 8,
        16,
        8 * GiB,
        "auto",
        91.0,
        "NVIDIA/nccl-tests#100: two nodes, 1-8 GB",
    ),
    (
        "2x A100, 4x 200 Gb/s per node (other site)",
        300,
        8,
        4 * 25 / 8,
        16,
        4 * GiB,
        "auto",
        86.0,
        "NVIDIA/nccl-tests#175: two nodes",
    ),
    (
        "GB200 NVL72, one 72-GPU domain",
        900,
        72,
        50,
        72,
        8 * GiB,
        "auto",
        834.57,
        "coreweave/nccl-tests#43: full NVL72 rack, 8 GiB",
    ),
    (
        "GB200, 3 domains of 4 over InfiniBand",
        900,
        4,
        50,
        12,
        16 * GiB,
        "ring",
        196.72,
        "NVIDIA/nccl#1801: NVL4 partitions, ring, 16 GiB",
    ),
    (
        "GB200, 3 domains of 8 over InfiniBand",
        900,
        8,
        50,
        24,
        16 * GiB,
        "ring",
        393.66,
        "NVIDIA/nccl#1801: NVL8 partitions, ring, 16 GiB",
    ),
]


def model_busbw(up, domain, out, n, size, algorithm):
    f = fabric(Inputs("published", scale_up_gbs=up, domain_size=domain, scale_out_gbs=out), assumptions())
    return estimate(f, "all-reduce", n, size, algorithm).busbw_gbs


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_within_25_percent_of_published_bus_bandwidth(case):
    name, up, domain, out, n, size, algorithm, measured, source = case
    assert size >= 256 * 2**20
    got = model_busbw(up, domain, out, n, size, algorithm)
    err = got / measured - 1
    print(f"{name}: model {got:.1f} GB/s, measured {measured:.1f} GB/s ({source}): {err:+.1%}")
    assert abs(err) < 0.25


def test_the_fitted_facts_are_reproduced():
    # 8-GPU NVLink 4: 365-370 GB/s ring busbw; the NIC term: 8 x 400 Gb/s per node over two nodes is NIC-bound
    # only when the NICs are slower than NVLink, which at 8 x 46.5 = 372 GB/s they are not.
    assert 365 <= model_busbw(450, 8, 50, 8, 8 * GiB, "ring") <= 370
    one_nic = model_busbw(450, 8, 50 / 8, 16, 8 * GiB, "ring")  # one 400 Gb/s NIC per 8 GPUs
    assert 46 <= one_nic <= 48
