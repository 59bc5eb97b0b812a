"""Issue 14, pathological pages: a page printed as one enormous paragraph full of figures must cost about linear
time in its length. Before the fix every figure rescanned its whole segment (find's overlap test and classify's
whole-sentence lookups), so doubling the text quadrupled the time; an 80,000-character paragraph took ~30 s."""

import time

import pytest

from sheetaudit.stages.s4_classify import classify
from sheetaudit.stages.s3_context import sheet_context
from sheetaudit.stages.s1_find import find_mentions
from sheetaudit.records import Document, Segment

LINE = "The fabric carries 400 Gb/s per port and 900 GB/s NVLink per GPU at 650 W, "


def cpu_seconds_to_classify(chars: int) -> tuple[float, int]:
    text = (LINE * (chars // len(LINE) + 1))[:chars]
    doc = Document(path="one-paragraph", sha256="", pages=1, kind="text", segments=[Segment(text, 1, "sentence")])
    start = time.process_time()
    figures = classify(find_mentions(doc), sheet_context(doc, find_mentions(doc)))
    return time.process_time() - start, len(figures)


@pytest.mark.timing
def test_one_huge_paragraph_costs_about_linear_time():
    cpu_seconds_to_classify(5_000)  # warm the rule and pattern caches
    small, n_small = cpu_seconds_to_classify(20_000)
    large, n_large = cpu_seconds_to_classify(160_000)
    assert n_large == pytest.approx(8 * n_small, rel=0.05)
    # 8x the text: linear costs ~8x, the old quadratic cost ~64x; a busy machine is allowed a wide margin
    assert large < 24 * max(small, 0.01), (small, large)


def cpu_seconds_to_audit_a_digit_run(digits: int) -> float:
    """A sheet that is one long run of digits before a unit (tests/hostile's digit-run.txt is 100,000 of them)."""
    text = "1" * digits + " Gb/s"
    doc = Document(path="digits", sha256="", pages=1, kind="text", segments=[Segment(text, 1, "sentence")])
    start = time.process_time()
    classify(find_mentions(doc), sheet_context(doc, find_mentions(doc)))
    return time.process_time() - start


@pytest.mark.timing
def test_a_long_run_of_digits_costs_about_linear_time():
    """Every vocabulary pattern that starts with a number says where the number starts ((?<!\\d)\\d+), so a run of
    digits is not tried again from each of its digits (100,000 digits took two minutes; now a fraction of a second)."""
    cpu_seconds_to_audit_a_digit_run(2_000)
    small = cpu_seconds_to_audit_a_digit_run(5_000)
    large = cpu_seconds_to_audit_a_digit_run(40_000)
    assert large < 24 * max(small, 0.01), (small, large)


def cpu_seconds_to_find(line: str, copies: int = 40) -> float:
    doc = Document(
        path="lines", sha256="", pages=1, kind="text", segments=[Segment(line, 1, "sentence") for _ in range(copies)]
    )
    start = time.process_time()
    find_mentions(doc)
    return time.process_time() - start


@pytest.mark.timing
def test_a_table_of_part_numbers_costs_what_prose_of_its_length_costs():
    """An optics inventory ("REV 01  740-150875  1F1CSNA80900J  QSFP-DD800-800G-AOC-15M"): the count-of-accelerators
    pattern once cut each long part number into words in every possible way, about a second per line."""
    parts = "REV 01   740-150875   1F1CSNA80900J       QSFP-DD800-800G-AOC-15M"
    prose = ("The system has 64 ports of 800 Gb/s and draws 2.2 kW at full load in its rack. ")[: len(parts)]
    cpu_seconds_to_find(prose)  # warm the rule and pattern caches
    assert cpu_seconds_to_find(parts) < 20 * max(cpu_seconds_to_find(prose), 0.01)
