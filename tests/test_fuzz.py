"""Property-based tests (hypothesis) of the quantity finder and the normaliser on untrusted text.

- find, classify, normalise and the checks never raise on any string;
- every normalised value is finite and non-negative;
- every unit spelling of rules/units.yaml round-trips: printed after a number, it is found as a figure of its
  quantity whose value and unit convert to the same normalised amount;
- the text readers never raise anything but UnreadableInput on any bytes.

The mutation run over whole PDFs is benchmarks/mutate.py (a small version is tests/test_fuzz_mutate.py).
"""

from __future__ import annotations

import math
import os

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sheetaudit.stages.s6_certainty import assess
from sheetaudit.stages.s8_checks import run_checks
from sheetaudit.stages.s4_classify import classify
from sheetaudit.stages.s3_context import sheet_context
from sheetaudit.stages.s1_find import STANDARD_G, find_mentions
from sheetaudit.records import Document, Segment
from sheetaudit.stages.s5_normalise import normalise
from sheetaudit.rules import load_rules
from sheetaudit.units import canonical_rates, convert

RULES = load_rules()
# Every listed spelling, and every canonical rate the grammar produces (rules/units.yaml rate_grammar).
SPELLINGS = [(q, s) for q in ("bandwidth", "latency", "power") for s in RULES.units[q]] + [
    ("bandwidth", s) for s in canonical_rates()
]
# A bare "400G" is a rate only at a port or lane speed (find.STANDARD_G); any other number before it is a size.
PORT_SPEEDS = sorted(STANDARD_G)
EXAMPLES = int(os.environ.get("SHEETAUDIT_FUZZ_EXAMPLES", "150"))  # raise it for a long local run
FAST = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

# Pieces of spec-sheet text, so that the fuzzer reaches the finder's interesting paths quickly.
WORDS = [
    "NVLink",
    "NVLink 4",
    "NVSwitch",
    "InfiniBand",
    "NDR",
    "XDR",
    "RoCE",
    "Ethernet",
    "PCIe Gen5",
    "x16",
    "per GPU",
    "per port",
    "per direction",
    "bidirectional",
    "aggregate",
    "total",
    "up to",
    "~",
    "<",
    ">",
    "approx.",
    "max",
    "typical",
    "latency",
    "port-to-port",
    "end-to-end",
    "NCCL",
    "power",
    "rack",
    "node",
    "air-cooled",
    "liquid-cooled",
    "GPUs",
    "accelerators",
    "8x",
    "x",
    "×",
    "/",
    ",",
    ".",
    ":",
    "-",
    "(",
    ")",
    "*",
    "¹",
    "†",
    "双向",
    "单向",
    "每卡",
    "卡",
    "功耗",
    "液冷",
    "风冷",
    "微秒",
    "纳秒",
    "\n",
    "\t",
    " ",
    "  ",
]
NUMBERS = st.one_of(
    st.integers(min_value=0, max_value=10**12).map(str),
    st.floats(min_value=0, max_value=1e9, allow_nan=False, allow_infinity=False).map(lambda f: f"{f:g}"),
    st.integers(min_value=1, max_value=999).map(lambda n: f"{n},{n:03d},{n:03d}"),
    st.sampled_from(["0", "00", "0.0", ".5", "1e9", "1e999", "9" * 40, "1,00", "1.2.3", "-5", "1/2/3"]),
)
TOKENS = st.one_of(NUMBERS, st.sampled_from(WORDS), st.sampled_from([s for _, s in SPELLINGS]), st.text(max_size=6))
SHEETISH = st.lists(TOKENS, max_size=40).map(lambda parts: " ".join(parts))
ANY_TEXT = st.one_of(st.text(max_size=300), SHEETISH)


def doc_of(texts: list[tuple[str, str]]) -> Document:
    segs = [
        Segment(text=t, page=1, kind="cell" if label else "sentence", label=label, block=i)
        for i, (label, t) in enumerate(texts)
    ]
    return Document(path="fuzz.txt", sha256="0" * 64, pages=1, kind="text", segments=segs)


