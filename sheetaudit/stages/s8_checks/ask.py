"""What to ask the vendor about each finding, in words a vendor's engineer can answer from their own data ("Is the
900 GB/s on page 5 per GPU or per pair of cards, and per direction or both directions added?"), and apart from it
what the buyer should check themselves. The words are each check's `question` and `buyer` in rules/checks.yaml
(a `cases` entry may word its own); this module supplies the values they name, from the finding's figures:

    question: "Is {figure} the total for the whole {total_of}? What is it per {one_of}, and per direction?"

A check may word its own question (it knows the arithmetic): that one is kept. No question names a command of this
tool: the vendor does not run it.
"""

from __future__ import annotations

from ...errors import RulesError
from ...records import Figure, Finding
from ...rules import load_rules
from ...technologies import load as knowledge
from ...numfmt import fmt
from . import ask_where

SCOPE_WORD = {
    "per-accelerator": "accelerator",
    "per-node": "server",
    "per-domain": "domain",
    "per-rack": "rack",
    "per-switch": "switch",
    "per-port": "port",
    "per-link": "link",
    "per-device": "device",
    "per-cluster": "cluster",
    "per-lane": "lane",
}
PRODUCT = {
    "server": "server",
    "rack": "rack",
    "pod": "system",
    "switch": "switch",
    "nic": "adapter",
    "accelerator": "accelerator",
}


def _list(figs: list[Figure], most: int = 3) -> str:
    shown = [ask_where(f) for f in figs[:most]]
    more = len(figs) - most
    text = ", ".join(shown[:-1]) + (" and " if len(shown) > 1 else "") + shown[-1] if shown else "the figures"
    return text + (f" (and {more} more like them)" if more > 0 else "")


def _unique(figs: list[Figure]) -> list[Figure]:
    seen, out = set(), []
    for f in figs:
        key = ("".join(f.text.split()).lower(), f.page)  # "14.4 TB/s" and "14.4TB/s" on one page: one figure
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def _acc(f: Figure | None) -> str:
    return knowledge().accelerator_word(f.technology) if f else "accelerator"


def _direction(figs: list[Figure]) -> str:
    out = []
    for f in figs[:3]:
        where = ask_where(f)
        if "scope" in f.inferred and f.scope == "per-accelerator":
            out.append(
                f"Is {where} per {_acc(f)} or for a pair or group of them, and per direction or both directions added?"
            )
        elif "scope" in f.inferred and f.scope in SCOPE_WORD:
            out.append(
                f"Is {where} per {SCOPE_WORD[f.scope]} or a total over several, and per direction or "
                "both directions added?"
            )
        else:
            out.append(f"Is {where} per direction, or both directions added?")
    if len(figs) > 3:
        out.append(f"The same for {_list(figs[3:], 4)}.")
    return " ".join(out)


def _top(figs: list[Figure]) -> Figure | None:
    """The figure with the highest normalised value (the highest rack power a finding names)."""
    valued = [g for g in figs if isinstance((g.normalized or {}).get("value"), (int, float))]
    return max(valued, key=lambda g: g.normalized["value"]) if valued else (figs[0] if figs else None)


class _Values(dict):
    """The values a question may name, each worked out only when named."""

    def __init__(self, makers: dict, code: str):
        super().__init__()
        self.makers, self.code = makers, code

    def __missing__(self, key):
        if key not in self.makers:
            raise RulesError(
                f"rules/checks.yaml: {self.code}: the question names {{{key}}}, which is none of "
                f"{', '.join(sorted(self.makers))}"
            )
        self[key] = value = self.makers[key]()
        return value


def values(x: Finding, figs: list[Figure], sheet) -> dict:
    """Every value a check's question or buyer line may name (rules/checks.yaml header lists them)."""
    kind = getattr(sheet, "kind", "") or "system"
    f = figs[0] if figs else None
    unique = _unique(figs)
    top = _top(figs)
    d = x.data or {}
    makers = {
        "figure": lambda: ask_where(f) if f else "the figure",
        "figures": lambda: _list(unique),
        "top_figure": lambda: ask_where(top) if top else "the figure",
        "top_kw": lambda: (
            fmt(top.normalized["value"])
            if top and isinstance((top.normalized or {}).get("value"), (int, float))
            else "that many"
        ),
        "directions": lambda: _direction(_unique([g for g in figs if "direction" in g.inferred] or figs)),
        "product": lambda: PRODUCT.get(kind, "system"),
        "tech": lambda: next((g.technology for g in figs if g.technology), "scale-up"),
        "total_of": lambda: SCOPE_WORD.get(f.scope, "system") if f else "system",
        "one_of": lambda: "port" if kind in ("switch", "nic") else _acc(f),
        "inside": lambda: "switch" if kind == "switch" else "device",
        "pages": lambda: ", ".join(map(str, x.pages)) if x.pages else "some",
        "pages_s": lambda: "s" if len(x.pages) > 1 else "",
        "limit_kw": lambda: fmt(d["limit_kw"]) if isinstance(d.get("limit_kw"), (int, float)) else "40",
        "hall": lambda: str(d.get("hall") or "your hall"),
        "fabric": lambda: str(d.get("fabric") or "the fabric"),
        "tier": lambda: str(d.get("tier") or "scale-up"),
    }
    return _Values(makers, x.check)


def entry(code: str, case: str = "") -> dict:
    """The check's entry in rules/checks.yaml (a cross-sheet one too), with its CASE's words over its own."""
    r = load_rules()
    c = r.explain(code) or {}
    if case:
        c = {**c, **((c.get("cases") or {}).get(case) or {})}
    return c


def question(x: Finding, figs: list[Figure], sheet) -> tuple[str, str]:
    """(question for the vendor, what the buyer checks themselves) for one finding, from its check's entry."""
    c = entry(x.check, (x.data or {}).get("case", ""))
    v = values(x, figs, sheet)
    return (c.get("question") or "").format_map(v), (c.get("buyer") or "").format_map(v)


def word(findings: list[Finding], figs: list[Figure], sheet, doc) -> None:
    """Fill in each finding's question (unless its check worded one) and what the buyer checks."""
    by_id = {f.id: f for f in figs}
    for x in findings:
        own = [by_id[i] for i in x.figures if i in by_id]
        q, buyer = question(x, own, sheet)
        if not x.question:
            x.question = q
        if not x.buyer:
            x.buyer = buyer
