"""One sheet, one way through: read -> find -> classify -> normalise -> certainty -> check."""

from __future__ import annotations

from pathlib import Path

from . import regex_cache
from .stages.s8_checks import run_checks
from .stages.s6_certainty import assess
from .stages.s4_classify import classify
from .stages.s3_context import sheet_context
from .stages.s1_find import find_mentions
from .stages.s7_find_compute import compute_figures
from .records import SheetResult
from .options import AuditOptions
from .naming import product_name
from .stages.s5_normalise import normalise
from .read import ocr_hint, read_document
from .stages.s2_triage import may_hold_figures


def run(
    path: str | Path, options: AuditOptions | None = None, pages: set[int] | None = None, triage: bool = True
) -> SheetResult:
    """Audit one sheet (every page of a PDF, or those in `pages`) with OPTIONS (sheetaudit.options: password,
    max_pages, facility, requirements, ocr). triage: a long PDF's pages that the figure finder finds nothing in
    (from their plain text) are not laid out (read.pdf); False lays out every page."""
    o = options or AuditOptions()
    doc = read_document(
        path,
        password=o.password,
        max_pages=o.max_pages,
        pages=pages,
        ocr=o.ocr,
        needs_layout=may_hold_figures if triage else None,
    )
    if doc.no_text_pages:  # the sheet check words it; only the reader knows whether OCR is installed
        doc.ocr_hint = ocr_hint()
    doc.product = product_name(doc)
    mentions = find_mentions(doc)
    sheet = sheet_context(doc, mentions)
    figures = assess(normalise(classify(mentions, sheet)), sheet)  # stated or inferred: what an error may rest on
    figures += compute_figures(doc, sheet, figures)  # the accelerator's compute and memory capacity
    findings, passed = run_checks(figures, sheet, doc, o.facility)
    derived = [d for f in findings for d in f.derived]
    regex_cache.save()  # the patterns this sheet compiled first: the next run builds them from the cache
    a = SheetResult(
        document=doc,
        figures=figures,
        findings=findings,
        sheet_kind=sheet.kind,
        sheet_kind_reason=sheet.kind_reason,
        derived=derived,
        passed=passed,
        facility=o.facility,
    )
    if o.requirements and o.requirements.get("keys"):
        from .output.json_out import contract
        from .requirements import evaluate
        from .textsafe import safe_data

        kept = contract(a)  # built once and kept: judged here, then every output renders it
        a.requirements = evaluate(o.requirements, kept, sheet=Path(path).name)
        kept["requirements"] = safe_data(a.requirements)
    return a


def load_facility(path: str | Path) -> dict:
    """A facility profile (YAML): rack_power_kw, cooling (air | liquid | immersion, or a list), floor_load_kg_m2,
    checked against rules/inputs/facility.yaml before any sheet is read."""
    from .validate import load_schema, read_yaml

    data = read_yaml(path, load_schema("facility"), what="facility profile")
    return {**data, "source": Path(path).name}  # the file's name, which every output records


def load_requirements(path: str | Path, facility: dict | None = None) -> tuple[dict, dict | None]:
    """A requirements file (sheetaudit.requirements) and the facility the audit uses: --facility's, else the
    one the file holds under `facility:` (checked as a facility profile)."""
    from .requirements import load_requirements as load
    from .validate import load_schema, validate

    req = load(path)
    if facility is None and req.get("facility") is not None:
        facility = validate(
            req["facility"], load_schema("facility"), source=f"requirements file {path}", key="facility"
        )
        facility = {**facility, "source": Path(path).name}
    return req, facility


def check_facility(data, where: str) -> dict:
    """A facility profile as a dict gives it (the Python API), checked against rules/inputs/facility.yaml; an
    InvalidInput (a UsageError) names WHERE and the key."""
    from .validate import load_schema, validate

    return validate(data, load_schema("facility"), source=where)
