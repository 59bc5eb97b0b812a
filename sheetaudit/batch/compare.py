"""Side by side on one basis: one comparison row per audited sheet, computed from its contract JSON (so a cached
result needs nothing else), and the findings that only a batch can raise: what a side-by-side reading gets wrong.

Every value is per direction, in GB/s, per accelerator unless the column says otherwise; a value the audit derived
(divided from a total, read through the sheet's scale-out : scale-up ratio, rack power from node power) carries
its arithmetic and is marked as derived.
"""

from __future__ import annotations

from ..basis import cell as _cell
from ..contract import product_of
from ..basis import interconnect
from ..numfmt import num as fmt_num, ratio as fmt_ratio, significant  # noqa: F401  (the index imports them from here)
from ..basis import norm as _norm
from ..severity import SEVERITIES

SYSTEM_KINDS = ("server", "rack", "pod")
BASES = ("hardware", "end-to-end", "unspecified")
BASIS_WORDS = {
    "hardware": "hardware (port-to-port/ASIC)",
    "end-to-end": "end-to-end (through the software stack)",
    "unspecified": "basis unstated",
}


def _checks() -> dict:
    """The cross-sheet checks, declared with the per-sheet ones in rules/checks.yaml (section `comparison`)."""
    from ..rules import load_rules

    return load_rules().comparison


def fmt_latency(ns: float) -> str:
    return f"{fmt_num(ns)} ns" if ns < 1000 else f"{fmt_num(ns / 1000)} µs"


def sheet_row(rel: str, contract: dict, report: str | None) -> dict:
    figs = [f for f in contract.get("figures", []) if isinstance(f, dict)]
    derived = contract.get("derived", []) or []
    row = {"sheet": rel, "report": report, "kind": contract.get("sheet_kind", "unknown"), "title": product_of(contract)}
    row.update(interconnect(contract))
    _mark_inferred(row, contract)
    lat = {b: [] for b in BASES}
    for f in figs:
        if f["quantity"] == "latency" and _norm(f) is not None:
            lat[f.get("basis") if f.get("basis") in BASES else "unspecified"].append((_norm(f), f))
    row["latency"] = {}
    for b, items in lat.items():
        if items:
            vals = sorted(v for v, _ in items)
            shown = fmt_latency(vals[0]) if vals[0] == vals[-1] else f"{fmt_latency(vals[0])} – {fmt_latency(vals[-1])}"
            row["latency"][b] = {
                "value": vals[0],
                "shown": shown,
                "note": "; ".join(
                    f"{f['text']} ({f.get('tier') or 'tier unknown'}, p{f.get('page')})" for _, f in items[:6]
                ),
            }
    power = [f for f in figs if f["quantity"] == "power" and _norm(f) is not None]
    node = [f for f in power if f.get("scope") == "per-node"]
    rack = [f for f in power if f.get("scope") == "per-rack"]
    row["accelerator_power"] = _max_cell([f for f in power if f.get("scope") == "per-accelerator"])
    row["node_power"] = _max_cell(node)
    row["rack_power"] = _max_cell(rack)
    if not rack:
        d = next((d for d in derived if d.get("name", "").startswith("rack power")), None)
        if d:
            row["rack_power"] = _cell(d["value"], "derived", "", d.get("arithmetic", ""))
    row["cooling"] = sorted({str(_norm_str(f)) for f in figs if f["quantity"] == "cooling" and _norm_str(f)})
    row["switch"] = _switch(figs) if row["kind"] == "switch" else {}
    counts = (contract.get("summary") or {}).get("findings") or {}
    if not counts:
        counts = {s: sum(1 for x in contract.get("findings", []) if x.get("severity") == s) for s in SEVERITIES}
    row["findings"] = {s: int(counts.get(s, 0)) for s in SEVERITIES}
    row["figures"] = len(figs)
    row["status"] = contract.get("status") or _status(row["findings"], figs, contract.get("source") or {})
    row["compare"] = []
    return row


