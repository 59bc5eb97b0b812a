"""sheetaudit from Python (a notebook, a script): the command line's audits as JSON contracts, and tables of them.

    import sheetaudit
    a = sheetaudit.audit("vendor.pdf", facility="hall.yaml")     # the contract `check --format json` prints
    sheetaudit.figures([a])                                       # a DataFrame, one row per figure
    sheetaudit.findings([a])                                      # one row per finding
    results = sheetaudit.audit_folder("vendors/")                 # what `audit` writes to audit.json
    sheetaudit.comparison(results)                                # one row per sheet, on one basis
    sheetaudit.compliance(results)                                # one row per sheet and requirement (requirements=)
    sheetaudit.scale(results, accelerators=[8, 512], overlap=0.5) # the what-if, one row per system and count

Options are checked as the command line checks them, by the one validator (sheetaudit.validate) against
rules/inputs/api.yaml: a bad one, of any kind (a wrong type, nan, a negative timeout, message=True), raises
sheetaudit.errors.UsageError naming it, never an exception from deep inside.
"""

from __future__ import annotations

import os
from pathlib import Path

from .contract import product_of
from .errors import UsageError

from .batch.tables import COMPARISON_COLUMNS, COMPLIANCE_COLUMNS, FIGURE_COLUMNS, FINDING_COLUMNS  # noqa: F401


def _arguments(function: str, **values) -> dict:
    """VALUES (the keyword arguments of sheetaudit.FUNCTION) checked against rules/inputs/api.yaml; whole numbers
    given as floats (2.0) come back as ints."""
    from .validate import load_schema, validate

    validate(values, load_schema("api")["properties"][function], source=f"sheetaudit.{function}()")
    return {k: int(v) if isinstance(v, float) and k in _WHOLE else v for k, v in values.items()}


_WHOLE = ("max_pages", "jobs", "max_memory_mb")


def _path(path, what: str = "path") -> Path:
    """A path argument as a Path: text, bytes or os.PathLike naming something the file system can hold."""
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    if not isinstance(path, (str, os.PathLike)):
        raise UsageError(f"{what}: expected a path (text or os.PathLike), got {type(path).__name__}")
    try:
        os.fsencode(path)
    except (UnicodeError, TypeError):
        raise UsageError(f"{what}: {path!r} is not a name the file system can hold") from None
    return Path(path)


def _facility(facility) -> dict | None:
    """A facility profile: a YAML file's path, or the same keys as a dict; checked alike."""
    from .pipeline import check_facility, load_facility

    if facility is None:
        return None
    if isinstance(facility, (str, bytes, os.PathLike)):
        facility = _path(facility, "facility")
        if not facility.is_file():
            raise UsageError(f"facility profile {facility}: no such file")
        return load_facility(facility)
    if isinstance(facility, dict):
        return check_facility(dict(facility), "facility")
    raise UsageError(f"facility: expected a YAML file's path or a dict, got {type(facility).__name__}")


def _sheet(path) -> Path:
    p = _path(path)
    if not p.is_file():
        raise UsageError(f"{path}: no such file" if not p.exists() else f"{path}: not a file")
    return p


def _cache_dir() -> str:
    """The result cache a notebook's audits share (with audit_folder's): $SHEETAUDIT_CACHE_DIR, else the user
    cache folder's results/."""
    from .cachedir import user_cache_dir

    return str(os.environ.get("SHEETAUDIT_CACHE_DIR") or user_cache_dir() / "results")


def _requirements(requirements, facility):
    """A requirements file (`--require`): its path, or a dict of its keys; with the facility it may hold."""
    from .pipeline import check_facility, load_requirements

    if requirements is None:
        return None, facility
    if isinstance(requirements, (str, bytes, os.PathLike)):
        requirements = _path(requirements, "requirements")
        if not requirements.is_file():
            raise UsageError(f"requirements file {requirements}: no such file")
        return load_requirements(requirements, facility)
    if isinstance(requirements, dict):
        from .requirements.load import check_requirements

        req = check_requirements(dict(requirements), "requirements")
        if facility is None and req.get("facility") is not None:
            facility = check_facility(req["facility"], "requirements: facility")
        return req, facility
    raise UsageError(f"requirements: expected a YAML file's path or a dict, got {type(requirements).__name__}")


