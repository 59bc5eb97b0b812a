"""Questions worth sending: one question per figure and doubt (two checks doubting one figure ask once), none about
a figure that describes the market or another product, and every message one sentence with its list after it."""

import re
from pathlib import Path

import pytest

from conftest import ROOT, SAMPLES, finding
from sheetaudit.output.message import split_list

CORPUS = ROOT.parent / "shared" / "corpus"
_NAMED = re.compile(r"the (.+?) on page (\d+)")


def sent(a) -> list:
    """The questions the vendor is sent: a warning's or an error's, unless another's question asks it."""
    return [x for x in a.findings if x.severity in ("error", "warning") and x.question and not x.asked_in]


def named(question: str) -> set:
    """The figures a question names, as the vendor finds them ('14.4 TB/s' and '14.4TB/s' on one page alike)."""
    return {("".join(t.split()).lower(), p) for t, p in _NAMED.findall(question)}


def pdfs():
    real = sorted(CORPUS.glob("real-*.pdf")) if CORPUS.exists() else []
    return sorted(SAMPLES.glob("*.pdf")) + real


@pytest.mark.parametrize("path", pdfs(), ids=lambda p: p.name)
def test_no_figure_is_asked_about_twice(path):
    from sheetaudit import pipeline

    a = pipeline.run(path)
    seen: dict = {}
    for x in sent(a):
        for fig in named(x.question):
            assert fig not in seen, f"{fig} asked by {seen[fig]} and {x.check}"
            seen[fig] = x.check


def test_two_doubts_about_one_figure_make_one_question(sheet):
    """A server's 'I/O throughput' with no direction and no share per accelerator: one question asks both."""
    a = sheet(
        "# Pipit P8 GPU Server\n\nEight accelerators per server.\n\n| Specification | Pipit P8 |\n"
        "| --- | --- |\n| Accelerators | 8 |\n| Network | Up to 3.2 TB/s of I/O throughput |\n"
        "| Max power | 10 kW |\n"
    )
    questions = [x.question for x in sent(a) if "3.2 TB/s" in x.question]
    assert len(questions) == 1
    assert "per accelerator" in questions[0] and "per direction" in questions[0]


def test_a_doubt_already_asked_is_not_asked_again():
    """tier.aggregate-figure asks 'and per direction?': the direction check does not ask it of that figure again,
    and its finding points to the question that does."""
    from sheetaudit.stages.s8_checks.one_question import merge
    from sheetaudit.records import Figure, Finding

    f = Figure(id="f1", quantity="bandwidth", text="160 Gigabit", value=160.0, unit="Gb", page=1, context="")
    agg = Finding(
        "tier.aggregate-figure",
        1,
        "warning",
        "",
        figures=["f1"],
        question="Is the 160 Gigabit on page 1 the total for the whole server? What is it per accelerator, "
        "and per direction?",
    )
    dirn = Finding(
        "bandwidth.direction-unspecified",
        2,
        "warning",
        "",
        figures=["f1"],
        question="Is the 160 Gigabit on page 1 per direction, or both directions added?",
    )
    merge([dirn, agg], [f], None)
    assert agg.question.count("per direction") == 1 and not dirn.question
    assert dirn.asked_in == "tier.aggregate-figure"


MARKET = (
    "# Tern T4 Fabric Switch\n\n400G Ethernet lets data centers increase the radix of 100Gbps networks and "
    "support emerging 50/100/200Gbps server connectivity.\n\n| Specification | Tern T4 |\n| --- | --- |\n"
    "| Ports | 32 x 400GbE QSFP-DD |\n| Switching capacity | 12.8 Tbps |\n| Latency | 700 ns port to port |\n"
)


def test_figures_about_the_market_draw_no_question(sheet):
    a = sheet(MARKET)
    for text in ("100Gbps", "50/100/200Gbps"):
        f = next(f for f in a.figures if f.text == text)
        assert "comparison" in f.inferred  # read, and shown as not this product's
        assert not any(f"the {text} " in x.question for x in a.findings)


def test_the_arista_market_prose_draws_no_question():
    path = CORPUS / "real-arista-7050x4-datasheet.pdf"
    if not path.exists():
        pytest.skip("the shared corpus is not here")
    from sheetaudit import pipeline

    a = pipeline.run(path)
    asked = " ".join(x.question for x in sent(a))
    assert "100Gbps on page 1" not in asked and "50/100/200Gbps" not in asked
    assert "8.0 Tbps" not in asked  # '8.0 (16) Tbps': the bracketed double says the other is per direction


def test_the_no_rdma_message_is_a_sentence_then_its_list(sheet):
    a = sheet(MARKET)
    x = finding(a, "latency.no-rdma")
    parts = split_list(x.message)
    assert parts.lead.endswith("drops and retransmits under load. Its Ethernet figures:")
    assert parts.items == ["400G (p1)", "400GbE (p1)"]  # the product's ports, not the market's speeds


@pytest.mark.parametrize("path", [p for p in pdfs() if "arista" in p.name or "sn2700" in p.name], ids=lambda p: p.name)
def test_no_message_holds_a_long_list_in_parentheses(path):
    from sheetaudit import pipeline

    for x in pipeline.run(path).findings:
        for inside in re.findall(r"\(([^()]*(?:\([^()]*\)[^()]*)*)\)", x.message):
            assert inside.count("(p") <= 3, (x.check, inside)
    assert Path(path).exists()
