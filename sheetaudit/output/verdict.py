"""One plain-language sentence per sheet, for the person who signs the purchase.

It leads with what decides a purchase (the facility it needs, how fast traffic leaves the scale-up domain),
then names the most serious problem the sentence has not covered. Nothing in it is new: every number comes
from a figure or a derived value the report shows with its evidence.
"""

from __future__ import annotations

from ..records import SheetResult
from ..numfmt import num, ratio
from ..severity import RANK, zero_counts

SEVERITY_RANK = RANK  # noqa: F401  (text_out imports it from here)


def covered() -> set[str]:
    """The checks whose substance the sentence already states (rules/checks.yaml `verdict_clause`)."""
    from ..rules import load_rules

    return {code for code, c in load_rules().checks.items() if c.get("verdict_clause")}


# The audit's status (the `status` of sheetaudit/schema/sheetaudit-1.json; README, "Use"): one word a script or a buyer can act on, and how a
# person reads it. "incomplete" is never shown as clean, whatever the findings on the pages that were read.
STATUS_TEXT = {
    "fail": ("FAIL", "at least one error: do not buy on these figures until the vendor answers"),
    "review": ("REVIEW", "no error, but questions for the vendor before a decision"),
    "pass": ("PASS", "no warning or error"),
    "incomplete": ("INCOMPLETE", "the audit could not read the whole sheet; what it did not read was not checked"),
}


def facility_json(fac: dict | None) -> dict | None:
    """The facility profile the audit was checked against, as the contract records it (`facility`): its keys, the
    file it came from (`source`) and `text`, the line every output prints ("Hall B (hall.yaml): 140 kW per rack,
    air + liquid cooling")."""
    if not fac:
        return None
    out = {
        k: fac[k] for k in ("source", "name", "rack_power_kw", "cooling", "floor_load_kg_m2") if fac.get(k) is not None
    }
    if isinstance(out.get("cooling"), str):
        out["cooling"] = [out["cooling"]]
    if "name" in out:
        out["name"] = str(out["name"])
    said = []
    if "rack_power_kw" in out:
        said.append(f"{num(float(out['rack_power_kw']))} kW per rack")
    if out.get("cooling"):
        said.append(" + ".join(out["cooling"]) + " cooling")
    if "floor_load_kg_m2" in out:
        said.append(f"floor {num(float(out['floor_load_kg_m2']))} kg/m²")
    name = out.get("name") or out.get("source") or "your facility profile"
    if out.get("name") and out.get("source"):
        name += f" ({out['source']})"
    out["text"] = name + (": " + ", ".join(said) if said else "")
    return out


def unread(a: SheetResult) -> list[str]:
    """What the audit could not read, in words; empty when it read the whole sheet."""
    doc = a.document
    out = []
    pages = [p for p in doc.no_text_pages if p not in doc.ocr_pages]
    if pages:
        whole = len(pages) == doc.pages
        out.append(
            "the whole file has no text layer"
            if whole
            else f"page{'s' if len(pages) > 1 else ''} {', '.join(map(str, pages))} "
            f"ha{'ve' if len(pages) > 1 else 's'} no text layer and w{'ere' if len(pages) > 1 else 'as'} not read by OCR"
        )
    if doc.pages_read is not None:
        out.append(f"read the first {doc.pages_read} of {doc.pages} pages (--max-pages {doc.pages_read})")
    out.extend(f"page {p} could not be read ({why})" for p, why in sorted(doc.unread_pages.items()))
    return out


def status(a: SheetResult) -> str:
    """fail | review | pass | incomplete: incomplete wins whenever pages went unread or no figure was found."""
    if unread(a) or any(f.check == "sheet.no-figures" for f in a.findings):
        return "incomplete"
    c = counts(a)
    return "fail" if c["error"] else "review" if c["warning"] else "pass"


def counts(a: SheetResult) -> dict[str, int]:
    out = zero_counts()
    for f in a.findings:
        out[f.severity] = out.get(f.severity, 0) + 1
    return out


def _ratio_clause(a: SheetResult) -> str:
    ratios = [d.value for d in a.derived if d.name.startswith("scale-out : scale-up") and d.value]
    if not ratios:
        return ""
    lo, hi = min(ratios), max(ratios)
    if lo >= 1.5:
        share = ratio(lo) if ratio(lo) == ratio(hi) else f"{ratio(lo)} to {ratio(hi)}"
        return f"scale-out bandwidth per accelerator is {share} its scale-up bandwidth (check the tiers)"
    if hi >= 0.67:
        return "scale-out bandwidth per accelerator is about equal to its scale-up bandwidth"
    share = ratio(hi) if ratio(lo) == ratio(hi) else f"{ratio(hi)} to {ratio(lo)}"
    return f"scale-out bandwidth per accelerator is only {share} of its scale-up bandwidth"


