"""Headline figures a system sheet must give: a scale-up or scale-out fabric the sheet names, with no bandwidth
for it. A buyer cannot compare such a system with any other; it is a question for the vendor, not a clean bill."""

from __future__ import annotations

from ...technologies import load, technology
from . import bw, finding

SYSTEM_KINDS = ("server", "rack", "pod")


def _named(doc, tier: str, sheet) -> list[str]:
    """The fabrics of TIER the sheet names (the knowledge base's names; a scale-up link the sheet itself says
    joins its domain). Scale-out counts only fabrics that are one (InfiniBand, RoCE, a vendor's RDMA transport),
    not Ethernet, which a server sheet names for its management port."""
    kb = load()
    found: dict[str, None] = {}
    for s in doc.segments:
        name = technology(s.text)
        t = kb.get(name) if name else None
        if t is not None and t.tier == tier and (tier == "scale-up" or t.rdma):
            found[t.name] = None
    if tier == "scale-up":
        found.update(dict.fromkeys(getattr(sheet, "scale_up_links", ()) or ()))
    return list(found)


def run(figs, sheet, doc, facility):
    if sheet.kind not in SYSTEM_KINDS:
        return []
    out = []
    for tier, word in (("scale-up", "scale-up"), ("scale-out", "scale-out")):
        names = _named(doc, tier, sheet)
        if names and not bw(figs, tier):
            out.append(
                finding(
                    "bandwidth.headline-missing",
                    data={"tier": word, "fabric": ", ".join(names[:3])},
                )
            )
    return out
