"""The scaling what-if as JSON (schema sheetaudit-scale/1), a terminal table and a self-contained HTML page.
Every rendering opens with the model's note: it is a model, not a measurement; assumed inputs are marked."""

from __future__ import annotations

from pathlib import PurePath

import json

from ..basis import fmt_num
from ..numfmt import count, percent, seconds

ASSUMED = "†"  # marks a value that rests on an input the user assumed, not on the sheet


def dumps(doc: dict) -> str:
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


def fmt_bytes(n: int) -> str:
    for unit, f in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= f:
            if n % f == 0:
                return f"{n // f} {unit}"
            break
    for unit, f in (("TB", 10**12), ("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if n >= f:
            return f"{fmt_num(n / f)} {unit}"
    return f"{n} B"


def input_lines(s: dict) -> list[str]:
    """The inputs in words, each with where it came from; assumed ones marked."""
    i, how = s["inputs"], s["inputs"].get("how", {})
    mark = {k: (f" {ASSUMED}assumed" if k in i.get("assumed", []) else "") for k in how}
    out = []
    if i["scale_up_gbs"] is not None:
        out.append(
            f"scale-up {fmt_num(i['scale_up_gbs'])} GB/s per accelerator, per direction{mark['scale_up_gbs']}"
            f" ({how['scale_up_gbs']})"
        )
    if i["domain_size"] is not None:
        out.append(f"scale-up domain {i['domain_size']} accelerators{mark['domain_size']} ({how['domain_size']})")
    if i["scale_out_gbs_per_accelerator"] is not None:
        out.append(
            f"scale-out {fmt_num(i['scale_out_gbs_per_accelerator'])} GB/s per accelerator, per direction = "
            f"{fmt_num(i['scale_out_gbs_per_node'])} GB/s per node of {i['accelerators_per_node']}"
            f"{mark['scale_out_gbs']} ({how['scale_out_gbs']})"
        )
    for key, tier in (("scale_up_latency_us", "scale-up"), ("scale_out_latency_us", "scale-out")):
        if i.get(key) is not None:
            out.append(f"{tier} step latency from the sheet: {fmt_num(i[key])} µs ({how[key]})")
    return out


def point_row(p: dict, training: bool) -> list[str]:
    mark = ASSUMED if p.get("assumed") else ""
    row = [
        count(p["accelerators"]),
        count(p["domains"]),
        p.get("algorithm", "–"),
        seconds(p["seconds"]) + mark,
        "–" if p["algbw_gbs"] is None else fmt_num(p["algbw_gbs"]),
        "–" if p["busbw_gbs"] is None else fmt_num(p["busbw_gbs"]),
        p.get("bottleneck") or p.get("unknown", ""),
    ]
    if training:
        row += [percent(p.get("comm_share"), 1), percent(p.get("efficiency"), 1)]
    return row


POINT_HEADERS = ["accelerators", "domains", "algorithm", "time", "algbw GB/s", "busbw GB/s", "set by"]
TRAIN_HEADERS = ["comm share", "efficiency"]


def marks_sentence(s: dict) -> str:
    t = s["training"]
    if t.get("compute_s") is None:
        return f"The training what-if has no compute time: {t['compute']}."
    if not t["curve"]:
        return "The training what-if needs the scale-up bandwidth and domain size."
    parts = []
    # claimed no further than the curve drawn, at the fixed global batch it is drawn for
    shown = t["curve"][-1]["accelerators"]
    reach = min(t["reach"] or shown, shown)
    for mark, n in t["below"].items():
        pct = percent(mark)
        parts.append(
            f"under {pct} from {n:,} accelerators"
            if n and n <= shown
            else f"not under {pct} up to {reach:,} accelerators"
            if not n
            else f"not under {pct} up to {reach:,} accelerators, the largest count drawn"
        )
    edge = t.get("domain_edge")
    k = t["batch_accelerators"]
    return (
        f"Data-parallel step at a fixed global batch ({fmt_bytes(t['gradient_bytes'])} of gradients all-reduced, "
        f"{t['compute']} on each of {k:,} accelerators, split n ways at n, overlap {t['overlap']:g}; a batch that "
        f"grew with the cluster would scale further, one model layout per count: see --job): efficiency "
        + "; ".join(parts)
        + "."
        + (f" The job leaves the scale-up domain above {edge} accelerators." if edge else "")
        + (
            ""
            if t["reach"] is None or t["reach"] >= 1 << 20
            else " Beyond the domain the scale-out bandwidth is missing, so the curve stops there."
        )
    )


def _table(headers: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.rjust(w) if i in (0, 1, 3, 4, 5) or i > 6 else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths))
        ).rstrip()

    return [line(headers), line(["-" * w for w in widths])] + [line(r) for r in rows]


