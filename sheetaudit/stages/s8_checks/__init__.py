"""The four-step check (plus checks on the sheet itself). Each step is one module; each check is declared
in rules/checks.yaml, which supplies its severity, why it matters and how to fix it."""

from __future__ import annotations

import re
from contextvars import ContextVar

from ...records import Derived, Figure, Finding
from ...errors import RulesError
from ...rules import check_words as words, load_rules
from ...severity import rank
from .wording import compose, render, word

PAGED: ContextVar[bool] = ContextVar("paged", default=True)  # a PDF's page numbers mean something to the vendor


def finding(
    code: str,
    figures: list[Figure] = (),
    derived: list[Derived] = (),
    models: list[str] = (),
    asked: dict | None = None,
    doubt: str = "",
    buyer: str = "",
    data: dict | None = None,
    case: str = "",
    message: str = "",
    parts: dict | None = None,
) -> Finding:
    """A finding of CODE: rules/checks.yaml gives its severity, why, fix and words; the check passes values only.
    Its message is the check's `message` (MESSAGE names one of several; PARTS chooses its optional clauses:
    checks.wording.compose) rendered over DATA, the values it speaks of; the check's `each` words one of
    data["items"]. asked: the values of the check's `worked_question`, what to ask the vendor worked out from the
    check's own arithmetic (without it, checks/ask.py words the check's `question`); doubt: the check's own reason
    its conclusion is not certain (an error becomes a warning: stages/s6_certainty.py).
    case: one of the check's `cases` (what the sheet says decides the severity and may word the message; kept in
    data["case"])."""
    c = load_rules().check(code)
    data = dict(data or {})
    if case:
        try:
            c = {**c, **c["cases"][case]}
        except KeyError:
            raise RulesError(f"rules/checks.yaml: {code}: cases: {case} is missing") from None
        data["case"] = case
    return word(
        Finding(
            check=code,
            step=c["step"],
            severity=c["severity"],
            message="",
            why=c["why"],
            fix=c["fix"],
            figures=[f.id for f in figures],
            pages=sorted({f.page for f in figures}),
            derived=list(derived),
            models=list(models),
            title=c["title"],
            question=render(c["worked_question"], asked) if asked is not None else "",
            doubt=doubt,
            buyer=buyer,
            data=data,
            template=compose(code, c, message, parts, models),
            each=c.get("each", ""),
        )
    )


def shown(f: Figure, **more) -> dict:
    """The values a message says of one figure: as printed, its page and its model, with MORE."""
    d = {"figure": f.text, "pages": [f.page]}
    if f.model:
        d["model"] = f.model
    return {**d, **more}


def ask_where(f: Figure) -> str:
    """'the 900 GB/s on page 5' in a PDF; 'the 900 GB/s ("NVLink: 900 GB/s per GPU")' in a text sheet, whose
    'page 1' would tell the vendor nothing."""
    text = words("bound").sub("", f.text).strip() or f.text
    if PAGED.get():
        return f"the {text} on page {f.page}"
    seg = f.segment
    quote = (f"{seg.label}: {seg.text}" if seg and seg.label else (seg.text if seg else f.context)).strip()
    if len(quote) > 70:
        i = max(0, quote.find(f.text) - 30)
        quote = ("..." if i else "") + quote[i : i + 70].strip() + "..."
    return f'the {text} ("{quote}")'


def same_words(f: Finding, leave_out: tuple = ()) -> str:
    """What a finding says, as a key: its wording and its data (LEAVE_OUT keys dropped at every level)."""
    import json

    def strip(v):
        if isinstance(v, dict):
            return {k: strip(x) for k, x in v.items() if k not in leave_out}
        if isinstance(v, list):
            return [strip(x) for x in v]
        return v

    return json.dumps([f.template, f.each, strip(f.data)], sort_keys=True, default=str)


