"""One ranking of severities, most severe first: how findings sort, what they count under and what `--fail-on`
means, for the terminal, HTML, JSON, the batch index, its CSV and exit codes alike."""

from __future__ import annotations

SEVERITIES = ("error", "warning", "info")  # most severe first
RANK = {s: i for i, s in enumerate(SEVERITIES)}  # sort key: error 0 comes first
FAIL_ON = ("info", "warning", "error", "never")  # the --fail-on choices, least strict last


def rank(severity: str) -> int:
    """Sort key; an unknown severity (a hand-edited cache entry) sorts with info."""
    return RANK.get(severity, RANK["info"])


def zero_counts() -> dict[str, int]:
    """{'error': 0, 'warning': 0, 'info': 0}, in ranking order."""
    return {s: 0 for s in SEVERITIES}


def reaches(severity: str, fail_on: str) -> bool:
    """True when a finding of SEVERITY is at or above --fail-on (never: nothing is)."""
    return fail_on != "never" and rank(severity) <= RANK[fail_on]
