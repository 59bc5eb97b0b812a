"""Inline SVG charts for the reports: nothing to load, no JavaScript needed to read them.

Two layers, both reusable (the batch index draws the same charts across sheets):

- drawing functions that take plain rows and return SVG markup: `bar_chart` (horizontal bars on a linear
  axis, with optional reference lines) and `dot_chart` (points on a log axis);
- sheet functions that take the JSON contract of one audit (`to_contract(audit)`) and pick the figures:
  `bandwidth_chart`, `latency_chart`, `power_chart`; each returns None when the sheet has nothing to draw.

Every string that reaches the SVG is escaped (sheet text is untrusted). Colours are set as attributes so the
SVG looks the same in any page; every bar and point also carries its label as text, and series differ by
fill pattern as well as colour, so a grey print reads the same.
"""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass, field
from typing import Iterable, Optional

from markupsafe import Markup, escape

from ..numfmt import num as _num, ratio as ratio_text

INK = "#1a1a1a"
MUTED = "#4d4d4d"
GRID = "#c8c8c8"
# fill, stroke, pattern. One meaning per encoding in every chart: colour is the tier (dark scale-up, light
# scale-out) or the rack, hatching is "derived by the audit, not printed in the sheet"; the key under each chart says so
KEY = {
    "scale-up": "scale-up",
    "scale-out": "scale-out",
    "derived": "derived by the audit (not printed)",
    "rack": "rack power as stated",
    "rack-derived": "derived from node power (not printed)",
}
STYLES = {
    "scale-up": ("#1f4e79", "#1f4e79", None),
    "scale-out": ("#9dc3e6", "#1f4e79", None),
    "derived": ("#ffffff", "#1f4e79", "hatch"),
    "rack": ("#7f2704", "#7f2704", None),
    "rack-derived": ("#fdd0a2", "#7f2704", "hatch"),
    "hardware": ("#1f4e79", "#1f4e79", None),
    "end-to-end": ("#b35806", "#b35806", None),
    "unspecified": ("#ffffff", "#4d4d4d", None),
}


@dataclass
class Bar:
    label: str  # what the bar is ("Scale-up (NVLink)")
    value: float  # in the chart's unit
    text: str = ""  # value label printed at the bar's end; defaults to value + unit
    kind: str = "scale-up"  # a key of STYLES
    note: str = ""  # second line under the label ("from 1.8 TB/s bidirectional, p2")


@dataclass
class Group:
    label: str
    bars: list[Bar] = field(default_factory=list)
    empty: str = ""  # shown instead of bars when the group has none ("not stated")


@dataclass
class Line:
    value: float
    label: str
    dash: str = "6 3"


def text_width(s: str, size: float = 13, bold: bool = True) -> float:
    """Rendered width in px, on the generous side (DejaVu Sans, the widest usual fallback): enough to keep
    labels inside the chart without a font to measure with."""
    w = 0.0
    for ch in s:
        if ord(ch) >= 0x2E80:
            w += 1.0
        elif ch in "il.,:;|!' ":
            w += 0.34
        elif ch.isdigit():
            w += 0.64
        elif ch.isupper() or ch in "mwMW%":
            w += 0.78
        else:
            w += 0.61
    return w * size * (1.08 if bold else 1.0)


def fit(s: str, px: float, size: float = 13, bold: bool = False) -> str:
    """`s` cut with an ellipsis to fit `px` pixels."""
    if text_width(s, size, bold) <= px:
        return s
    while s and text_width(s + "…", size, bold) > px:
        s = s[:-1]
    return s.rstrip() + "…"


def _nice_max(v: float) -> float:
    if v <= 0:
        return 1.0
    e = 10 ** math.floor(math.log10(v))
    for m in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if m * e >= v:
            return m * e
    return 10 * e


def _ticks(top: float, n: int = 5) -> list[float]:
    step = _nice_max(top / n)
    out, t = [], 0.0
    while t <= top * 1.0001:
        out.append(t)
        t += step
    return out


def _defs(uid: str) -> str:
    return (
        f'<defs><pattern id="{uid}-hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
        f'patternTransform="rotate(45)"><rect width="6" height="6" fill="#ffffff"/>'
        f'<line x1="0" y1="0" x2="0" y2="6" stroke="#1a1a1a" stroke-width="2"/></pattern></defs>'
    )


