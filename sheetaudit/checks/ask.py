"""What to ask the vendor about each finding, in words a vendor's engineer can answer from their own data ("Is the
900 GB/s on page 5 per GPU or per pair of cards, and per direction or both directions added?"), and apart from it
what the buyer should check themselves. A check may word its own question (it knows the arithmetic); the others
are worded here from the finding's figures. No question names a command of this tool: the vendor does not run it.
"""
from __future__ import annotations

from ..model import Figure, Finding
from . import ask_where, fmt

SCOPE_WORD = {"per-accelerator": "accelerator", "per-node": "server", "per-domain": "domain", "per-rack": "rack",
              "per-switch": "switch", "per-port": "port", "per-link": "link", "per-device": "device",
              "per-cluster": "cluster", "per-lane": "lane"}
ACCELERATOR = {"NVLink": "GPU", "NVSwitch": "GPU"}


def _list(figs: list[Figure], most: int = 3) -> str:
    shown = [ask_where(f) for f in figs[:most]]
    more = len(figs) - most
    text = ", ".join(shown[:-1]) + (" and " if len(shown) > 1 else "") + shown[-1] if shown else "the figures"
    return text + (f" (and {more} more like them)" if more > 0 else "")


def _unique(figs: list[Figure]) -> list[Figure]:
    seen, out = set(), []
    for f in figs:
        if (f.text, f.page) not in seen:
            seen.add((f.text, f.page))
            out.append(f)
    return out


def _acc(f: Figure) -> str:
    return ACCELERATOR.get(f.technology, "accelerator")


def _direction(figs: list[Figure]) -> str:
    out = []
    for f in figs[:3]:
        where = ask_where(f)
        if "scope" in f.inferred and f.scope == "per-accelerator":
            out.append(f"Is {where} per {_acc(f)} or for a pair or group of them, and per direction or both "
                       "directions added?")
        elif "scope" in f.inferred and f.scope in SCOPE_WORD:
            out.append(f"Is {where} per {SCOPE_WORD[f.scope]} or a total over several, and per direction or "
                       "both directions added?")
        else:
            out.append(f"Is {where} per direction, or both directions added?")
    if len(figs) > 3:
        out.append(f"The same for {_list(figs[3:], 4)}.")
    return " ".join(out)


