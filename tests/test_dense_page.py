"""A dense page costs about linear CPU time in its length, over every stage (issue 23, item 3): read, find,
classify, normalise, certainty, the checks (plausibility among them) and every output. It was quadratic or worse:
20,000 / 40,000 / 80,000 characters of figures took 1.9 / 4.5 / 15.8 s, and 300,000 hit the 120 s limit (the
plausibility check's technology lookup, classify's domain-count search, step 1's sum search over every pair for
every figure, step 2's port counts and the certainty of each figure all re-read the whole paragraph per figure).

CPU time, not the wall clock (tests/cpu_clock.py): a busy machine slows both sizes alike."""

import gc

import pytest

from cpu_clock import cpu_seconds
from sheetaudit import pipeline

# One paragraph (no full stop, so no sentence ends it): every figure shares one enormous segment, the worst case.
LINE = (
    "The fabric carries 400 Gb/s per port and 900 GB/s NVLink per GPU at 650 W in a domain of 72 GPUs, "
    "1.8 µs end-to-end RDMA latency and 130 ns port-to-port, 120 kW per rack, a total I/O of 3.6 TB/s, "
)
# Many sentences: the common dense page (a small font, a table flattened to prose).
SENTENCES = (
    "The Heron H9 node links 8 GPUs with NVLink 4 at 900 GB/s per GPU. Each GPU has one ConnectX-7 NIC at "
    "400 Gb/s InfiniBand NDR. The switch forwards at 130 ns port-to-port latency. Rack power is 120 kW per "
    "rack with direct liquid cooling. The scale-up domain holds 72 GPUs over NVLink Switch. "
)


def cpu_to_audit(tmp_path, text: str, chars: int) -> tuple[float, int]:
    """CPU seconds to audit a page of CHARS characters and write it in every format (best of three: a
    neighbour's burst on a shared core costs a single run a little CPU too)."""
    from sheetaudit.output.html_out import render as html
    from sheetaudit.output.json_out import dumps
    from sheetaudit.output.text_out import render as text_report

    page = tmp_path / f"dense-{chars}.txt"
    page.write_text((text * (chars // len(text) + 1))[:chars], encoding="utf-8")
    best, figures = float("inf"), 0
    gc.collect()
    gc.freeze()  # as the command line does after start-up (sheetaudit/entry.py): the collector's full
    try:  # passes rescan only what the audit builds, not pytest's and the rules' objects
        for _ in range(3):
            with cpu_seconds() as used:
                a = pipeline.run(page)
                dumps(a), html(a), text_report(a)
            best, figures = min(best, used()), len(a.figures)
    finally:
        gc.unfreeze()
    return best, figures


@pytest.mark.timing
@pytest.mark.parametrize("text", [LINE, SENTENCES], ids=["one-paragraph", "sentences"])
def test_eight_times_the_characters_cost_at_most_twelve_times_the_cpu(tmp_path, text):
    cpu_to_audit(tmp_path, text, 5_000)  # warm the rule, pattern and template caches
    small, n_small = cpu_to_audit(tmp_path, text, 20_000)
    large, n_large = cpu_to_audit(tmp_path, text, 160_000)
    assert n_large == pytest.approx(8 * n_small, rel=0.05)  # the same density of figures
    assert large <= 12 * max(small, 0.02), (small, large)
