"""How the audit prints a number, everywhere: messages, arithmetic, reports, the batch index, charts and the
terminal. One module so that a value reads the same in a cell, its tooltip and the sheet's report.

- `fmt`: arithmetic in messages, 4 significant digits, never scientific (0.125, 3.938, 450, 6,400, 65,000);
- `num`: a value shown to a reader (the same, with 100-999 to one decimal: 902.8; thousands separated);
- `ratio`: a scale-out : scale-up ratio, "1/48.0" below one, "1.5x" above;
- `seconds`, `percent`, `count`: the what-if's times ("5.11 ms"), shares ("37.5%") and accelerator counts ("4,096").
"""


def fmt(x: float) -> str:
    x = float(x)
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    return f"{x:.4g}"


def num(x) -> str:
    """A normalised number as a reader wants it: 900, 902.8, 65,000, 0.0259; '' for None, text as is."""
    if not isinstance(x, (int, float)) or isinstance(x, bool):
        return "" if x is None else str(x)
    if x == 0:
        return "0"
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    if abs(x) >= 100:
        return f"{x:.1f}".rstrip("0").rstrip(".")
    return f"{x:.4g}"


def ratio(r) -> str:
    """One ratio, one text: the sheet's report, the index cell and its tooltip all print it through here."""
    if not isinstance(r, (int, float)) or not r:
        return ""
    return f"1/{1 / r:.1f}" if r < 1 else f"{r:.1f}x"


def significant(x: float, digits: int = 6) -> float:
    """A stored value rounded to significant digits (not decimals), so that a small ratio keeps its precision."""
    return float(f"{x:.{digits}g}") if x else x


def seconds(s) -> str:
    """A modelled time in the unit that keeps three significant digits readable: 1.2 s, 5.11 ms, 840 µs."""
    if s is None:
        return "–"
    if s >= 1:
        return f"{s:.3g} s"
    if s >= 1e-3:
        return f"{s * 1e3:.3g} ms"
    return f"{s * 1e6:.3g} µs"


def percent(x, digits: int = 0) -> str:
    """A share as a percentage: 0.375 -> '38%' (digits=1: '37.5%'); '–' for None."""
    return "–" if x is None else f"{float(x):.{digits}%}"


def count(n) -> str:
    """A count with thousands separated: 4096 -> '4,096'; '–' for None."""
    return "–" if n is None else f"{n:,}"