def audit(
    path,
    facility=None,
    ocr: bool = False,
    max_pages: int | None = None,
    password: str | None = None,
    cache: bool = True,
    requirements=None,
) -> dict:
    """Audit one sheet (PDF, text, Markdown or HTML); the JSON contract `sheetaudit check --format json` prints
    (schema sheetaudit/1). facility: a profile's path or a dict of its keys; ocr: read pages without a text layer
    by OCR (the ocr extra); cache: reuse the result of the same content audited with the same options and rules;
    requirements: a requirements file's path or a dict of its keys (`check --require`)."""
    from .batch.worker import limited
    from .output.json_out import contract as contract_of
    from . import pipeline

    p = _sheet(path)
    args = _arguments("audit", ocr=ocr, cache=cache, max_pages=max_pages, password=password)
    options = _options(args, requirements, facility)
    store = sha = None
    if cache:
        from .result_cache import Cache, file_sha256
        from .rules import rules_hash

        store = Cache(_cache_dir(), rules_hash(), options.cache_key())  # the batch's key: entries are shared
        sha = file_sha256(p)
        hit = store.get(sha, p.name)
        if hit is not None and hit.get("status") == "ok":
            return {**hit["contract"], "source": {**hit["contract"]["source"], "path": str(path)}}
    contract = contract_of(pipeline.run(p, options))
    if store is not None and contract["source"]["sha256"] == sha and not limited(contract):
        try:
            store.put(sha, p.name, {"status": "ok", "contract": contract})
        except OSError:
            pass  # a cache that cannot be written costs only the next call's time
    return contract


def _options(args: dict, requirements, facility):
    """The AuditOptions of checked ARGS (password, max_pages, ocr) and the requirements and facility given."""
    from .options import AuditOptions

    req, fac = _requirements(requirements, _facility(facility))
    return AuditOptions(
        password=args["password"], max_pages=args["max_pages"], facility=fac, requirements=req, ocr=args["ocr"]
    )


def audit_folder(
    folder,
    jobs: int | None = None,
    output=None,
    facility=None,
    ocr: bool = False,
    max_pages: int | None = None,
    password: str | None = None,
    cache: bool = True,
    timeout: float | None = 120.0,
    max_memory_mb: int | None = 2048,
    requirements=None,
    job=None,
) -> list[dict]:
    """Audit every sheet under FOLDER in a pool of processes, as `sheetaudit audit` does; the list audit.json
    holds (a contract per sheet, an error record per file that could not be read). The reports, tables and
    index are written only when OUTPUT (a folder) is given; without it no report is rendered. job (a job file's
    path or its keys as a dict, as `audit --job`): the index ranks the systems on it and the requirements on the
    job are judged."""
    from .batch.run import BatchOptions, records, run_batch

    if not _path(folder, "folder").is_dir():
        raise UsageError(f"{folder}: not a folder")
    if output is not None:
        output = _path(output, "output")
    args = _arguments(
        "audit_folder",
        ocr=ocr,
        cache=cache,
        max_pages=max_pages,
        password=password,
        jobs=jobs,
        timeout=timeout,
        max_memory_mb=max_memory_mb,
    )
    opts = BatchOptions(
        jobs=args["jobs"],
        timeout=timeout,
        max_memory_mb=args["max_memory_mb"],
        use_cache=cache,
        audit=_options(args, requirements, facility),
        quiet=True,
        progress=False,
        job=None if job is None else _job(job),
        cache_dir=_cache_dir() if cache else None,
    )
    return records(run_batch(folder, output, opts))


def _contracts(audits) -> list[dict]:
    """AUDITS as contracts: one contract, a SheetResult, or a list of either (error records are kept; they hold none)."""
    from .records import SheetResult
    from .output.json_out import to_contract
    from .validate import load_schema, validate

    if isinstance(audits, (dict, SheetResult)):
        audits = [audits]
    if not isinstance(audits, (list, tuple)):
        raise UsageError(
            f"expected audits (what sheetaudit.audit returns, or a list of them), got {type(audits).__name__}"
        )
    out = []
    for i, a in enumerate(audits):
        if isinstance(a, SheetResult):
            a = to_contract(a)
        if not isinstance(a, dict) or "figures" not in a:
            raise UsageError(f"expected audits (what sheetaudit.audit returns), got {type(a).__name__}")
        out.append(validate(a, load_schema("audit-json"), source=f"audits[{i}]"))
    return out


