"""Charts that say what they mean: each system its own colour and dash, a legend that says at which count its
percentage is read, a mark where a curve stops, hatching that means one thing (derived by the audit) with a key,
the index's headline from stated figures; the scale page says once that it is a model, carries the requirements
and claims no efficiency past the curve it draws."""

import json
import re

from conftest import SAMPLES, run_cli
from sheetaudit.output.charts import STYLES, Bar, Group, bar_chart
from sheetaudit.output.curves import Curve, efficiency_chart


def _curves(n):
    return [
        Curve(f"system-{i}.pdf", [(1, 1.0), (8, 0.95 - i / 100), (64, 0.9 - i / 100), (4096, 0.8 - i / 100)], 8)
        for i in range(n)
    ]


def test_every_curve_has_its_own_colour_and_dash():
    svg = str(efficiency_chart(_curves(10), "t", "d"))
    styles = re.findall(r'<polyline class="curve"[^>]*stroke="([^"]+)"[^>]*?(?:stroke-dasharray="([^"]+)")?/>', svg)
    assert len(styles) == 10 and len(set(styles)) == 10
    first8 = styles[:8]
    assert len({c for c, _ in first8}) == 8 and len({d for _, d in first8}) == 8


def test_the_legend_says_at_which_count_and_the_curve_end_is_marked():
    stops = Curve("small-box.pdf", [(1, 1.0), (8, 1.0)], 8)
    svg = str(efficiency_chart([stops] + _curves(2), "t", "d"))
    labels = " ".join(re.findall(r'class="curve-label"[^>]*>([^<]*)<', svg))
    assert "100% at 8 small-box.pdf" in labels and "at 4,096 system-0.pdf" in labels
    assert svg.count('class="pt pt-end"') == 3
    assert "where the curve stops" in svg


def test_hatching_means_derived_in_every_chart_and_a_key_says_so():
    hatched = {k for k, (_, _, pattern) in STYLES.items() if pattern}
    assert hatched == {"derived", "rack-derived"}
    svg = str(
        bar_chart(
            [Group("a.pdf", [Bar("scale-up", 450, kind="derived"), Bar("scale-out", 50, kind="scale-out")])],
            "GB/s",
            "t",
        )
    )
    assert "derived by the audit (not printed)" in svg and "scale-out" in re.sub(r"<[^>]+>", " ", svg)


def test_the_index_headline_rests_on_stated_figures(tmp_path):
    out = tmp_path / "out"
    run_cli("audit", SAMPLES, "-o", out, "-q", "--fail-on", "never")
    rows = json.loads((out / "comparison.json").read_text(encoding="utf-8"))["rows"]
    derived = {r["sheet"] for r in rows if r.get("scale_up") and r["scale_up"]["how"] != "stated"}
    assert derived, "the samples have a derived scale-up figure (a node total divided)"
    index = (out / "index.html").read_text(encoding="utf-8")
    headline = re.search(r'<p class="verdict"><strong>(.*?)</strong>', index, re.S).group(1)
    assert "bandwidth as stated ranges" in headline and not any(s in headline for s in derived)


def test_the_scale_page_says_once_it_is_a_model_and_carries_the_requirements(tmp_path):
    page = tmp_path / "scale.html"
    r = run_cli(
        "scale",
        SAMPLES / "kestrel-k8x-gpu-server.pdf",
        "--require",
        SAMPLES / "requirements.yaml",
        "--format",
        "html",
        "-o",
        page,
    )
    assert r.returncode == 0, r.stderr
    html = page.read_text(encoding="utf-8")
    body = html.split("</title>", 1)[1]
    assert len(re.findall("model, not a measurement", body, re.I)) == 1
    assert 'class="scale-requirements"' in html and "Scale-up bandwidth per accelerator" in html
    claims = [int(n.replace(",", "")) for n in re.findall(r"up to ([\d,]+) accelerators", html)]
    assert all(n <= 65536 for n in claims) and "1,048,576" not in html
    # the data-parallel curve holds the global batch fixed: it says so, and falls under both marks it reports
    assert "fixed global batch" in html and re.search(r"under 50% from [\d,]+ accelerators", html)


def test_the_training_charts_name_each_system_whole(tmp_path):
    import shutil

    long_name = "vendor-kestrel-k8x-h-gpu-server-datasheet-2026.pdf"
    shutil.copy(SAMPLES / "kestrel-k8x-gpu-server.pdf", tmp_path / long_name)
    page = tmp_path / "train.html"
    r = run_cli(
        "scale",
        tmp_path / long_name,
        SAMPLES / "borealis-bx72-rack.pdf",
        "--job",
        SAMPLES / "jobs" / "llama-70b.yaml",
        "--format",
        "html",
        "-o",
        page,
    )
    assert r.returncode == 0, r.stderr
    html = page.read_text(encoding="utf-8")
    for klass in ("step-bars", "mfu-curve"):
        svg = html.split(f'<svg class="{klass}"', 1)[1].split("</svg>", 1)[0]
        text = "".join(re.findall(r"<text[^>]*>([^<]*)</text>", svg))
        assert long_name in text, (klass, text[:300])
