"""Each requirement against one sheet's contract: the values the sheet allows for it, and what they say.

A requirement is decided on every reading the sheet allows, not on the audit's preferred one: a bandwidth with no
stated direction is read both as per direction and as both directions added; a sheet that prints several rack
powers (configurations) is read at each. All readings meet: `meets`; none: `falls-short` (with the figure and page);
some: `uncertain`, with the question that settles it. Nothing to read: `not-stated`, with the question for the
vendor. The efficiency requirement is the scaling what-if's (a model on stated assumptions), said so in `basis`.
Figures are read from the contract's data (normalised values, direction, certainty, page), never from a message."""

from __future__ import annotations

from ..basis import interconnect, norm
from ..numfmt import num
from .load import spec

RESULTS = ("meets", "falls-short", "uncertain", "not-stated", "not-applicable")
OPS = {"min": ("≥", lambda v, limit: v >= limit - 1e-9), "max": ("≤", lambda v, limit: v <= limit + 1e-9)}


def evaluate(req: dict, contract: dict, sheet: str = "", assumptions=None, training: dict | None = None) -> dict:
    """The contract's `requirements` section: one result per requirement, in the file's order. training: the
    system's job what-if (`scale --job`), which the requirements on the buyer's own job are judged on."""
    keys = spec()["keys"]
    kind = contract.get("sheet_kind") or "unknown"
    ctx = _Sheet(contract, sheet or (contract.get("source") or {}).get("path", ""), assumptions)
    ctx.training = training
    results = []
    for key, want in req["keys"].items():
        s = keys[key]
        base = {
            "key": key,
            "requirement": s["label"],
            "wanted": wanted_text(key, want, s),
            "unit": s.get("unit") or None,
        }
        if kind not in s.get("applies_to", [kind]) and kind != "unknown":
            got = {
                "result": "not-applicable",
                "why": f"a {kind} sheet: the requirement concerns "
                f"{', '.join(k for k in s['applies_to'] if k != 'unknown')} sheets",
            }
        else:
            got = EVALUATORS[key](want, s, ctx)
        results.append(_shaped({**base, **got}))
    counts = {r: sum(1 for x in results if x["result"] == r) for r in RESULTS}
    outcome = (
        "falls-short" if counts["falls-short"] else "open" if counts["uncertain"] + counts["not-stated"] else "meets"
    )
    return {
        "name": req.get("name") or "",
        "source": req.get("source") or "",
        "outcome": outcome,
        "counts": counts,
        "results": results,
    }


def wanted_text(key: str, want, s: dict) -> str:
    if s["kind"] == "required":
        return "required"
    if s["kind"] == "methods":
        return " or ".join(want)
    op = "min" if "min" in want else "max"
    unit = s.get("unit") or ""
    tail = " per direction" if s.get("quantity") == "bandwidth" else ""
    at = f" at {num(want['at'])} accelerators" if "at" in want else ""
    return f"{OPS[op][0]} {num(want[op])}{' ' + unit if unit else ''}{tail}{at}"


def _shaped(r: dict) -> dict:
    """Every result carries the same fields, in one order (the schema's), null where they do not apply."""
    order = (
        "key",
        "requirement",
        "wanted",
        "result",
        "value",
        "value_text",
        "unit",
        "readings",
        "text",
        "page",
        "figures",
        "basis",
        "why",
        "question",
    )
    out = {k: r.get(k) for k in order}
    out["figures"] = r.get("figures") or []
    out["basis"] = r.get("basis") or "sheet"
    return out


class _Sheet:
    """What the evaluators read from one contract, computed once."""

    def __init__(self, contract: dict, sheet: str, assumptions):
        self.contract = contract
        self.sheet = sheet
        self.assumptions = assumptions
        self.figures = [f for f in contract.get("figures", []) if isinstance(f, dict)]
        self.byid = {f.get("id"): f for f in self.figures}
        self.findings = [f for f in contract.get("findings", []) if isinstance(f, dict)]
        self.derived = [d for d in contract.get("derived", []) or [] if isinstance(d, dict)]
        self._ic = None

    @property
    def ic(self) -> dict:
        if self._ic is None:
            self._ic = interconnect(self.contract)
        return self._ic

    def finding(self, code: str) -> dict | None:
        return next((f for f in self.findings if f.get("check") == code), None)


