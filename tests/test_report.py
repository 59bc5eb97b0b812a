"""The HTML report without a browser: content, escaping, self-containment, accessibility basics, speed.

(tests/test_report_browser.py opens the same reports in chromium.)
"""

from __future__ import annotations

import base64
import hashlib
import html.parser
import io
import re
from functools import lru_cache
from pathlib import Path

import pytest
from PIL import Image

from cpu_clock import cpu_seconds
from sheetaudit.records import SheetResult, Derived, Document, Figure, Finding, Segment
from sheetaudit.output import charts, evidence
from sheetaudit.output.html_out import PALETTE, render
from sheetaudit.output.json_out import to_contract
from sheetaudit.output.verdict import verdict
from sheetaudit.options import AuditOptions
from sheetaudit import pipeline

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
SAMPLES = ROOT / "samples"
HOSTILE = ROOT / "tests" / "hostile" / "files"
# A rack sheet of our own (liquid-cooled, 120 kW, aggregate NVLink figure) so the tests never depend on ../shared.
ORION = SAMPLES / "borealis-bx72-rack.pdf"
XUANWU = SAMPLES / "xuanwu-x8-server-zh.pdf"
ZEPHYR = SAMPLES / "zephyr-forge-brochure.pdf"


@lru_cache(maxsize=None)
def audited(path: Path, password: str | None = None) -> SheetResult:
    return pipeline.run(path, AuditOptions(password=password))


@lru_cache(maxsize=None)
def report(path: Path) -> str:
    return render(audited(path))


