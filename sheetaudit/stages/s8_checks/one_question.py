"""One question per figure and doubt. Two checks that doubt the same figure (its direction, and whether it is a
server's total) would send the vendor two questions about one number; the figure's first question (the most
severe finding's) asks both, and the other finding points to it (`asked_in`). A doubt the first question already
asks ("... and per direction?") is not asked again: each check's `asks` (rules/checks.yaml) names the doubts its
question settles.

Runs after severities are final (stages.s6_certainty.temper): only warnings and errors are questions to send."""

from __future__ import annotations

from ...records import Figure, Finding
from ...severity import rank
from . import ask_where, twins
from .ask import entry, question

SENT = ("error", "warning")


def asks(x: Finding) -> set[str]:
    """The doubts about a figure X's question settles (rules/checks.yaml `asks`); none where its question is not
    about its figures' reading (whether the network runs RDMA, what a rack needs)."""
    return set(entry(x.check, (x.data or {}).get("case", "")).get("asks") or ())


def merge(findings: list[Finding], figs: list[Figure], sheet) -> None:
    """Fold each question about figures an earlier question already names into that question. A figure is what
    the vendor is asked about ('the 80 Gbps on page 1'): the same printed figure read twice is one, and so is a
    figure printed with its other-direction twin."""
    by_id = {f.id: f for f in figs}
    where = {f.id: printed(ask_where(f)) for f in figs}
    for twin, first in twins(figs).items():
        where[twin] = where[first]  # '600 GB/s unidirectional or 1200 GB/s bidirectional': one link
    asked: dict[str, Finding] = {}  # figure as asked -> the finding whose question names it
    settled: dict[str, set[str]] = {}  # figure as asked -> the doubts asked about it
    sent = [x for x in findings if x.severity in SENT and x.question and x.figures and asks(x)]
    sent.sort(key=lambda x: (rank(x.severity), -len(asks(x))))
    for x in sent:
        doubts = asks(x)
        seen = [i for i in x.figures if where.get(i, i) in asked]
        if not seen:
            for i in x.figures:
                asked[where.get(i, i)], settled[where.get(i, i)] = x, set(doubts)
            continue
        first = asked[where.get(seen[0], seen[0])]
        new = [i for i in x.figures if where.get(i, i) not in asked]
        if new and not _worded_by_rules(x, by_id, sheet):
            continue  # a question the check worded itself (it knows the arithmetic) stays whole
        open_ = [i for i in seen if not doubts <= settled[where.get(i, i)]]
        if open_:
            more = question(x, _figs(open_, by_id), sheet)[0] if new else x.question
            if more and more not in first.question:
                first.question = f"{first.question} {more}"
        for i in seen:
            settled[where.get(i, i)] |= doubts
        if new:
            x.question = question(x, _figs(new, by_id), sheet)[0]
            for i in new:
                asked[where.get(i, i)], settled[where.get(i, i)] = x, set(doubts)
        else:
            x.asked_in, x.question = first.check, ""


def printed(where: str) -> str:
    """A figure as the vendor finds it, however it is spaced: 'the 14.4TB/s on page 1' is 'the 14.4 TB/s' there."""
    return "".join(where.split()).lower()


def _figs(ids: list[str], by_id: dict) -> list[Figure]:
    return [by_id[i] for i in ids if i in by_id]


def _worded_by_rules(x: Finding, by_id: dict, sheet) -> bool:
    """X's question is its check's own from rules/checks.yaml (so it can be asked of some of its figures)."""
    return question(x, _figs(x.figures, by_id), sheet)[0] == x.question
