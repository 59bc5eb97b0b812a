"""The buyer's requirements (`--require rfp.yaml`): each sheet's figures held against them, one result per
requirement (meets, falls-short, uncertain, not-stated; not-applicable for a sheet of another kind), each with the
figure and page it rests on and the question that settles it. Read from the audit's contract, so a cached batch
result, a `check --format json` file and a fresh audit are evaluated alike."""

from .evaluate import RESULTS, evaluate
from .load import load_requirements, spec

__all__ = ["RESULTS", "evaluate", "load_requirements", "spec"]