def _fill(kind: str, uid: str) -> tuple[str, str]:
    fill, stroke, pattern = STYLES.get(kind, STYLES["scale-up"])
    if pattern:
        return f"url(#{uid}-{pattern})", stroke
    return fill, stroke


def _uid(klass: str, *parts) -> str:
    """A stable id prefix for one chart's <title>, <desc> and patterns (same input, same id: diffable output)."""
    return re.sub(r"[^a-z0-9-]", "", klass.lower()) + "-" + hashlib.sha1(repr(parts).encode()).hexdigest()[:8]


def _open(uid: str, width: int, height: int, title: str, desc: str, klass: str) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart {escape(klass)}" role="img" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'aria-labelledby="{uid}-t {uid}-d" font-size="13" fill="{INK}">',
        f'<title id="{uid}-t">{escape(title)}</title><desc id="{uid}-d">{escape(desc)}</desc>',
        _defs(uid),
    ]


HALO = 'stroke="#ffffff" stroke-width="4" paint-order="stroke"'
OUTLIER = 10.0  # across sheets, a bar this many times the next largest breaks instead of squeezing the others
COMPACT_WIDTH = 340  # the phone layout: labels over the bars, drawn at its own size (text stays >= 12 px)


def _axis_top(
    values: list[float], lines: list[Line], max_value: Optional[float], outlier: Optional[float]
) -> tuple[float, float]:
    """(axis maximum, break value): an outlier gets a broken bar so the others keep their length."""
    vals = sorted({v for v in values if v > 0}, reverse=True)
    floor = max([ln.value for ln in lines] + [max_value or 0, 1e-9])
    if outlier and len(vals) >= 2 and vals[0] > outlier * max(vals[1], floor):
        top = _nice_max(max(vals[1], floor) * 1.25)
        return top, top
    return _nice_max(max(vals[:1] + [floor]) * 1.05), math.inf