def _switch(figs) -> dict:
    """A switch sheet's own figures: capacity (GB/s per direction), its counted ports and their speed, its power
    (the largest stated: what the hall must feed)."""

    def top(quantity, scope):
        vals = [
            v
            for f in figs
            if f["quantity"] == quantity and f.get("scope") == scope and f.get("tier") in (None, "scale-out")
            for v in [_norm(f)]
            if v is not None
        ]
        return max(vals) if vals else None

    counted = [
        (f.get("count"), _norm(f))
        for f in figs
        if f["quantity"] == "bandwidth"
        and f.get("scope") == "per-port"
        and f.get("tier") == "scale-out"
        and f.get("count")
        and _norm(f) is not None
    ]
    ports, speed = max(counted, key=lambda x: (x[1], x[0])) if counted else (None, top("bandwidth", "per-port"))
    return {
        "capacity_gbs": top("bandwidth", "per-switch"),
        "ports": ports,
        "port_gbs": speed,
        "power_kw": top("power", "per-switch"),
    }


def _mark_inferred(row: dict, contract: dict) -> None:
    """A derived cell (†) resting on an inferred figure, or on a derived value the audit marks inferred, says so
    (`inferred`: why); the index shows it in its table but never charts it as the sheet's figure."""
    byid = {f.get("id"): f for f in contract.get("figures", []) if isinstance(f, dict)}
    derived = [d for d in contract.get("derived", []) or [] if isinstance(d, dict)]
    for key in ("scale_up", "scale_out", "ratio"):
        c = row.get(key)
        if not c or c.get("how") != "derived":
            continue
        why = [
            f"{byid[i].get('text')} (p{byid[i].get('page')}): {byid[i].get('certainty_reason', '')}"
            for i in c.get("figures", [])
            if byid.get(i, {}).get("certainty") == "inferred"
        ]
        why += [
            d.get("certainty_reason", "")
            for d in derived
            if d.get("certainty") == "inferred" and d.get("arithmetic") and d.get("arithmetic") == c.get("note")
        ]
        if key == "ratio":
            why += [row[k]["inferred"] for k in ("scale_up", "scale_out") if row.get(k) and row[k].get("inferred")]
        if why:
            c["inferred"] = "; ".join(dict.fromkeys(w for w in why if w))


STATUS_ORDER = {"fail": 0, "incomplete": 1, "review": 2, "pass": 3}  # the index sorts worst first


def _status(counts: dict, figs: list, source: dict) -> str:
    """A contract from before the status field (an old cache entry): the same rule, from what it holds."""
    unread = set(source.get("no_text_pages") or []) - set(source.get("ocr_pages") or [])
    if not figs or unread:
        return "incomplete"
    return "fail" if counts["error"] else "review" if counts["warning"] else "pass"


def _norm_str(f):
    v = (f.get("normalized") or {}).get("value")
    return v if isinstance(v, str) else None


def _max_cell(figs):
    if not figs:
        return None
    f = max(figs, key=_norm)
    return _cell(_norm(f), "stated", f["text"], f"{f['text']} (p{f.get('page')})")


def _is_system(row, contract) -> bool:
    """A server, rack or pod sheet; a sheet of unknown kind with a scale-up domain or per-accelerator scale-up
    bandwidth. An accelerator card, a switch or a NIC is none: no rack power or cooling is asked of it."""
    if row["kind"] in SYSTEM_KINDS:
        return True
    if row["kind"] != "unknown":
        return False
    figs = contract.get("figures", [])
    return any(f["quantity"] == "domain_size" and f.get("tier") == "scale-up" for f in figs) or any(
        f["quantity"] == "bandwidth" and f.get("tier") == "scale-up" and f.get("scope") == "per-accelerator"
        for f in figs
    )


def _names(rows):
    names = [r["sheet"] for r in rows]
    return ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")


def _listed(pairs) -> str:
    """Sheets each with what it prints, as a message lists them: 'a.pdf (130 ns), b.pdf (2 µs)'."""
    return ", ".join(f"{sheet} ({shown})" for sheet, shown in pairs)


