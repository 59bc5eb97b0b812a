"""The JSON contract, schema sheetaudit/1 (its JSON Schema ships as sheetaudit/schema/sheetaudit-1.json, and the tests
validate this module's output against it): stable key order, figures in reading order."""

from __future__ import annotations

import json
from pathlib import Path

from ..version import __version__
from ..records import SheetResult
from ..textsafe import safe_data
from .verdict import counts, facility_json, status, unread

SCHEMA = "sheetaudit/1"


def contract(a: SheetResult) -> dict:
    """The audit's contract, built on first use and kept on it: the requirements are judged on it and the JSON, the
    report and the batch's record are that one (an audit the pipeline returned is final; to_contract builds anew)."""
    if a.contract is None:
        a.contract = to_contract(a)
    return a.contract


def to_contract(a: SheetResult) -> dict:
    """The contract, every string fit for UTF-8 (textsafe: a non-UTF-8 file name, a damaged text layer)."""
    doc = a.document
    out = {
        "schema": SCHEMA,
        "tool": {"name": "sheetaudit", "version": __version__},
        "source": {
            "path": doc.path,
            "sha256": doc.sha256,
            "pages": doc.pages,
            "kind": doc.kind,
            "title": doc.title,
            "product": doc.product,
            "no_text_pages": doc.no_text_pages,
            "ocr_pages": doc.ocr_pages,
            "notes": doc.notes,
            "limited": doc.limited,
        },
        "status": status(a),
        "sheet_kind": a.sheet_kind,
        "sheet_kind_reason": a.sheet_kind_reason,
        "figures": [f.to_json() for f in a.figures],
        "findings": [f.to_json() for f in a.findings],
        "derived": [d.to_json() for d in a.derived],
        "passed": a.passed,
        "summary": summary(a),
    }
    if a.facility:
        out["facility"] = facility_json(a.facility)
    if a.requirements is not None:
        out["requirements"] = a.requirements
    return safe_data(out)


def summary(a: SheetResult) -> dict:
    return {"findings": counts(a), "figures": len(a.figures), "unread": unread(a)}


def dumps(a: SheetResult) -> str:
    return json.dumps(contract(a), ensure_ascii=False, indent=1)


def error_record(path: str | Path, message: str) -> dict:
    """What a batch records for a file it could not read: the contract's shape with an error."""
    return {
        "schema": SCHEMA,
        "source": {"path": str(path)},
        "status": "incomplete",
        "error": message,
        "figures": [],
        "findings": [],
    }