def _where(f: dict) -> str:
    return f"{f.get('text')} (p{f.get('page')})" if f.get("page") else str(f.get("text"))


def _decide(values: list[float], op: str, limit: float) -> str:
    ok = [OPS[op][1](v, limit) for v in values]
    return "meets" if all(ok) else "falls-short" if not any(ok) else "uncertain"


def _range_text(values: list[float]) -> str:
    """The value(s) as compliance.csv and the matrix print them, without the unit (a column of its own)."""
    lo, hi = min(values), max(values)
    return num(lo) if lo == hi else f"{num(lo)}–{num(hi)}"


def direction_readings(cell: dict, byid: dict) -> tuple[list[float], dict]:
    """The per-direction values a bandwidth cell allows, and its figure. A figure whose direction the sheet does
    not state ('900 GB/s per GPU') is either per direction or both directions added: the audit took one reading
    by its technology's convention; the other is twice or half it."""
    v = float(cell["value"])
    f = byid.get((cell.get("figures") or [None])[0]) or {}
    if "direction" not in (f.get("inferred") or {}):
        return [v], f
    n = norm(f)
    try:
        from ..units import convert

        printed = convert("bandwidth", f["value"], f["unit"])
    except (KeyError, TypeError, ValueError):
        return [v], f
    if not n or not printed:
        return [v], f
    halved = abs(n * 2 - printed) <= 1e-6 * printed
    return sorted({v, v * 2 if halved else v / 2}), f


def _bandwidth(tier: str, question_key: str):
    def run(want, s, ctx: _Sheet) -> dict:
        from ..atscale.inputs import QUESTIONS

        cell = ctx.ic[tier]
        limit = want["min"]
        if not cell:
            port = ctx.ic["port"] if tier == "scale_out" else None
            q = (
                f"The sheet gives the network port speed ({port['note']}) but not how many ports serve each "
                f"accelerator: how many NICs (ports) per accelerator, at what rate per direction?"
                if port
                else s["ask"]
            )
            return {"result": "not-stated", "why": QUESTIONS[question_key][0], "question": q}
        values, f = direction_readings(cell, ctx.byid)
        result = _decide(values, "min", limit)
        doubt = _doubt(f)
        if result == "falls-short" and doubt:
            result = "uncertain"
        out = {
            "result": result,
            "value": cell["value"],
            "value_text": _range_text(values),
            "readings": values if len(values) > 1 else None,
            "text": f.get("text") or cell.get("text"),
            "page": f.get("page"),
            "figures": cell.get("figures") or [],
        }
        how = cell.get("note") or ""
        if len(values) > 1:
            lo, hi = values
            out["why"] = (
                f"{_where(f)} states no direction: {num(hi)} GB/s each way if it is per direction, "
                f"{num(lo)} GB/s if both directions are added"
            )
            if result == "uncertain":
                out["question"] = (
                    f"Is the {f.get('text')} on page {f.get('page')} the rate in each direction, or "
                    f"both directions added? Per direction it meets {num(limit)} GB/s; added, it "
                    f"gives {num(lo)} GB/s each way."
                )
        else:
            out["why"] = how or f"{_where(f)} = {num(cell['value'])} GB/s per direction"
        if doubt and result == "uncertain" and not out.get("question"):
            out["why"] += f"; read by inference ({doubt})"
            out["question"] = (
                f"Is {_where(f)} per accelerator and per direction? Read that way it gives "
                f"{_range_text(values)} GB/s, short of {num(limit)} GB/s; {doubt}."
            )
        return out

    return run


def _doubt(f: dict) -> str:
    """Why a figure's reading is not the sheet's own, in the aspects a shortfall rests on (its tier, scope, value
    or model; a direction the sheet does not state is tried both ways already): '' when it is stated."""
    inferred = {k: v for k, v in (f.get("inferred") or {}).items() if k != "direction"}
    return "; ".join(f"{k}: {v}" for k, v in inferred.items())