def bar_chart(
    groups: list[Group],
    unit: str,
    title: str,
    desc: str = "",
    lines: Iterable[Line] = (),
    width: int = 680,
    klass: str = "bars",
    max_value: Optional[float] = None,
    compact: bool = False,
    outlier: Optional[float] = None,
) -> Markup:
    """Horizontal bars on one linear axis starting at zero; optional vertical reference lines. With `outlier`
    (charts across sheets, where one misread total can be 100x the rest), a bar more than that many times the
    next largest is drawn broken (a zig-zag at the axis end, its value printed), never squeezing the rest; within
    one sheet the true proportion (scale-up against scale-out) is the point and is kept.
    compact: the phone layout, each label on its own line above its bar."""
    uid = _uid(klass, title, desc, groups, lines, compact)
    lines = list(lines)
    small = 12 if compact else 11
    if compact:
        width = min(width, COMPACT_WIDTH)
    label_w = 6 if compact else 230
    plot_w = width - label_w - 24
    top_v, brk = _axis_top([b.value for g in groups for b in g.bars], lines, max_value, outlier)
    for _ in range(3):  # leave room at the right for the value printed past each bar's end
        need = max(
            [
                label_w
                + plot_w * min(max(0.0, b.value), top_v) / top_v
                + 6
                + text_width(b.text or (_num(b.value) + " " + unit))
                for g in groups
                for b in g.bars
            ]
            + [0.0]
        )
        if need <= width - 8:
            break
        plot_w -= need - (width - 8)
    plot_w = max(plot_w, 60)

    def x(v: float) -> float:
        return label_w + plot_w * min(max(0.0, v), top_v) / top_v

    rows: list[str] = []
    over: list[str] = []
    y = 14 + 16 * len(lines)
    bar_h, gap = 22, 8
    for g in groups:
        if g.label:
            (over if compact else rows).append(
                f'<text x="4" y="{y + 13}" font-weight="700"{" " + HALO if compact else ""}>'
                f"{escape(fit(g.label, width - 8, bold=True))}</text>"
            )
            y += 22
        if not g.bars:
            rows.append(
                f'<text x="{label_w}" y="{y + 15}" fill="{MUTED}" font-style="italic">'
                f"{escape(fit(g.empty or 'not stated', width - label_w - 4))}</text>"
            )
            y += bar_h + gap
            continue
        for b in g.bars:
            fill, stroke = _fill(b.kind, uid)
            if compact:  # over the plot: drawn last, with a white halo, so reference lines never cut them
                over.append(f'<text x="{label_w}" y="{y + 13}" {HALO}>{escape(fit(b.label, width - 12))}</text>')
                y += 17
                if b.note:
                    over.append(
                        f'<text x="{label_w}" y="{y + 12}" font-size="{small}" fill="{MUTED}" {HALO}>'
                        f"{escape(fit(b.note, width - 12, small))}</text>"
                    )
                    y += 15
                h = bar_h
            else:
                h = bar_h + (14 if b.note else 0)
                rows.append(
                    f'<text x="{label_w - 8}" y="{y + 15}" text-anchor="end">{escape(fit(b.label, label_w - 12))}</text>'
                )
                if b.note:
                    rows.append(
                        f'<text x="{label_w - 8}" y="{y + 30}" text-anchor="end" font-size="{small}" '
                        f'fill="{MUTED}">{escape(fit(b.note, label_w - 12, small))}</text>'
                    )
            w = max(1.5, x(b.value) - label_w)
            rows.append(
                f'<rect class="bar bar-{escape(b.kind)}" x="{label_w}" y="{y + 2}" width="{w:.1f}" '
                f'height="{bar_h - 4}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>'
            )
            if b.value > brk:  # the break: a white zig-zag across the bar near its end
                xb = label_w + w - 14
                rows.append(
                    f'<path class="break" d="M{xb:.1f} {y}l5 {bar_h / 2:.0f}l-5 {bar_h / 2:.0f}m6 -{bar_h:.0f}'
                    f'l5 {bar_h / 2:.0f}l-5 {bar_h / 2:.0f}" fill="none" stroke="#ffffff" stroke-width="3"/>'
                    f"<title>axis broken: {escape(_num(b.value))} {escape(unit)} is off the scale</title>"
                )
            rows.append(
                f'<text x="{label_w + w + 6:.1f}" y="{y + 15}" font-weight="700">'
                f"{escape(b.text or (_num(b.value) + ' ' + unit))}</text>"
            )
            y += h + gap
    axis_y = y + 2
    kinds = list(dict.fromkeys(b.kind for g in groups for b in g.bars if b.kind in KEY))
    key = _key(kinds, uid, axis_y + 40, width, small) if len(kinds) > 1 or any(STYLES[k][2] for k in kinds) else ([], 0)
    height = axis_y + 36 + key[1]
    out = _open(uid, width, height, title, desc, klass)
    for t in _ticks(top_v, 3 if compact else 5):
        xt = x(t)
        out.append(
            f'<line x1="{xt:.1f}" y1="{8 + 16 * len(lines)}" x2="{xt:.1f}" y2="{axis_y}" '
            f'stroke="{GRID}" stroke-width="1"/>'
        )
        out.append(
            f'<text x="{xt:.1f}" y="{axis_y + 14}" text-anchor="{"start" if compact and t == 0 else "middle"}" '
            f'font-size="{small}" fill="{MUTED}">{_num(t)}</text>'
        )
    out.append(f'<line x1="{label_w}" y1="{axis_y}" x2="{label_w + plot_w}" y2="{axis_y}" stroke="{MUTED}"/>')
    broken = (
        f"; axis broken above {_num(top_v)}"
        if brk < math.inf and any(b.value > brk for g in groups for b in g.bars)
        else ""
    )
    out.append(
        f'<text x="{label_w if compact else label_w + plot_w / 2:.1f}" y="{axis_y + 30}" '
        f'text-anchor="{"start" if compact else "middle"}" font-size="{small}" '
        f'fill="{MUTED}">{escape(fit(unit + broken, width - label_w - 4, small))}</text>'
    )
    out.extend(rows)
    for i, ln in enumerate(lines):
        xl = x(ln.value)
        anchor = "end" if xl > label_w + plot_w * 0.6 else "start"
        dx = -4 if anchor == "end" else 4
        out.append(
            f'<line x1="{xl:.1f}" y1="{8 + 16 * i}" x2="{xl:.1f}" y2="{axis_y}" stroke="#ffffff" stroke-width="5"/>'
        )  # a halo keeps the line visible across a dark bar, also in grey
        out.append(
            f'<line class="ref" x1="{xl:.1f}" y1="{8 + 16 * i}" x2="{xl:.1f}" y2="{axis_y}" '
            f'stroke="{INK}" stroke-width="2" stroke-dasharray="{escape(ln.dash)}"/>'
        )
        room = (xl - 8) if anchor == "end" else (width - xl - 8)
        out.append(
            f'<text x="{xl + dx:.1f}" y="{19 + 16 * i}" text-anchor="{anchor}" font-size="12" '
            f'font-weight="700">{escape(fit(ln.label, room, 12, bold=True))}</text>'
        )
    out.extend(over)
    out.extend(key[0])
    out.append("</svg>")
    return Markup("".join(out))


