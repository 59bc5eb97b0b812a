"""One system read from several sheets (`scale gpu.pdf+server.pdf`): the accelerator's own sheet gives its compute
and memory, the server's or rack's sheet its interconnect. The interconnect comes from the first part that states a
scale-up bandwidth or domain, a system's sheet (server, rack, pod) first; each accelerator figure from the first part
that states it, and says which sheet."""

from __future__ import annotations

from pathlib import PurePath

from ..basis import interconnect
from .specs import read_specs


def split(arg: str, exists) -> list[str]:
    """The parts of a SHEET argument: 'a.pdf+b.pdf' names two sheets unless a file of that very name exists."""
    if "+" not in arg or exists(arg):
        return [arg]
    return [p for p in arg.split("+") if p]


def combine(parts: list[tuple[str, dict]], precision: str = "bf16") -> tuple[dict, dict]:
    """(the contract that gives the interconnect, the accelerator's specs) of parts (name, contract)."""
    from .training import _sheet_memory_gbs

    # the system's sheet (server, rack, pod) before an accelerator's, which also prints its links
    systems = [c for _, c in parts if c.get("sheet_kind") in ("server", "rack", "pod")]
    main = next(
        (c for c in systems + [c for _, c in parts] if (lambda ic: ic["scale_up"] or ic["domain"])(interconnect(c))),
        parts[0][1],
    )
    specs: dict = {"flags": []}
    for name, contract in parts:
        short = PurePath(name).name
        for key, got in read_specs(contract, precision).items():
            if key == "flags":
                specs["flags"] += [f"{short}: {f}" for f in got]
            elif key not in specs:
                specs[key] = (got[0], f"{got[1]} [{short}]")
        mem = _sheet_memory_gbs(contract)
        if mem and "memory_gbs" not in specs and contract is not main and not _sheet_memory_gbs(main):
            specs["memory_gbs"] = (mem[0], f"{mem[1]} [{short}]")
    return main, specs


def short_name(sheet: str) -> str:
    """A system's name for a table: each part's file name ('h100.pdf+hgx.pdf')."""
    return "+".join(PurePath(p).name for p in sheet.split("+"))