KEY_OF_INPUT = {"scale_up_gbs": "scale_up_gbs", "domain_size": "scale_up_domain", "scale_out_gbs": "scale_out_gbs"}


def _domain(want, s, ctx: _Sheet) -> dict:
    from ..atscale.inputs import QUESTIONS

    cell = ctx.ic["domain"]
    if not cell:
        return {"result": "not-stated", "why": QUESTIONS["domain_size"][0], "question": s["ask"]}
    f = ctx.byid.get((cell.get("figures") or [None])[0]) or {}
    v = float(cell["value"])
    out = {
        "result": _decide([v], "min", want["min"]),
        "value": v,
        "value_text": num(v),
        "text": f.get("text"),
        "page": f.get("page"),
        "figures": cell.get("figures") or [],
        "why": f"{_where(f)}: {num(v)} accelerators share one scale-up domain",
    }
    doubt = _doubt(f)
    if out["result"] == "falls-short" and doubt:
        out.update(
            result="uncertain",
            why=out["why"] + f"; read by inference ({doubt})",
            question=f"How many accelerators share one scale-up domain? The sheet's {_where(f)} reads as "
            f"{num(v)}, fewer than {num(want['min'])}; {doubt}.",
        )
    return out


def _latency(want, s, ctx: _Sheet) -> dict:
    """Hardware latency is part of an end-to-end one, so an end-to-end or unstated-basis latency within the limit
    meets it too; one above the limit leaves the hardware part unknown."""
    limit = want["max"]
    lat = [(norm(f) / 1000.0, f) for f in ctx.figures if f.get("quantity") == "latency" and norm(f) is not None]
    groups = {
        b: [x for x in lat if x[0] > 0 and (x[1].get("basis") or "unspecified") == b]
        for b in ("hardware", "unspecified", "end-to-end")
    }
    ask = (
        "What is the hardware (port-to-port, ASIC) latency of the configuration you offer, and at which port "
        "speed and packet size?"
    )
    if groups["hardware"]:
        got = groups["hardware"]
        values = [v for v, _ in got]
        result = _decide(values, "max", limit)
        best = min(got, key=lambda x: x[0]) if result == "falls-short" else max(got, key=lambda x: x[0])
        out = _latency_result(result, best, values, got)
        out["why"] = f"hardware latency {', '.join(_where(f) for _, f in got[:4])}"
        if result == "uncertain":
            out["question"] = (
                f"The sheet gives several hardware latencies ({out['value_text']} µs): which applies to "
                f"the configuration you offer (port speed, mode)?"
            )
        return out
    for basis in ("unspecified", "end-to-end"):
        got = groups[basis]
        if not got:
            continue
        v, f = min(got, key=lambda x: x[0])
        if v <= limit + 1e-12:
            out = _latency_result("meets", (v, f), [v], [(v, f)])
            out["why"] = (
                f"{_where(f)} ({'basis not stated' if basis == 'unspecified' else 'end-to-end'}) is within "
                f"{num(limit)} µs, and the hardware latency is part of it"
            )
            return out
        if basis == "unspecified":
            out = _latency_result("uncertain", (v, f), [v], [(v, f)])
            out["why"] = f"{_where(f)} does not say whether it is hardware (port to port) or end-to-end"
            out["question"] = (
                f"Is the {f.get('text')} on page {f.get('page')} the hardware (port-to-port) latency "
                f"or end-to-end through the software stack? As hardware latency it is above "
                f"{num(limit)} µs."
            )
            return out
    return {
        "result": "not-stated",
        "question": ask,
        "why": "the sheet states no hardware latency"
        + (
            " (its end-to-end latency is above the limit and says nothing of the hardware part)"
            if groups["end-to-end"]
            else ""
        ),
    }


def _latency_result(result, chosen, values, got) -> dict:
    v, f = chosen
    return {
        "result": result,
        "value": round(v, 6),
        "value_text": _range_text(values),
        "text": f.get("text"),
        "page": f.get("page"),
        "figures": [x.get("id") for _, x in got if x.get("id")][:8],
        "readings": sorted(values) if len(values) > 1 else None,
    }


