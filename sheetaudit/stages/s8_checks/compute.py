"""An accelerator's compute as the sheet prints it: sparse throughput (twice dense, never reached in training) or a
whole system's total, where a buyer compares dense TFLOP/s per accelerator. The figures were normalised to that
basis by find_compute; this check says which were not printed on it, and what they are per accelerator, dense."""

from __future__ import annotations

from . import finding

SYSTEM_SCOPES = ("per-node", "per-rack", "per-cluster", "per-domain")


def _item(f) -> dict:
    n = (f.normalized or {}).get("value")
    unstated = [w for k, w in (("precision", "precision"), ("basis", "sparsity")) if k in f.inferred]
    return {
        "figure": f.text,
        "pages": [f.page],
        "precision": "16-bit" if "precision" in f.inferred else (f.precision or "").upper(),
        "dense": "not derivable (the sheet does not count its accelerators)"
        if n is None
        else f"{n:g} TFLOP/s dense per accelerator"
        + (
            f" ({' and '.join(unstated)} not printed: read as "
            f"{'sparse ' if 'basis' in f.inferred else ''}"
            f"{'16-bit' if 'precision' in f.inferred else f.precision.upper()})"
            if unstated
            else ""
        ),
        "scope": f.scope.replace("per-", ""),
    }


def run(figs, sheet, doc, facility):
    compute = [f for f in figs if f.quantity == "compute"]
    out = []
    sparse = _once([f for f in compute if f.basis == "sparse" and f.scope == "per-accelerator"])
    if sparse:
        out.append(
            finding(
                "compute.sparse-or-system-wide",
                sparse,
                case="sparse",
                data={
                    "count": len(sparse),
                    "s": "s" if len(sparse) > 1 else "",
                    "verb": "" if len(sparse) > 1 else "s",
                    "items": [_item(f) for f in sparse],
                },
            )
        )
    system = _once([f for f in compute if f.scope in SYSTEM_SCOPES])
    if system:
        out.append(
            finding(
                "compute.sparse-or-system-wide",
                system,
                case="system",
                data={"items": [_item(f) for f in system]},
            )
        )
    return out


def _once(figs: list) -> list:
    """One figure per printed text and precision (a table's two models, the same sentence on two pages)."""
    seen, out = set(), []
    for f in figs:
        key = (f.text, f.precision, (f.normalized or {}).get("value"))
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out
