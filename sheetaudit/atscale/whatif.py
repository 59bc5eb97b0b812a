"""The what-if for a set of audited sheets: each sheet's inputs, the requested points and the training-step
efficiency curve, as the JSON contract's `sheetaudit-scale/1` object (README, "What the figures mean at scale").

Every output carries NOTE: it is a model, not a measurement, and nothing in it is a figure the vendor printed."""

from __future__ import annotations

from dataclasses import dataclass

from .assumptions import Assumptions
from .inputs import Inputs, read_inputs
from .collectives import Fabric, Step, compute_seconds, counts, estimate, first_below

SCHEMA = "sheetaudit-scale/1"
NOTE = (
    "A model, not a measurement: collective time from the audited figures and the assumptions listed "
    "(alpha-beta model; ring inside the scale-up domain, ring or tree across domains). Nothing here is a "
    "figure the vendor printed."
)
JOB_NOTE = (
    "A model, not a measurement: a Megatron-style training step from the audited figures, the job and the "
    "assumptions listed (compute at an achieved fraction of peak, element-wise kernels at a fraction of memory "
    "bandwidth, every collective through the alpha-beta model). Within 10 % (median) of 19 published runs on "
    "A100 and H100; nothing here is a figure the vendor printed."
)
DEFAULT_COUNTS = (8, 64, 512, 4096)
CURVE_UPTO = 1 << 16  # the efficiency curve of the pictures
SEARCH_UPTO = 1 << 20  # how far the efficiency marks are looked for


@dataclass(frozen=True)
class Request:
    accelerators: tuple[int, ...] = DEFAULT_COUNTS
    collective: str = "all-reduce"
    message_bytes: int = 1 << 30
    training: bool = False  # points are the data-parallel gradient all-reduce, with comm_share, efficiency
    tokens: float | None = None  # per accelerator per step: compute time from tokens, --tflops and mfu
    tflops: float | None = None
    job: object = None  # atscale.job.Job: the training what-if of the buyer's own job


def gradient_bytes(a: Assumptions) -> int:
    return int(round(a.value("params") * a.value("grad_bytes_per_param")))


def step_compute_s(
    a: Assumptions, req: Request, sheet_tflops: tuple[float, str] | None = None
) -> tuple[float | None, str]:
    """The compute time of one step: from tokens and peak TFLOP/s (--tflops, else the sheet's dense 16-bit peak per
    accelerator), else the compute_s assumption. None when tokens are given and no peak is known."""
    if req.tokens is not None and not a.user_set("compute_s"):
        tflops, whose = (req.tflops, "") if req.tflops is not None else sheet_tflops or (None, "")
        if tflops is None:
            return (
                None,
                "the compute time needs the accelerator's peak TFLOP/s (--tflops), which the sheet does not state",
            )
        s = compute_seconds(a.value("params"), req.tokens, tflops, a.value("mfu"))
        return s, (
            f"6 x {a.value('params'):.3g} params x {req.tokens:g} tokens / ({tflops:g} TFLOP/s"
            f"{' from the sheet, ' + whose if whose else ''} x mfu {a.value('mfu'):g}) = {s:.4g} s"
        )
    return a.value("compute_s"), f"compute {a.value('compute_s'):g} s per step ({a['compute_s'].origin})"


def fabric(inp: Inputs, a: Assumptions) -> Fabric | None:
    if inp.scale_up_gbs is None or inp.domain_size is None:
        return None
    up_lat = inp.scale_up_latency_us if inp.scale_up_latency_us is not None else a.value("scale_up_latency_us")
    out_lat = inp.scale_out_latency_us if inp.scale_out_latency_us is not None else a.value("scale_out_latency_us")
    over = a.value("step_overhead_us")
    return Fabric(
        scale_up_gbs=inp.scale_up_gbs * a.value("scale_up_efficiency"),
        domain_size=inp.domain_size,
        scale_out_gbs=None if inp.scale_out_gbs is None else inp.scale_out_gbs * a.value("scale_out_efficiency"),
        up_step_s=(up_lat + over) * 1e-6,
        out_step_s=(out_lat + over) * 1e-6,
    )


def _sig(x: float, digits: int = 4) -> float:
    return float(f"{x:.{digits}g}")


