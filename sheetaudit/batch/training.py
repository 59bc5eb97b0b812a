"""`sheetaudit audit FOLDER --job job.yaml`: the buyer's training job run on every system of the batch (the
training what-if of `scale --job`, on the default assumptions), for the index's scale section, and the requirements
on the job (tokens_per_second, time_to_train_days) judged on it."""

from __future__ import annotations

SYSTEM_KINDS = ("server", "rack", "pod")


def training_doc(ok: list[dict], job) -> dict | None:
    """The what-if document for the batch's systems (a server, rack or pod sheet, or one that states a scale-up
    bandwidth or domain); None when there is none."""
    from ..atscale.assumptions import load_assumptions
    from ..atscale.whatif import Request, whatif
    from ..basis import interconnect

    systems = [
        (s["sheet"], s["contract"])
        for s in sorted(ok, key=lambda s: s["sheet"])
        if s["contract"].get("sheet_kind") in SYSTEM_KINDS
        or (lambda ic: ic["scale_up"] or ic["domain"])(interconnect(s["contract"]))
    ]
    if not systems:
        return None
    return whatif(systems, load_assumptions(), Request(training=True, job=job))


def judge_requirements(ok: list[dict], doc: dict, requirements: dict | None) -> None:
    """Each system's requirements judged again with its training result (a sheet alone cannot judge them)."""
    if not requirements or not requirements.get("keys") or doc is None:
        return
    from ..requirements import evaluate

    training = {s["sheet"]: s["training"] for s in doc["systems"]}
    for s in ok:
        if s["sheet"] in training and "requirements" in s["contract"]:
            s["contract"]["requirements"] = evaluate(
                requirements, s["contract"], sheet=s["sheet"], training=training[s["sheet"]]
            )
