"""`sheetaudit audit FOLDER --job job.yaml`: the buyer's training job run on every system of the batch (the
training what-if of `scale --job`, on the default assumptions), for the index's scale section, and the requirements
on the job (tokens_per_second, time_to_train_days) judged on it."""

from __future__ import annotations

SYSTEM_KINDS = ("server", "rack", "pod")


def is_system(contract: dict) -> bool:
    """A server, rack or pod sheet, or one that states a scale-up bandwidth or domain: what the what-if models."""
    from ..basis import interconnect

    if contract.get("sheet_kind") in SYSTEM_KINDS:
        return True
    ic = interconnect(contract)
    return bool(ic["scale_up"] or ic["domain"])


def training_doc(sheets: list[tuple[str, dict]], job) -> dict | None:
    """The what-if document for the systems among the (sheet, contract) pairs; None when there is none."""
    from ..atscale.assumptions import load_assumptions
    from ..atscale.whatif import Request, whatif

    systems = [(name, c) for name, c in sorted(sheets, key=lambda x: x[0]) if is_system(c)]
    if not systems:
        return None
    return whatif(systems, load_assumptions(), Request(training=True, job=job))


def judge_requirements(res, doc: dict, requirements: dict | None) -> None:
    """Each system's requirements judged again with its training result (a sheet alone cannot judge them), kept in
    the batch's contracts."""
    if not requirements or not requirements.get("keys") or doc is None:
        return
    from ..requirements import evaluate

    training = {s["sheet"]: s["training"] for s in doc["systems"]}
    for s in res.ok:
        if s["sheet"] in training and s["facts"]["judged"]:
            contract = res.contract(s)
            contract["requirements"] = evaluate(requirements, contract, sheet=s["sheet"], training=training[s["sheet"]])
            res.store(s, contract)
