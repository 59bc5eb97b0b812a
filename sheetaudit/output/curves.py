"""Line charts of the scaling what-if: efficiency against accelerator count on a log axis, the scale-up domain
edge marked on each curve, the 90 % and 50 % marks drawn. Inline SVG, every string escaped; curves differ by dash
and marker shape as well as colour, and each ends in its label, so a grey print reads the same."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from markupsafe import Markup, escape

from ..numfmt import count, percent
from .charts import GRID, INK, MUTED, _open, _uid, scaled, text_width

# Each curve its own colour and its own dash (eight of each, both distinct for eight curves, every pair distinct
# up to 64), so two systems never look alike, on screen or in grey print.
COLOURS = ["#1f4e79", "#b35806", "#2d7f3e", "#7b3294", "#4d4d4d", "#a50f15", "#00798c", "#8c6d1f"]
DASHES = ["", "7 4", "2 3", "10 3 2 3", "4 2", "12 4", "1 4", "6 2 2 2 2 2"]


def style(i: int) -> tuple[str, str]:
    """(colour, dash) of the i-th curve."""
    n = len(COLOURS)
    return COLOURS[i % n], DASHES[(i + i // n) % len(DASHES)]


@dataclass
class Curve:
    label: str
    points: list[tuple[int, float]]  # (accelerators, efficiency 0..1)
    edge: int | None = None  # scale-up domain size: where the job leaves the fast domain
    assumed: bool = False  # rests on an input the user assumed


def _count(n: float) -> str:
    return scaled(n, ((1e6, "M"), (1e3, "k")), "")


def efficiency_chart(
    curves: list[Curve], title: str, desc: str, marks=(0.9, 0.5), width: int = 680, klass: str = "scale-curve"
) -> Markup | None:
    curves = _merged([c for c in curves if len(c.points) > 1])
    if not curves:
        return None
    uid = _uid(klass, title, width, [(c.label, c.points, c.edge) for c in curves])
    left, top, plot_h = 48, 14, 240
    # Each curve's label ends its line when the labels fit beside the plot in 40 % of the width; otherwise (a
    # phone, long file names) they go in a legend under it, wrapped, never cut.
    # each label says at which count its percentage is read: where the curve stops
    names = [f"{percent(c.points[-1][1])} at {count(c.points[-1][0])} {_end_label(c)}" for c in curves]
    beside_w = max(text_width(n, 13, True) for n in names) + 12
    beside = beside_w <= width * 0.4
    plot_w = width - left - (beside_w if beside else 16) - 10
    legend = [] if beside else [_wrapped(n, width - left - 40) for n in names]
    legend_h = sum(18 * len(lines) + 4 for lines in legend) + (8 if legend else 0)
    hi_n = max(n for c in curves for n, _ in c.points)
    lo_x, hi_x = 0.0, math.ceil(math.log10(max(hi_n, 10)))
    lo_e = min(0.0, math.floor(min(e for c in curves for _, e in c.points) * 10) / 10)

    def x(n):
        return left + plot_w * (math.log10(max(n, 1)) - lo_x) / (hi_x - lo_x)

    def y(e):
        return top + plot_h * (1 - (e - lo_e) / (1 - lo_e))

    out = _open(uid, width, top + plot_h + 44 + legend_h, title, desc, klass)
    # decade labels at least 34 px apart: a narrow plot labels every other decade ('1 100 10k 1M', not '1 101001k')
    step = max(1, math.ceil(34 / (plot_w / max(hi_x - lo_x, 1))))
    for k in range(int(lo_x), int(hi_x) + 1):
        xt = x(10**k)
        out.append(f'<line x1="{xt:.1f}" y1="{top}" x2="{xt:.1f}" y2="{top + plot_h}" stroke="{GRID}"/>')
        if (k - int(lo_x)) % step == 0:
            out.append(
                f'<text x="{xt:.1f}" y="{top + plot_h + 16}" text-anchor="middle" font-size="11" '
                f'fill="{MUTED}">{_count(10**k)}</text>'
            )
    for e in [v / 10 for v in range(int(lo_e * 10), 11, 2)]:
        out.append(
            f'<line x1="{left}" y1="{y(e):.1f}" x2="{left + plot_w}" y2="{y(e):.1f}" stroke="{GRID}"/>'
            f'<text x="{left - 6}" y="{y(e) + 4:.1f}" text-anchor="end" font-size="11" fill="{MUTED}">'
            f"{percent(e)}</text>"
        )
    for m in marks:
        out.append(
            f'<line class="mark" x1="{left}" y1="{y(m):.1f}" x2="{left + plot_w}" y2="{y(m):.1f}" '
            f'stroke="{INK}" stroke-dasharray="2 4"/>'
        )
    out.append(
        f'<text x="{left + plot_w / 2:.1f}" y="{top + plot_h + 34}" text-anchor="middle" font-size="12">'
        f"accelerators (log scale)</text>"
    )
    ends = []
    for i, c in enumerate(curves):
        colour, dash = style(i)
        pts = " ".join(f"{x(n):.1f},{y(e):.1f}" for n, e in c.points)
        out.append(
            f'<polyline class="curve" points="{pts}" fill="none" stroke="{colour}" stroke-width="2.5"'
            + (f' stroke-dasharray="{dash}"' if dash else "")
            + "/>"
        )
        if c.edge and c.points[0][0] <= c.edge <= c.points[-1][0]:
            e_at = _at(c.points, c.edge)
            ex, ey = x(c.edge), y(e_at)
            out.append(
                f'<g class="edge"><line x1="{ex:.1f}" y1="{ey - 12:.1f}" x2="{ex:.1f}" y2="{ey + 12:.1f}" '
                f'stroke="{colour}" stroke-width="3"/><rect class="pt pt-edge" x="{ex - 4.5:.1f}" y="{ey - 4.5:.1f}" width="9" '
                f'height="9" fill="#ffffff" stroke="{colour}" stroke-width="2"/>'
                f"<title>{escape(c.label)}: leaves the scale-up domain above {c.edge} accelerators</title></g>"
            )
        n_end, e_end = c.points[-1]
        # where the curve stops: the largest count its inputs support (the sheet's own limit when it is below the
        # plot's), marked, and the legend's percentage is read there
        ex, ey = x(n_end), y(e_end)
        out.append(
            f'<circle class="pt pt-end" cx="{ex:.1f}" cy="{ey:.1f}" r="4.5" fill="{colour}" stroke="#ffffff" '
            f'stroke-width="1.5"><title>{escape(c.label)}: {percent(e_end)} at {count(n_end)} accelerators, '
            f"where the curve stops</title></circle>"
        )
        ends.append([y(e_end), colour, names[i], dash, i])
    if beside:
        ends.sort()
        for j in range(1, len(ends)):  # keep the end labels apart
            ends[j][0] = max(ends[j][0], ends[j - 1][0] + 15)
        for ly, colour, label, _, _ in ends:
            out.append(
                f'<text class="curve-label" x="{left + plot_w + 8}" y="{ly + 4:.1f}" fill="{colour}" '
                f'font-weight="700">{escape(label)}</text>'
            )
    else:
        ly = top + plot_h + 44 + 14
        for (_, colour, _, dash, i), lines in zip(ends, legend):
            out.append(
                f'<line x1="{left}" y1="{ly - 4}" x2="{left + 28}" y2="{ly - 4}" stroke="{colour}" '
                f'stroke-width="2.5"' + (f' stroke-dasharray="{dash}"' if dash else "") + "/>"
            )
            for j, line in enumerate(lines):
                out.append(
                    f'<text class="curve-label" x="{left + 34}" y="{ly + 18 * j:.1f}" fill="{colour}" '
                    f'font-weight="700">{escape(line)}</text>'
                )
            ly += 18 * len(lines) + 4
    key = _wrapped(
        f"▯ domain edge · ● where the curve stops (its percentage, at that count) · dotted: "
        f"{' and '.join(percent(m) for m in marks)}",
        (plot_w - 8) * 13 / 11,
    )
    for j, line in enumerate(key):
        out.append(
            f'<text class="key" x="{left + 4}" y="{top + plot_h - 6 - 13 * (len(key) - 1 - j)}" '
            f'font-size="11" fill="{MUTED}">{escape(line)}</text>'
        )
    out.append("</svg>")
    return Markup("".join(out))


def _end_label(c: Curve) -> str:
    return c.label + (" †" if c.assumed else "")


def _merged(curves: list[Curve]) -> list[Curve]:
    """Curves that would be drawn on top of each other (every point within half a percent, the same domain edge)
    become one, labelled with every name: one line hiding another reads as a system missing."""
    out: list[Curve] = []
    for c in curves:
        twin = next(
            (
                o
                for o in out
                if o.edge == c.edge
                and len(o.points) == len(c.points)
                and all(n0 == n1 and abs(e0 - e1) < 0.005 for (n0, e0), (n1, e1) in zip(o.points, c.points))
            ),
            None,
        )
        if twin is None:
            out.append(Curve(c.label, list(c.points), c.edge, c.assumed))
        else:
            twin.label = f"{twin.label} = {c.label}"
            twin.assumed = twin.assumed or c.assumed
    return out


def _wrapped(text: str, px: float) -> list[str]:
    """TEXT in lines of at most PX pixels, broken after a space, '=', '-' or '.', else anywhere: all of it kept."""
    lines, line = [], ""
    for part in re.findall(r"[^\s=.-]*[\s=.-]?", text):
        if not part:
            continue
        if line and text_width(line + part, 13, True) > px:
            lines.append(line.rstrip())
            line = ""
        while text_width(part, 13, True) > px:
            cut = len(part)
            while cut > 1 and text_width(part[:cut], 13, True) > px:
                cut -= 1
            lines.append(part[:cut])
            part = part[cut:]
        line += part
    if line.strip():
        lines.append(line.rstrip())
    return lines or [text]


def _at(points, n):
    """Efficiency at count n, read off the curve (log-linear between its points)."""
    for (n0, e0), (n1, e1) in zip(points, points[1:]):
        if n0 <= n <= n1:
            t = 0 if n1 == n0 else (math.log(n) - math.log(n0)) / (math.log(n1) - math.log(n0))
            return e0 + t * (e1 - e0)
    return points[-1][1]


def curves_of(doc: dict) -> list[Curve]:
    """One curve per system of a `sheetaudit-scale/1` object."""
    from pathlib import PurePath

    return [
        Curve(
            PurePath(s["sheet"]).name,
            [(p["accelerators"], p["efficiency"]) for p in s["training"]["curve"]],
            s["training"].get("domain_edge"),
            bool(s["inputs"].get("assumed")),
        )
        for s in doc["systems"]
    ]