def _key(kinds: list[str], uid: str, y: float, width: int, size: int) -> tuple[list[str], int]:
    """What each fill means, under the axis: a swatch and its words, wrapped to the width. (parts, height)"""
    parts, x, rows = [], 6.0, 1
    for k in kinds:
        fill, stroke = _fill(k, uid)
        words = KEY[k]
        w = 22 + text_width(words, size) + 14
        if x + w > width and x > 6:
            x, rows = 6.0, rows + 1
        yy = y + 18 * (rows - 1)
        parts.append(
            f'<g class="key key-{escape(k)}"><rect x="{x:.1f}" y="{yy - 10:.1f}" width="16" height="11" '
            f'fill="{fill}" stroke="{stroke}" stroke-width="1.5"/><text x="{x + 21:.1f}" y="{yy:.1f}" '
            f'font-size="{size}" fill="{MUTED}">{escape(words)}</text></g>'
        )
        x += w
    return parts, 18 * rows + 4


@dataclass
class Point:
    label: str
    value: float  # in the axis unit (ns for latency)
    text: str = ""
    kind: str = "hardware"


def scaled(v: float, units: tuple = ((1e6, " ms"), (1e3, " µs")), base: str = " ns") -> str:
    """An axis label in the largest unit that keeps it at 1 or more: 2500 ns -> '2.5 µs'."""
    for f, unit in units:
        if v >= f:
            return f"{v / f:g}{unit}"
    return f"{v:g}{base}"


def _fmt_ns(v: float) -> str:
    return scaled(v)