class Parsed(html.parser.HTMLParser):
    """Tags with attributes, in order, plus the text and the script bodies."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []
        self.scripts: list[str] = []
        self._in_script = False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"

    def handle_endtag(self, tag):
        self._in_script = False

    def handle_data(self, data):
        (self.scripts if self._in_script else self.text).append(data)

    def all(self, tag: str) -> list[dict]:
        return [a for t, a in self.tags if t == tag]


def need(path: Path):
    if not path.exists():
        pytest.skip(f"{path} not present")


SHEETS = [
    ORION,
    XUANWU,
    SAMPLES / "pelican-pn5164-ethernet-switch.pdf",
    SAMPLES / "kestrel-k8x-gpu-server.pdf",
    SAMPLES / "cormorant-c8x-platform.md",
    SAMPLES / "gannet-gx800-xdr-switch.html",
    SAMPLES / "osprey-o4-inference-server.txt",
]


@pytest.mark.parametrize("sheet", SHEETS, ids=lambda p: p.name)
def test_report_has_verdict_every_finding_and_every_figure(sheet):
    need(sheet)
    a = audited(sheet)
    page = Parsed(report(sheet))
    text = " ".join(page.text)
    assert verdict(a) in text.replace("\n", " ")
    shown = [t["data-check"] for t in page.all("article")]
    assert sorted(shown) == sorted(f.check for f in a.findings)
    # most severe first within each step
    rank = {"error": 0, "warning": 1, "info": 2}
    order = [(f.step, rank[f.severity]) for f in a.findings]
    by_anchor = {t["id"]: t["data-check"] for t in page.all("article")}
    assert len(by_anchor) == len(a.findings)
    rows = [t for t in page.all("tr") if t.get("data-quantity")]
    assert len(rows) == len(a.figures)
    assert order  # every sample sheet raises something
    # the four steps in order, each with its 'why' from the rules
    from sheetaudit.rules import load_rules

    steps = load_rules().steps
    for n in (1, 2, 3, 4):
        assert f"Step {n}: {steps[n]['title']}" in text
        assert steps[n]["why"] in text


def test_questions_then_findings_most_severe_first():
    """The first screen answers 'can we buy this, and what must we ask?': the verdict, then every question for
    the vendor, most severe first, each linking to its evidence; then the findings by severity."""
    need(ZEPHYR)  # an air-cooled rack above the air limit: an error the sheet itself proves
    html = report(ZEPHYR)
    page = Parsed(html)
    sections = [t.get("id") or t.get("class") for t in page.all("section")]
    assert sections[:3] == ["verdict verdict-fail", "ask", "findings"]
    rank = {"error": 0, "warning": 1, "info": 2}
    asked = [rank[t["data-severity"]] for t in page.all("li") if "data-severity" in t]
    assert asked and asked == sorted(asked) and asked[0] == 0
    findings = html[html.index('id="findings"') : html.index('id="glance"')]
    assert findings.index('data-check="power.rack-density"') < findings.index('data-check="tier.aggregate-figure"')
    shown = [rank[m] for m in re.findall(r'<article class="finding finding-(\w+)"', findings)]
    assert shown == sorted(shown)
    anchors = {t["id"] for t in page.all("article")}
    ask = html[html.index('id="ask"') : html.index('id="findings"')]
    assert set(re.findall(r'href="#(finding-\d+)"', ask)) <= anchors
    # copyable as an email to the vendor: a greeting, one numbered line per question, most severe first, thanks
    import html as htmllib

    text = html[html.index('id="questions-text"') :]
    text = htmllib.unescape(text[text.index(">") + 1 : text.index("</textarea>")])
    lines = text.splitlines()
    assert lines[0] == "Hello," and "Thank you," in lines
    numbered = [ln for ln in lines if re.match(r"\d+\. ", ln)]
    assert numbered[0].startswith("1. ") and "rack" in numbered[0] and "sheetaudit" not in text
    # the four steps stay as the way to browse: each lists its findings by link
    step4 = html[html.index('id="step-4"') : html.index('id="figures"')]
    assert "Rack power above the air-cooling limit" in step4


def test_evidence_images_arithmetic_and_question_for_each_finding():
    need(ORION)
    a = audited(ORION)
    html = report(ORION)
    page = Parsed(html)
    imgs = page.all("img")
    assert imgs and all(i["src"].startswith("data:image/png;base64,") and len(i.get("alt", "")) > 20 for i in imgs)
    for i in imgs:  # real PNGs
        assert base64.b64decode(i["src"].split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
    text = " ".join(page.text)
    assert "1.8 TB/s = 1,800 GB/s; / 2 = 900 GB/s per direction" in text
    assert "900 GB/s per direction" in text
    for f in a.findings:
        assert f.fix in text
    assert "Ask the vendor" in text
    # the highlighted figure in the quote
    assert "<mark>1.8 TB/s</mark>" in html


def test_passed_checks_are_collapsed_with_a_count():
    need(ORION)
    a = audited(ORION)
    html = report(ORION)
    n = len(re.findall(r'<details class="passed">', html))
    assert n >= 3
    counts = [int(x) for x in re.findall(r"(\d+) checks? passed in this step", html)]
    assert sum(counts) == len([c for c in a.passed if not c.startswith("sheet.")])
    assert '<details class="passed" open' not in html


def test_self_contained_no_request_possible():
    need(ORION)
    html = report(ORION)
    page = Parsed(html)
    for tag, attrs in page.tags:
        for k in ("src", "href", "action", "data", "poster", "srcset"):
            v = attrs.get(k)
            if v is None:
                continue
            assert v.startswith(("data:", "#")), (tag, k, v[:60])
    assert "@import" not in html and "@font-face" not in html
    assert not re.search(r"url\((?!#)", html), "only in-document url(#pattern) references"
    assert page.all("link") == []
    csp = [m["content"] for m in page.all("meta") if m.get("http-equiv") == "Content-Security-Policy"]
    assert csp and "default-src 'none'" in csp[0]
    scripts = page.all("script")
    assert len(scripts) == 1 and "src" not in scripts[0]
    body = "".join(page.scripts)
    digest = "sha256-" + base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
    assert f"'{digest}'" in csp[0], "the CSP hash allows exactly our inline script"


def test_complete_without_javascript():
    need(ORION)
    html = report(ORION)
    html_no_js = re.sub(r"<script>.*?</script>", "", html, flags=re.S)
    page = Parsed(html_no_js)
    assert len([t for t in page.all("tr") if t.get("data-quantity")]) == len(audited(ORION).figures)
    assert any(d.get("id") == "figure-tools" and "hidden" in d for d in page.all("div")), (
        "filter controls only appear when the script runs"
    )
    assert len(page.all("svg")) >= 2


def test_headings_in_order_and_tables_have_header_cells():
    for sheet in (ORION, XUANWU):
        need(sheet)
        page = Parsed(report(sheet))
        levels = [int(t[1]) for t, _ in page.tags if re.fullmatch(r"h[1-6]", t)]
        assert levels[0] == 1 and levels.count(1) == 1
        assert all(b - a <= 1 for a, b in zip(levels, levels[1:]))
        assert len(page.all("th")) >= 10
        for svg in page.all("svg"):
            assert svg.get("role") == "img" and svg.get("aria-labelledby")
        assert Parsed(report(sheet)).tags[0][0] == "html"


def test_html_lang_and_chinese_quotes_marked():
    need(XUANWU)
    html = report(XUANWU)
    assert '<html lang="en">' in html
    assert 'lang="zh"' in html
    assert "液冷" in html  # not escaped to entities, not mangled
    assert "Noto Sans CJK SC" in html and "Microsoft YaHei" in html  # system fallbacks, nothing fetched


def _contrast(fg: str, bg: str) -> float:
    def lum(h):
        rgb = [int(h[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((lum(fg), lum(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_palette_passes_wcag_aa_and_matches_the_css():
    css = (ROOT / "sheetaudit" / "output" / "templates" / "report.css").read_text()
    for name, (fg, bg) in PALETTE.items():
        assert _contrast(fg, bg) >= 4.5, (name, fg, bg, _contrast(fg, bg))
        assert _contrast(fg, "#ffffff") >= 4.5, name  # also on the page background
    for name in ("ink", "muted", "link", "error", "warning", "info", "pass"):
        fg, bg = PALETTE[name]
        assert f"--{name}:{fg}" in css, name
        if name in ("error", "warning", "info", "pass"):
            assert f"--{name}-bg:{bg}" in css, name
    for colour in (charts.INK, charts.MUTED):
        assert _contrast(colour, "#ffffff") >= 4.5


def _hostile_audit() -> SheetResult:
    bad = '<script>alert("x")</script><img src=x onerror=alert(2)>{{ 7*7 }}"\'&'
    doc = Document(path="hostile.txt", sha256="0" * 64, pages=1, kind="text", title="Title " + bad)
    seg = Segment(text="ctx " + bad, page=1, label="label " + bad, heading="head " + bad)

    def fig(i, q, text, norm, **kw):
        return Figure(
            id=f"f{i}",
            quantity=q,
            text=text,
            value=1,
            unit="x",
            page=1,
            context="ctx " + bad + " " + text,
            normalized=norm,
            label="label " + bad,
            heading="head " + bad,
            segment=seg,
            arithmetic="arith " + bad,
            reading="reading " + bad,
            **kw,
        )

    figs = [
        fig(
            1,
            "bandwidth",
            "900 GB/s" + bad,
            {"value": 450.0, "unit": "GB/s"},
            tier="scale-up",
            scope="per-accelerator",
            direction="unspecified",
        ),
        fig(
            2,
            "bandwidth",
            "400 Gb/s" + bad,
            {"value": 50.0, "unit": "GB/s"},
            tier="scale-out",
            scope="per-accelerator",
            direction="unspecified",
        ),
        fig(3, "latency", "2 us" + bad, {"value": 2000.0, "unit": "ns"}, basis="end-to-end"),
        fig(4, "power", "50 kW" + bad, {"value": 50.0, "unit": "kW"}, scope="per-rack"),
    ]
    d = Derived("name " + bad, 0.111, "ratio", "arith " + bad, ["f1", "f2"])
    findings = [
        Finding(
            "bandwidth.scale-ratio",
            2,
            "info",
            "Per accelerator, per direction: scale-up 450 GB/s, scale-out 50 GB/s; " + bad,
            why="why " + bad,
            fix="fix " + bad,
            figures=["f1", "f2"],
            pages=[1],
            derived=[d],
        ),
        Finding("power.rack-density", 4, "error", "msg " + bad, why="why", fix="fix", figures=["f4"]),
    ]
    return SheetResult(
        document=doc,
        figures=figs,
        findings=findings,
        sheet_kind="server",
        derived=[d],
        passed=["tier.unclassified"],
        facility={"name": "hall " + bad, "rack_power_kw": 30},
    )


def test_untrusted_text_is_escaped_everywhere():
    html = render(_hostile_audit())
    page = Parsed(html)
    assert len(page.all("script")) == 1  # ours only
    assert [i for i in page.all("img") if i.get("src") == "x"] == []
    assert not any("onerror" in a or "onload" in a for _, a in page.tags)
    assert "49" not in " ".join(page.text)  # no template evaluation
    text = " ".join(page.text)
    assert '<script>alert("x")</script>' in text and "{{ 7*7 }}" in text
    assert html.count("<script") == 1
    # the charts carry the hostile labels as text too
    assert len(page.all("svg")) == 6  # each chart wide, and laid out for a phone
    assert "hall <script>" in text


def test_injection_pdf_renders_its_payloads_as_text():
    a = audited(HOSTILE / "injection.pdf")
    html = render(a)
    page = Parsed(html)
    assert len(page.all("script")) == 1
    assert [i for i in page.all("img") if i.get("src") == "x"] == []
    assert page.all("b") == []
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_text_inputs_quote_without_images():
    sheet = SAMPLES / "cormorant-c8x-platform.md"
    need(sheet)
    html = report(sheet)
    assert "<img" not in html
    assert "In the text" in html and "the input is a markdown file" in html


def test_image_cap_and_switch_off():
    need(ORION)
    a = audited(ORION)
    assert len({i["src"] for i in Parsed(render(a, max_images=2)).all("img")}) <= 2
    assert "<img" not in render(a, images=False)


def test_encrypted_pdf_renders_images_with_password_only():
    sheet = HOSTILE / "encrypted.pdf"
    a = audited(sheet, "s3cret")
    assert "<img" in render(a, password="s3cret")
    html = render(a)  # no password: quotes only, no crash
    assert "<img" not in html and "article" in html


def test_changed_file_gets_no_images(tmp_path):
    need(ORION)
    a = audited(ORION)
    copy = tmp_path / "orion.pdf"
    copy.write_bytes(ORION.read_bytes() + b"\n% changed\n")
    assert evidence.unavailable_reason(str(copy), "pdf", a.document.sha256) == "the PDF changed since it was audited"
    assert evidence.unavailable_reason(str(ORION), "pdf", a.document.sha256) is None
    assert "text file" in evidence.unavailable_reason("x.txt", "text")


def test_evidence_locates_figures_exactly():
    need(XUANWU)
    a = audited(XUANWU)
    reqs = [
        evidence.Request(f.id, f.page, f.bbox, (f.text,), f.segment.kind if f.segment else "sentence", f.label)
        for f in a.figures
        if f.bbox
    ]
    out = evidence.render(a.document.path, reqs)
    assert len(out) == len(reqs)
    located = sum(1 for e in out.values() if e.located)
    assert located >= 0.9 * len(reqs)
    for e in out.values():
        png = base64.b64decode(e.uri.split(",", 1)[1])
        assert png[:4] == b"\x89PNG" and len(png) < 60_000
        assert 20 < e.width < 1200 and 10 < e.height < 300


def test_evidence_image_is_the_page_in_grey_with_the_figure_highlighted():
    """A crop is an indexed PNG: the page's greys, the located figure under the translucent highlight with its
    edge, and dark text that stays dark (legible on screen and on paper)."""
    need(XUANWU)
    a = audited(XUANWU)
    f = next(f for f in a.figures if f.bbox)
    e = evidence.render(a.document.path, [evidence.Request(f.id, f.page, f.bbox, (f.text,))])[f.id]
    assert e.located
    img = Image.open(io.BytesIO(base64.b64decode(e.uri.split(",", 1)[1])))
    assert img.mode == "P"
    colours = {c for _, c in img.convert("RGB").getcolors(1 << 16)}
    assert evidence.HIGHLIGHT_EDGE in colours
    assert (255, 255, 255) in colours and (0, 0, 0) in colours
    assert any(r > b + 100 and g > b + 60 for r, g, b in colours)  # the yellow fill over white paper
    # 1 CSS pixel per 1/96 inch: the crop prints at the size of the region on the page
    assert abs(e.width - img.width * 72 / 100 * 96 / 72) <= 1


def test_locate_inside_a_cjk_run():
    chars = [
        {"text": c, "x0": i * 10.0, "x1": i * 10.0 + 9, "top": 0.0, "bottom": 10.0}
        for i, c in enumerate("机柜功耗约88kW，须配置")
    ]
    word = {"text": "".join(c["text"] for c in chars), "x0": 0, "x1": 130, "top": 0, "bottom": 10, "chars": chars}
    boxes = evidence._locate("约 88 kW", [word])
    assert boxes == [(40.0, 0.0, 89.0, 10.0)]
    assert evidence._locate("99 kW", [word]) == []


def test_charts_from_the_contract():
    need(ORION)
    doc = to_contract(audited(ORION))
    bw = charts.bandwidth_chart(doc)
    assert bw and "900 GB/s" in bw and "100 GB/s" in bw and "1/9" in bw
    assert charts.latency_chart(doc) is None
    pw = charts.power_chart(doc, 40, {"rack_power_kw": 60, "name": "Hall B"})
    assert "air-cooling limit 40 kW" in pw and "Hall B: 60 kW per rack" in pw and "135 kW" in pw
    empty = {"figures": [], "findings": [], "derived": []}
    assert charts.bandwidth_chart(empty) is None and charts.power_chart(empty) is None


def test_latency_chart_keeps_the_bases_apart():
    sheet = SAMPLES / "pelican-pn5164-ethernet-switch.pdf"
    need(sheet)
    groups = charts.latency_points(to_contract(audited(sheet)))
    names = [g[0] for g in groups]
    assert names[0].startswith("Hardware") and names[1].startswith("End-to-end")
    assert all(p.kind == "hardware" for p in groups[0][1]) and all(p.kind == "end-to-end" for p in groups[1][1])
    svg = charts.latency_chart(to_contract(audited(sheet)))
    assert "Hardware latency" in svg and "End-to-end latency" in svg


def test_reusable_drawing_functions_escape_and_fit():
    svg = charts.bar_chart([charts.Group("<g>", [charts.Bar("<b>x</b>", 5, kind="scale-out")])], "GB/s", "t<", "d&")
    assert "<b>" not in svg and "&lt;b&gt;" in svg and "&lt;g&gt;" in svg
    assert charts.fit("a" * 200, 100).endswith("…") and charts.text_width(charts.fit("a" * 200, 100), bold=False) <= 100
    dots = charts.dot_chart([("hw", [charts.Point("p", 130)], ""), ("e2e", [], "none stated")], "t")
    assert "130 ns" in dots and "none stated" in dots


@pytest.mark.parametrize(
    "sheet, words",
    [
        (ORION, ["1/9", "135 kW", "liquid cooling"]),
        (SAMPLES / "kestrel-k8x-gpu-server.pdf", ["1/9", "40.8 kW", "air-cooling limit"]),
        (HOSTILE / "scanned.pdf", ["no text layer"]),
        (HOSTILE / "notes.txt", ["No bandwidth, latency or power figure"]),
    ],
)
def test_verdict_sentences(sheet, words):
    need(sheet)
    v = verdict(audited(sheet))
    assert v.endswith(".") and v[0].isupper()
    for w in words:
        assert w in v, (w, v)


@pytest.mark.timing
def test_rendering_is_fast():
    need(ORION)
    a = audited(ORION)
    with cpu_seconds() as used:  # CPU seconds: other jobs on the machine do not count against it
        render(a)
    assert used() < 3.0


def test_cli_writes_the_html_report(tmp_path):
    from click.testing import CliRunner
    from sheetaudit.cli import main

    need(ORION)
    out = tmp_path / "r.html"
    r = CliRunner().invoke(main, ["check", str(ORION), "--format", "html", "-o", str(out), "--fail-on", "never"])
    assert r.exit_code == 0, r.output
    html = out.read_text(encoding="utf-8")
    assert html.startswith("<!doctype html>") and html.rstrip().endswith("</html>")


def test_verdict_names_the_facility_it_exceeds():
    need(ORION)
    a = pipeline.run(ORION, AuditOptions(facility={"name": "Hall B", "rack_power_kw": 60, "cooling": "air"}))
    v = verdict(a)
    assert "exceeds Hall B (60 kW per rack, air cooling)" in v
    html = render(a)
    assert "Hall B: 60 kW per rack" in html and "and your facility" in html


def test_same_audit_same_html():
    need(ORION)
    a = audited(ORION)
    assert render(a) == render(a)


@pytest.mark.parametrize("sheet", [ORION, XUANWU, SAMPLES / "pelican-pn5164-ethernet-switch.pdf"], ids=lambda p: p.name)
def test_ids_are_unique_and_every_anchor_resolves(sheet):
    need(sheet)
    page = Parsed(report(sheet))
    ids = [a["id"] for _, a in page.tags if "id" in a]
    assert len(ids) == len(set(ids))
    for _, a in page.tags:
        href = a.get("href", "")
        if href.startswith("#"):
            assert href[1:] in ids, href
        for ref in (a.get("aria-labelledby") or "").split():
            assert ref in ids, ref
    for label in page.all("label"):
        assert label["for"] in ids


def test_compiled_templates_are_cached_and_a_corrupt_entry_is_compiled_again(tmp_path, monkeypatch):
    from sheetaudit.output import html_out

    a = audited(ORION)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    first = _fresh_render(html_out, a)
    entries = sorted((tmp_path / "sheetaudit").glob("templates-*/*.cache"))
    assert entries
    for e in entries:
        e.write_bytes(b"not a compiled template")
    assert _fresh_render(html_out, a) == first
    assert all(e.read_bytes() != b"not a compiled template" for e in entries)  # written again, whole


def _fresh_render(html_out, a) -> str:
    html_out._env.cache_clear()
    try:
        return html_out.render(a, images=False)
    finally:
        html_out._env.cache_clear()