def _point(
    f: Fabric | None, inp: Inputs, n: int, collective: str, size: int, a: Assumptions, compute_s: float | None
) -> dict:
    p = {
        "accelerators": n,
        "collective": collective,
        "message_bytes": size,
        "seconds": None,
        "algbw_gbs": None,
        "busbw_gbs": None,
        "domains": None,
    }
    if f is not None:
        p["domains"] = -(-n // f.domain_size)
    why = _unknown(f, inp, n)
    if why:
        p["unknown"] = why
        return p
    e = estimate(f, collective, n, size, a.value("inter_domain_algorithm"))
    p.update(
        seconds=_sig(e.seconds, 5),
        algbw_gbs=round(e.algbw_gbs, 2),
        busbw_gbs=round(e.busbw_gbs, 2),
        domains=e.domains,
        algorithm=e.algorithm,
        regime=e.regime,
        bottleneck=e.bottleneck if e.regime == "bandwidth-bound" else "step latency",
    )
    used = [k for k in inp.assumed if k != "scale_out_gbs" or e.domains > 1]
    if used:
        p["assumed"] = used
    if compute_s is not None:
        s = Step(share_s(compute_s, n, a), e.seconds, a.value("overlap"))
        p.update(compute_s=_sig(s.compute_s, 5), comm_share=round(s.comm_share, 4), efficiency=round(s.efficiency, 4))
    return p


def _unknown(f: Fabric | None, inp: Inputs, n: int) -> str | None:
    if n < 2:
        return "a collective needs at least 2 accelerators"
    if f is None:
        return "missing " + " and ".join(m["input"] for m in inp.missing if m["input"] != "scale_out_gbs")
    if n > f.domain_size and f.scale_out_gbs is None:
        return f"{n} accelerators span {-(-n // f.domain_size)} domains and the scale-out bandwidth is missing"
    return None


def share_s(compute_s: float, n: int, a: Assumptions) -> float:
    """Each accelerator's compute at n accelerators when the global batch is fixed: the batch batch_accelerators
    accelerators compute in compute_s each, split n ways (strong scaling)."""
    return compute_s * a.value("batch_accelerators") / n


def curve(f: Fabric | None, a: Assumptions, compute_s: float | None, upto: int = CURVE_UPTO) -> list[tuple[int, float]]:
    """(count, efficiency) of the data-parallel step at a fixed global batch, from 1 accelerator (efficiency 1) to
    `upto`, as far as the inputs reach (inside the domain only when the scale-out bandwidth is missing)."""
    if f is None or compute_s is None:
        return []
    g = gradient_bytes(a)
    out = [(1, 1.0)]
    for n in counts(f.domain_size, upto):
        if n > f.domain_size and f.scale_out_gbs is None:
            break
        e = estimate(f, "all-reduce", n, g, a.value("inter_domain_algorithm"))
        out.append((n, Step(share_s(compute_s, n, a), e.seconds, a.value("overlap")).efficiency))
    return out


def system(sheet: str, contract: dict, a: Assumptions, req: Request, specs: dict | None = None) -> dict:
    inp = read_inputs(sheet, contract, a)
    f = fabric(inp, a)
    sheet_tflops = None
    if req.tokens is not None and req.tflops is None and req.job is None:
        from .specs import read_specs

        sheet_tflops = (specs or read_specs(contract)).get("peak_tflops")
        if sheet_tflops is None:
            inp.missing.append(
                {
                    "input": "peak_tflops",
                    "why": "the sheet states no dense 16-bit peak compute per accelerator",
                    "ask": "ask for each accelerator's dense (not sparse) BF16 TFLOP/s",
                    "fill": "--tflops",
                }
            )
    compute_s, compute_how = step_compute_s(a, req, sheet_tflops)
    size = gradient_bytes(a) if req.training else req.message_bytes
    collective = "all-reduce" if req.training else req.collective
    per_node = inp.per_node_gbs(a.value("accelerators_per_node"))
    out = {
        "sheet": sheet,
        "kind": inp.kind,
        "inputs": {
            "scale_up_gbs": inp.scale_up_gbs,
            "domain_size": inp.domain_size,
            "scale_out_gbs_per_node": None if per_node is None else round(per_node, 4),
            "figures": inp.figures,
            "scale_out_gbs_per_accelerator": inp.scale_out_gbs,
            "accelerators_per_node": a.value("accelerators_per_node"),
            "scale_up_latency_us": inp.scale_up_latency_us,
            "scale_out_latency_us": inp.scale_out_latency_us,
            "how": inp.how,
            "assumed": inp.assumed,
        },
        "missing": inp.missing,
        "notes": inp.notes,
        "points": [
            _point(f, inp, n, collective, size, a, compute_s if req.training else None) for n in req.accelerators
        ],
    }
    if req.job is not None:
        from .training import job_block

        out["points"] = []
        out["training"] = job_block(req.job, inp, f, contract, a, specs)
        return out
    full = curve(f, a, compute_s, SEARCH_UPTO)
    shown = [(n, e) for n, e in full if n <= max(CURVE_UPTO, *req.accelerators)]
    out["training"] = {
        "collective": "all-reduce",
        "gradient_bytes": gradient_bytes(a),
        "compute_s": None if compute_s is None else _sig(compute_s, 5),
        "compute": compute_how,
        "overlap": a.value("overlap"),
        "batch_accelerators": a.value("batch_accelerators"),
        "curve": [{"accelerators": n, "efficiency": round(e, 4)} for n, e in shown],
        "reach": full[-1][0] if full else None,
        "below": {f"{m:g}": first_below(full, m) for m in a.value("efficiency_marks")},
        "domain_edge": inp.domain_size,
    }
    return out


def whatif(sheets: list[tuple[str, dict]], a: Assumptions, req: Request = Request(), specs: dict | None = None) -> dict:
    """The contract object for (sheet name, audit contract) pairs; specs: sheet name -> what a reader of its text
    found of the accelerator (peak compute, memory), for the training what-if."""
    specs = specs or {}
    doc = {
        "schema": SCHEMA,
        "note": NOTE,
        "assumptions": a.flat(),
        "assumption_details": {k: v.to_json() for k, v in a.items()},
        "request": {
            "accelerators": list(req.accelerators),
            "collective": "all-reduce" if req.training else req.collective,
            "message_bytes": gradient_bytes(a) if req.training else req.message_bytes,
            "training": req.training,
        },
        "systems": [system(name, c, a, req, specs.get(name)) for name, c in sheets],
    }
    if req.job is not None:
        doc["note"] = JOB_NOTE
        doc["job"] = req.job.source
        doc["request"]["job"] = req.job.name
        doc["ranking"] = ranking(doc["systems"])
    return doc


def ranking(systems: list[dict]) -> list[dict]:
    """The systems that run the job, fastest first (time to train when the job gives tokens, else step time);
    one that does not fit or lacks an input comes last, with why."""
    ok = [
        s for s in systems if s["training"].get("step_seconds") is not None and s["training"].get("fits") is not False
    ]
    ok.sort(key=lambda s: s["training"]["step_seconds"])
    out = [
        {
            "sheet": s["sheet"],
            "rank": i + 1,
            "step_seconds": s["training"]["step_seconds"],
            "tokens_per_second": s["training"]["tokens_per_second"],
            "mfu": s["training"]["mfu"],
            "time_to_train_days": s["training"].get("time_to_train_days"),
        }
        for i, s in enumerate(ok)
    ]
    out += [
        {
            "sheet": s["sheet"],
            "rank": None,
            "why": f"a {s['kind']} sheet, not a system"
            if s["kind"] in ("switch", "nic")
            else s["training"].get("unknown") or s["training"].get("not_fitting"),
        }
        for s in systems
        if s not in ok
    ]
    return out


SYSTEM_KINDS = ("server", "rack", "pod")


def for_report(sheets: list[tuple[str, dict]], a: Assumptions | None = None) -> dict | None:
    """The what-if the reports draw: default assumptions, the training step, for the systems among the sheets
    (a server, rack or pod sheet, or any sheet that gives a scale-up bandwidth and domain); None when there is none."""
    from .assumptions import load_assumptions

    a = a or load_assumptions()
    doc = whatif(sheets, a, Request(training=True))
    doc["systems"] = [s for s in doc["systems"] if s["kind"] in SYSTEM_KINDS or s["training"]["curve"]]
    return doc if doc["systems"] else None