def _rdma(want, s, ctx: _Sheet) -> dict:
    import re
    from ..technologies import load

    kb = load()
    no = ctx.finding("latency.no-rdma")
    if no:  # silence is not a shortfall: the sheet never says the network has no RDMA
        figs = [ctx.byid[i] for i in no.get("figures") or [] if i in ctx.byid]
        f = figs[0] if figs else {}
        return {
            "result": "not-stated",
            "text": f.get("text"),
            "page": f.get("page"),
            "figures": no.get("figures") or [],
            "why": "the scale-out network is Ethernet and the sheet names no RDMA transport",
            "question": (
                f"The sheet gives Ethernet ports ({_where(f)}) but names no RDMA transport: does the "
                "network run RoCE v2 (with PFC/ECN) or another RDMA transport, with GPUDirect RDMA to "
                "the accelerators?"
                if f
                else s.get("ask") or ""
            ),
        }
    for f in ctx.figures:
        t = kb.get(f.get("technology") or "")
        if t is not None and t.rdma:
            return {
                "result": "meets",
                "value": t.name,
                "value_text": t.name,
                "text": f.get("text"),
                "page": f.get("page"),
                "figures": [f.get("id")],
                "why": f"{_where(f)} is {t.name}",
            }
    title = (ctx.contract.get("source") or {}).get("title") or ""
    for f in ctx.figures + [{"context": title}]:
        words = f"{f.get('context') or ''} {f.get('label') or ''}"
        for p in kb.rdma_transports:
            m = re.search(p, words)
            if m:
                return {
                    "result": "meets",
                    "value": m.group(0),
                    "value_text": m.group(0),
                    "text": f.get("text"),
                    "page": f.get("page"),
                    "figures": [f["id"]] if f.get("id") else [],
                    "why": f"the sheet names {m.group(0)}" + (f" beside {_where(f)}" if f.get("text") else ""),
                }
    return {
        "result": "not-stated",
        "why": "the figures read name no RDMA transport",
        "question": "Does the scale-out network run an RDMA transport (InfiniBand, RoCE v2 with PFC/ECN, or "
        "another), with GPUDirect RDMA to the accelerators?",
    }


def _rack_power(want, s, ctx: _Sheet) -> dict:
    limit = want["max"]
    rack = [
        (norm(f), f)
        for f in ctx.figures
        if f.get("quantity") == "power" and f.get("scope") == "per-rack" and norm(f) is not None
    ]
    if rack:
        values = [v for v, _ in rack]
        result = _decide(values, "max", limit)
        v, f = min(rack, key=lambda x: x[0]) if result == "falls-short" else max(rack, key=lambda x: x[0])
        out = {
            "result": result,
            "value": v,
            "value_text": _range_text(values),
            "text": f.get("text"),
            "page": f.get("page"),
            "figures": [x.get("id") for _, x in rack][:8],
            "readings": sorted(set(values)) if len(set(values)) > 1 else None,
            "why": "rack power " + ", ".join(dict.fromkeys(_where(x) for _, x in rack)),
        }
        if result == "uncertain":
            out["question"] = (
                f"The sheet gives rack powers of {out['value_text']} kW: which configuration do you "
                f"offer, and what does its rack draw at full load?"
            )
        return out
    d = next((d for d in ctx.derived if d.get("name") == "rack power for typical nodes per rack"), None)
    if d and isinstance(d.get("value"), (int, float)):
        f = ctx.byid.get((d.get("figures") or [None])[0]) or {}
        node = norm(f)
        if node is not None and node > limit:
            return {
                "result": "falls-short",
                "value": node,
                "value_text": num(node),
                "text": f.get("text"),
                "page": f.get("page"),
                "figures": d.get("figures") or [],
                "why": f"one node alone draws {_where(f)}",
            }
        return {
            "result": "uncertain",
            "value": d["value"],
            "value_text": num(d["value"]),
            "text": f.get("text"),
            "page": f.get("page"),
            "figures": d.get("figures") or [],
            "basis": "assumption",
            "why": f"only node power is given: {d.get('arithmetic')}",
            "question": (
                f"The sheet gives node power only ({_where(f)}): how many nodes per rack do you "
                f"propose, and what does the rack draw at full load?"
            ),
        }
    return {
        "result": "not-stated",
        "why": "the sheet gives no rack or node power",
        "question": "What does one rack draw at full load (kW) in the configuration you offer?",
    }


