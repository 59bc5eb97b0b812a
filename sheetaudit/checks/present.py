"""Findings as the reader of this sheet should get them: one finding where the same problem recurs (the same
figure printed twice, or one model's figure repeated for each model of a family), and switch and NIC sheets
spoken of in ports, not accelerators."""
from __future__ import annotations

import re

from ..model import Figure, Finding
from ..rules import load_rules

PORT_KINDS = ("switch", "nic")
_PAGE_REF = re.compile(r"\(p(\d+)")


def _key(f: Finding) -> tuple:
    """Findings that say the same thing except where on the sheet: same check, same words once page numbers
    are left out."""
    return f.check, f.severity, _PAGE_REF.sub("(p#", f.message)


def _models(ids: list[str], by_id: dict[str, Figure]) -> list[str]:
    """The product models (variant columns of a multi-model table) the figures belong to."""
    return list(dict.fromkeys(by_id[i].model for i in ids if i in by_id and by_id[i].model))


def _pages(pages: list[int]) -> str:
    return ", ".join(f"p{p}" for p in pages)


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
        message = first.message
        refs = _PAGE_REF.findall(message)
        if len(pages) > 1 and len(set(refs)) == 1 and len(refs) == 1:
            message = _PAGE_REF.sub("(" + _pages(pages), message)
        elif len(pages) > 1:
            message += f" The same on {_pages([p for p in pages if p not in map(int, refs)])}."
        models = list(dict.fromkeys([m for f in group for m in f.models] + _models(ids, by_id)))
        if len(models) > 1 and not any(f.models for f in group):
            message += f" Models: {', '.join(models)}."
        derived, seen = [], set()
        for d in (d for f in group for d in f.derived):
            if (d.name, round(d.value, 9)) not in seen:
                seen.add((d.name, round(d.value, 9)))
                derived.append(d)
        question = first.question
        if question and len(pages) > 1:
            asked = [int(p) for p in re.findall(r"on page (\d+)", question)]
            rest = [p for p in pages if p not in asked]
            if rest and asked:
                question += f" (The same figure is printed on page{'s' if len(rest) > 1 else ''} " \
                            f"{', '.join(map(str, rest))}.)"
        doubt = "; ".join(dict.fromkeys(f.doubt for f in group if f.doubt))
        out.append(Finding(check=first.check, step=first.step, severity=first.severity, message=message,
                           why=first.why, fix=first.fix, figures=ids, pages=pages, derived=derived,
                           title=first.title, models=models if len(models) > 1 else first.models,
                           question=question, doubt=doubt, buyer=first.buyer))
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
