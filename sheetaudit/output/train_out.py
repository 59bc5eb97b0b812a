"""The training what-if of a job (`scale --job`) in words, in the terminal and in HTML: the systems ranked, and per
system the layout chosen, the step and where its time goes (a stacked bar), memory against capacity, and the curve
of throughput against accelerator count at the job's global batch with its knee. Every string from a sheet or a
job file is escaped in HTML; the bars carry their numbers as text, so a grey print reads the same."""

from __future__ import annotations


from ..atscale.combine import short_name
from ..basis import fmt_num
from ..numfmt import count, percent, seconds

PARTS = [
    ("compute", "compute", "#1f4e79"),
    ("tp", "tensor-parallel comm.", "#b35806"),
    ("pp_bubble", "pipeline bubble", "#7f7f7f"),
    ("pp_p2p", "pipeline sends", "#c9a227"),
    ("dp_exposed", "data-parallel comm. (exposed)", "#2d7f3e"),
    ("ep_all_to_all", "expert all-to-all", "#7b3294"),
    ("cp", "context-parallel comm.", "#d6604d"),
]
# a pattern per part (white strokes on its colour), so the parts stay apart in grey print
HATCH = {
    "compute": "",
    "tp": "M0,6 L6,0",
    "pp_bubble": "M2,2 h1 M5,5 h1",
    "pp_p2p": "M0,3 h6",
    "dp_exposed": "M0,0 L6,6",
    "ep_all_to_all": "M0,0 L6,6 M0,6 L6,0",
    "cp": "M3,0 v6 M0,3 h6",
}


def layout_text(lay: dict) -> str:
    return " ".join(f"{k} {lay[k]}" for k in ("tp", "pp", "dp", "ep", "cp", "vp", "micro") if k in lay)


def _rate(x) -> str:
    return "–" if x is None else fmt_num(x)


def headline(t: dict) -> str:
    if t.get("step_seconds") is None:
        return "not modelled: " + (t.get("unknown") or "an input is missing")
    fit = {True: "fits", False: "does NOT fit", None: "fit not judged (memory capacity unknown)"}[t["fits"]]
    days = f"; {fmt_num(t['time_to_train_days'])} days to train" if t.get("time_to_train_days") is not None else ""
    return (
        f"{count(t['accelerators'])} accelerators, layout {layout_text(t['layout'])}: step "
        f"{seconds(t['step_seconds'])}, {_rate(t['tokens_per_second'])} tokens/s "
        f"({_rate(t['tokens_per_second_per_accelerator'])} per accelerator), MFU {percent(t['mfu'], 1)}, "
        f"HFU {percent(t['hfu'], 1)}; memory {fmt_num(t['memory_gb_per_accelerator'])} GB per accelerator, "
        f"{fit}{days}"
    )


def breakdown_words(t: dict) -> str:
    b, total = t["breakdown_seconds"], t["step_seconds"]
    return "; ".join(f"{label} {percent(b[k] / total, 1)}" for k, label, _ in PARTS if b.get(k))


def text_bar(t: dict, width: int = 50) -> str:
    b, total = t["breakdown_seconds"], t["step_seconds"]
    marks = {
        "compute": "#",
        "tp": "/",
        "pp_bubble": ".",
        "pp_p2p": "-",
        "dp_exposed": "\\",
        "ep_all_to_all": "x",
        "cp": "+",
    }
    return "[" + "".join(marks[k] * round(width * b.get(k, 0) / total) for k, _, _ in PARTS)[:width].ljust(width) + "]"


def hardware_lines(t: dict) -> list[str]:
    words = {
        "peak_tflops": "peak compute {} TFLOP/s dense per accelerator",
        "memory_gb": "memory {} GB per accelerator",
        "memory_gbs": "memory bandwidth {} GB/s per accelerator",
    }
    out = [
        words[k].format(fmt_num(v)) + f" ({t['hardware_how'][k]})" for k, v in t["hardware"].items() if v is not None
    ]
    if t.get("matmul_efficiency"):
        e = t["matmul_efficiency"]
        out.append(f"matmul efficiency {e['value']:g} of peak (assumption matmul_efficiency[{e['key']}])")
    return out


