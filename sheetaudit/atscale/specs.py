"""What a sheet's contract says of its accelerator, for the training what-if: dense peak tensor compute per
accelerator at the job's precision, memory capacity per accelerator and the accelerator generation, from the
`compute` and `memory` figures (sheetaudit/stages/s7_find_compute.py normalised them: dense, per accelerator).

A figure the sheet states for one accelerator is taken before one inferred or divided out of a system's total;
in a table of models, the first model's. Sparse and system-wide figures at the job's precision are said in flags."""

from __future__ import annotations

from ..basis import norm

# the job's precision -> the printed precisions that give its throughput (BF16 and FP16 run at one rate)
PRECISIONS = {"bf16": ("bf16", "fp16"), "fp8": ("fp8",)}


def _first_model(figs: list[dict]) -> str:
    return next((f["model"] for f in figs if f.get("model")), "")


def _how(f: dict) -> str:
    how = (
        "stated"
        if f.get("certainty") == "stated" and f.get("basis") != "sparse"
        else "derived"
        if f.get("certainty") == "stated"
        else "inferred"
    )
    text = f"{how}: {f['text']} (p{f.get('page')})" + (f", {f['model']}" if f.get("model") else "")
    if f.get("arithmetic") and (f.get("basis") == "sparse" or f.get("scope") != "per-accelerator" or f.get("inferred")):
        text += f": {f['arithmetic']}"
    if f.get("inferred"):
        text += f" ({'; '.join(f['inferred'].values())})"
    return text


def _pick(figs: list[dict]) -> dict | None:
    """The figure to use: stated before inferred, one accelerator's before a system's, the first model's (a table
    of models before prose that names none), the largest."""
    if not figs:
        return None
    first = _first_model(figs)
    return min(
        figs,
        key=lambda f: (
            f.get("certainty") != "stated",
            f.get("scope") != "per-accelerator",
            "precision" in (f.get("inferred") or {}),
            (f.get("model") or "") != first,
            -norm(f),
        ),
    )


def read_specs(contract: dict, precision: str = "bf16") -> dict:
    """{peak_tflops: (value, how), memory_gb: (value, how), generation: (name, how), flags: [...]} as far as the
    contract's figures give them; `how` says which figure and what was normalised."""
    figs = [f for f in contract.get("figures", []) if isinstance(f, dict)]
    out: dict = {"flags": []}
    wanted = PRECISIONS.get(precision, (precision,))
    compute = [f for f in figs if f.get("quantity") == "compute" and f.get("precision") in wanted]
    for f in compute:
        if f.get("scope") != "per-accelerator":
            out["flags"].append(
                f"{f['text']} (p{f.get('page')}) is the whole {f['scope'][4:]}'s compute, not one accelerator's"
            )
        elif f.get("basis") == "sparse":
            out["flags"].append(f"{f['text']} (p{f.get('page')}) is sparse throughput: {norm(f):g} dense")
    out["flags"] = list(dict.fromkeys(out["flags"]))  # a figure printed in two rows (BF16, FP16) once
    f = _pick([f for f in compute if norm(f)])
    if f is not None:
        out["peak_tflops"] = (norm(f), _how(f))
    else:  # what the sheet gives instead, for the question to the vendor
        others = [x for x in figs if x.get("quantity") == "compute" and x.get("precision") not in wanted]
        out["flags"] += list(
            dict.fromkeys(
                f"{x['text']} (p{x.get('page')}) is {(x.get('precision') or '').upper()}"
                + (f", the whole {x['scope'][4:]}'s" if x.get("scope") != "per-accelerator" else "")
                + (", with sparsity" if x.get("basis") == "sparse" else "")
                for x in others
            )
        )[:3]
    mem = [f for f in figs if f.get("quantity") == "memory" and f.get("scope") == "per-accelerator" and norm(f)]
    m = _pick(mem)
    if m is not None:
        out["memory_gb"] = (norm(m), _how(m))
    gen = next((x.get("accelerator") for x in ([f] if f else []) + compute + mem if x.get("accelerator")), None)
    if gen:
        out["generation"] = (gen.lower(), "named in the sheet")
    return out