def _finding(code, rows, data: dict, parts: dict | None = None):
    """A cross-sheet finding of CODE about ROWS: its words are the check's `message` in rules/checks.yaml (PARTS
    chooses its optional clauses, its `each` words one of data["items"]), rendered over DATA."""
    from ..stages.s8_checks.wording import compose, render

    c = _checks()[code]
    message = render(compose(code, c, "", parts), data, c.get("each", ""))
    for r in rows:
        if code not in r["compare"]:
            r["compare"].append(code)
    return {
        "check": code,
        "step": c["step"],
        "severity": c["severity"],
        "title": c["title"],
        "sheets": [r["sheet"] for r in rows],
        "message": message,
        "why": c["why"],
        "fix": c["fix"],
        "question": c.get("question", ""),
    }


_READ = ("quantity", "tier", "scope", "direction", "text", "value", "unit", "normalized")


def compared(contract: dict) -> dict:
    """What compare() reads of a contract besides its row, small whatever the sheet's length: of its bandwidth and
    domain figures the first of each quantity, tier, scope and printed direction basis, in order (compare asks
    which of these a sheet has, and quotes the first), with the fields compare reads."""
    seen, figures = set(), []
    for f in contract.get("figures", []):
        if f.get("quantity") not in ("bandwidth", "domain_size"):
            continue
        key = (f.get("quantity"), f.get("tier"), f.get("scope"), printed_as(f))
        if key not in seen:
            seen.add(key)
            figures.append({k: f[k] for k in _READ if k in f})
    return {"figures": figures}


def compare(items: list[tuple[dict, dict]]) -> list[dict]:
    """Cross-sheet findings over (row, contract) pairs of the audited sheets; marks each row with the codes."""
    out = []
    if len(items) < 2:
        return out
    out.extend(_latency_basis(items))
    out.extend(_scopes(items))
    out.extend(_directions(items))
    out.extend(_omissions(items))
    return out


def _latency_basis(items):
    by_basis = {b: [] for b in BASES}
    for row, _ in items:
        for b, cell in row["latency"].items():
            by_basis[b].append((row, cell))
    present = [b for b in BASES if by_basis[b]]
    sheets = {b: {r["sheet"] for r, _ in by_basis[b]} for b in present}
    # Two bases side by side in the index means two sheets: one sheet that states a hardware and an end-to-end
    # latency is not compared with itself (its own report keeps them apart).
    if not any(s1 != s2 for b1 in present for b2 in present if b1 != b2 for s1 in sheets[b1] for s2 in sheets[b2]):
        return []
    items = [
        {"basis": BASIS_WORDS[b], "sheets": _listed((r["sheet"], c["shown"]) for r, c in by_basis[b][:6])}
        for b in present
    ]
    rows = list({id(r): r for b in present for r, _ in by_basis[b]}.values())
    return [_finding("compare.latency-mixed-basis", rows, {"items": items})]


SCOPE_WORDS = {
    "per-port": "per port",
    "per-node": "per node",
    "per-switch": "per switch",
    "per-domain": "per domain",
    "per-rack": "per rack",
    "per-link": "per link",
    "per-lane": "per lane",
    "per-device": "per device",
    "per-cluster": "per cluster",
    "unspecified": "with no scope",
}


def _scopes(items):
    out = []
    for tier, key in (("scale-up", "scale_up"), ("scale-out", "scale_out")):
        comparable, other, divided = [], [], []
        for row, contract in items:
            figs = [f for f in contract.get("figures", []) if f["quantity"] == "bandwidth" and f.get("tier") == tier]
            if not figs:
                continue
            if row[key]:
                comparable.append(row)
                if row[key]["how"] == "derived":
                    divided.append(row)
            else:
                scopes = sorted({f.get("scope") or "unspecified" for f in figs})
                other.append((row, scopes, figs[0]["text"]))
        if comparable and other:
            each = [
                {"scopes": [SCOPE_WORDS.get(s, s) for s in scopes], "sheet": r["sheet"], "text": text}
                for r, scopes, text in other[:8]
            ]
            data = {"tier": tier, "comparable": _names(comparable), "items": each, "divided": _names(divided)}
            rows = [r for r, _, _ in other] + divided
            out.append(_finding("compare.scope-mismatch", rows, data, {"total": tier, "divided": bool(divided)}))
    return out