def dot_chart(
    groups: list[tuple[str, list[Point], str]],
    title: str,
    desc: str = "",
    width: int = 680,
    klass: str = "dots",
    low: float = 10.0,
    high: float = 10000.0,
    fmt=_fmt_ns,
    compact: bool = False,
) -> Markup:
    """Points on one logarithmic axis, rows grouped under headings (group label, points, text when empty).

    The axis spans at least [low, high] so figures from different sheets or bases sit on one scale.
    compact: the phone layout, each label on its own line above its point.
    """
    uid = _uid(klass, title, desc, groups, compact)
    small = 12 if compact else 11
    if compact:
        width = min(width, COMPACT_WIDTH)
    vals = [p.value for _, pts, _ in groups for p in pts if p.value > 0]
    lo = 10 ** math.floor(math.log10(min(vals + [low])))
    hi = 10 ** math.ceil(math.log10(max(vals + [high])))
    label_w = 10 if compact else 230
    plot_w = width - label_w - 24

    def _end(v: float) -> float:
        return label_w + plot_w * (math.log10(min(max(v, lo), hi)) - math.log10(lo)) / (math.log10(hi) - math.log10(lo))

    for _ in range(3):  # room at the right for the value printed after each point
        need = max(
            [_end(p.value) + 12 + text_width(p.text or fmt(p.value)) for _, pts, _ in groups for p in pts] + [0.0]
        )
        if need <= width - 4:
            break
        plot_w -= need - (width - 4)

    def x(v: float) -> float:
        v = min(max(v, lo), hi)
        return label_w + plot_w * (math.log10(v) - math.log10(lo)) / (math.log10(hi) - math.log10(lo))

    rows: list[str] = []
    y = 12
    for name, pts, empty in groups:
        rows.append(f'<text x="4" y="{y + 13}" font-weight="700">{escape(fit(name, width - 8, bold=True))}</text>')
        y += 22
        if not pts:
            rows.append(
                f'<text x="{label_w}" y="{y + 13}" fill="{MUTED}" font-style="italic">'
                f"{escape(empty or 'none stated')}</text>"
            )
            y += 26
            continue
        for p in pts:
            fill, stroke, _ = STYLES.get(p.kind, STYLES["hardware"])
            cx = x(p.value)
            if compact:
                rows.append(f'<text x="{label_w}" y="{y + 12}">{escape(fit(p.label, width - 16))}</text>')
                y += 17
            else:
                rows.append(
                    f'<text x="{label_w - 8}" y="{y + 13}" text-anchor="end">'
                    f"{escape(fit(p.label, label_w - 12))}</text>"
                )
            rows.append(
                f'<line x1="{label_w}" y1="{y + 9}" x2="{cx:.1f}" y2="{y + 9}" stroke="{stroke}" stroke-width="2"/>'
            )
            shape = (
                f'<rect class="pt pt-{escape(p.kind)}" x="{cx - 6:.1f}" y="{y + 3}" width="12" height="12" '
                f'fill="{fill}" stroke="{stroke}" stroke-width="2"/>'
                if p.kind == "end-to-end"
                else f'<circle class="pt pt-{escape(p.kind)}" cx="{cx:.1f}" cy="{y + 9}" r="6.5" fill="{fill}" '
                f'stroke="{stroke}" stroke-width="2"/>'
            )
            rows.append(shape)
            anchor, dx = "start", 12
            rows.append(
                f'<text x="{cx + dx:.1f}" y="{y + 13}" text-anchor="{anchor}" font-weight="700">'
                f"{escape(p.text or fmt(p.value))}</text>"
            )
            y += 26
        y += 6
    height = y + 30
    out = _open(uid, width, height, title, desc, klass)
    d = lo
    while d <= hi * 1.0001:
        xt = x(d)
        out.append(f'<line x1="{xt:.1f}" y1="6" x2="{xt:.1f}" y2="{height - 26}" stroke="{GRID}"/>')
        out.append(
            f'<text x="{xt:.1f}" y="{height - 10}" text-anchor="{"start" if compact and d == lo else "middle"}" '
            f'font-size="{small}" fill="{MUTED}">{escape(fmt(d))}</text>'
        )
        d *= 10
    out.extend(rows)
    out.append("</svg>")
    return Markup("".join(out))


# --- sheet charts from the JSON contract -------------------------------------------------------------------


def _figs(doc: dict) -> dict[str, dict]:
    return {f["id"]: f for f in doc.get("figures", [])}


def _where(f: dict) -> str:
    label = (f.get("label") or "").strip()
    return f"p{f.get('page')}" + (f", {label[:40]}" if label else "")


def _system(f: dict) -> str:
    """Which system or variant a figure belongs to, for a sheet that describes several (column, heading)."""
    return (f.get("column") or f.get("heading") or "").strip() or _where(f)


