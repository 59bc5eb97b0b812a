"""Whether a PDF page may give a figure: the question read.pdf asks, from the page's plain text, before it lays
out a page of a long document (the layout costs about ten times the plain text).

The finder answers it: its own functions run over the page's text, so a kind of figure taught to the finder is
seen here without a second list to keep in step. Running them over a whole page of prose costs about as much as
the layout saved (the count pattern tries every digit), so they run only around what each kind of figure must
contain, found by cheap scans built from the same rules:
- a number followed by a unit of the rules, a rate name (HDR200, 1000BASE-T, 千兆网口) or an InfiniBand
  generation: the numeric finder runs on the text around it;
- an accelerator noun of the vocabulary, "-way", a product name in the plural ("16 B200s"), an accelerator's model
  name ("8 × H100"), a Chinese count classifier: the count finder runs on the text before it;
- cooling runs on the whole text (it is cheap), and a line that may be a table header with a unit ("Bandwidth
  (GB/s)") is tried as the finder tries a header over a bare number.
A page that defines footnotes needs its layout too: a figure elsewhere may point to one.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .s1_find import (
    FIGURE_END,
    HEADER_UNIT,
    MARKERS,
    _cooling,
    _domain,
    _header_unit,
    _numeric,
    _patterns,
    unit_alternation,
)
from .. import regex_cache
from ..records import Segment
from ..read.layout import FOOTNOTE_MARKERS
from ..rules import compiled, load_rules
from ..technologies import load as knowledge

FIGURE_REACH = (120, 60)  # characters before and after a number and its unit that a figure there can span
COUNT_REACH = 200  # characters before an accelerator noun that its count and product name can span


@lru_cache(maxsize=1)
def _scans() -> tuple[re.Pattern, re.Pattern]:
    r = load_rules()
    names = [e["pattern"] for e in r.units.get("named_rates", [])]
    # a number, its unit, and the end the figure pattern requires after them
    unit = rf"\d\s?(?:{unit_alternation()})[{MARKERS}]?{FIGURE_END}"
    kb = knowledge()
    alone = [kb.named_alone().named_alone] if kb.named_alone() else []
    numeric = compiled("|".join([unit, *names, kb.rate_names(), *alone]))
    # nouns are plain words: matched in lower-cased text without IGNORECASE, which scans several times slower
    nouns = r.vocab["accelerator_nouns"].lower()
    counts = compiled(rf"(?:{nouns})|-way\b|[颗张块枚]")
    return numeric, counts


_PLURAL = regex_cache.compile(r"\d[A-Z]*s\b")  # "16 B200s": the count pattern's product name in the plural


@lru_cache(maxsize=1)
def _models() -> re.Pattern:
    """Accelerators named by their model alone ("8 × H100 SXM5"): the count pattern's model names, case as printed."""
    return compiled(load_rules().vocab["accelerator_models"])


def may_hold_figures(page_text: str) -> bool:
    """True unless the finder finds nothing in the page's text (its lines as pdfium gives them)."""
    lines = page_text.splitlines()
    if any(ln.lstrip()[:1] in FOOTNOTE_MARKERS for ln in lines if ln.strip()):
        return True
    unit_q = _patterns()[0]
    for ln in lines:
        if HEADER_UNIT.search(ln) and _header_unit(Segment(text="1", page=0, kind="cell", label=ln.strip()), unit_q):
            return True
    text = " ".join(page_text.split())
    if _cooling(Segment(text=text, page=0, kind="sentence")):
        return True
    numeric, counts = _scans()
    low = text.lower()
    if len(low) != len(text):  # a letter whose lower case is longer ("İ"): keep positions aligned
        low = "".join(ch.lower() if len(ch.lower()) == 1 else ch for ch in text)
    before, after = FIGURE_REACH
    for found, finder, back, ahead in (
        (numeric.finditer(text), _numeric, before, after),
        (counts.finditer(low), _counts, COUNT_REACH, 10),
        (_PLURAL.finditer(text), _counts, COUNT_REACH, 10),
        (_models().finditer(text), _counts, 60, 10),
    ):
        if any(finder(_window(text, m.start() - back, m.end() + ahead)) for m in found):
            return True
    return False


def _counts(seg: Segment):
    return _domain(seg, None)


def _window(text: str, a: int, b: int) -> Segment:
    """The text from a to b, widened to whole words (what the patterns look behind and ahead for stays as in
    the whole text)."""
    a = text.rfind(" ", 0, max(0, a)) + 1
    b = text.find(" ", b)
    return Segment(text=text[a : b if b >= 0 else len(text)], page=0, kind="sentence")
