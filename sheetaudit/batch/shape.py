"""The shape of a result a cache entry may hold, checked on every load.

A cache folder is data anyone with write access can change. An entry that parses but has the wrong shape (figures
that are a number, findings that are a string, an empty contract, a contract for other content) is corrupt: it is
never handed to the comparison, the tables or the index. The shape follows output.json_out.to_contract and the
model's to_json methods; sheetaudit/schema/sheetaudit-1.json is the reference for the fields.

    validate_result(entry["result"], sha256)     # raises ValueError("figures[3].value: not a number")
"""
from __future__ import annotations

import math
import re

from ..severity import SEVERITIES
HEX64 = re.compile(r"[0-9a-f]{64}")
CACHED_ERROR_KINDS = ("unreadable",)       # the only failure a worker caches: it depends on the content alone


class Opt:
    def __init__(self, spec):
        self.spec = spec


class ListOf:
    def __init__(self, spec):
        self.spec = spec


class OneOf:
    def __init__(self, *values):
        self.values = values


class Kind:
    """A value test with a name for the message: a finite number, a sha256 in hex, a string with text."""
    def __init__(self, name: str, test):
        self.name, self.test = name, test


class Obj:
    def __init__(self, required: dict, optional: dict | None = None):
        self.required, self.optional = required, optional or {}


def _is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


NUMBER = Kind("a number", _is_number)
HEX = Kind("a sha256", lambda v: isinstance(v, str) and bool(HEX64.fullmatch(v)))
NONEMPTY = Kind("a non-empty string", lambda v: isinstance(v, str) and bool(v.strip()))

DERIVED = Obj({"name": str, "value": NUMBER, "unit": str, "arithmetic": str, "figures": ListOf(str)})
FIGURE = Obj(
    {"id": NONEMPTY, "quantity": NONEMPTY, "text": str, "value": (NUMBER, str), "unit": str, "tier": Opt(str),
     "direction": Opt(str), "scope": Opt(str), "basis": Opt(str), "page": int, "context": str,
     "normalized": Opt(Obj({"value": (NUMBER, str), "unit": Opt(str)}))},
    {"technology": str, "arithmetic": str, "reading": str, "label": str, "bound": str, "column": str,
     "heading": str, "count": int, "bbox": ListOf(NUMBER), "ocr": bool, "flags": ListOf(str), "model": str})
FINDING = Obj(
    {"check": NONEMPTY, "step": Opt((int, str)), "severity": OneOf(*SEVERITIES), "figures": ListOf(str), "message": str,
     "why": str, "fix": str},
    {"pages": ListOf(int), "derived": ListOf(DERIVED), "title": str, "models": ListOf(str)})
CONTRACT = Obj({
    "schema": OneOf("sheetaudit/1"),
    "tool": Obj({"name": str, "version": str}),
    "source": Obj({"path": Opt(str), "sha256": HEX, "pages": int, "kind": NONEMPTY, "title": str,
                   "no_text_pages": ListOf(int), "ocr_pages": ListOf(int), "notes": ListOf(str)}),
    "sheet_kind": str,
    "figures": ListOf(FIGURE),
    "findings": ListOf(FINDING),
    "derived": ListOf(DERIVED),
    "passed": ListOf(str),
    "summary": Obj({"findings": Obj({s: int for s in SEVERITIES}), "figures": int}, {"unread": ListOf(int)}),
}, {"status": OneOf("pass", "review", "fail", "incomplete")})
OK_RESULT = Obj({"status": OneOf("ok"), "contract": CONTRACT},
                {"html_error": Opt(str), "report_sha256": Opt(HEX), "warnings": ListOf(str)})
ERROR_RESULT = Obj({"status": OneOf("error"), "kind": OneOf(*CACHED_ERROR_KINDS), "error": NONEMPTY},
                   {"warnings": ListOf(str)})


def validate_result(result, sha256: str) -> None:
    """Raise ValueError naming the first field out of shape; also when the result is not for this content."""
    if not isinstance(result, dict) or result.get("status") not in ("ok", "error"):
        raise ValueError("status: neither 'ok' nor 'error'")
    if result["status"] == "error":
        _check(result, ERROR_RESULT, "result")
        return
    _check(result, OK_RESULT, "result")
    c = result["contract"]
    if c["source"]["sha256"] != sha256:
        raise ValueError("contract.source.sha256: the entry is for other content")
    ids = {f["id"] for f in c["figures"]}
    for i, f in enumerate(c["findings"]):
        if not set(f["figures"]) <= ids:
            raise ValueError(f"contract.findings[{i}].figures: names a figure the contract does not hold")
    for i, f in enumerate(c["figures"]):
        n = f["normalized"]
        if f["quantity"] != "cooling" and n is not None and not _is_number(n["value"]):
            raise ValueError(f"contract.figures[{i}].normalized.value: not a number")
    counts = {s: sum(1 for f in c["findings"] if f["severity"] == s) for s in SEVERITIES}
    if {k: c["summary"][k] for k in ("findings", "figures")} != {"findings": counts, "figures": len(c["figures"])}:
        raise ValueError("contract.summary: does not count the findings and figures the contract holds")


def _check(value, spec, path: str) -> None:
    if isinstance(spec, Opt):
        if value is not None:
            _check(value, spec.spec, path)
        return
    if isinstance(spec, OneOf):
        if isinstance(value, (dict, list)) or value not in spec.values:
            raise ValueError(f"{path}: not one of {', '.join(map(str, spec.values))}")
        return
    if isinstance(spec, tuple):                       # one of several shapes
        for s in spec:
            try:
                _check(value, s, path)
                return
            except ValueError:
                continue
        raise ValueError(f"{path}: {type(value).__name__} where {' or '.join(map(_name, spec))} belongs")
    if isinstance(spec, ListOf):
        if not isinstance(value, list):
            raise ValueError(f"{path}: {type(value).__name__} where a list belongs")
        for i, v in enumerate(value):
            _check(v, spec.spec, f"{path}[{i}]")
        return
    if isinstance(spec, Obj):
        if not isinstance(value, dict):
            raise ValueError(f"{path}: {type(value).__name__} where an object belongs")
        for k, s in spec.required.items():
            if k not in value:
                raise ValueError(f"{path}.{k}: missing")
            _check(value[k], s, f"{path}.{k}")
        for k, s in spec.optional.items():
            if k in value:
                _check(value[k], s, f"{path}.{k}")
        return
    ok = spec.test(value) if isinstance(spec, Kind) else (
        isinstance(value, spec) and (spec is bool or not isinstance(value, bool)))
    if not ok:
        raise ValueError(f"{path}: {type(value).__name__} where {_name(spec)} belongs")


def _name(spec) -> str:
    return spec.name if isinstance(spec, Kind) else f"a {spec.__name__}" if isinstance(spec, type) else "an object"
