"""HTML report for one sheet: a complete, self-contained page for the person who signs the purchase.

Verdict and counts first; the four steps as sections, each opening with what it checks and why, then its
findings most severe first, each with its evidence (page, quoted sentence, a picture of the page region with
the figure highlighted, the normalised value and its arithmetic) and what to ask the vendor; passed checks
collapsed; charts as inline SVG; a table of every figure. CSS, images and the small script are inline and a
Content-Security-Policy forbids any request, so the file opens offline and nothing leaves the machine.

Sheet text is untrusted: the template autoescapes everything, quotes are split into (text, highlighted)
pieces rather than marked up as strings, and the only script that can run is ours (CSP hash).
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Optional

from markupsafe import Markup

from ..records import SheetResult, Figure, Finding
from ..numfmt import num, ratio
from . import charts
from .json_out import contract
from .message import split_list
from .verdict import STATUS_TEXT, counts, facility_json, status, unread, vendor_questions, verdict

from ..severity import RANK as SEVERITY_RANK, SEVERITIES

TEMPLATES = Path(__file__).resolve().parent / "templates"
MARKS = {
    "error": ("✖", "Error", "errors"),
    "warning": ("▲", "Warning", "warnings"),
    "info": ("●", "Note", "notes"),
    "pass": ("✔", "Passed", "passed"),
}
# Text colours and their backgrounds; tests assert WCAG AA (4.5:1) for every pair.
PALETTE = {
    "ink": ("#1a1a1a", "#ffffff"),
    "muted": ("#525252", "#ffffff"),
    "link": ("#0b57d0", "#ffffff"),
    "error": ("#b3261e", "#fdecea"),
    "warning": ("#7a4100", "#fff3dc"),
    "info": ("#1d5799", "#e8f0fb"),
    "pass": ("#1b6e3a", "#e6f4ea"),
    "mark": ("#1a1a1a", "#ffe066"),
    "code": ("#1a1a1a", "#f1f1f1"),
}
MAX_IMAGES = 24  # evidence images in one report (each a few KB at 100 dpi)
MAX_IMAGES_PER_FINDING = 3
SHOWN_PLACES = 4  # evidence blocks shown open per finding; the rest collapsed
CJK = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]")


def _bytecode_cache():
    """The compiled templates of an earlier run (compiling them costs as much as the rest of an HTML report),
    in the user's cache folder. jinja2 keys an entry by the template and checks it against the template's source;
    an entry is written atomically, and one that cannot be read or is corrupt is compiled again."""
    import sys

    import jinja2

    from ..fileio import atomic_write
    from ..cachedir import user_cache_dir

    class Cache(jinja2.BytecodeCache):
        def __init__(self):
            self.folder = user_cache_dir() / f"templates-py{sys.version_info[0]}{sys.version_info[1]}"

        def load_bytecode(self, bucket) -> None:
            try:
                bucket.bytecode_from_string((self.folder / f"{bucket.key}.cache").read_bytes())
            except Exception:
                bucket.reset()

        def dump_bytecode(self, bucket) -> None:
            try:
                atomic_write(self.folder / f"{bucket.key}.cache", bucket.bytecode_to_string(), durable=False)
            except OSError:  # a read-only home compiles the templates each run
                pass

    return Cache()


def environment(folder: Path):
    """A jinja2 environment over the templates in FOLDER as every page of ours is rendered: escaped by default,
    strict about undefined names, compiled templates kept in the user's cache."""
    import jinja2

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(folder)),
        autoescape=jinja2.select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
        bytecode_cache=_bytecode_cache(),
    )


@lru_cache(maxsize=1)
def _env():
    env = environment(TEMPLATES)
    env.filters["num"] = num
    env.filters["ratio"] = ratio
    return env


@lru_cache(maxsize=4)
def asset(name: str) -> str:
    """An inline asset (report.css, report.js) as text; also used by the batch pages."""
    return (TEMPLATES / name).read_text(encoding="utf-8")