def render_text(doc: dict) -> str:
    req = doc["request"]
    training = req["training"]
    out = ["What the figures mean at scale (sheetaudit scale)", doc["note"], ""]
    if doc.get("job") is not None:
        from .train_out import render_text as job_text

        out = [job_text(doc, _table)]
    for s in doc["systems"] if doc.get("job") is None else []:
        out.append(f"{s['sheet']} ({s['kind']})")
        out += [f"  {x}" for x in input_lines(s)]
        for m in s["missing"]:
            out.append(f"  missing: {m['why']}: {m['ask']} (or {m['fill']})")
        out += [f"  note: {n}" for n in s["notes"]]
        out.append(f"  {req['collective']} of {fmt_bytes(req['message_bytes'])} per accelerator:")
        rows = [point_row(p, training) for p in s["points"]]
        out += ["    " + x for x in _table(POINT_HEADERS + (TRAIN_HEADERS if training else []), rows)]
        out.append("  " + marks_sentence(s))
        if any(p.get("assumed") for p in s["points"]):
            out.append(f"  {ASSUMED} rests on an input you assumed, not on the sheet")
        out.append("")
    user = [k for k, v in doc["assumption_details"].items() if v["origin"] == "user"]
    out.append(
        "Assumptions (sheetaudit scale --list-assumptions explains each; change with --assume KEY=VALUE): "
        + ", ".join(
            f"{k} {_val(v)}" + (" (yours)" if k in user else "") for k, v in doc["assumptions"].items() if v is not None
        )
    )
    return "\n".join(out) + "\n"


