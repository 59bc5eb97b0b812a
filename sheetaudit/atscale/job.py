"""A training job (`scale --job job.yaml`): read through sheetaudit.validate against rules/inputs/job.yaml, then
turned into the model's plain data (transformer.Model, step.Training), the layout degrees it fixes, the
accelerator count and what it says of the hardware. A mistake is one line naming the file and the key."""

from __future__ import annotations

from dataclasses import dataclass, field

from .parse import parse_count
from .step import Training
from .transformer import Model, Moe


@dataclass(frozen=True)
class Job:
    name: str
    training: Training
    fixed: dict  # tp, pp, dp, ep, cp, vp, micro: the degrees the job fixes (None: chosen)
    accelerators: int | None
    precision: str = "bf16"
    tokens: float | None = None  # tokens to train, for the time to train
    hardware: dict = field(default_factory=dict)
    source: dict = field(default_factory=dict)  # the file as read, for the JSON

    @property
    def model(self) -> Model:
        return self.training.model


def _count(v, where: str) -> float:
    from ..validate import InvalidInput

    if isinstance(v, (int, float)):
        return float(v)
    try:
        return parse_count(str(v).replace("e+", "e"))
    except ValueError as exc:
        raise InvalidInput(where[0], where[1], str(exc)) from None


def job_from_data(data: dict, source: str = "job") -> Job:
    """A validated mapping (the YAML file's, or the API's dict) as a Job."""
    from ..validate import InvalidInput, load_schema, validate

    validate(data, load_schema("job"), source)
    mo = data["model"]
    moe = None
    if mo.get("moe"):
        x = mo["moe"]
        moe = Moe(
            experts=x["experts"],
            top_k=x["top_k"],
            expert_hidden=x["expert_hidden"],
            shared_experts=x.get("shared_experts") or 0,
            layers=x.get("layers"),
            active_params=_count(x["active_params"], (source, "model.moe.active_params"))
            if x.get("active_params") is not None
            else None,
        )
        if moe.top_k > moe.experts:
            raise InvalidInput(source, "model.moe.top_k", f"{moe.top_k} is more than the {moe.experts} experts")
    model = Model(
        params=_count(mo["params"], (source, "model.params")),
        layers=mo["layers"],
        hidden=mo["hidden"],
        heads=mo["heads"],
        seq_len=mo["seq_len"],
        vocab=mo["vocab"],
        kv_heads=mo.get("kv_heads"),
        ffn=mo.get("ffn"),
        moe=moe,
    )
    if model.hidden % model.heads:
        raise InvalidInput(source, "model.hidden", f"{model.hidden} is not a multiple of the {model.heads} heads")
    precision = data.get("precision", "bf16")
    training = Training(
        model=model,
        global_batch=data["batch"]["global"],
        recompute=data.get("recompute", "selective"),
        sequence_parallel=data.get("sequence_parallel", True),
        attention=data.get("attention", "flash"),
        sharding=data.get("sharding", "optimizer"),
    )
    par = data.get("parallel") or {}
    fixed = {k: par.get(k) for k in ("tp", "pp", "dp", "ep", "cp", "vp")}
    fixed["micro"] = data["batch"].get("micro")
    if moe is None and (fixed["ep"] or 1) > 1:
        raise InvalidInput(source, "parallel.ep", "expert parallelism needs a mixture-of-experts model (model.moe)")
    n = data.get("accelerators")
    degrees = [fixed[k] for k in ("tp", "pp", "dp", "cp")]
    if n and all(degrees):
        product = degrees[0] * degrees[1] * degrees[2] * degrees[3]
        if product != n:
            raise InvalidInput(source, "parallel", f"tp x pp x dp x cp = {product}, not the {n} accelerators")
    if n is None and all(degrees):
        n = degrees[0] * degrees[1] * degrees[2] * degrees[3]
    tokens = _count(data["tokens"], (source, "tokens")) if data.get("tokens") is not None else None
    return Job(
        name=str(data.get("name", source)),
        training=training,
        fixed=fixed,
        accelerators=n,
        precision=precision,
        tokens=tokens,
        hardware=dict(data.get("hardware") or {}),
        source=data,
    )


def read_job(path) -> Job:
    from ..errors import describe_path
    from ..validate import load_schema, read_yaml

    data = read_yaml(path, load_schema("job"), what="job file")
    return job_from_data(data, describe_path(path))
