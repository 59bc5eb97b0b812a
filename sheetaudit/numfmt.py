"""How the audit prints a number in messages and arithmetic: 4 significant digits, never scientific notation
(0.125, 3.938, 450, 6,400, 65,000). Shared by the normaliser and the checks, which both explain numbers."""


def fmt(x: float) -> str:
    x = float(x)
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    return f"{x:.4g}"