def audit_text(doc: Document):
    mentions = find_mentions(doc)
    sheet = sheet_context(doc, mentions)
    figures = assess(normalise(classify(mentions, sheet)), sheet)
    findings, _ = run_checks(figures, sheet, doc, None)
    return mentions, figures, findings


def assert_sane(figures):
    for f in figures:
        n = f.normalized
        if n is None or not isinstance(n.get("value"), (int, float)):
            continue
        v = n["value"]
        assert math.isfinite(v) and v >= 0, (f.text, f.value, f.unit, n)
        assert isinstance(f.value, str) or math.isfinite(float(f.value)), f.text


@FAST
@given(
    st.lists(
        st.tuples(st.one_of(st.just(""), st.text(max_size=20), st.sampled_from(WORDS)), ANY_TEXT),
        min_size=1,
        max_size=6,
    )
)
def test_audit_of_any_text_never_raises_and_values_are_finite(texts):
    mentions, figures, findings = audit_text(doc_of(texts))
    assert_sane(figures)
    for m in mentions:
        assert 0 <= m.start <= m.end <= len(m.segment.text)


@FAST
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=500))
def test_finder_never_raises_on_any_unicode(text):
    find_mentions(doc_of([("", text)]))


@FAST
@given(st.sampled_from(SPELLINGS), st.floats(min_value=0, max_value=1e300, allow_nan=False))
def test_conversion_is_finite_and_non_negative(spelling, value):
    quantity, unit = spelling
    v = convert(quantity, value, unit)
    assert math.isfinite(v) and v >= 0


DECIMALS = st.one_of(
    st.integers(min_value=1, max_value=99999).map(str),
    st.tuples(st.integers(min_value=0, max_value=9999), st.integers(min_value=1, max_value=99)).map(
        lambda t: f"{t[0]}.{t[1]}"
    ),
).filter(lambda v: not v.startswith("802."))  # "802.3 GbE" names the IEEE standard, not a rate (rules/vocabulary)
CONTEXTS = ["{v} {s}", "{v}{s}", "Port speed: {v} {s} InfiniBand", "Switch capacity: {v}{s} switch"]


@settings(max_examples=2 * EXAMPLES, deadline=None)
@given(st.sampled_from(SPELLINGS), DECIMALS)
def test_unit_spellings_round_trip(spelling, number):
    """Every spelling in rules/units.yaml, printed after a number, is found with a value and unit that convert to
    the same amount as the spelling itself."""
    quantity, unit = spelling
    if unit == "G":
        number = str(PORT_SPEEDS[len(number) % len(PORT_SPEEDS)])
    expected = convert(quantity, float(number), unit)
    for ctx in CONTEXTS:
        ms = [m for m in find_mentions(doc_of([("", ctx.format(v=number, s=unit))])) if m.quantity == quantity]
        if ms:
            break
    assert ms, f"{number} {unit} not found as {quantity}"
    got = convert(quantity, ms[0].value, ms[0].unit)
    assert math.isclose(got, expected, rel_tol=1e-9, abs_tol=1e-12), (number, unit, ms[0].value, ms[0].unit)


@pytest.mark.parametrize("quantity,unit", SPELLINGS)
def test_every_spelling_is_found(quantity, unit):
    v = "25" if unit == "G" else "12.5"
    for ctx in CONTEXTS:
        if any(m.quantity == quantity for m in find_mentions(doc_of([("", ctx.format(v=v, s=unit))]))):
            return
    pytest.fail(f"12.5 {unit} is not found as {quantity}")


@FAST
@given(st.binary(max_size=2000), st.sampled_from([".txt", ".md", ".html", ".pdf", ".htm", ""]))
def test_readers_raise_only_unreadable_input(tmp_path_factory, data, suffix):
    from sheetaudit.errors import UnreadableInput
    from sheetaudit.read import read_document

    path = tmp_path_factory.mktemp("fuzz") / f"sheet{suffix}"
    path.write_bytes(data)
    try:
        doc = read_document(path)
    except UnreadableInput:
        return
    assume(doc is not None)
    assert_sane(audit_text(doc)[1])