def bandwidth_groups(doc: dict, width_hint: int = 680) -> list[Group]:
    """Per accelerator, per direction: scale-up beside scale-out, one group per pair the audit compared.

    Figure dicts may carry "column" and "heading" (the report adds them) to name the system of each pair."""
    figs = _figs(doc)
    groups: list[Group] = []
    ratios = [x for x in doc.get("findings", []) if x.get("check") == "bandwidth.scale-ratio"]
    for r in ratios:
        data = r.get("data") or {}
        ids = r.get("figures", [])
        up = next((figs[i] for i in ids if i in figs and figs[i].get("tier") == "scale-up"), None)
        out = next((figs[i] for i in ids if i in figs and figs[i].get("tier") == "scale-out"), None)
        vu, vs = data.get("scale_up_gbs"), data.get("scale_out_gbs")
        if not isinstance(vu, (int, float)) or not isinstance(vs, (int, float)) or not up or not out:
            continue
        ratio = f" ({ratio_text(vs / vu)} of scale-up)" if vs and vu / vs >= 1.5 else ""
        groups.append(
            Group(
                label=fit(_system(up), width_hint - 8, bold=True) if len(ratios) > 1 else "",
                bars=[
                    Bar(
                        "Scale-up, per accelerator",
                        vu,
                        f"{_num(vu)} GB/s",
                        "scale-up",
                        note=f"from {up['text']} ({_where(up)})",
                    ),
                    Bar(
                        "Scale-out, per accelerator",
                        vs,
                        f"{_num(vs)} GB/s{ratio}",
                        "scale-out",
                        note=f"from {out['text']} ({_where(out)})",
                    ),
                ],
            )
        )
    if groups:
        return groups
    # No pair compared: show what the sheet does state per accelerator, and say what it does not.
    bars: dict[str, list[Bar]] = {"scale-up": [], "scale-out": []}
    seen = set()
    for f in doc.get("figures", []):
        n = f.get("normalized") or {}
        if (
            f.get("quantity") == "bandwidth"
            and f.get("tier") in bars
            and f.get("scope") == "per-accelerator"
            and isinstance(n.get("value"), (int, float))
            and (f["tier"], n["value"]) not in seen
        ):
            seen.add((f["tier"], n["value"]))
            bars[f["tier"]].append(
                Bar(
                    f"{f['tier'].capitalize()}, per accelerator",
                    n["value"],
                    f"{_num(n['value'])} GB/s",
                    f["tier"],
                    note=f"from {f['text']} ({_where(f)})",
                )
            )
    for d in doc.get("derived", []):
        if d.get("name", "").startswith("per-accelerator equivalent") and d.get("unit") == "GB/s":
            src = figs.get((d.get("figures") or [""])[0], {})
            tier = src.get("tier")
            if tier in bars and (tier, round(d["value"], 1)) not in seen:
                seen.add((tier, round(d["value"], 1)))
                bars[tier].append(
                    Bar(
                        f"{tier.capitalize()}, derived",
                        d["value"],
                        f"{_num(d['value'])} GB/s",
                        "derived",
                        note=f"{src.get('text', '')} divided out ({_where(src)})",
                    )
                )
    if not bars["scale-up"] and not bars["scale-out"]:
        return []
    return [
        Group(
            "Scale-up (inside the accelerator domain)",
            bars["scale-up"][:4],
            "no per-accelerator scale-up bandwidth stated",
        ),
        Group(
            "Scale-out (network between domains)",
            bars["scale-out"][:4],
            "no per-accelerator scale-out bandwidth stated",
        ),
    ]


def bandwidth_chart(doc: dict, width: int = 680, compact: bool = False) -> Optional[Markup]:
    groups = bandwidth_groups(doc, width)
    if not groups:
        return None
    parts = []
    for g in groups:
        for b in g.bars:
            parts.append(f"{b.label} {b.text}")
        if not g.bars:
            parts.append(f"{g.label}: {g.empty}")
    return bar_chart(
        groups,
        "GB/s per direction",
        "Bandwidth per accelerator, per direction",
        "; ".join(parts) + ".",
        width=width,
        klass="chart-bandwidth",
        compact=compact,
    )


BASIS_GROUPS = (
    ("hardware", "Hardware latency (switch ASIC, port to port)", "none stated"),
    ("end-to-end", "End-to-end latency (host to host, through the software stack)", "none stated"),
    ("unspecified", "Basis not stated", ""),
)


def latency_points(doc: dict) -> list[tuple[str, list[Point], str]]:
    lat = [
        f
        for f in doc.get("figures", [])
        if f.get("quantity") == "latency" and isinstance((f.get("normalized") or {}).get("value"), (int, float))
    ]
    if not lat:
        return []
    out = []
    for basis, name, empty in BASIS_GROUPS:
        pts, seen = [], set()
        for f in lat:
            b = f.get("basis") if f.get("basis") in ("hardware", "end-to-end") else "unspecified"
            v = f["normalized"]["value"]
            if b != basis or (f["text"], v) in seen:
                continue
            seen.add((f["text"], v))
            label = (f.get("label") or "").strip() or f"page {f.get('page')}"
            pts.append(
                Point(label[:34], v, f"{f['text']}  = {_fmt_ns(v)}" if f["text"] != _fmt_ns(v) else f["text"], basis)
            )
        if pts or empty:
            out.append((name, pts, empty))
    return out


