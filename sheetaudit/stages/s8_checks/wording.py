"""A finding's message, rendered from its fields: one place turns a finding's data into words, so the words can
change without changing what any later stage decides (merging, charts, status and caching read `data` only).
The words are the check's `message` in rules/checks.yaml (compose); the check's code passes values only.

    f = Finding(..., template="Rack power {figure} ({pages}) is above the {limit_kw} kW per rack ...",
                data={"figure": "120 kW", "rack_kw": 120.0, "limit_kw": 40.0, "pages": [3]})
    word(f)          # f.message = "Rack power 120 kW (p3) is above the 40 kW per rack ..."

How a value reads: numbers through numfmt.fmt (the one formatter of message arithmetic); a key named `pages` as
"p3, p5"; `models` (the finding's own) and other lists joined with commas; `items` (a list of dicts) each rendered
with the finding's `each` template, joined with "; ". {ratio:ratio} is a scale ratio as numfmt.ratio prints it
("1/18.0", "1.5x"); any other format spec ({share:.0%}) formats the raw value.
"""

from __future__ import annotations

import re

from ...errors import RulesError
from ...numfmt import fmt, ratio
from ...records import Finding

PART = re.compile(r"<([a-z_]+)>")  # a part of a message the check chooses: "<over>", "<models>"


def compose(code: str, entry: dict, message: str = "", parts: dict | None = None, models=()) -> str:
    """The template of a finding of CODE: its check's ENTRY (with its case's words over its own) gives `message`, a
    template or a mapping of them by name (MESSAGE names one), and `parts`, the clauses a template names as
    <name>: PARTS chooses each (True for a part of one form, a form's name for a mapping of forms; nothing, or a
    false value, leaves it out). <models> is "{models}: " when the finding concerns MODELS, else nothing."""
    said = entry.get("message")
    if isinstance(said, dict):
        said = said.get(message)
    elif message:
        said = None
    if not isinstance(said, str):
        raise RulesError(f"rules/checks.yaml: {code}: message{' ' + message if message else ''} is missing")
    forms, chosen = entry.get("parts") or {}, parts or {}

    def fill(m: re.Match) -> str:
        name = m.group(1)
        if name == "models":
            return "{models}: " if models else ""
        if name not in forms:
            raise RulesError(f"rules/checks.yaml: {code}: the message names <{name}>, which parts does not hold")
        choice, form = chosen.get(name), forms[name]
        if not choice:
            return ""
        if isinstance(form, str):
            return form
        if choice not in form:
            raise RulesError(f"rules/checks.yaml: {code}: parts: {name}: {choice} is missing")
        return form[choice]

    return PART.sub(fill, said)


def pages_text(pages) -> str:
    return ", ".join(f"p{p}" for p in pages)


class _Shown:
    """One value as a message prints it; with a format spec, the raw value formatted by it."""

    __slots__ = ("key", "value")

    def __init__(self, key: str, value):
        self.key, self.value = key, value

    def __format__(self, spec: str) -> str:
        v = self.value
        if spec == "ratio":
            return ratio(v)
        if spec == "capital":  # at the head of a sentence: "The 900 GB/s on page 5 is ..."
            said = format(self, "")
            return said[:1].upper() + said[1:]
        if spec:
            return format(v, spec)
        if self.key == "pages" or self.key.endswith("_pages"):
            return pages_text(v)
        if isinstance(v, bool) or v is None:
            return "" if v is None else str(v)
        if isinstance(v, (int, float)):
            return fmt(v)
        if isinstance(v, (list, tuple)):
            return ", ".join(str(x) for x in v)
        return str(v)


class _Values(dict):
    def __missing__(self, key):
        raise KeyError(f"the template names {{{key}}}, which the finding's data does not hold")


IN_PARENTHESES = 3  # items a message lists inside parentheses; the finding's figures hold every one


def render(template: str, data: dict, each: str = "", models=()) -> str:
    """TEMPLATE filled from DATA (and the finding's MODELS); {items} is DATA's items, each rendered by EACH."""
    values = _Values({k: _Shown(k, v) for k, v in data.items()})
    values["models"] = _Shown("models", list(models))
    if each:
        items = [render(each, item) for item in data.get("items", ())]
        if "({items})" in template and len(items) > IN_PARENTHESES:  # a list inside a sentence stays short
            items = items[: IN_PARENTHESES - 1] + [
                f"{items[IN_PARENTHESES - 1]} and {len(items) - IN_PARENTHESES} more"
            ]
        values["items"] = _Shown("items", "; ".join(items))
    return template.format_map(values)


def word(f: Finding) -> Finding:
    """Render F's message from its template and data, with what merging added: the other pages the same problem
    is printed on, and the models when the finding itself does not name them."""
    msg = render(f.template, f.data, f.each, f.models)
    if f.data.get("same_on"):
        msg += f" The same on {pages_text(f.data['same_on'])}."
    if f.data.get("models_listed"):
        msg += f" Models: {', '.join(f.models)}."
    f.message = msg
    return f