_UNIT_GBS = {
    "B/s": 1e-9,
    "KB/s": 1e-6,
    "MB/s": 1e-3,
    "GB/s": 1.0,
    "TB/s": 1e3,
    "b/s": 1.25e-10,
    "Kb/s": 1.25e-7,
    "Mb/s": 1.25e-4,
    "Gb/s": 0.125,
    "Tb/s": 125.0,
    "Gbps": 0.125,
    "Tbps": 125.0,
    "Mbps": 1.25e-4,
    "GbE": 0.125,
    "GE": 0.125,
    "G": 0.125,
}


def printed_as(f) -> str | None:
    """'both' when the printed number is a both-directions total that the audit halved, 'one' when it was already
    per direction, None when that cannot be told from the contract (signalling rates, divided totals)."""
    v, n = f.get("value"), _norm(f)
    k = _UNIT_GBS.get(str(f.get("unit") or ""))
    if not isinstance(v, (int, float)) or not v or n is None or k is None:
        return None
    q = n / (v * k)
    return "both" if abs(q - 0.5) < 0.01 else "one" if abs(q - 1) < 0.01 else None


def _directions(items):
    """The printed numbers of one column on different direction bases: 1.8 TB/s (both directions) beside
    400 GB/s (one direction) reads as 4.5x where the links differ 2.25x."""
    out = []
    for tier in ("scale-up", "scale-out"):
        both, one = {}, {}
        for row, contract in items:
            for f in contract.get("figures", []):
                if (
                    f["quantity"] != "bandwidth"
                    or f.get("tier") != tier
                    or f.get("scope") not in ("per-accelerator", "per-port", "per-link")
                ):
                    continue
                how = printed_as(f)
                stated = "stated" if f.get("direction") == "bidirectional" else "by convention"
                if how == "both":
                    both.setdefault(row["sheet"], (row, f"{f['text']} (bidirectional {stated})"))
                elif how == "one":
                    one.setdefault(row["sheet"], (row, f["text"]))
        if not both or not (set(one) - set(both)):
            continue
        rows = list({id(r): r for d in (both, one) for r, _ in d.values()}.values())
        data = {
            "tier": tier,
            "both": _listed((s, t) for s, (_, t) in list(both.items())[:6]),
            "one": _listed((s, t) for s, (_, t) in list(one.items())[:6] if s not in both),
        }
        out.append(_finding("compare.direction-mixed", rows, data))
    return out


def _omissions(items):
    out = []
    systems = [(r, c) for r, c in items if _is_system(r, c)]
    stated = [r for r, _ in systems if r["rack_power"] and r["rack_power"]["how"] == "stated"]
    missing = [r for r, _ in systems if not (r["rack_power"] and r["rack_power"]["how"] == "stated")]
    if stated and missing:
        est = [{"sheet": r["sheet"], "kw": r["rack_power"]["value"]} for r in missing if r["rack_power"]]
        data = {"stated": _names(stated), "missing": _names(missing), "items": est}
        out.append(_finding("compare.rack-power-omitted", missing, data, {"estimates": bool(est)}))
    scaleup = [
        (r, c)
        for r, c in items
        if any(f["quantity"] == "bandwidth" and f.get("tier") == "scale-up" for f in c.get("figures", []))
    ]
    with_dom = [r for r, _ in items if r["domain"]]
    no_dom = [r for r, _ in scaleup if not r["domain"]]
    if with_dom and no_dom:
        data = {"stated": _names(with_dom), "missing": _names(no_dom)}
        out.append(_finding("compare.domain-size-omitted", no_dom, data))
    cooled = [r for r, _ in systems if r["cooling"]]
    uncooled = [r for r, _ in systems if not r["cooling"]]
    if cooled and uncooled:
        data = {"stated": _names(cooled), "missing": _names(uncooled)}
        out.append(_finding("compare.cooling-omitted", uncooled, data))
    return out