def latency_chart(doc: dict, width: int = 680, compact: bool = False) -> Optional[Markup]:
    groups = latency_points(doc)
    if not groups:
        return None
    desc = "; ".join(
        f"{name}: " + (", ".join(f"{p.label} {p.text}" for p in pts) or empty) for name, pts, empty in groups
    )
    return dot_chart(
        groups,
        "Latencies on one scale, grouped by what they measure",
        desc + ".",
        width=width,
        klass="chart-latency",
        compact=compact,
    )


_QUAL = re.compile(
    r"\b(max(?:imum)?|peak|typ(?:ical)?|nominal|average|idle|min(?:imum)?)\b|(最大|峰值|典型|平均)", re.I
)
_QUAL_WORD = {"max": "maximum", "typ": "typical", "min": "minimum"}


def _qualifier(f: dict) -> str:
    """'maximum' / 'typical' when the words right around the figure say so."""
    ctx, text = f.get("context") or "", f.get("text") or ""
    i = ctx.find(text)
    if i < 0:
        return ""
    after, before = ctx[i + len(text) : i + len(text) + 14], ctx[max(0, i - 14) : i]
    m = _QUAL.search(after) or _QUAL.search(text) or (list(_QUAL.finditer(before)) or [None])[-1]
    if not m:
        return ""
    w = m.group(0).lower()
    return {"最大": "maximum", "峰值": "peak", "典型": "typical", "平均": "average"}.get(w, _QUAL_WORD.get(w, w))


def distinct_labels(bars: list[Bar], wheres: list[str]) -> list[Bar]:
    """Two bars of one chart never carry the same label: a repeated one names where its figure is printed,
    then counts."""
    labels = [b.label for b in bars]
    for i, b in enumerate(bars):
        if labels.count(b.label) > 1 and i < len(wheres) and wheres[i]:
            b.label = f"{b.label} ({wheres[i][:24]})"
    seen: dict[str, int] = {}
    for b in bars:
        seen[b.label] = seen.get(b.label, 0) + 1
        if seen[b.label] > 1 or [x.label for x in bars].count(b.label) > 1:
            b.label = f"{b.label} #{seen[b.label]}"
    return bars


def power_bars(doc: dict) -> list[Bar]:
    figs = _figs(doc)
    bars, seen, wheres = [], set(), []
    for f in doc.get("figures", []):
        n = f.get("normalized") or {}
        if f.get("quantity") == "power" and f.get("scope") == "per-rack" and isinstance(n.get("value"), (int, float)):
            if n["value"] in seen:
                continue
            seen.add(n["value"])
            q = _qualifier(f)
            bars.append(
                Bar(f"Rack{', ' + q if q else ''}, as stated", n["value"], f"{f['text']}", "rack", note=_where(f)[:40])
            )
            wheres.append((f.get("label") or "").strip() or f"page {f.get('page')}")
    for d in doc.get("derived", []):
        if d.get("name", "").startswith("rack power") and d.get("unit") == "kW" and round(d["value"], 2) not in seen:
            src = figs.get((d.get("figures") or [""])[0], {})
            nodes = (d.get("inputs") or {}).get("nodes")
            how = f"{nodes} x {src.get('text', 'node power')}" if nodes else "from node power"
            bars.append(Bar("Rack, derived", d["value"], f"{_num(d['value'])} kW", "rack-derived", note=how))
            wheres.append(how)
    return distinct_labels(bars, wheres)


def power_chart(
    doc: dict, air_limit_kw: float = 40.0, facility: Optional[dict] = None, width: int = 680, compact: bool = False
) -> Optional[Markup]:
    bars = power_bars(doc)
    if not bars:
        return None
    lines = [Line(air_limit_kw, f"air-cooling limit {_num(air_limit_kw)} kW")]
    cap = (facility or {}).get("rack_power_kw")
    if isinstance(cap, (int, float)):
        name = (facility or {}).get("name") or "your facility"
        lines.append(Line(float(cap), f"{name}: {_num(float(cap))} kW per rack", dash="2 3"))
    desc = "; ".join(f"{b.label}: {b.text}" for b in bars) + "; " + "; ".join(ln.label for ln in lines) + "."
    return bar_chart(
        [Group("", bars)],
        "kW per rack",
        "Rack power against the air-cooling limit",
        desc,
        lines=lines,
        width=width,
        klass="chart-power",
        compact=compact,
    )
