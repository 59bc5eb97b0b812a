"""The shortcuts that make finding figures cheap on long documents change no result: a literal prefilter turns
a text away only when the patterns cannot match it, and the figure pattern's opening lookahead passes wherever a
figure starts. Checked on every line of the sheets we have and on spellings chosen to trip case folding."""

import re

import pytest

from conftest import ROOT, SAMPLES
from sheetaudit.stages.s1_find import BOUNDS, _FIGURE_OPENING, _opening, _patterns
from sheetaudit.rules import load_rules
from sheetaudit.technologies import prefilter, technology

TRICKY = [
    "infiniband",
    "INFINIBAND",
    "ınfınıband",
    "ſwitch",
    "ports",
    "PORT OF",
    "Liquid-Cooled",
    "LIQUID COOLED",
    "Cold Plate",
    "cold-plate",
    "ＮＶＬｉｎｋ",
    "NVL72",
    "nvlink",
    "NVLINK 5",
    "8卡集群",
    "千卡规模",
    "每台8颗 NPU",
    "2x 千兆网口",
    "4 x 万兆光口",
    "2 x 十萬兆光口",
    "1000BASE-T",
    "100GBASE-SR4",
    "xGMI",
    "Infinity  Fabric",
    "INFINITY FABRIC",
    "PCI Express 5.0",
    "10GE",
    "以太网",
    "Kelvin K",
    "air cooled",
    "AIR\u00a0COOLED",
    "1*GE RJ45管理网口",
    "2 x XGE SFP+",
    "",
]


def _lines():
    """Every line of the text, Markdown and HTML sheets of the samples and the labelled set, and TRICKY."""
    out = list(TRICKY)
    for folder in (SAMPLES, ROOT / "tests" / "labelled"):
        for p in sorted(folder.iterdir()):
            if p.suffix in (".txt", ".md", ".html"):
                out += p.read_text(encoding="utf-8").splitlines()
    return out


LINES = _lines()


def _rule_patterns():
    r = load_rules()
    *_, zh_count = _patterns()
    yield "technologies", [t["pattern"] for t in r.technologies["technologies"]], 0
    for e in r.units["named_rates"]:
        yield "named rate", [e["pattern"]], 0
    yield "cooling phrase", [r.vocab["cooling_phrase"]], re.I
    yield "InfiniBand context", [next(t["context"] for t in r.technologies["technologies"] if t.get("context"))], re.I
    yield "Chinese counts", [zh_count.pattern], 0


@pytest.mark.parametrize("name,patterns,flags", list(_rule_patterns()), ids=lambda x: x if isinstance(x, str) else "")
def test_prefilter_passes_every_text_a_pattern_matches(name, patterns, flags):
    could = prefilter(*patterns, flags=flags)
    compiled = [re.compile(p, flags) for p in patterns]
    matched = [t for t in LINES if any(c.search(t) for c in compiled)]
    assert matched, f"no line exercises the {name} patterns"
    assert [t for t in matched if not could(t)] == []


def test_prefilter_turns_away_the_sentences_of_a_service_manual():
    """What makes it worth having: the lines of a long manual name no technology and no cooling method."""
    r = load_rules()
    manual = ["The rail kit is reset by the 128 GB boot drive.", "Bezel Part", "178 x 173 x 50 mm", "6.8 kg"]
    assert not any(prefilter(*(t["pattern"] for t in r.technologies["technologies"]))(t) for t in manual)
    assert not any(prefilter(r.vocab["cooling_phrase"], flags=re.I)(t) for t in manual)
    assert prefilter(r.vocab["cooling_phrase"], flags=re.I)("Direct Liquid Cooling")
    assert technology("Riser card, 4x NVLink bridges") == "NVLink"


@pytest.mark.parametrize(
    "pattern,flags,passes,turned_away",
    [
        (r"NDR|HDR", 0, "an HDR port", "an hdr port"),
        (r"(?i:ndr)|XDR", 0, "an ndr port", "an xdr port"),
        (r"cold[- ]?plate", re.I, "COLD PLATE", "a cold room"),
        (r"ſ", re.I, "S", "t"),  # the long s folds to an ASCII s: found on ASCII text too
        (r"\u212a", re.I, "k", "x"),  # and the Kelvin sign to k
        (r"[颗张]\s*(?:NPU|卡)", 0, "8张 NPU", "8 GPU"),
        (r"\d+\s?(?:W|kW)", 0, "700 kW", "no wattage"),  # a letter every match holds: W
    ],
)
def test_prefilter_reads_literals_as_the_pattern_does(pattern, flags, passes, turned_away):
    could = prefilter(pattern, flags=flags)
    assert re.search(pattern, passes, flags) and could(passes)
    assert not re.search(pattern, turned_away, flags) and not could(turned_away)


@pytest.mark.parametrize("pattern", [r"\d+", r"a|\d", r"(?:ab)?c*", r"[^x]y?"])
def test_a_pattern_without_needed_literals_passes_everything(pattern):
    assert prefilter(pattern)("anything at all") is True


def test_figure_opening_changes_no_match():
    figure = _patterns()[1]
    plain = re.compile(figure.pattern.replace(_FIGURE_OPENING, "", 1), figure.flags)
    assert _FIGURE_OPENING and plain.pattern != figure.pattern
    bounded = [f"{w} 400 Gb/s" for p, _ in BOUNDS for w in re.sub(r"\\s\*|\\\.\?|\(\?:imum\)\?", " ", p).split("|")]
    texts = LINES + bounded + [t.upper() for t in bounded] + [t.title() for t in bounded]
    spans = [[(m.span(), m.groupdict()) for m in figure.finditer(t)] for t in texts]
    assert spans == [[(m.span(), m.groupdict()) for m in plain.finditer(t)] for t in texts]
    assert any(s and s[0][1]["bound"] for s in spans)


@pytest.mark.parametrize(
    "bounds", [[(r"a?bc", "x")], [(r"a*bc", "x")], [(r"(?:up|as) to", "x")], [(r"\w+", "x")], [(r"up||to", "x")]]
)
def test_figure_opening_is_left_out_for_bounds_it_cannot_read(bounds):
    assert _opening(bounds) == ""


def test_figure_opening_of_bounds_it_can_read():
    assert _opening([(r"ab?cd|up\s*to|≥", "x")]) == r"(?=\d|(?i:[a≥])|(?i:[u][p]))"