def _power_clause(a: SheetResult, limit: float) -> str:
    codes = {f.check for f in a.findings}
    rack = [
        f
        for f in a.figures
        if f.quantity == "power"
        and f.scope == "per-rack"
        and isinstance((f.normalized or {}).get("value"), (int, float))
    ]
    cooling = {f.normalized["value"] for f in a.figures if f.quantity == "cooling" and f.normalized}
    liquid = bool(cooling & {"liquid", "immersion"}) or "power.liquid-cooling-required" in codes
    derived = next((d for d in a.derived if d.name.startswith("rack power")), None)
    facility = ""
    if "power.facility-exceeded" in codes:
        fac = a.facility or {}
        what = [
            f"{num(float(fac['rack_power_kw']))} kW per rack"
            if isinstance(fac.get("rack_power_kw"), (int, float))
            else "",
            f"{fac['cooling']} cooling" if isinstance(fac.get("cooling"), str) else "",
        ]
        what = ", ".join(w for w in what if w)
        facility = f"; it exceeds {fac.get('name') or 'your facility'}" + (f" ({what})" if what else "")
    if not facility and a.facility and (a.facility.get("rack_power_kw") or a.facility.get("cooling")):
        facility = f"; {a.facility.get('name') or 'your hall'} can take it"
    if rack:
        kw = max(f.normalized["value"] for f in rack)
        need = "needs liquid cooling" if (liquid or kw > limit) else "can be air-cooled"
        density = sorted(
            (f for f in a.findings if f.check == "power.rack-density"), key=lambda f: SEVERITY_RANK[f.severity]
        )
        if density:
            need = _says(density[0]) or need
        return f"the rack draws up to {num(kw)} kW and {need}{facility}"
    if derived:
        over = f", above the {num(limit)} kW air-cooling limit" if derived.value > limit else ""
        liq = ", and it needs liquid cooling" if liquid else ""
        return (
            f"a rack of typical density would draw about {num(derived.value)} kW (from node power){over}{liq}{facility}"
        )
    if liquid:
        return f"it needs liquid cooling{facility}"
    if "power.missing" in codes:
        return "the sheet states no power consumption"
    return ""


def _says(f) -> str:
    """What the finding means for the purchase, in a few words: its check's (or its case's) `verdict` in
    rules/checks.yaml, else its title."""
    from ..stages.s8_checks.ask import entry

    said = entry(f.check, (f.data or {}).get("case", "")).get("verdict") or ""
    return said


def verdict(a: SheetResult) -> str:
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
    rest = sorted(
        (f for f in a.findings if f.check not in covered() and f.severity != "info"),
        key=lambda f: SEVERITY_RANK[f.severity],
    )
    if rest and (rest[0].severity == "error" or len(parts) < 2):
        top = rest[0]
        title = _says(top) or top.title or load_rules().checks.get(top.check, {}).get("title", top.check)
        n = sum(1 for f in a.findings if f.check == top.check)
        more = f" ({n} times)" if n > 1 else ""
        lead = "the main problem" if top.severity == "error" else "the main caveat"
        parts.append(f"{lead}: {title[0].lower() + title[1:]}{more}")
    if "sheet.no-text" in codes:
        pages = sorted(
            {p for f in a.findings if f.check == "sheet.no-text" for p in f.pages} or a.document.no_text_pages
        )
        where = f"page {', '.join(map(str, pages))}" if pages else "part of the file"
        parts.append(f"{where} has no text layer and was not checked")
    if not parts:
        n = len(a.findings)
        parts.append(
            f"no problem found in {len(a.figures)} figure(s) read"
            if not n
            else f"{len(a.figures)} figure(s) read, {n} note(s)"
        )
    s = "; ".join(parts)
    return s[0].upper() + s[1:] + "."


def vendor_questions(findings) -> dict[str, list]:
    """Every question for the vendor, most severe first, each with the findings that ask it (errors and warnings:
    an info finding asks nothing); the report's "Ask the vendor" and the terminal's list read it."""
    out: dict[str, list] = {}
    ordered = sorted(findings, key=lambda f: SEVERITY_RANK[f.severity])
    for f in ordered:
        if f.severity in ("error", "warning") and not f.asked_in:
            out.setdefault(f.question or f.fix, []).append(f)
    for f in ordered:  # a doubt another check's question asks (one question per figure): listed under that one
        if f.severity in ("error", "warning") and f.asked_in:
            into = next((fs for fs in out.values() if any(g.check == f.asked_in for g in fs)), None)
            if into is not None:
                into.append(f)
    return out
