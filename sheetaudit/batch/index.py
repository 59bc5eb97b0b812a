"""OUTDIR/index.html: one self-contained page (inline CSS, one inline script pinned by a CSP hash, no external
resource), autoescaped because every string in it comes from an untrusted sheet. The table is complete without
JavaScript; the script only adds sorting."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path, PurePosixPath
from urllib.parse import quote

from ..output.verdict import STATUS_TEXT
from .compare import BASES, STATUS_ORDER, fmt_num, fmt_ratio

TEMPLATES = Path(__file__).resolve().parent / "templates"

SORT_JS = """
(function(){
  var table=document.getElementById('compare-table');if(!table)return;
  var heads=table.tHead.rows[0].cells;
  function key(td){var s=td.getAttribute('data-sort');if(s===null)s=td.textContent;return s;}
  function sortBy(i){
    var th=heads[i],asc=th.getAttribute('aria-sort')!=='ascending';
    for(var j=0;j<heads.length;j++)heads[j].removeAttribute('aria-sort');
    th.setAttribute('aria-sort',asc?'ascending':'descending');
    var body=table.tBodies[0],rows=Array.prototype.slice.call(body.rows);
    rows.sort(function(a,b){
      var x=key(a.cells[i]),y=key(b.cells[i]);
      if(x===''&&y==='')return 0;if(x==='')return 1;if(y==='')return -1;
      var nx=parseFloat(x),ny=parseFloat(y),r;
      if(!isNaN(nx)&&!isNaN(ny)&&isFinite(x)&&isFinite(y))r=nx-ny;else r=x.localeCompare(y);
      return asc?r:-r;});
    rows.forEach(function(r){body.appendChild(r);});
  }
  Array.prototype.forEach.call(heads,function(th,i){
    var b=document.createElement('button');b.type='button';
    while(th.firstChild)b.appendChild(th.firstChild);th.appendChild(b);
    b.addEventListener('click',function(){sortBy(i);});});
})();
""".strip()


def script_hash(script: str = SORT_JS) -> str:
    from ..output.html_out import csp_hash

    return csp_hash(script)


@lru_cache(maxsize=1)
def template_env():
    """The index's jinja2 environment (built once: the batch builds it early, while the last files are audited)."""
    from ..output.html_out import environment

    env = environment(TEMPLATES)
    env.filters["fmt_num_f"] = fmt_num
    env.filters["breakable"] = breakable
    return env


def breakable(name: str) -> str:
    """A file name that may break after its hyphens, dots and underscores (a zero-width space): a narrow column of
    the compliance matrix then wraps 'kestrel-k8x-gpu-server.pdf' at its parts, not mid-word."""
    import re

    return re.sub(r"([-._/])", "\\1\u200b", str(name))


def report_href(report: str) -> str:
    return quote(report, safe="/")


def index_charts(rows: list[dict], systems: list[tuple[str, dict]] = ()) -> list:
    """Pictures for the side-by-side reading: bandwidth per accelerator per direction, rack power vs the limit,
    and every system's scaling curve. Each is (title, wide svg, phone svg); across sheets an outlier (a misread
    total) gets a broken bar."""
    from ..output.charts import OUTLIER, Bar, Group, Line, bar_chart
    from ..rules import load_rules

    out = []
    bw = []
    for r in rows:
        up, so = r.get("scale_up"), r.get("scale_out")
        if not (up or so):
            continue
        bars = []
        # a derived value resting on an inferred figure is no figure of the sheet's: shown in the table, not drawn
        if up and not up.get("inferred"):
            bars.append(
                Bar("scale-up", float(up["value"]), kind="scale-up" if up.get("how") != "derived" else "derived")
            )
        if so and not so.get("inferred"):
            bars.append(Bar("scale-out", float(so["value"]), kind="scale-out"))
        if not bars:
            continue
        bw.append(Group(r["sheet"], bars))
    charts = []
    if bw:
        title = "Bandwidth per accelerator, per direction"
        charts.append(
            (
                title,
                lambda compact: bar_chart(
                    bw,
                    "GB/s",
                    title,
                    "Scale-up and scale-out bandwidth of each sheet on one basis (bytes, one direction, "
                    "one accelerator); sheets that state neither are left out.",
                    klass="index-bw",
                    compact=compact,
                    outlier=OUTLIER,
                ),
            )
        )
    limit = load_rules().threshold("air_cooling_limit_kw")
    power = [
        Group(
            r["sheet"],
            [
                Bar(
                    "rack",
                    float(r["rack_power"]["value"]),
                    kind="rack-derived" if r["rack_power"].get("how") == "derived" else "rack",
                )
            ],
        )
        for r in rows
        if r.get("rack_power")
    ]
    if power:
        title = "Rack power against the air-cooling limit"
        charts.append(
            (
                title,
                lambda compact: bar_chart(
                    power,
                    "kW",
                    title,
                    "Rack power per sheet (hatched where derived from node power) against the "
                    f"{fmt_num(limit)} kW air-cooling limit.",
                    lines=[Line(limit, f"air-cooling limit {fmt_num(limit)} kW")],
                    klass="index-power",
                    compact=compact,
                    outlier=OUTLIER,
                ),
            )
        )
    for title, draw in charts:
        out.append((title, draw(False), draw(True)))
    scale = _scale_chart(systems)
    if scale is not None:
        out.append(scale)
    return out