def _val(v) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_val(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(f"{x:g}" for x in v) + "]"
    return f"{v:g}" if isinstance(v, float) else str(v)


def assumptions_text(a) -> str:
    out = []
    for name, x in a.items():
        out.append(
            f"{name} = {_val(x.value) if x.value is not None else 'null (not assumed)'}"
            + (" (yours)" if x.origin == "user" else "")
        )
        out.append(f"    why: {x.why}")
        out.append(f"    source: {x.source}")
    return "\n".join(out) + "\n"


COMPACT_WIDTH = 340  # drawn at about a phone's width: 12 px text stays about 12 px


def section_html(doc: dict, heading: str = "h2") -> "markupsafe.Markup":  # noqa: F821 - imported when drawn
    """The "What this means at scale" section: the efficiency chart, each system's inputs, points and missing
    inputs, and the assumptions listed. Used by `scale --format html`, a system sheet's report and the batch index."""
    from markupsafe import Markup, escape

    if doc.get("job") is not None:
        from .train_out import section_html as job_section

        return Markup(job_section(doc, heading) + assumptions_html(doc) + "</section>")
    from .curves import curves_of, efficiency_chart

    marks = doc["assumptions"].get("efficiency_marks") or (0.9, 0.5)

    def draw(width):
        return efficiency_chart(
            curves_of(doc),
            "Scaling efficiency of a data-parallel step at a fixed global batch",
            "Efficiency against accelerator count, log axis; the square marks where the job "
            "leaves the scale-up domain.",
            marks=marks,
            width=width,
        )

    chart = draw(680)
    if chart is not None:
        # a phone gets its own drawing at its own width, so the axis text stays legible (as the report's charts)
        chart = Markup(f'<div class="chart-wide">{chart}</div><div class="chart-compact">{draw(COMPACT_WIDTH)}</div>')
    training = doc["request"]["training"]
    h = []
    # said once, in the note under the heading: a model, not a measurement
    h.append(
        f'<section class="scale" id="scale"><{heading}>What this means at scale</{heading}>'
        f'<p class="model-note">{escape(doc["note"])}</p>'
    )
    if chart is not None:
        k = doc["assumptions"].get("batch_accelerators")
        h.append(
            f'<figure class="chart-box">{chart}<figcaption>Efficiency of a data-parallel training step against '
            f"accelerator count (compute time over compute plus exposed gradient all-reduce), the global batch "
            f"fixed at what {k} accelerators compute in one step, split across the count. "
            f"† rests on an input you assumed.</figcaption></figure>"
        )
    for s in doc["systems"]:
        h.append(f'<h3 title="{escape(s["sheet"])}">{escape(PurePath(s["sheet"]).name)}</h3><ul class="scale-inputs">')
        h += [f"<li>{escape(x)}</li>" for x in input_lines(s)]
        h += [
            f'<li class="missing"><strong>Missing:</strong> {escape(m["why"])}: {escape(m["ask"])} '
            f"(or <code>{escape(m['fill'])}</code>)</li>"
            for m in s["missing"]
        ]
        h += [f'<li class="note">{escape(n)}</li>' for n in s["notes"]]
        h.append(f"</ul><p>{escape(marks_sentence(s))}</p>")
        if s.get("requirements"):
            h.append(requirements_html(s["requirements"]))
        headers = POINT_HEADERS + (TRAIN_HEADERS if training else [])
        h.append(
            f'<div class="table-wrap"><table class="scale-points"><caption>{escape(doc["request"]["collective"])} of '
            f"{escape(fmt_bytes(doc['request']['message_bytes']))} per accelerator (modelled)</caption><thead><tr>"
            + "".join(f'<th scope="col">{escape(x)}</th>' for x in headers)
            + "</tr></thead><tbody>"
        )
        for p in s["points"]:
            h.append("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in point_row(p, training)) + "</tr>")
        h.append("</tbody></table></div>")
    h.append(assumptions_html(doc) + "</section>")
    return Markup("".join(h))


def requirements_html(sec: dict) -> str:
    """`scale --require`: each requirement against this system, as the terminal and the JSON give it."""
    from markupsafe import escape

    from ..requirements import spec

    words = spec()["results"]
    h = [
        f'<div class="table-wrap"><table class="scale-requirements"><caption>Against your requirements'
        f'{": " + escape(sec["name"]) if sec.get("name") else ""}</caption><thead><tr><th scope="col">requirement'
        f'</th><th scope="col">wanted</th><th scope="col">this system</th><th scope="col">result</th>'
        f'<th scope="col">what settles it</th></tr></thead><tbody>'
    ]
    for r in sec["results"]:
        value = f"{r['value_text']}{' ' + r['unit'] if r.get('unit') else ''}" if r.get("value_text") else ""
        w = words[r["result"]]
        h.append(
            f'<tr data-result="{escape(r["result"])}"><th scope="row">{escape(r["requirement"])}</th>'
            f"<td>{escape(r['wanted'])}</td><td>{escape(value)}</td>"
            f"<td>{escape((w['mark'] + ' ') if w['mark'] else '')}{escape(w['word'])}</td>"
            f"<td>{escape(r.get('question') or r.get('why') or '')}</td></tr>"
        )
    h.append("</tbody></table></div>")
    return "".join(h)


def assumptions_html(doc: dict) -> str:
    """The assumptions of the model, folded: each with its value, why and source."""
    from markupsafe import escape

    h = []
    h.append(
        '<details class="assumptions"><summary>Assumptions of the model</summary><div class="table-wrap"><table><thead><tr>'
        '<th scope="col">assumption</th><th scope="col">value</th><th scope="col">why</th>'
        '<th scope="col">source</th></tr></thead><tbody>'
    )
    for k, v in doc["assumption_details"].items():
        val = "not assumed" if v["value"] is None else _val(v["value"]) + (" (yours)" if v["origin"] == "user" else "")
        h.append(
            f'<tr><th scope="row"><code>{escape(k)}</code></th><td>{escape(val)}</td><td>{escape(v["why"])}'
            f"</td><td>{escape(v['source'])}</td></tr>"
        )
    h.append("</tbody></table></div></details>")
    return "".join(h)


PAGE_CSS = """.table-wrap{overflow-x:auto}.chart-compact{display:none}
@media (max-width:45rem){.chart-wide{display:none}.chart-compact{display:block}
table{font-size:12px}th,td{padding:.2em .3em}caption{white-space:normal;max-width:calc(100vw - 2em)}}
body{font:15px/1.45 system-ui,sans-serif;color:#1a1a1a;max-width:1100px;margin:1.5em auto;padding:0 1em}
table{border-collapse:collapse;margin:.5em 0 1em}th,td{border:1px solid #c8c8c8;padding:.25em .5em;text-align:left;
vertical-align:top}caption{text-align:left;font-weight:600}.model-note{background:#fff4d6;border-left:4px solid #b35806;
padding:.5em .8em}.missing{color:#7f2704}svg{max-width:100%;height:auto}@media print{details{display:block}}"""


def render_html(doc: dict) -> str:
    """A self-contained page: no script, no external resource, every string from a sheet escaped."""
    from markupsafe import escape

    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
        'img-src data:">'
        f"<title>What the figures mean at scale: {escape(', '.join(PurePath(s['sheet']).name for s in doc['systems']))}</title>"
        f"<style>{PAGE_CSS}</style></head><body><h1>What the figures mean at scale</h1>"
        f"{section_html(doc)}</body></html>\n"
    )