def _names(c: dict) -> tuple[str, str]:
    src = c.get("source") or {}
    return Path(src.get("path") or "").name, product_of(c)


def _pairs(audits) -> list[tuple[str, dict]]:
    """(sheet, contract) of each audited sheet; error records (a file that could not be read) hold none."""
    return [(_names(c)[0], c) for c in _contracts(audits) if "error" not in c]


def figures(audits):
    """One row per figure of AUDITS, the columns of figures.csv (sheetaudit.batch.tables.FIGURES): value and unit
    are the normalised ones (bandwidth GB/s per direction, latency ns, power kW, domain_size accelerators); a
    cooling figure's value is empty and its unit the method (air, liquid, immersion); as_printed is the sheet's own
    text, printed_value and printed_unit its number and unit."""
    from .batch.tables import FIGURES, figure_rows, frame

    return frame(FIGURES, figure_rows(_pairs(audits)))


def findings(audits):
    """One row per finding of AUDITS, the columns of findings.csv; figures, pages and models joined with
    spaces/commas. With several sheets, what a side-by-side reading of them gets wrong follows (source
    "comparison", the compare.* checks of `sheetaudit audit`)."""
    from .batch.compare import compare, sheet_row
    from .batch.tables import FINDINGS, finding_rows, frame

    pairs = _pairs(audits)
    cross = compare([(sheet_row(name, c, None), c) for name, c in pairs])
    return frame(FINDINGS, finding_rows(pairs, cross))


def comparison(audits):
    """One row per sheet on one basis, the columns of comparison.csv (the batch index's table): per-accelerator
    scale-up and scale-out GB/s per direction, their ratio, domain size, a switch's capacity, ports and power,
    latency by basis, accelerator, node and rack power, cooling, finding counts; status `error` for a file that
    could not be read (audit_folder's error records)."""
    from .batch.compare import sheet_row
    from .batch.tables import COMPARISON, comparison_rows, frame

    rows = []
    for c in _contracts(audits):
        name = _names(c)[0]
        rows.append(
            {"sheet": name, "error": c["error"]} if "error" in c else {"sheet": name, "row": sheet_row(name, c, None)}
        )
    return frame(COMPARISON, comparison_rows(rows))


def compliance(audits):
    """One row per sheet and requirement of AUDITS judged against requirements (audit(..., requirements=...)),
    the columns of compliance.csv: low and high are the value, or the range of readings the sheet allows;
    value_text is as the report shows it; result is meets, falls-short, uncertain, not-stated or not-applicable."""
    from .batch.tables import COMPLIANCE, compliance_rows, frame

    return frame(COMPLIANCE, compliance_rows(_pairs(audits)))


def scale(
    audits,
    accelerators=(8, 64, 512, 4096),
    collective: str = "all-reduce",
    message="1GiB",
    training: bool = False,
    tokens=None,
    tflops: float | None = None,
    job=None,
    **assumptions,
):
    """The what-if of `sheetaudit scale` (a model, not a measurement): one row per system and accelerator count.
    ASSUMPTIONS override rules/scale.yaml by name (overlap=0.5, params=7e9; `sheetaudit scale --list-assumptions`
    lists them); df.attrs holds the assumptions used and each system's notes.

    With job (a job file's path, or the same keys as a dict: `scale --job`), one row per system: the layout, step,
    tokens per second, MFU, memory, fit and breakdown of the job, ranked fastest first; df.attrs["curves"] holds each
    system's curve at the job's global batch. The accelerator's compute and memory come from the audits' compute
    and memory figures; where they state none, give peak_tflops=, memory_gb=, memory_gbs= as assumptions, or a
    hardware block in the job. An item of AUDITS that is a list of audits (an accelerator's sheet and a server's)
    is one system read from both."""
    import pandas as pd

    _arguments(
        "scale",
        accelerators=accelerators,
        collective=collective,
        message=message,
        training=training,
        tokens=tokens,
        tflops=tflops,
    )
    if job is not None:
        return _scale_job(audits, job, tflops, assumptions)

    from .atscale.assumptions import load_assumptions
    from .atscale.parse import parse_count, parse_size
    from .atscale.whatif import Request, whatif

    counts = [accelerators] if isinstance(accelerators, int) else list(accelerators)
    if not counts or any(isinstance(n, bool) or not isinstance(n, int) or n < 1 for n in counts):
        raise UsageError(f"accelerators={accelerators!r}: expected whole numbers, each at least 1")
    if collective not in ("all-reduce", "all-gather", "reduce-scatter", "all-to-all"):
        raise UsageError(f"collective={collective!r}: expected all-reduce, all-gather, reduce-scatter or all-to-all")
    try:
        size = parse_size(str(message)) if not isinstance(message, int) else message
        tokens = parse_count(str(tokens)) if tokens is not None else None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if tflops is not None and tokens is None:
        raise UsageError("tflops needs tokens (compute time = 6 x params x tokens / FLOP/s)")
    a = load_assumptions().with_overrides(assumptions, "sheetaudit.scale()")
    req = Request(
        accelerators=tuple(counts),
        collective=collective,
        message_bytes=size,
        training=training or tokens is not None,
        tokens=tokens,
        tflops=tflops,
    )
    systems, specs = _systems(audits, "bf16")
    doc = whatif(systems, a, req, specs)
    rows = [
        {
            "sheet": s["sheet"],
            "kind": s["kind"],
            **{k: (", ".join(v) if isinstance(v, list) else v) for k, v in p.items()},
        }
        for s in doc["systems"]
        for p in s["points"]
    ]
    df = pd.DataFrame(rows)
    df.attrs["assumptions"] = doc["assumptions"]
    df.attrs["notes"] = {s["sheet"]: s["notes"] for s in doc["systems"] if s["notes"]}
    return df