def _question(x: Finding, figs: list[Figure], sheet, doc) -> tuple[str, str]:
    """(question for the vendor, what the buyer checks themselves) for one finding."""
    c = x.check
    f = figs[0] if figs else None
    kind = getattr(sheet, "kind", "") or "system"
    product = {"server": "server", "rack": "rack", "pod": "system", "switch": "switch", "nic": "adapter",
               "accelerator": "accelerator"}.get(kind, "system")
    if c == "tier.unclassified":
        return (f"Which network do {_list(figs)} belong to: the accelerator-to-accelerator (scale-up) fabric, the "
                "cluster (scale-out) network between servers, or the front-end / storage network?", "")
    if c == "tier.domain-size-missing":
        tech = next((g.technology for g in figs if g.technology), "scale-up")
        return (f"How many accelerators share one {tech} domain (all connected to each other at the stated "
                f"bandwidth), and does that domain reach beyond one {product}?", "")
    if c == "tier.aggregate-figure" and f:
        where = SCOPE_WORD.get(f.scope, "system")
        what = "port" if kind in ("switch", "nic") else _acc(f)
        return (f"Is {ask_where(f)} the total for the whole {where}? What is it per {what}, and per direction?", "")
    if c == "tier.mixed-sum" and f:
        return (f"Which links make up {ask_where(f)}? Please give the scale-up and scale-out bandwidth separately, "
                "each per direction.", "")
    if c == "bandwidth.direction-unspecified":
        doubtful = [g for g in figs if "direction" in g.inferred] or figs
        return _direction(_unique(doubtful)), ""
    if c == "bandwidth.unit-ambiguous":
        return (f"Is {_list(_unique(figs))} in gigabits or in gigabytes per second?", "")
    if c == "bandwidth.aggregate-mismatch" and f:
        return (f"How is {ask_where(f)} computed: which ports, at which speed, and are both directions added?", "")
    if c == "bandwidth.exceeds-technology" and f:
        return (f"Is {ask_where(f)} per link, per port or per accelerator, per direction or both directions added, "
                "and at which generation does the link run?", "")
    if c == "bandwidth.host-bottleneck" and f:
        return (f"Which PCIe generation and width connect {ask_where(f)} to the host, and what throughput does the "
                "port reach between host memory and the network?", "")
    if c == "latency.basis-unspecified":
        return (f"Is {_list(_unique(figs))} measured inside the {('switch' if kind == 'switch' else 'device')} (port "
                "to port), or host to host through the software stack? At which message size?", "")
    if c == "latency.hardware-only":
        return ("What is the end-to-end latency, host to host through the network adapter and software stack, and "
                "at which message size and with which benchmark was it measured?", "")
    if c == "latency.conditions-missing":
        return (f"At which message size, with which benchmark and software stack (library and version) was "
                f"{_list(_unique(figs))} measured?", "")
    if c == "latency.mixed-basis":
        return (f"Of {_list(_unique(figs))}, which are measured port to port in the hardware and which host to "
                "host through the software stack?", "")
    if c == "latency.no-rdma":
        return ("Does the scale-out network run an RDMA transport (RoCE v2 with PFC/ECN, InfiniBand, or another), "
                "and what end-to-end latency does it reach?", "")
    if c == "power.rack-density" and f:
        f = max(figs, key=lambda g: (g.normalized or {}).get("value") or 0)    # the highest rack power it names
        kw = f.normalized["value"] if f.normalized else None
        return (f"What does one rack need at {ask_where(f)}: cooling (liquid loop, supply temperature, flow), power "
                "feeds and distribution? Is a lower-density configuration offered?",
                f"Check that your hall can feed and cool {fmt(kw)} kW in one rack; air removes about 40 kW per rack."
                if isinstance(kw, (int, float)) else "Check that your hall can feed and cool the rack.")
    if c == "power.liquid-cooling-required":
        return ("What does the liquid cooling need from the facility (coolant distribution unit, supply temperature, "
                "flow rate, connections), and is an air-cooled version offered?",
                "Check that the hall has liquid cooling (CDU, facility water) before ordering.")
    if c == "power.per-node-only":
        return (f"What is the power of a full rack of these {product}s, and how many fit in one rack?",
                "Check the derived rack power against your rack budget.")
    if c == "power.missing":
        return (f"What is the maximum and typical power consumption of one {product} (and of a full rack)?", "")
    if c == "power.facility-exceeded":
        return ("Is a configuration offered that fits a hall with the power and cooling of ours?",
                "This sheet exceeds your facility profile: choose another hall or configuration.")
    if c == "tier.domain-exceeds-technology" and f:
        return (f"Which system joins {ask_where(f)} in one scale-up domain at full bandwidth? Does part of it run "
                "over the scale-out network?", "")
    if c == "sheet.no-text":
        pages = ", ".join(map(str, x.pages)) if x.pages else "some pages"
        return (f"Could you send the document with a text layer? Page{'s' if len(x.pages) > 1 else ''} {pages} "
                "are images only.", "Figures on image-only pages were not audited: read them yourself.")
    if c == "sheet.no-figures":
        return ("Could you send the product's specification sheet with its bandwidth, latency and power figures?",
                "Check that the file is the product's specification sheet.")
    return "", ""


def word(findings: list[Finding], figs: list[Figure], sheet, doc) -> None:
    """Fill in each finding's question (unless its check worded one) and what the buyer checks."""
    by_id = {f.id: f for f in figs}
    for x in findings:
        own = [by_id[i] for i in x.figures if i in by_id]
        q, buyer = _question(x, own, sheet, doc)
        if not x.question:
            x.question = q
        if not x.buyer:
            x.buyer = buyer