def _cooling(want, s, ctx: _Sheet) -> dict:
    accepted = set(want)
    cool = [
        f
        for f in ctx.figures
        if f.get("quantity") == "cooling" and isinstance((f.get("normalized") or {}).get("value"), str)
    ]
    need = ctx.finding("power.liquid-cooling-required")
    if need:
        needed_figs = [
            ctx.byid[i] for i in need.get("figures") or [] if ctx.byid.get(i, {}).get("quantity") == "cooling"
        ]
        needed = {f["normalized"]["value"] for f in needed_figs} or {"liquid"}
        f = needed_figs[0] if needed_figs else ctx.byid.get((need.get("figures") or [None])[0]) or {}
        ok = needed & accepted
        return {
            "result": "meets" if ok else "falls-short",
            "value": " or ".join(sorted(needed)),
            "value_text": " or ".join(sorted(needed)),
            "text": f.get("text"),
            "page": f.get("page"),
            "figures": need.get("figures") or [],
            "why": f"the sheet needs {' or '.join(sorted(needed))} cooling" + (f" ({_where(f)})" if f else ""),
        }
    if cool:
        methods = list(dict.fromkeys(f["normalized"]["value"] for f in cool))
        ok = [m for m in methods if m in accepted]
        f = next((x for x in cool if x["normalized"]["value"] in ok), cool[0])
        return {
            "result": "meets" if ok else "falls-short",
            "value": " or ".join(methods),
            "value_text": " or ".join(methods),
            "text": f.get("text"),
            "page": f.get("page"),
            "figures": [x.get("id") for x in cool][:8],
            "why": f"the sheet states {_where(f)}",
        }
    return {
        "result": "not-stated",
        "why": "the sheet states no cooling method",
        "question": "How is it cooled (air, direct liquid / cold plate, immersion), and what does it need from "
        "the hall (airflow, coolant supply temperature and flow)?",
    }


def _efficiency(want, s, ctx: _Sheet) -> dict:
    """The what-if's data-parallel step efficiency at `at` accelerators, on every reading of the bandwidths it
    rests on. It is a model on stated assumptions (basis: model), not a measurement."""
    from ..atscale.assumptions import load_assumptions
    from ..atscale.whatif import Request, system

    a = ctx.assumptions or load_assumptions()
    at, limit = want["at"], want["min"]
    if not a.user_set("batch_accelerators"):
        # the what-if holds a global batch fixed; the requirement asks about a job whose batch is sized for `at`
        a = a.with_overrides({"batch_accelerators": at}, "the requirement's count")
    req = Request(accelerators=(at,), training=True)
    first = system(ctx.sheet, ctx.contract, a, req)
    p = first["points"][0]
    if p.get("efficiency") is None:
        missing = first.get("missing") or []
        return {
            "result": "not-stated",
            "basis": "model",
            "why": "the what-if cannot run: " + "; ".join(m["why"] for m in missing) if missing else p.get("unknown"),
            "question": " ".join(
                spec()["keys"][KEY_OF_INPUT[m["input"]]]["ask"] for m in missing if m["input"] in KEY_OF_INPUT
            )
            or None,
        }
    ups = [None]
    outs = [None]
    if first["inputs"].get("scale_up_gbs") is not None and "scale_up_gbs" not in first["inputs"].get("assumed", []):
        ups = direction_readings(ctx.ic["scale_up"], ctx.byid)[0] if ctx.ic["scale_up"] else [None]
    if (
        first["inputs"].get("scale_out_gbs_per_accelerator") is not None
        and ctx.ic["scale_out"]
        and "scale_out_gbs" not in first["inputs"].get("assumed", [])
    ):
        outs = direction_readings(ctx.ic["scale_out"], ctx.byid)[0]
    values = []
    for u in ups:
        for o in outs:
            over = {
                k: v
                for k, v in (("scale_up_gbs", u), ("scale_out_gbs", o))
                if v is not None and (len(ups) > 1 or len(outs) > 1)
            }
            got = (
                system(ctx.sheet, ctx.contract, a.with_overrides(over, "the requirement's readings"), req)
                if over
                else first
            )
            eff = got["points"][0].get("efficiency")
            if eff is not None:
                values.append(eff)
    values = sorted(set(values)) or [p["efficiency"]]
    result = _decide(values, "min", limit)
    assumed = p.get("assumed") or []
    if assumed and result != "falls-short":
        result = "uncertain"
    out = {
        "result": result,
        "value": min(values),
        "value_text": _range_text([round(v, 3) for v in values]),
        "readings": values if len(values) > 1 else None,
        "figures": first["inputs"].get("figures") or [],
        "basis": "model",
        "why": (
            f"scaling what-if at {num(at)} accelerators ({first['training']['compute']} on each of "
            f"{num(first['training']['batch_accelerators'])}, the global batch; "
            f"paced by {p.get('bottleneck') or p.get('regime') or '?'}): a model on its stated assumptions, not a "
            f"measurement" + (f"; rests on assumed {', '.join(assumed)}" if assumed else "")
        ),
    }
    if result == "uncertain":
        out["question"] = (
            "The step efficiency depends on how the bandwidth is read: what does each accelerator "
            "send per direction over the scale-up link and over the network?"
            if len(values) > 1
            else "The inputs rest on assumptions: what are the per-direction scale-up and scale-out "
            "bandwidths per accelerator?"
        )
    return out