def curve_rows(t: dict) -> list[list[str]]:
    rows = []
    for c in t.get("curve", []):
        mark = " <- knee" if c["accelerators"] == t.get("knee") else ""
        mark += " (the job)" if c["accelerators"] == t.get("accelerators") else ""
        rows.append(
            [
                count(c["accelerators"]),
                layout_text(c["layout"]),
                seconds(c["step_seconds"]),
                _rate(c["tokens_per_second"]),
                _rate(c["tokens_per_second_per_accelerator"]),
                percent(c["mfu"], 1) + mark,
            ]
        )
    return rows


CURVE_HEADERS = ["accelerators", "layout", "step", "tokens/s", "per accelerator", "MFU"]


def ranking_lines(doc: dict) -> list[str]:
    out = []
    for r in doc.get("ranking", []):
        name = short_name(r["sheet"])
        if r["rank"] is None:
            out.append(f"  -  {name}: {r['why']}")
            continue
        days = f", {fmt_num(r['time_to_train_days'])} days to train" if r.get("time_to_train_days") else ""
        out.append(
            f"  {r['rank']}. {name}: step {seconds(r['step_seconds'])}, "
            f"{_rate(r['tokens_per_second'])} tokens/s, MFU {percent(r['mfu'], 1)}{days}"
        )
    return out


def render_text(doc: dict, table) -> str:
    out = (
        [
            "Training what-if (sheetaudit scale --job)",
            doc["note"],
            "",
            f"Job {doc['request']['job']}: the systems, fastest first:",
        ]
        + ranking_lines(doc)
        + [""]
    )
    for s in doc["systems"]:
        t = s["training"]
        out.append(f"{s['sheet']} ({s['kind']})")
        from .scale_out import input_lines

        out += [f"  {x}" for x in input_lines(s) + hardware_lines(t)]
        for m in s["missing"] + t.get("missing", []):
            out.append(f"  missing: {m['why']}: {m['ask']} (or {m['fill']})")
        out.append("  " + headline(t))
        if t.get("not_fitting"):
            out.append("  " + t["not_fitting"])
        if t.get("step_seconds") is not None:
            out.append(f"  where the step goes {text_bar(t)} {breakdown_words(t)}")
            out.append(
                "    (# compute, / tensor-parallel, . bubble, - pipeline sends, \\ data-parallel, "
                "x expert all-to-all, + context-parallel)"
            )
        out += [f"  note: {n}" for n in s["notes"] + t.get("notes", [])]
        if t.get("curve"):
            out.append(
                f"  At the job's global batch ({count(doc['job']['batch']['global'])} sequences), more "
                f"accelerators"
                + (
                    f": the knee is at {count(t['knee'])}, past it each doubling adds less than half"
                    if t.get("knee")
                    else ": no knee in the range modelled"
                )
            )
            out += ["    " + x for x in table(CURVE_HEADERS, curve_rows(t))]
        out.append("")
    return "\n".join(out)


