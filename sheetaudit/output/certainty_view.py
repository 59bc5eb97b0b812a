"""How sure the audit is of a figure's reading, in words for the report (stages/s6_certainty.py decides it)."""

from __future__ import annotations

from ..records import Figure


def certainty_note(f: Figure) -> tuple[str, str]:
    """(short word, the reason) for a figure: ('stated', 'a table cell gives it with its unit') or
    ('inferred', 'no direction stated (...)')."""
    if not f.certainty:
        return "", ""
    return f.certainty, f.certainty_reason or ""
