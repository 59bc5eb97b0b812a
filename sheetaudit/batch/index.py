"""OUTDIR/index.html: one self-contained page (inline CSS, one inline script pinned by a CSP hash, no external
resource), autoescaped because every string in it comes from an untrusted sheet. The table is complete without
JavaScript; the script only adds sorting."""
from __future__ import annotations

import base64
import hashlib
from functools import lru_cache
from pathlib import Path
from urllib.parse import quote

from .compare import BASES, fmt_num, fmt_ratio

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
    return "sha256-" + base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()


@lru_cache(maxsize=1)
def _env():
    import jinja2
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                             autoescape=jinja2.select_autoescape(default=True, default_for_string=True),
                             trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
    return env


def report_href(report: str) -> str:
    return quote(report, safe="/")


def render_index(ctx: dict) -> str:
    from markupsafe import Markup, escape

    def cell(c, unit=""):
        if not c:
            return Markup('<td class="num none" data-sort="">–</td>')
        cls = "num derived" if c["how"] == "derived" else "num"
        title = c.get("note") or c.get("text") or ""
        return Markup(f'<td class="{cls}" data-sort="{escape(c["value"])}" title="{escape(title)}">'
                      f'{escape(fmt_num(c["value"]))}{escape(unit)}</td>')

    rows = []
    for r in ctx["rows"]:
        r = dict(r)
        r.setdefault("html_error", None)
        r["report_href"] = report_href(r["report"]) if r.get("report") else None
        rows.append(r)
    return _env().get_template("index.html.j2").render(
        **{**ctx, "rows": rows}, cell=cell, fmt_ratio=fmt_ratio, bases=BASES, script=SORT_JS,
        script_hash=script_hash())