def _stacked_bars(doc: dict) -> str:
    """One horizontal bar per system, its step split into its parts, to one time scale; each bar ends in its
    step time and MFU, so the chart reads without the colours."""
    from markupsafe import escape

    rows = [s for s in doc["systems"] if s["training"].get("step_seconds")]
    if not rows:
        return ""
    width, left, bar_h, gap = 680, 200, 22, 14
    longest = max(s["training"]["step_seconds"] for s in rows)
    plot = width - left - 150
    from .curves import _wrapped

    names = {s["sheet"]: _wrapped(short_name(s["sheet"]), left - 14) for s in rows}  # whole, wrapped: never cut
    height = sum(max(bar_h, 14 * len(names[s["sheet"]]) + 4) + gap for s in rows) + 70
    h = [
        f'<svg class="step-bars" viewBox="0 0 {width} {height}" width="{width}" role="img" '
        f'aria-labelledby="sb-title"><title id="sb-title">Where each system\'s training step goes</title>'
        "<defs>"
        + "".join(
            f'<pattern id="h-{k}" width="6" height="6" patternUnits="userSpaceOnUse">'
            f'<rect width="6" height="6" fill="{c}"/>'
            + (f'<path d="{HATCH[k]}" stroke="#fff" stroke-width="1.2"/>' if HATCH[k] else "")
            + "</pattern>"
            for k, _, c in PARTS
        )
        + "</defs>"
    ]
    y = 10
    for s in rows:
        t = s["training"]
        for j, line in enumerate(names[s["sheet"]]):
            h.append(
                f'<text x="{left - 8}" y="{y + 15 + 14 * j}" text-anchor="end" font-size="12">{escape(line)}</text>'
            )
        x = left
        for k, label, _ in PARTS:
            v = t["breakdown_seconds"].get(k) or 0
            w = plot * v / longest
            if w > 0.2:
                h.append(
                    f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{bar_h}" fill="url(#h-{k})">'
                    f"<title>{escape(label)}: {escape(seconds(v))}</title></rect>"
                )
            x += w
        h.append(
            f'<text x="{x + 6:.1f}" y="{y + 15}" font-size="12">{escape(seconds(t["step_seconds"]))}, '
            f"MFU {escape(percent(t['mfu'], 1))}</text>"
        )
        y += max(bar_h, 14 * len(names[s["sheet"]]) + 4) + gap
    lx = 10
    for i, (k, label, _) in enumerate(PARTS):
        if i == 4:
            y, lx = y + 18, 10
        h.append(
            f'<rect x="{lx}" y="{y + 4}" width="12" height="12" fill="url(#h-{k})"/>'
            f'<text x="{lx + 16}" y="{y + 14}" font-size="11">{escape(label)}</text>'
        )
        lx += 20 + 7 * len(label)
    h.append("</svg>")
    return "".join(h)


def _mfu_chart(doc: dict) -> str:
    """MFU against accelerator count at the job's global batch (log axis), one line per system, the knee a
    square, the job's own count a circle."""
    import math

    from markupsafe import escape
    from .curves import style

    series = [s for s in doc["systems"] if len(s["training"].get("curve", [])) > 1]
    if not series:
        return ""
    from .curves import _wrapped

    width, left, top, ph, pw = 680, 48, 14, 220, 600
    # a legend under the plot, each system's whole name beside its line's colour and dash (never cut)
    legend = [_wrapped(short_name(s["sheet"]), width - left - 60) for s in series]
    legend_h = sum(16 * len(x) + 4 for x in legend) + 6
    ns = [c["accelerators"] for s in series for c in s["training"]["curve"]]
    lo, hi = math.log2(min(ns)), math.log2(max(ns))
    top_mfu = max(0.1, math.ceil(max(c["mfu"] for s in series for c in s["training"]["curve"]) * 10) / 10)

    def x(n):
        return left + pw * (math.log2(n) - lo) / max(hi - lo, 1)

    def y(v):
        return top + ph * (1 - v / top_mfu)

    h = [
        f'<svg class="mfu-curve" viewBox="0 0 {width} {top + ph + 50 + legend_h}" width="{width}" '
        f'role="img" aria-labelledby="mc-title"><title id="mc-title">MFU against accelerator count at the job\'s global batch'
        f"</title>"
    ]
    for k in range(int(lo), int(hi) + 1):
        h.append(
            f'<line x1="{x(2**k):.1f}" y1="{top}" x2="{x(2**k):.1f}" y2="{top + ph}" stroke="#e3e3e3"/>'
            f'<text x="{x(2**k):.1f}" y="{top + ph + 15}" font-size="10" text-anchor="middle">'
            f"{escape(count(2**k) if 2**k < 10000 else f'{2**k // 1024}k')}</text>"
        )
    for i in range(0, int(top_mfu * 10) + 1):
        v = i / 10
        h.append(
            f'<line x1="{left}" y1="{y(v):.1f}" x2="{left + pw}" y2="{y(v):.1f}" stroke="#e3e3e3"/>'
            f'<text x="{left - 5}" y="{y(v) + 4:.1f}" font-size="10" text-anchor="end">{percent(v)}</text>'
        )
    h.append(
        f'<text x="{left + pw / 2}" y="{top + ph + 34}" font-size="12" text-anchor="middle">accelerators '
        f"(log scale); ■ knee, ● the job</text>"
    )
    for i, s in enumerate(series):
        colour, dash = style(i)
        t = s["training"]
        pts = [(c["accelerators"], c["mfu"]) for c in t["curve"]]
        h.append(
            f'<polyline points="{" ".join(f"{x(n):.1f},{y(v):.1f}" for n, v in pts)}" fill="none" '
            f'stroke="{colour}" stroke-width="2.5"' + (f' stroke-dasharray="{dash}"' if dash else "") + "/>"
        )
        for n, v in pts:
            if n == t.get("knee"):
                h.append(
                    f'<rect x="{x(n) - 5:.1f}" y="{y(v) - 5:.1f}" width="10" height="10" fill="{colour}">'
                    f"<title>knee: {escape(count(n))}</title></rect>"
                )
            if n == t.get("accelerators"):
                h.append(
                    f'<circle cx="{x(n):.1f}" cy="{y(v):.1f}" r="4" fill="#fff" stroke="{colour}" stroke-width="2"/>'
                )
    ly = top + ph + 50 + 12
    for i, lines in enumerate(legend):
        colour, dash = style(i)
        h.append(
            f'<line x1="{left}" y1="{ly - 4}" x2="{left + 28}" y2="{ly - 4}" stroke="{colour}" stroke-width="2.5"'
            + (f' stroke-dasharray="{dash}"' if dash else "")
            + "/>"
        )
        for j, line in enumerate(lines):
            h.append(
                f'<text class="curve-label" x="{left + 34}" y="{ly + 16 * j}" font-size="12" fill="{colour}" '
                f'font-weight="700">{escape(line)}</text>'
            )
        ly += 16 * len(lines) + 4
    h.append("</svg>")
    return "".join(h)


def section_html(doc: dict, heading: str = "h2"):
    from markupsafe import Markup, escape
    from .scale_out import input_lines

    h = [
        f'<section class="scale training" id="scale"><{heading}>Training what-if: job {escape(doc["request"]["job"])}'
        f'</{heading}><p class="model-note">{escape(doc["note"])}</p>'
    ]  # the note says it is a model, once
    h.append('<ol class="ranking">' + "".join(f"<li>{escape(x.strip())}</li>" for x in ranking_lines(doc)) + "</ol>")
    bars = _stacked_bars(doc)
    if bars:
        h.append(
            f'<figure class="chart-box"><div class="table-wrap">{bars}</div><figcaption>Where one training step '
            f"goes, per system, to one time scale (modelled).</figcaption></figure>"
        )
    chart = _mfu_chart(doc)
    if chart:
        h.append(
            f'<figure class="chart-box"><div class="table-wrap">{chart}</div><figcaption>Model FLOPs utilisation '
            f"as accelerators are added at the job's fixed global batch: each accelerator gets less work, "
            f"until pipeline bubbles and exposed communication dominate.</figcaption></figure>"
        )
    for s in doc["systems"]:
        t = s["training"]
        h.append(f'<h3 title="{escape(s["sheet"])}">{escape(short_name(s["sheet"]))}</h3><p>{escape(headline(t))}</p>')
        if t.get("not_fitting"):
            h.append(f'<p class="missing">{escape(t["not_fitting"])}</p>')
        if t.get("step_seconds") is not None:
            h.append(f"<p>Where the step goes: {escape(breakdown_words(t))}.</p>")
        h.append(
            '<ul class="scale-inputs">' + "".join(f"<li>{escape(x)}</li>" for x in input_lines(s) + hardware_lines(t))
        )
        h += [
            f'<li class="missing"><strong>Missing:</strong> {escape(m["why"])}: {escape(m["ask"])} '
            f"(or <code>{escape(m['fill'])}</code>)</li>"
            for m in s["missing"] + t.get("missing", [])
        ]
        h += [f'<li class="note">{escape(n)}</li>' for n in s["notes"] + t.get("notes", [])]
        h.append("</ul>")
        if t.get("curve"):
            h.append(
                '<div class="table-wrap"><table class="scale-points"><caption>At the job\'s global batch '
                "(modelled)</caption><thead><tr>"
                + "".join(f'<th scope="col">{escape(c)}</th>' for c in CURVE_HEADERS)
                + "</tr></thead><tbody>"
            )
            for row in curve_rows(t):
                h.append("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>")
            h.append("</tbody></table></div>")
    return Markup("".join(h))
