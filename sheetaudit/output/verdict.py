"""One plain-language sentence per sheet, for the person who signs the purchase.

It leads with what decides a purchase (the facility it needs, how fast traffic leaves the scale-up domain),
then names the most serious problem the sentence has not covered. Nothing in it is new: every number comes
from a figure or a derived value the report shows with its evidence.
"""
from __future__ import annotations

from ..model import Audit

SEVERITY_RANK = {"error": 0, "warning": 1, "info": 2}
# findings whose substance the sentence already states
COVERED = {"power.rack-density", "power.liquid-cooling-required", "bandwidth.scale-ratio", "power.per-node-only",
           "power.facility-exceeded", "power.missing", "sheet.no-text", "sheet.no-figures"}


def _kw(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def counts(a: Audit) -> dict[str, int]:
    out = {"error": 0, "warning": 0, "info": 0}
    for f in a.findings:
        out[f.severity] = out.get(f.severity, 0) + 1
    return out


def _ratio_clause(a: Audit) -> str:
    ratios = [d.value for d in a.derived if d.name.startswith("scale-out : scale-up") and d.value]
    if not ratios:
        return ""
    lo, hi = min(ratios), max(ratios)
    if lo >= 1.5:
        share = f"{lo:.1f}x" if round(lo, 1) == round(hi, 1) else f"{lo:.1f}x to {hi:.1f}x"
        return f"scale-out bandwidth per accelerator is {share} its scale-up bandwidth (check the tiers)"
    if hi >= 0.67:
        return "scale-out bandwidth per accelerator is about equal to its scale-up bandwidth"
    if round(1 / lo) == round(1 / hi):
        share = f"1/{1 / hi:.0f}"
    else:
        share = f"1/{1 / hi:.0f} to 1/{1 / lo:.0f}"
    return f"scale-out bandwidth per accelerator is only {share} of its scale-up bandwidth"


def _power_clause(a: Audit, limit: float) -> str:
    codes = {f.check for f in a.findings}
    rack = [f for f in a.figures if f.quantity == "power" and f.scope == "per-rack"
            and isinstance((f.normalized or {}).get("value"), (int, float))]
    cooling = {f.normalized["value"] for f in a.figures if f.quantity == "cooling" and f.normalized}
    liquid = bool(cooling & {"liquid", "immersion"}) or "power.liquid-cooling-required" in codes
    derived = next((d for d in a.derived if d.name.startswith("rack power")), None)
    facility = ""
    if "power.facility-exceeded" in codes:
        fac = a.facility or {}
        what = [f"{_kw(float(fac['rack_power_kw']))} kW per rack" if isinstance(fac.get("rack_power_kw"), (int, float))
                else "", f"{fac['cooling']} cooling" if isinstance(fac.get("cooling"), str) else ""]
        what = ", ".join(w for w in what if w)
        facility = f"; it exceeds {fac.get('name') or 'your facility'}" + (f" ({what})" if what else "")
    if rack:
        kw = max(f.normalized["value"] for f in rack)
        need = "needs liquid cooling" if (liquid or kw > limit) else "can be air-cooled"
        return f"the rack draws up to {_kw(kw)} kW and {need}{facility}"
    if derived:
        over = f", above the {_kw(limit)} kW air-cooling limit" if derived.value > limit else ""
        liq = ", and it needs liquid cooling" if liquid else ""
        return (f"a rack of typical density would draw about {_kw(derived.value)} kW (from node power)"
                f"{over}{liq}{facility}")
    if liquid:
        return f"it needs liquid cooling{facility}"
    if "power.missing" in codes:
        return "the sheet states no power consumption"
    return ""


def verdict(a: Audit) -> str:
    from ..rules import load_rules
    try:
        limit = load_rules().threshold("air_cooling_limit_kw")
    except Exception:
        limit = 40.0
    codes = {f.check for f in a.findings}
    if "sheet.no-figures" in codes and "sheet.no-text" in codes:
        return "The file has no text layer (a scan or image), so nothing in it could be read or checked."
    if "sheet.no-figures" in codes:
        return "No bandwidth, latency or power figure could be read from this sheet, so nothing in it was checked."
    parts = [p for p in (_ratio_clause(a), _power_clause(a, limit)) if p]
    rest = sorted((f for f in a.findings if f.check not in COVERED and f.severity != "info"),
                  key=lambda f: SEVERITY_RANK[f.severity])
    if rest and (rest[0].severity == "error" or len(parts) < 2):
        top = rest[0]
        title = load_rules().checks.get(top.check, {}).get("title", top.check)
        n = sum(1 for f in a.findings if f.check == top.check)
        more = f" ({n} times)" if n > 1 else ""
        lead = "the main problem" if top.severity == "error" else "the main caveat"
        parts.append(f"{lead}: {title[0].lower() + title[1:]}{more}")
    if "sheet.no-text" in codes:
        pages = sorted({p for f in a.findings if f.check == "sheet.no-text" for p in f.pages}
                       or a.document.no_text_pages)
        where = f"page {', '.join(map(str, pages))}" if pages else "part of the file"
        parts.append(f"{where} has no text layer and was not checked")
    if not parts:
        n = len(a.findings)
        parts.append(f"no problem found in {len(a.figures)} figure(s) read" if not n else
                     f"{len(a.figures)} figure(s) read, {n} note(s)")
    s = "; ".join(parts)
    return s[0].upper() + s[1:] + "."
