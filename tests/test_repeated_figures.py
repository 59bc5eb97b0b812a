"""Time and memory grow linearly in the number of figures, however they are packed: one line of a label and n
bare figures ("NIC: 400 Gb/s 400 Gb/s ..."), where every figure joined its neighbours into one clause and each
check re-read the whole line for each figure (22 KB took 28 s and 100 MB, 45 KB 111 s and 286 MB), and a switch
document of n sentences, each a total and its ports, where every total re-read every port.

CPU time, not the wall clock (tests/cpu_clock.py), with a generous bound: 8 times the figures may cost at most 12
times the CPU and the memory."""

import gc
import tracemalloc

import pytest

from cpu_clock import cpu_seconds
from sheetaudit.output.json_out import dumps
from sheetaudit import pipeline

ONE_LINE = ("NIC: {}", "400 Gb/s ")
SWITCH = ("Ethernet switch\n{}", "Switching capacity 51.2 Tb/s. 64x 800GbE ports. Latency 600 ns. Power 2.2 kW.\n")


def cost(tmp_path, shape, n: int) -> tuple[float, int, int]:
    """CPU seconds (best of two), peak traced memory and figures of auditing n repetitions and writing the JSON."""
    frame, item = shape
    sheet = tmp_path / f"repeated-{n}.txt"
    sheet.write_text(frame.format(item * n) + "\n", encoding="utf-8")
    best, figures = float("inf"), 0
    gc.collect()
    gc.freeze()  # as the command line does after start-up (sheetaudit/entry.py)
    try:
        for _ in range(2):
            with cpu_seconds() as used:
                a = pipeline.run(sheet)
                dumps(a)
            best, figures = min(best, used()), len(a.figures)
        tracemalloc.start()
        try:
            dumps(pipeline.run(sheet))
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    finally:
        gc.unfreeze()
    return best, peak, figures


@pytest.mark.timing
@pytest.mark.parametrize("shape, n", [(ONE_LINE, 150), (SWITCH, 30)], ids=["one-line", "switch-sentences"])
def test_eight_times_the_figures_cost_at_most_twelve_times(tmp_path, shape, n):
    cost(tmp_path, shape, n // 2)  # warm the rule, pattern and template caches
    small, small_mb, n_small = cost(tmp_path, shape, n)
    large, large_mb, n_large = cost(tmp_path, shape, 8 * n)
    assert n_large == pytest.approx(8 * n_small, rel=0.05)
    assert large <= 12 * max(small, 0.02), (small, large)
    assert large_mb <= 12 * small_mb, (small_mb, large_mb)
