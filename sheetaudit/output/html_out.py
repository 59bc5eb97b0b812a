"""HTML report for one sheet: a complete, self-contained page (jinja2, autoescaped: sheet text is untrusted)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ..model import Audit
from .json_out import to_contract
from .verdict import verdict

TEMPLATES = Path(__file__).resolve().parent / "templates"


@lru_cache(maxsize=1)
def _env():
    import jinja2
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                              autoescape=jinja2.select_autoescape(default=True, default_for_string=True),
                              trim_blocks=True, lstrip_blocks=True)


def render(a: Audit) -> str:
    from ..rules import load_rules
    data = to_contract(a)
    return _env().get_template("sheet.html.j2").render(doc=data, verdict=verdict(a), steps=load_rules().steps)