def merge_models(findings: list[Finding]) -> list[Finding]:
    """Identical findings for several models of one sheet become one finding that lists the models."""
    out: list[Finding] = []
    index: dict[tuple, Finding] = {}
    for f in findings:
        if not f.models:
            out.append(f)
            continue
        key = (f.check, same_words(f, ("model",)))
        first = index.get(key)
        if first is None:
            index[key] = f
            out.append(f)
            continue
        first.models = first.models + [m for m in f.models if m not in first.models]
        first.figures += [x for x in f.figures if x not in first.figures]
        first.pages = sorted(set(first.pages) | set(f.pages))
        first.derived += f.derived
        if f.doubt and f.doubt not in first.doubt:
            first.doubt = "; ".join(x for x in (first.doubt, f.doubt) if x)
        word(first)
    return out


def run_checks(figs: list[Figure], sheet, doc, facility: dict | None = None) -> tuple[list[Finding], list[str]]:
    """The findings on FIGS, whose certainty the stage before (s6_certainty.assess) has set, and the codes passed."""
    from . import ask, compute, headline, one_question, plausibility, sheet_checks, step1_tier, step2_bandwidth
    from . import step3_latency, step4_power
    from ..s6_certainty import derived_certainty, temper
    from .present import fit_to_sheet, merge_repeats

    token = PAGED.set(getattr(doc, "kind", "pdf") == "pdf")
    try:
        findings: list[Finding] = []
        for module in (
            sheet_checks,
            step1_tier,
            step2_bandwidth,
            headline,
            compute,
            step3_latency,
            step4_power,
            plausibility,
        ):
            findings.extend(module.run(figs, sheet, doc, facility))
        findings = fit_to_sheet(merge_repeats(merge_models(findings), figs), sheet.kind)
        ask.word(findings, figs, sheet, doc)
        temper(findings, figs)
        derived_certainty(findings, figs)
        one_question.merge(findings, figs, sheet)  # severities are final: one question per figure and doubt
    finally:
        PAGED.reset(token)
    findings.sort(key=lambda f: (f.step if isinstance(f.step, int) else 0, rank(f.severity)))
    raised = {f.check for f in findings}
    passed = [code for code in load_rules().checks if code not in raised]
    return findings, passed


def own(figs):
    """The figures that are this product's: not another product's quoted for comparison, nor the market's ("the
    radix of 100Gbps networks"). Those are read and reported, but no question about their reading is sent."""
    return [f for f in figs if "comparison" not in f.flags]


_SENTENCE_END = re.compile(r"[。；;!?！？\n]|\.\s")


def sentence(f: Figure, reach: int = 120) -> str:
    """The figure's own sentence, at most REACH characters each side of it."""
    seg = f.segment
    if seg is None:
        return f.context or ""
    i = max(0, seg.text.find(f.text))
    left = seg.text[max(0, i - reach) : i]
    right = seg.text[i + len(f.text) : i + len(f.text) + reach]
    cuts = list(_SENTENCE_END.finditer(left))
    cut = _SENTENCE_END.search(right)
    return (left[cuts[-1].end() :] if cuts else left) + f.text + (right[: cut.start()] if cut else right)


def twins(figs: list[Figure]) -> dict[str, str]:
    """A figure printed with its other-direction twin in one sentence ('600 GB/s unidirectional bandwidth or 1200
    GB/s bidirectional bandwidth'): one link, one value per direction. Maps each later twin's id to the first's."""
    out: dict[str, str] = {}
    first: dict[tuple, Figure] = {}
    for f in figs:
        value = (f.normalized or {}).get("value")
        if f.quantity != "bandwidth" or f.direction not in ("unidirectional", "bidirectional") or value is None:
            continue
        key = (id(f.segment), f.tier, f.scope, f.model, round(float(value), 6))
        g = first.setdefault(key, f)
        if g is not f and g.direction != f.direction and g.text != f.text and g.text in sentence(f):
            out[f.id] = g.id
    return out


def bw(figs, *tiers, scopes=None):
    return [f for f in figs if f.quantity == "bandwidth" and f.tier in tiers and (scopes is None or f.scope in scopes)]
