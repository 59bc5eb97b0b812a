"""What the model needs from one audited sheet, read from its contract JSON through basis.interconnect (the same
reading as the batch comparison): per-accelerator scale-up bandwidth per direction, the scale-up domain size, the
per-accelerator scale-out bandwidth, and an end-to-end latency where the sheet states one.

An input the sheet does not give is listed as missing with the question to ask the vendor, unless the user
filled it with an assumption; then it is marked assumed. Nothing is guessed silently."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..basis import fmt_num, interconnect, norm
from .assumptions import Assumptions

QUESTIONS = {
    "scale_up_gbs": (
        "the sheet states no per-accelerator scale-up bandwidth",
        "ask for each accelerator's scale-up (NVLink/UALink/xGMI/HCCS) bandwidth per direction",
    ),
    "domain_size": ("the sheet states no scale-up domain size", "ask how many accelerators share one scale-up domain"),
    "scale_out_gbs": (
        "the sheet states no scale-out bandwidth",
        "ask for NICs per node and their rate (or the scale-out bandwidth per accelerator)",
    ),
}


@dataclass
class Inputs:
    sheet: str
    scale_up_gbs: float | None = None  # per accelerator, per direction, line rate (before efficiency)
    domain_size: int | None = None
    scale_out_gbs: float | None = None  # per accelerator, per direction, line rate
    scale_up_latency_us: float | None = None  # from the sheet (end-to-end), else None
    scale_out_latency_us: float | None = None
    figures: list[str] = field(default_factory=list)
    how: dict = field(default_factory=dict)  # input -> "stated: ..." | "derived: ..." | "assumed: ..."
    assumed: list[str] = field(default_factory=list)
    missing: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    kind: str = "unknown"

    def per_node_gbs(self, accelerators_per_node: int) -> float | None:
        return None if self.scale_out_gbs is None else self.scale_out_gbs * accelerators_per_node


def _take(inp: Inputs, name: str, c: dict | None):
    value = (c or {}).get("value")
    if not (isinstance(value, (int, float)) and 0 < value < float("inf")):
        return None  # a zero or damaged figure is no input: the model says it is unknown
    inp.figures.extend(i for i in c.get("figures", []) if i not in inp.figures)
    inp.how[name] = f"{c['how']}: {c.get('note') or c.get('text') or fmt_num(c['value'])}"
    return c["value"]


def _assume(inp: Inputs, name: str, value, why: str):
    inp.assumed.append(name)
    inp.how[name] = f"assumed: {why}"
    return value


def _latency(figs: list[dict], tier: str):
    """The smallest end-to-end latency the sheet states for the tier (µs) and its figure: vendors quote a best case,
    and the model's step latency is a best case too."""
    got = [
        (norm(f) / 1000.0, f)
        for f in figs
        if f.get("quantity") == "latency"
        and f.get("tier") == tier
        and f.get("basis") == "end-to-end"
        and norm(f) is not None
        and norm(f) > 0
    ]
    return min(got, key=lambda x: x[0]) if got else (None, None)


def read_inputs(sheet: str, contract: dict, a: Assumptions) -> Inputs:
    inp = Inputs(sheet=sheet, kind=contract.get("sheet_kind", "unknown"))
    ic = interconnect(contract)
    figs = [f for f in contract.get("figures", []) if isinstance(f, dict)]

    if a.value("scale_up_gbs") is not None:
        inp.scale_up_gbs = _assume(inp, "scale_up_gbs", a.value("scale_up_gbs"), "--assume scale_up_gbs")
    else:
        inp.scale_up_gbs = _take(inp, "scale_up_gbs", ic["scale_up"])

    if a.value("domain_size") is not None:
        inp.domain_size = _assume(inp, "domain_size", int(a.value("domain_size")), "--assume domain_size")
    else:
        v = _take(inp, "domain_size", ic["domain"])
        inp.domain_size = int(v) if v else None

    port = ic["port"]
    if a.value("scale_out_gbs") is not None:
        inp.scale_out_gbs = _assume(inp, "scale_out_gbs", a.value("scale_out_gbs"), "--assume scale_out_gbs")
    elif ic["scale_out"]:
        inp.scale_out_gbs = _take(inp, "scale_out_gbs", ic["scale_out"])
    elif port and a.value("nics_per_accelerator") is not None:
        k = a.value("nics_per_accelerator")
        inp.figures.extend(i for i in port.get("figures", []) if i not in inp.figures)
        inp.scale_out_gbs = _assume(
            inp,
            "scale_out_gbs",
            port["value"] * k,
            f"{port['text']} = {fmt_num(port['value'])} GB/s per port x {k:g} NICs per "
            f"accelerator (--assume nics_per_accelerator)",
        )

    for tier, key in (("scale-up", "scale_up_latency_us"), ("scale-out", "scale_out_latency_us")):
        us, f = _latency(figs, tier)
        if us is None:
            continue
        if a.user_set(key):
            inp.notes.append(
                f"the sheet's end-to-end {tier} latency {f['text']} is not used: --assume {key} replaces it"
            )
            continue
        setattr(inp, key, us)
        if f.get("id") and f["id"] not in inp.figures:
            inp.figures.append(f["id"])
        inp.how[key] = f"stated: {f['text']} (p{f.get('page')}), end-to-end"
    hw = [f for f in figs if f.get("quantity") == "latency" and f.get("basis") == "hardware"]
    if hw and inp.scale_out_latency_us is None:
        inp.notes.append(
            f"the sheet's hardware latency ({hw[0]['text']}) is one hop through a switch chip, not a "
            f"host-to-host step; the step latency is the stated default instead"
        )

    for name in ("scale_up_gbs", "domain_size", "scale_out_gbs"):
        if getattr(inp, name) is None:
            why, ask = QUESTIONS[name]
            if name == "scale_out_gbs" and port:
                why = (
                    f"the sheet states the NIC port speed ({port['text']}) but not how many NICs serve each accelerator"
                )
            inp.missing.append(
                {
                    "input": name,
                    "why": why,
                    "ask": ask,
                    "fill": f"--assume {'nics_per_accelerator' if name == 'scale_out_gbs' and port else name}=VALUE",
                }
            )
    return inp
