"""The result's one definition: sheetaudit/schema/sheetaudit-1.json (the JSON Schema that ships with the package).

Whatever holds a result the tool did not just compute (a cache entry, an audit.json read back) is checked here,
against that schema compiled once (fastjsonschema turns it into Python code: a contract checks in well under a
millisecond), plus what a schema cannot say: the result is for this content, its findings name figures it holds,
its summary counts what it holds.

    validate_result(entry["result"], sha256)   # raises ValueError("contract.summary.unread[0]: must be string")
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib.resources import files

from .severity import SEVERITIES

SCHEMA_FILE = "schema/sheetaudit-1.json"
CACHED_ERROR_KINDS = ("unreadable",)  # the only failure a worker caches: it depends on the content alone

# A batch worker's result around the contract (batch/worker.py): ok with the contract, or the one cacheable error.
_RESULT = {
    "oneOf": [
        {
            "type": "object",
            "required": ["status", "contract"],
            "properties": {
                "status": {"const": "ok"},
                "contract": {"type": "object"},
                "html_error": {"type": ["string", "null"]},
                "report_sha256": {"anyOf": [{"type": "null"}, {"type": "string", "pattern": "^[0-9a-f]{64}$"}]},
                "warnings": {"type": "array", "items": {"type": "string"}},
            },
        },
        {
            "type": "object",
            "required": ["status", "kind", "error"],
            "properties": {
                "status": {"const": "error"},
                "kind": {"enum": list(CACHED_ERROR_KINDS)},
                "error": {"type": "string", "minLength": 1},
                "warnings": {"type": "array", "items": {"type": "string"}},
            },
        },
    ]
}


def product_of(contract: dict) -> str:
    """The product's name a contract gives (source.product; an older result's title, or its file's name): the one
    name every output prints for the sheet."""
    src = contract.get("source") or {}
    return src.get("product") or src.get("title") or (src.get("path") or "").replace("\\", "/").rsplit("/", 1)[-1]


def schema() -> dict:
    """The JSON Schema of a result under the rules in use: the shipped file with the lists the rules own filled in
    from them (`rules_lists`), so a requirement key added by the README's recipe validates, and the cache entries
    written with it stay valid. The shipped file is kept equal to it for the shipped rules (tests/
    test_schema_follows_rules.py; `write_schema` rewrites it)."""
    doc = json.loads(files("sheetaudit").joinpath(SCHEMA_FILE).read_text(encoding="utf-8"))
    lists = rules_lists()
    doc["$defs"]["requirement"]["properties"]["key"]["enum"] = lists["requirement_keys"]
    doc["properties"]["sheet_kind"]["enum"] = lists["sheet_kinds"]
    return doc


def rules_lists() -> dict:
    """The lists of the schema that the rules own: the requirement keys a result may name (rules/requirements.yaml,
    all but the file's name and facility) and the kinds of sheet (rules/vocabulary.yaml sheet_kinds, and unknown)."""
    from .rules import load_rules

    r = load_rules()
    keys = [k for k, s in r.requirements["keys"].items() if s.get("kind") not in ("text", "facility")]
    kinds = list(dict.fromkeys([e["kind"] for e in r.vocab["sheet_kinds"]] + ["unknown"]))
    return {"requirement_keys": keys, "sheet_kinds": kinds}


def write_schema() -> None:
    """Rewrite the shipped schema from the rules (after a requirement key or a sheet kind is added)."""
    path = files("sheetaudit").joinpath(SCHEMA_FILE)
    path.write_text(json.dumps(schema(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


@lru_cache(maxsize=None)
def _compiled(which: str, rules: str):
    import fastjsonschema

    return fastjsonschema.compile(schema() if which == "contract" else _RESULT)


def _run(which: str, value, path: str) -> None:
    import fastjsonschema
    from .rules import rules_hash

    try:
        _compiled(which, rules_hash() if which == "contract" else "")(value)
    except fastjsonschema.JsonSchemaValueException as exc:
        name = exc.name or "data"
        said = exc.message[len(name) :].strip() if exc.message.startswith(name) else exc.message
        raise ValueError(f"{path}{name[len('data') :]}: {said}") from None


def validate_contract(contract, path: str = "contract") -> None:
    """Raise ValueError naming the first field of CONTRACT (one sheet's JSON) out of the schema, or a count or
    figure reference that does not hold."""
    _run("contract", contract, path)
    try:
        json.dumps(contract, allow_nan=False)
    except ValueError:
        raise ValueError(f"{path}: a number that is not finite (NaN or infinity)") from None
    ids = {f["id"] for f in contract["figures"]}
    for i, f in enumerate(contract["findings"]):
        if not set(f["figures"]) <= ids:
            raise ValueError(f"{path}.findings[{i}].figures: names a figure the contract does not hold")
    counts = {s: sum(1 for f in contract["findings"] if f["severity"] == s) for s in SEVERITIES}
    summary = contract.get("summary")
    if summary is not None and (summary["findings"] != counts or summary["figures"] != len(contract["figures"])):
        raise ValueError(f"{path}.summary: does not count the findings and figures the contract holds")


def validate_result(result, sha256: str) -> None:
    """A cache entry's result: raise ValueError naming the first field out of shape, or when it is not for this
    content."""
    _run("result", result, "result")
    if result["status"] == "error":
        return
    c = result["contract"]
    validate_contract(c, "result.contract")
    if c["source"].get("sha256") != sha256:
        raise ValueError("result.contract.source.sha256: the entry is for other content")