def _scale_chart(systems):
    """Every system's efficiency curve on one set of assumptions (the defaults): a model, never a vendor figure.
    (title, wide svg, phone svg): the model is computed once for both."""
    from ..output.curves import curves_of, efficiency_chart
    from ..atscale.whatif import for_report

    doc = for_report(list(systems))
    if doc is None:
        return None

    def svg(width):
        return efficiency_chart(
            curves_of(doc),
            "What this means at scale (a model, not a measurement)",
            "Efficiency of a data-parallel step against accelerator count for every system, on the "
            "default assumptions of rules/scale.yaml; the square marks each domain edge.",
            marks=doc["assumptions"]["efficiency_marks"],
            klass="index-scale",
            width=width,
        )

    wide = svg(680)
    if wide is None:
        return None
    from ..numfmt import seconds
    from ..output.scale_out import fmt_bytes

    t = doc["systems"][0]["training"]
    return (
        "What this means at scale (a model, not a measurement): efficiency of a data-parallel step at a fixed "
        f"global batch, {fmt_bytes(t['gradient_bytes'])} of gradients, {seconds(t['compute_s'])} compute on each "
        f"of {t['batch_accelerators']} accelerators split across the count, default assumptions "
        "('sheetaudit scale' explains and changes them)",
        wide,
        svg(340),
    )


OUTCOME_ORDER = {"meets": 0, "open": 1, "falls-short": 2}


def compliance_matrix(rows: list[dict], systems) -> dict | None:
    """The compliance matrix: the requirements down, the sheets across (those that meet every requirement first,
    then those with questions open, then those that fall short), each cell one sheet's result for one
    requirement, linked to that row of its report; and what to ask each vendor. None without --require."""
    contracts = dict(systems)
    sheets = []
    for r in rows:
        sec = (contracts.get(r["sheet"]) or {}).get("requirements")
        if not sec:
            continue
        href = report_href(r["report"]) if r.get("report") else None
        cells = {x["key"]: dict(x, href=f"{href}#req-{x['key']}" if href else None) for x in sec["results"]}
        asks = [(x["requirement"], x["question"]) for x in sec["results"] if x.get("question")]
        sheets.append(
            {
                "sheet": r["sheet"],
                "href": href,
                "outcome": sec["outcome"],
                "counts": sec["counts"],
                "cells": cells,
                "asks": asks,
                "name": sec.get("name"),
                "source": sec.get("source"),
            }
        )
    if not sheets:
        return None
    # Systems first (a switch or NIC sheet, to which most requirements do not apply, after them), then those that
    # meet every requirement, those with questions open, those that fall short.
    for x in sheets:
        x["kind"] = (contracts.get(x["sheet"]) or {}).get("sheet_kind") or "unknown"
        x["component"] = is_component(x["counts"], x["kind"])
    sheets.sort(key=lambda x: (x["component"], OUTCOME_ORDER.get(x["outcome"], 9), x["sheet"]))
    for x in sheets:
        x["label"] = short_name((contracts.get(x["sheet"]) or {}).get("source") or {}, x["sheet"])
    first = contracts[sheets[0]["sheet"]]["requirements"]["results"]
    from ..requirements import spec

    return {
        "name": sheets[0]["name"],
        "source": sheets[0]["source"],
        "sheets": sheets,
        "words": spec()["results"],
        "requirements": [(x["key"], x["requirement"], x["wanted"]) for x in first],
        "verdict": requirements_verdict(sheets),
        # on paper the matrix is split across pages by columns, each part with the requirements down its side
        "parts": [sheets[i : i + PRINT_COLUMNS] for i in range(0, len(sheets), PRINT_COLUMNS)],
    }