def csp_hash(script: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")


# Words that are lower case inside a Title Case product name ("Series A and B", "Server for AI") and function words
# that open a tagline ("The AI factory in a rack.", "One rack, one domain ...").
_NAME_JOINERS = {
    "and",
    "or",
    "of",
    "for",
    "with",
    "to",
    "in",
    "on",
    "by",
    "vs",
    "vs.",
    "the",
    "a",
    "an",
    "&",
    "-",
    "--",
    "|",
    "/",
    "x",
}
_TAGLINE_OPENERS = {
    "The",
    "A",
    "An",
    "One",
    "Two",
    "Three",
    "Four",
    "Our",
    "Your",
    "Built",
    "Designed",
    "Made",
    "Meet",
    "Introducing",
    "Powering",
    "From",
    "Where",
    "When",
    "Why",
    "How",
    "What",
    "Now",
}


def title_parts(title: str) -> tuple[str, str]:
    """A sheet's title as (product name, tagline): readers split the first heading block into one line, which runs
    the name into the marketing sentence under it ("... AI Rack One rack, one NVLink domain, ...")."""
    words = (title or "").split()
    if len(words) < 5:
        return title or "", ""
    cut = None
    for i, w in enumerate(words[2:], start=2):
        if w in _TAGLINE_OPENERS:
            cut = i
            break
        if w[:1].islower() and w.lower() not in _NAME_JOINERS and words[i - 1][:1].isupper():
            cut = i - 1
            break
    if cut is None or cut < 2 or len(words) - cut < 3:
        return title, ""
    return " ".join(words[:cut]), " ".join(words[cut:])


def lang_of(text: str) -> str:
    return "zh" if CJK.search(text or "") else ""


def marked(text: str, needles) -> list[tuple[str, bool]]:
    """Split `text` into pieces, True where one of `needles` (figure texts) occurs: highlighted as <mark>."""
    needles = sorted({n for n in needles if n}, key=len, reverse=True)
    if not text or not needles:
        return [(text or "", False)]
    pattern = re.compile("|".join(re.escape(n) for n in needles))
    out, pos = [], 0
    for m in pattern.finditer(text):
        if m.start() > pos:
            out.append((text[pos : m.start()], False))
        out.append((m.group(0), True))
        pos = m.end()
    if pos < len(text):
        out.append((text[pos:], False))
    return out


def value_line(f: Figure) -> str:
    """The normalised value in words: '900 GB/s per direction', '700 ns (hardware)', '132 kW per rack'."""
    n = f.normalized or {}
    v, unit = n.get("value"), n.get("unit") or ""
    if f.quantity == "bandwidth":
        if f.tier == "memory":
            return f"{num(v)} {unit} (memory bandwidth)"
        scope = f" ({f.scope})" if f.scope and f.scope != "unspecified" else ""
        return f"{num(v)} {unit} per direction{scope}"
    if f.quantity == "latency":
        return f"{num(v)} {unit} ({f.basis or 'basis unspecified'})"
    if f.quantity == "power":
        return f"{num(v)} {unit}" + (f" ({f.scope})" if f.scope else "")
    if f.quantity == "cooling":
        return f"{v} cooling"
    if f.quantity == "compute":
        at = f" {f.precision.upper()}" if f.precision else ""
        return (
            f"{num(v)} {unit} dense per accelerator{at}"
            if v is not None
            else f"{f.text}{at}, the whole {(f.scope or 'system').replace('per-', '')}'s (its accelerators not counted)"
        )
    if f.quantity == "memory":
        return f"{num(v)} {unit} accelerator memory" + (f" ({f.scope})" if f.scope else "")
    return f"{num(v)} {unit}".strip()


def facts(f: Figure) -> list[tuple[str, str]]:
    """How the audit read one figure, beyond what value_line says: tier and technology."""
    read = f"inferred ({f.certainty_reason})" if f.certainty == "inferred" else ""
    return [(name, value) for name, value in (("tier", f.tier), ("technology", f.technology), ("read", read)) if value]


@dataclass
class Place:
    """One quoted place in the sheet (a sentence, a table row) with the figures of a finding in it."""

    key: str
    page: int
    quote: list[tuple[str, bool]]
    lang: str
    label: str
    heading: str
    figures: list[Figure]
    bbox: Optional[tuple] = None
    kind: str = "sentence"
    image: object = None
    paged: bool = True  # a PDF page number means something; a text file's "page 1" does not


@dataclass
class FindingView:
    f: Finding
    title: str
    mark: tuple
    places: list[Place] = field(default_factory=list)
    anchor: str = ""

    @property
    def figure_texts(self) -> str:
        return ", ".join(dict.fromkeys(f"{x.text} (p{x.page})" for p in self.places for x in p.figures))


INCOMPLETE_CHECKS = ("sheet.no-text", "sheet.no-figures")


@dataclass
class Question:
    """One thing to ask the vendor, in the vendor's words, with the findings that raise it (most severe first)."""

    severity: str
    mark: tuple
    title: str
    fix: str
    views: list[FindingView] = field(default_factory=list)
    text: str = ""  # the question as the vendor reads it (with the page)
    doubt: str = ""  # why the audit is not certain (an inferred reading), when it is not


def ask_list(views: list[FindingView]) -> list[Question]:
    """Every question for the vendor, most severe first; findings asking the same question share one item."""
    view = {id(v.f): v for v in views}
    out = []
    for text, asking in vendor_questions([v.f for v in views]).items():
        first = view[id(asking[0])]
        out.append(
            Question(
                first.f.severity,
                first.mark,
                first.title,
                first.f.fix,
                text=text,
                doubt=first.f.certainty_reason if first.f.certainty == "inferred" else "",
                views=[view[id(f)] for f in asking],
            )
        )
    return out


def buyer_list(views: list[FindingView]) -> list[tuple[str, FindingView]]:
    """What the buyer checks themselves (the hall's power and cooling, pages not read): not for the vendor."""
    out: dict[str, FindingView] = {}
    for v in sorted(views, key=lambda v: SEVERITY_RANK[v.f.severity]):
        if v.f.buyer:  # an info finding too: "check that your hall can feed 135 kW per rack"
            out.setdefault(v.f.buyer, v)
    return list(out.items())


def questions_text(questions: list[Question], product: str = "", filename: str = "") -> str:
    """The list as an email to the vendor, ready to paste: a greeting, the numbered questions, thanks."""
    about = f"{product} ({filename})" if product and filename and product != filename else (product or filename)
    lines = [
        "Hello,",
        "",
        f"We are evaluating {about or 'your product'} from your specification sheet and would be grateful for "
        "answers to the following questions:",
        "",
    ]
    for i, q in enumerate(questions, 1):
        lines.append(f"{i}. {q.text}")
    lines += [
        "",
        "If another document of yours answers them, a pointer to it is just as welcome.",
        "",
        "Thank you,",
        "",
    ]
    return "\n".join(lines)


def _places(finding: Finding, by_id: dict[str, Figure], paged: bool = True) -> list[Place]:
    places: dict[tuple, Place] = {}
    for fid in dict.fromkeys(finding.figures):
        fig = by_id.get(fid)
        if fig is None:
            continue
        bbox = tuple(round(v, 1) for v in fig.bbox) if fig.bbox else None
        k = (fig.page, bbox, fig.context)
        p = places.get(k)
        if p is None:
            seg = fig.segment
            p = places[k] = Place(
                key="",
                page=fig.page,
                quote=[],
                lang=lang_of(fig.context),
                label=fig.label,
                heading=fig.heading,
                figures=[],
                bbox=fig.bbox,
                kind=seg.kind if seg else "sentence",
                paged=paged,
            )
        if all(fig.text != x.text or fig.normalized != x.normalized for x in p.figures):
            p.figures.append(fig)
    for i, ((page, bbox, context), p) in enumerate(places.items()):
        p.quote = marked(context, [x.text for x in p.figures])
        p.key = hashlib.sha1(repr((page, bbox, tuple(x.text for x in p.figures))).encode()).hexdigest()[:12]
    return list(places.values())


def _attach_images(
    a: SheetResult, views: list[FindingView], resolution: int, max_images: int, password: Optional[str]
) -> Optional[str]:
    """Render evidence images for the most severe findings first; returns why there are none, if so."""
    from . import evidence

    reason = evidence.unavailable_reason(a.document.path, a.document.kind, a.document.sha256)
    if reason:
        return reason
    wanted: dict[str, evidence.Request] = {}
    for v in sorted(views, key=lambda v: SEVERITY_RANK[v.f.severity]):
        n = 0
        for p in v.places:
            if n >= MAX_IMAGES_PER_FINDING:
                break
            if not p.bbox:
                continue
            if p.key not in wanted:
                if len(wanted) >= max_images:
                    break
                wanted[p.key] = evidence.Request(
                    p.key, p.page, p.bbox, tuple(x.text for x in p.figures), p.kind, p.label
                )
            n += 1
    if not wanted:
        return None
    images = evidence.render(a.document.path, wanted.values(), resolution=resolution, password=password)
    for v in views:
        for p in v.places:
            p.image = images.get(p.key)
    return None if images else "the PDF pages could not be rendered"


def context(
    a: SheetResult,
    *,
    images: bool = True,
    resolution: int = 100,
    max_images: int = MAX_IMAGES,
    password: Optional[str] = None,
    back_href: Optional[str] = None,
    all_figures: bool = False,
) -> dict:
    """Everything the sheet template needs; the batch pages reuse it."""
    from ..rules import load_rules

    rules = load_rules()
    doc = contract(a)
    by_id = {f.id: f for f in a.figures}
    views = []
    for i, f in enumerate(sorted(a.findings, key=lambda x: (SEVERITY_RANK[x.severity],))):
        c = rules.checks.get(f.check, {})
        views.append(
            FindingView(
                f=f,
                title=f.title or c.get("title", f.check),
                mark=MARKS[f.severity],
                places=_places(f, by_id, a.document.kind == "pdf"),
                anchor=f"finding-{i + 1}",
            )
        )
    image_note = _attach_images(a, views, resolution, max_images, password) if images else "images were turned off"
    steps = []
    for step, meta in sorted(rules.steps.items(), key=lambda kv: int(kv[0])):
        step = int(step)
        found = [v for v in views if (v.f.step if isinstance(v.f.step, int) else 0) == step]
        passed = [
            (code, rules.checks[code])
            for code in a.passed
            if code in rules.checks and int(rules.checks[code]["step"]) == step
        ]
        if step == 0 and not found:
            continue
        worst = min((SEVERITY_RANK[v.f.severity] for v in found), default=None)
        titles = [c["title"] for c in rules.checks.values() if int(c.get("step", -1)) == step]
        what = meta.get("what") or (
            "looks for " + "; ".join(t[0].lower() + t[1:] for t in titles) + "." if titles else ""
        )
        steps.append(
            {
                "n": step,
                "title": meta.get("title", ""),
                "why": meta.get("why", ""),
                "findings": found,
                "what": what,
                "passed": passed,
                "anchor": f"step-{step}",
                "counts": {s: sum(1 for v in found if v.f.severity == s) for s in SEVERITIES},
                "worst": SEVERITIES[worst] if worst is not None else "pass",
            }
        )
    try:
        limit = rules.threshold("air_cooling_limit_kw")
    except Exception:
        limit = 40.0
    chart_doc = dict(
        doc,
        figures=[
            dict(d, heading=f.heading, column=f.segment.column if f.segment else "")
            for d, f in zip(doc["figures"], a.figures)
        ],
    )
    chart_list = []
    power_how = (
        f"A rack above about {num(limit)} kW cannot be cooled by air; it needs liquid cooling and matching "
        "power distribution."
        + (
            " A hatched bar is derived from node power and a typical number of nodes "
            "per rack, not stated by the vendor."
            if any(b.kind == "rack-derived" for b in charts.power_bars(chart_doc))
            else ""
        )
    )
    for cid, title, draw, how in (
        (
            "chart-bandwidth",
            "Bandwidth per accelerator, per direction",
            charts.bandwidth_chart,
            "Both tiers on one basis: bytes per second, one direction, for one accelerator. Scale-up joins the "
            "accelerators of one domain; scale-out is the network between domains. The ratio decides how "
            "training is split across domains.",
        ),
        (
            "chart-latency",
            "Latencies, grouped by what they measure",
            charts.latency_chart,
            "One logarithmic scale. A hardware latency (switch chip, port to port) and an end-to-end latency "
            "(host to host through the software stack) measure different paths: compare within a group only.",
        ),
        (
            "chart-power",
            "Rack power against the air-cooling limit"
            + (" and your facility" if (a.facility or {}).get("rack_power_kw") is not None else ""),
            lambda doc, compact=False: charts.power_chart(doc, limit, a.facility, compact=compact),
            power_how,
        ),
    ):
        svg = draw(chart_doc)
        if svg is not None:
            chart_list.append(
                {"id": cid, "title": title, "svg": svg, "how": how, "compact": draw(chart_doc, compact=True)}
            )
    questions = ask_list(views)
    st = status(a)
    name, tagline = title_parts(a.document.title or Path(a.document.path).name or "spec sheet")
    if a.document.product:  # the product's name (sheetaudit.naming); the sheet's own title line under it
        name, title = a.document.product, (a.document.title or "").strip()
        rest = title[len(name) :] if title.lower().startswith(name.lower()) else title
        tagline = rest.strip(" :-–—|") if rest.strip(" :-–—|").lower() != name.lower() else ""
    from .certainty_view import certainty_note
    from ..atscale.whatif import for_report
    from .scale_out import section_html

    scale_doc = for_report([(Path(a.document.path).name, doc)])
    script = asset("report.js")
    n_images = sum(1 for v in views for p in v.places if p.image)
    return {
        "doc": doc,
        "audit": a,
        "verdict": verdict(a),
        "counts": counts(a),
        "marks": MARKS,
        "steps": steps,
        "findings": views,
        "charts": chart_list,
        "questions": questions,
        "figures": a.figures,
        "questions_text": questions_text(questions, name, Path(a.document.path).name),
        "buyer": buyer_list(views),
        "certainty_note": certainty_note,
        "status": st,
        "status_text": STATUS_TEXT[st],
        "unread": unread(a),
        "incomplete_findings": [v for v in views if v.f.check in INCOMPLETE_CHECKS],
        "split_list": split_list,
        "value_line": value_line,
        "facts": facts,
        "lang_of": lang_of,
        "title": name,
        "tagline": tagline,
        "filename": Path(a.document.path).name,
        "quantities": sorted({f.quantity for f in a.figures}),
        "css": Markup(asset("report.css")),
        "script": Markup(script),
        "script_hash": csp_hash(script),
        "image_note": image_note,
        "n_images": n_images,
        "resolution": resolution,
        "steps_by_n": {s["n"]: s for s in steps},
        "facility": a.facility,
        "air_limit": limit,
        "facility_text": (facility_json(a.facility) or {}).get("text", ""),
        "scale": section_html(scale_doc) if scale_doc else None,
        "back_href": back_href,
        "passed_total": len(a.passed),
        "requirements": a.requirements,
        "req_words": _requirement_words() if a.requirements else None,
        # what the printed appendix lists: the figures the questions and requirements rest on (an info finding's
        # figures are the sheet's port speeds read by convention, a hundred on a long switch sheet)
        "cited": _cited(a),
        "all_figures": all_figures,
    }


def _cited(a: SheetResult) -> set[str]:
    """The figures the printed appendix lists: those the questions (errors, warnings) and the requirements rest on,
    a figure printed again with the same reading once (an info finding's figures are the sheet's port speeds read by
    convention, a hundred on a long switch sheet; the same port speed recurs on every page)."""
    wanted = {i for f in a.findings if f.severity != "info" for i in f.figures} | {
        i for r in (a.requirements or {}).get("results", []) for i in r.get("figures") or []
    }
    seen, out = set(), set()
    for f in a.figures:
        key = (f.quantity, f.text, f.tier, f.scope, f.direction, str((f.normalized or {}).get("value")))
        if f.id in wanted and key not in seen:
            seen.add(key)
            out.add(f.id)
    return out


def _requirement_words() -> dict:
    from ..requirements import spec

    return spec()["results"]


def render(
    a: SheetResult,
    *,
    images: bool = True,
    resolution: int = 100,
    max_images: int = MAX_IMAGES,
    password: Optional[str] = None,
    back_href: Optional[str] = None,
    all_figures: bool = False,
) -> str:
    """The report; printed, it lists the figures the questions rest on, every figure with all_figures."""
    ctx = context(
        a,
        images=images,
        resolution=resolution,
        max_images=max_images,
        password=password,
        back_href=back_href,
        all_figures=all_figures,
    )
    from ..textsafe import safe_text

    return safe_text(_env().get_template("sheet.html.j2").render(**ctx))  # a damaged text layer's lone surrogate
