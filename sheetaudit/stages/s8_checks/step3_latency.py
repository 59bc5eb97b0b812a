"""Step 3, latency basis: hardware (ASIC, port-to-port) kept apart from end-to-end (through the stack)."""

from __future__ import annotations

from functools import lru_cache

from ...rules import load_rules, rx
from . import finding, shown, words


def run(figs, sheet, doc, facility):
    out = []
    lat = [f for f in figs if f.quantity == "latency"]
    if not lat:
        return out
    unspecified = [f for f in lat if f.basis == "unspecified"]
    if unspecified:
        out.append(
            finding(
                "latency.basis-unspecified",
                unspecified,
                data={"items": [shown(f) for f in unspecified]},
            )
        )
    hw = [f for f in lat if f.basis == "hardware"]
    e2e = [f for f in lat if f.basis == "end-to-end"]
    if hw and not e2e:
        switch = sheet.kind == "switch"
        out.append(
            finding(
                "latency.hardware-only",
                hw,
                data={"stated": list(dict.fromkeys(f.text for f in hw))},
                parts={"switch": switch},
            )
        )
        if switch:
            out[-1].severity = "info"  # a switch has no end-to-end latency of its own to ask its vendor for
    cond = rx(load_rules().vocab["latency_conditions"])
    # its row label, sentence, a test table's condition column, and the note its basis was read from
    bare = [
        f
        for f in e2e
        if not _conditions(
            cond, f.label, f.segment.text if f.segment else f.context, f.segment.row if f.segment else "", f.reading
        )
    ]
    if bare:
        out.append(
            finding(
                "latency.conditions-missing",
                bare,
                data={"items": [shown(f) for f in bare]},
            )
        )
    by_seg = {}
    for f in lat:
        by_seg.setdefault(id(f.segment), []).append(f)
    for group in by_seg.values():
        bases = {f.basis for f in group}
        if len(bases) > 1 and group[0].segment and words("compare").search(group[0].segment.text):
            out.append(
                finding(
                    "latency.mixed-basis",
                    group,
                    data={"items": [{"figure": f.text, "basis": f.basis, "ns": f.normalized["value"]} for f in group]},
                )
            )
    return out


def _conditions(cond, label: str, text: str, row, reading: str) -> bool:
    """Whether `cond` finds a condition in the figure's words. The sentence part is searched once per sentence,
    not once per latency in it (a dense paragraph was quadratic); only what joins it to the figure's
    own note is searched again."""
    if _in_sentence(cond, label, text, str(row)):
        return True
    joint = f"{label} {text[-_REACH:]} {row} "[-_REACH:]  # the sentence's end, as the joined words end
    return cond.search(joint + f"{reading}") is not None


_REACH = 200  # longer than any condition phrase ("8 KB messages with NCCL over RoCE")


@lru_cache(maxsize=1024)
def _in_sentence(cond, label: str, text: str, row: str) -> bool:
    return cond.search(f"{label} {text} {row} ") is not None