def _systems(audits, precision: str) -> tuple[list[tuple[str, dict]], dict]:
    """(name, contract) per system, and the accelerator of each system read from several sheets: an item of AUDITS
    that is a tuple or list of audits is one system (an accelerator's sheet and a server's, as `scale a+b`)."""
    from .atscale.combine import combine

    items = list(audits) if isinstance(audits, (list, tuple)) else [audits]
    systems, specs = [], {}
    for item in items:
        parts = [
            (_names(c)[0], c)
            for c in _contracts(list(item) if isinstance(item, (list, tuple)) else item)
            if c.get("figures") is not None and "error" not in c
        ]
        if not parts:
            continue
        name = "+".join(p[0] for p in parts)
        if isinstance(item, (list, tuple)) and len(parts) > 1:
            contract, specs[name] = combine(parts, precision)
        else:
            contract = parts[0][1]
        systems.append((name, contract))
    return systems, specs


def _job(job):
    """A training job: a job file's path, or the same keys as a dict; checked alike."""
    from .atscale.job import job_from_data, read_job

    if isinstance(job, (str, bytes, os.PathLike)):
        job = _path(job, "job")
        if not job.is_file():
            raise UsageError(f"job file {job}: no such file")
        return read_job(job)
    if isinstance(job, dict):
        return job_from_data(dict(job), "job")
    raise UsageError(f"job: expected a job file's path or a dict, got {type(job).__name__}")


def _scale_job(audits, job, tflops, assumptions):
    import pandas as pd

    from .atscale.assumptions import load_assumptions
    from .atscale.whatif import Request, whatif

    job = _job(job)
    if tflops is not None:
        assumptions = dict(assumptions, peak_tflops=tflops)
    a = load_assumptions().with_overrides(assumptions, "sheetaudit.scale()")
    systems, specs = _systems(audits, job.precision)
    doc = whatif(systems, a, Request(training=True, job=job), specs)
    rank = {r["sheet"]: r["rank"] for r in doc["ranking"]}
    rows = []
    for s in doc["systems"]:
        t = s["training"]
        row = {"sheet": s["sheet"], "kind": s["kind"], "rank": rank.get(s["sheet"])}
        for k, v in t.items():
            if k in ("curve", "hardware_how", "missing", "notes", "matmul_efficiency"):
                continue
            if isinstance(v, dict):
                row.update({f"{k}_{x}": y for x, y in v.items()})
            else:
                row[k] = v
        rows.append(row)
    df = pd.DataFrame(rows).sort_values("rank", na_position="last", kind="stable").reset_index(drop=True)
    df.attrs["assumptions"] = doc["assumptions"]
    df.attrs["curves"] = {s["sheet"]: s["training"].get("curve", []) for s in doc["systems"]}
    df.attrs["missing"] = {
        s["sheet"]: s["missing"] + s["training"].get("missing", [])
        for s in doc["systems"]
        if s["missing"] or s["training"].get("missing")
    }
    return df
