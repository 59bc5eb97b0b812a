"""A system's interconnect on one basis, read from its contract JSON (so a cached audit needs nothing else):
per-accelerator scale-up and scale-out GB/s per direction, their ratio, the scale-out port speed and the scale-up
domain size. The batch comparison and the scaling what-if both read a sheet through this one function.

Each value is a cell: {"value", "how": "stated" | "derived", "text": the printed figure, "note": the arithmetic}.
A value the audit derived (divided from a total, read through the sheet's scale-out : scale-up ratio) says so.
"""

from __future__ import annotations

from .numfmt import num as fmt_num, ratio as fmt_ratio, significant


def norm(f: dict):
    """A figure's normalised number, or None (cooling methods and unparsed values are not numbers)."""
    n = f.get("normalized") or {}
    v = n.get("value")
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _sig(v: float, digits: int = 3) -> float:
    """A value read back through a rounded ratio: keep the digits the ratio carries."""
    return float(f"{v:.{digits}g}") if v else v


def cell(value, how="stated", text="", note="", figures=()):
    """A value with its provenance; the ids of the figures it comes from where there are some."""
    c = {"value": value, "how": how, "text": text, "note": note}
    ids = [i for i in figures if i]
    if ids:
        c["figures"] = ids
    return c


def _per_acc(figs, byid, derived, tier):
    stated = [
        (v, f)
        for f in figs
        if f["quantity"] == "bandwidth" and f.get("tier") == tier and f.get("scope") == "per-accelerator"
        for v in [norm(f)]
        if v is not None
    ]
    if stated:
        v, f = max(stated, key=lambda x: x[0])
        return cell(
            v, "stated", f["text"], f"{f['text']} (p{f.get('page')}) = {fmt_num(v)} GB/s per direction", [f.get("id")]
        )
    eq = [
        (d["value"], d)
        for d in derived
        if d.get("name", "").startswith("per-accelerator equivalent of")
        and d.get("figures")
        and byid.get(d["figures"][0], {}).get("tier") == tier
    ]
    if eq:
        v, d = max(eq, key=lambda x: x[0])
        return cell(v, "derived", byid[d["figures"][0]]["text"], d.get("arithmetic", ""), d["figures"][:1])
    return None


def _engine_per_acc(derived, byid, tier):
    d = next((d for d in derived if d.get("name") == f"{tier} per accelerator, per direction"), None)
    if not d or not isinstance(d.get("value"), (int, float)):
        return None
    fid = (d.get("figures") or [None])[0]
    f = byid.get(fid, {})
    v = norm(f)
    stated = f.get("scope") == "per-accelerator" and v is not None and abs(v - d["value"]) <= 1e-6 * max(1.0, v)
    return cell(d["value"], "stated" if stated else "derived", f.get("text", ""), d.get("arithmetic", ""), [fid])


def _largest(figs, quantity, tier, scope=None):
    got = [
        (v, f)
        for f in figs
        if f["quantity"] == quantity and f.get("tier") == tier and (scope is None or f.get("scope") == scope)
        for v in [norm(f)]
        if v is not None
    ]
    if not got:
        return None
    v, f = max(got, key=lambda x: x[0])
    return cell(v, "stated", f["text"], f"{f['text']} (p{f.get('page')})", [f.get("id")])


def interconnect(contract: dict) -> dict:
    """scale_up, scale_out (per accelerator, GB/s per direction), ratio, port (scale-out per port) and domain
    (scale-up accelerators): each a cell or None."""
    figs = [f for f in contract.get("figures", []) if isinstance(f, dict)]
    byid = {f.get("id"): f for f in figs}
    derived = contract.get("derived", []) or []
    up, out = _per_acc(figs, byid, derived, "scale-up"), _per_acc(figs, byid, derived, "scale-out")
    ratio = None
    engine = next((d for d in derived if d.get("name", "").startswith("scale-out : scale-up")), None)
    eu, eo = _engine_per_acc(derived, byid, "scale-up"), _engine_per_acc(derived, byid, "scale-out")
    if eu and eo:
        # The engine's own per-accelerator pair (the one its scale-out : scale-up ratio was computed from).
        up, out = eu, eo
        if engine and engine.get("value"):
            ratio = cell(engine["value"], "derived", "", engine.get("arithmetic", ""))
    elif engine and len(engine.get("figures", [])) == 2 and engine.get("value") and not (up and out):
        # One side is known only through the engine's ratio (e.g. 8 NIC ports per 8 GPUs): fill it from the ratio.
        r = engine["value"]
        fu, fs = (byid.get(i, {}) for i in engine["figures"])
        if up and not out:
            out = cell(
                _sig(up["value"] * r), "derived", fs.get("text", ""), engine.get("arithmetic", ""), [fs.get("id")]
            )
        elif out and not up:
            up = cell(
                _sig(out["value"] / r), "derived", fu.get("text", ""), engine.get("arithmetic", ""), [fu.get("id")]
            )
        if up and out:
            ratio = cell(r, "derived", "", engine.get("arithmetic", ""))
    if ratio is None and up and out and up["value"]:
        r = out["value"] / up["value"]
        ratio = cell(
            significant(r),
            "derived",
            "",
            f"scale-out {fmt_num(out['value'])} GB/s / scale-up {fmt_num(up['value'])} GB/s = {r:.3f} ({fmt_ratio(r)})"
            if r
            else "",
        )
    return {
        "scale_up": up,
        "scale_out": out,
        "ratio": ratio,
        "port": _largest(figs, "bandwidth", "scale-out", "per-port"),
        "domain": _largest(figs, "domain_size", "scale-up"),
    }
