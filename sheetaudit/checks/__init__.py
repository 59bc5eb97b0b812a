"""The four-step check (plus checks on the sheet itself). Each step is one module; each check is declared
in rules/checks.yaml, which supplies its severity, why it matters and how to fix it."""
from __future__ import annotations

from ..model import Derived, Figure, Finding
from ..numfmt import fmt  # noqa: F401  (the check modules import it from here)
from ..rules import load_rules
from ..severity import rank


def finding(code: str, message: str, figures: list[Figure] = (), derived: list[Derived] = (),
            models: list[str] = ()) -> Finding:
    c = load_rules().check(code)
    return Finding(check=code, step=c["step"], severity=c["severity"], message=message, why=c["why"],
                   fix=c["fix"], figures=[f.id for f in figures],
                   pages=sorted({f.page for f in figures}), derived=list(derived), models=list(models),
                   title=c["title"])


def named(f: Figure) -> str:
    """'LS-9200: ' before a figure of one model on a multi-model sheet, so the finding says whose it is."""
    return f"{f.model}: " if f.model else ""


def merge_models(findings: list[Finding]) -> list[Finding]:
    """Identical findings for several models of one sheet become one finding that lists the models."""
    out: list[Finding] = []
    index: dict[tuple, Finding] = {}
    for f in findings:
        if not f.models:
            out.append(f)
            continue
        prefix = ", ".join(f.models) + ": "
        rest = f.message[len(prefix):] if f.message.startswith(prefix) else f.message
        key = (f.check, rest)
        first = index.get(key)
        if first is None:
            index[key] = f
            out.append(f)
            continue
        first.models = first.models + [m for m in f.models if m not in first.models]
        first.message = ", ".join(first.models) + ": " + rest
        first.figures += [x for x in f.figures if x not in first.figures]
        first.pages = sorted(set(first.pages) | set(f.pages))
        first.derived += f.derived
    return out


def run_checks(figs: list[Figure], sheet, doc, facility: dict | None = None) -> tuple[list[Finding], list[str]]:
    from . import plausibility, sheet_checks, step1_tier, step2_bandwidth, step3_latency, step4_power
    from .present import fit_to_sheet, merge_repeats
    findings: list[Finding] = []
    for module in (sheet_checks, step1_tier, step2_bandwidth, step3_latency, step4_power, plausibility):
        findings.extend(module.run(figs, sheet, doc, facility))
    findings = fit_to_sheet(merge_repeats(merge_models(findings), figs), sheet.kind)
    findings.sort(key=lambda f: (f.step if isinstance(f.step, int) else 0, rank(f.severity)))
    raised = {f.check for f in findings}
    passed = [code for code in load_rules().checks if code not in raised]
    return findings, passed


def bw(figs, *tiers, scopes=None):
    return [f for f in figs if f.quantity == "bandwidth" and f.tier in tiers
            and (scopes is None or f.scope in scopes)]