PRINT_COLUMNS = 9  # sheets in one printed part of the matrix: legible at 7 pt on landscape A4 or Letter


def short_name(source: dict, sheet: str, most: int = 30) -> str:
    """A column head for a sheet: its product's name (sheetaudit.naming; an older result's title without its
    "— Specifications"),
    or the file's name without its extension when the title names no model (no word of letters and digits:
    "Rack specifications", "Table 1. System specifications")."""
    import re

    name = (source.get("product") or "").strip()  # sheetaudit.naming's: a name even with no model number
    if not name:
        name = re.split(r"\s+[—–|:]\s+|\s+-\s+", source.get("title") or "")[0].strip()
        if not re.search(r"(?=\S*[A-Za-z])\S*\d", re.sub(r"^(?:Table|Figure)\s+\d+\W*", "", name)):
            name = PurePosixPath(sheet).stem
    return name if len(name) <= most else name[: most - 1].rstrip() + "…"


COMPONENT_KINDS = {"switch": "switch or NIC", "nic": "switch or NIC", "accelerator": "accelerator"}


def is_component(counts: dict, kind: str = "unknown") -> bool:
    """A sheet of a part, not a system (a switch, NIC or accelerator card in a folder of systems): by its kind,
    else when most of the requirements do not apply to it."""
    if kind in COMPONENT_KINDS:
        return True
    if kind in ("server", "rack", "pod"):
        return False
    return counts.get("not-applicable", 0) * 2 > sum(counts.values())


def requirements_verdict(sheets: list[dict]) -> str:
    """One sentence over sheets' requirement sections ({'outcome', 'counts'}): how the systems stand, and the
    component sheets (switches, NICs) apart, since most requirements do not apply to them and 'meets' would
    flatter them. The index's matrix and the batch's terminal summary both say it."""
    sheets = [dict(x, component=is_component(x["counts"], x.get("kind") or "unknown")) for x in sheets]
    systems = [x for x in sheets if not x["component"]]
    parts = []
    if systems:
        n = {o: sum(1 for x in systems if x["outcome"] == o) for o in OUTCOME_ORDER}
        parts.append(
            f"{n['meets']} of {len(systems)} system sheet{'s' if len(systems) != 1 else ''} meet every "
            f"requirement, {n['open']} need answers from the vendor, {n['falls-short']} fall short"
        )
    for what in dict.fromkeys(COMPONENT_KINDS.values()):
        comps = [x for x in sheets if x["component"] and COMPONENT_KINDS.get(x.get("kind"), "switch or NIC") == what]
        if comps:
            short = sum(1 for x in comps if x["outcome"] == "falls-short")
            parts.append(
                f"{len(comps)} {what} sheet{'s' if len(comps) != 1 else ''} (most requirements do not "
                f"apply): {len(comps) - short} without a shortfall, {short} falling short"
            )
    return "; ".join(parts) + "."


def render_index(ctx: dict) -> str:
    from markupsafe import Markup, escape

    def cell(c, unit=""):
        if not c:
            return Markup('<td class="num none" data-sort="">–</td>')
        cls = "num derived" if c["how"] == "derived" else "num"
        title = c.get("note") or c.get("text") or ""
        if c.get("inferred"):
            cls += " inferred"
            title = f"{title} (rests on an inferred figure: {c['inferred']}; not charted)"
        return Markup(
            f'<td class="{cls}" data-sort="{escape(c["value"])}" title="{escape(title)}">'
            f"{escape(fmt_num(c['value']))}{escape(unit)}</td>"
        )

    rows = []
    for r in ctx["rows"]:
        r = dict(r)
        r.setdefault("html_error", None)
        r["report_href"] = report_href(r["report"]) if r.get("report") else None
        rows.append(r)
    facility = next(
        (c["facility"]["text"] for _, c in ctx.get("systems", ()) if (c.get("facility") or {}).get("text")), ""
    )
    return (
        template_env()
        .get_template("index.html.j2")
        .render(
            **{**ctx, "rows": rows},
            facility_text=facility,
            matrix=compliance_matrix(rows, ctx.get("systems", ())),
            cell=cell,
            charts=index_charts(rows, ctx.get("systems", ())),
            fmt_ratio=fmt_ratio,
            fmt_num=fmt_num,
            bases=BASES,
            status_text=STATUS_TEXT,
            status_order=STATUS_ORDER,
            script=SORT_JS,
            script_hash=script_hash(),
        )
    )
