"""Findings as the reader of this sheet should get them: one finding where the same problem recurs (the same
figure printed twice, or one model's figure repeated for each model of a family), and switch and NIC sheets
spoken of in ports, not accelerators."""

from __future__ import annotations

import copy

from ...records import Figure, Finding
from ...rules import load_rules
from . import PAGED, same_words
from .wording import word

PORT_KINDS = ("switch", "nic")
WHERE = ("pages", "same_on")  # data that says where on the sheet, not what


def _key(f: Finding) -> tuple:
    """Findings that say the same thing except where on the sheet: same check, same data once pages are left out."""
    return f.check, f.severity, same_words(f, WHERE)


def _models(ids: list[str], by_id: dict[str, Figure]) -> list[str]:
    """The product models (variant columns of a multi-model table) the figures belong to."""
    return list(dict.fromkeys(by_id[i].model for i in ids if i in by_id and by_id[i].model))


def _one_place(data: dict) -> bool:
    """The message names one page, in its own data (not one per listed item)."""
    return len(data.get("pages") or ()) == 1 and not any("pages" in i for i in data.get("items") or ())


def merge_repeats(findings: list[Finding], figs: list[Figure]) -> list[Finding]:
    """One finding per repeated problem, listing the models (table columns) and pages it covers."""
    by_id = {f.id: f for f in figs}
    groups: dict[tuple, list[Finding]] = {}
    for f in findings:
        groups.setdefault(_key(f), []).append(f)
    out = []
    for group in groups.values():
        first = group[0]
        if len(group) == 1:
            out.append(first)
            continue
        ids = list(dict.fromkeys(i for f in group for i in f.figures))
        pages = sorted({p for f in group for p in f.pages})
        data = copy.deepcopy(first.data)
        if len(pages) > 1 and _one_place(data):
            data["pages"] = pages
        elif len(pages) > 1:
            named = {p for i in data.get("items") or () for p in i.get("pages") or ()} | set(data.get("pages") or ())
            data["same_on"] = [p for p in pages if p not in named]
        models = list(dict.fromkeys([m for f in group for m in f.models] + _models(ids, by_id)))
        if len(models) > 1 and not any(f.models for f in group):
            data["models_listed"] = True
        derived, seen = [], set()
        for d in (d for f in group for d in f.derived):
            if (d.name, round(d.value, 9)) not in seen:
                seen.add((d.name, round(d.value, 9)))
                derived.append(d)
        question = first.question
        asked = [by_id[first.figures[0]].page] if question and PAGED.get() and first.figures[0] in by_id else []
        rest = [p for p in pages if p not in asked]
        if question and len(pages) > 1 and rest and asked:
            question += (
                f" (The same figure is printed on page{'s' if len(rest) > 1 else ''} {', '.join(map(str, rest))}.)"
            )
        doubt = "; ".join(dict.fromkeys(f.doubt for f in group if f.doubt))
        out.append(
            word(
                Finding(
                    check=first.check,
                    step=first.step,
                    severity=first.severity,
                    message="",
                    why=first.why,
                    fix=first.fix,
                    figures=ids,
                    pages=pages,
                    derived=derived,
                    title=first.title,
                    models=models if len(models) > 1 else first.models,
                    question=question,
                    doubt=doubt,
                    buyer=first.buyer,
                    data=data,
                    template=first.template,
                    each=first.each,
                )
            )
        )
    return out


def fit_to_sheet(findings: list[Finding], kind: str) -> list[Finding]:
    """On a switch or NIC sheet, a check's `on_ports` wording (rules/checks.yaml) replaces the accelerator one."""
    if kind not in PORT_KINDS:
        return findings
    rules = load_rules()
    for f in findings:
        ports = rules.checks.get(f.check, {}).get("on_ports") or {}
        f.title = ports.get("title", f.title)
        f.why = ports.get("why", f.why)
        f.fix = ports.get("fix", f.fix)
    return findings