def _job(field: str, op: str):
    """A requirement on the buyer's training job: judged on the job what-if of `scale --job` (a model, basis
    model); without a job it is not stated, and says how to judge it."""

    def judge(want, s, ctx: _Sheet) -> dict:
        t = getattr(ctx, "training", None)
        if t is None or "job" not in t:
            return {
                "result": "not-stated",
                "basis": "model",
                "why": "a requirement on your training job: judged by 'sheetaudit scale SHEET --job job.yaml "
                "--require FILE'",
                "question": s["ask"],
            }
        got = t.get(field)
        if want.get("tokens") and t.get("tokens_per_second"):  # the requirement's own tokens to train
            got = float(f"{want['tokens'] / t['tokens_per_second'] / 86400:.4g}")
        if got is None:
            why = t.get("unknown") or (
                "neither the job file nor the requirement gives tokens to train"
                if field == "time_to_train_days"
                else "the job was not modelled"
            )
            return {"result": "not-stated", "basis": "model", "why": why, "question": s["ask"]}
        value, limit = got, want[op]
        result = _decide([value], op, limit)
        assumed = [k for k, how in (t.get("hardware_how") or {}).items() if how.startswith("assumed")]
        why = (
            f"the job what-if at {num(t['accelerators'])} accelerators, layout "
            f"{' '.join(f'{k} {v}' for k, v in t['layout'].items())}: a model on its stated assumptions, not a "
            f"measurement" + (f"; rests on assumed {', '.join(assumed)}" if assumed else "")
        )
        out = {"result": result, "value": value, "value_text": num(value), "basis": "model", "why": why}
        if t.get("fits") is False:
            out.update(result="falls-short", why=t.get("not_fitting") or "no layout fits in memory")
        elif assumed and result == "meets":
            out.update(result="uncertain", question=s["ask"])
        return out

    return judge


EVALUATORS = {
    "tokens_per_second": _job("tokens_per_second", "min"),
    "time_to_train_days": _job("time_to_train_days", "max"),
    "scale_up_gbs": _bandwidth("scale_up", "scale_up_gbs"),
    "scale_out_gbs": _bandwidth("scale_out", "scale_out_gbs"),
    "scale_up_domain": _domain,
    "hardware_latency_us": _latency,
    "rdma": _rdma,
    "rack_power_kw": _rack_power,
    "cooling": _cooling,
    "efficiency": _efficiency,
}
