"""tests/layouts is what samples/make_layouts.py makes: each real text document in two vendors' layouts, with the
original's labels beside it."""

import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("reportlab")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "samples"))
import make_layouts  # noqa: E402

sys.path.pop(0)
PLAN = list(make_layouts.plan())


def test_every_document_in_two_layouts_and_nothing_else():
    names = {f"{layout}-{src.stem}" for src, _, _, layouts in PLAN for layout in layouts}
    assert all(len(set(layouts)) >= 2 for *_, layouts in PLAN)
    assert {p.stem for p in make_layouts.OUT.glob("*.pdf")} == names
    assert {p.name.removesuffix(".expected.json") for p in make_layouts.OUT.glob("*.expected.json")} == names
    assert not any("blind" in str(src) for src, *_ in PLAN)


def test_labels_are_the_originals():
    for src, _, _, layouts in PLAN:
        original = json.loads(src.with_name(src.stem + ".expected.json").read_text(encoding="utf-8"))
        for layout in layouts:
            copy = json.loads((make_layouts.OUT / f"{layout}-{src.stem}.expected.json").read_text(encoding="utf-8"))
            assert copy["sheet"] == f"{layout}-{src.stem}.pdf"
            assert copy["figures"] == original["figures"] and copy["checks"] == original["checks"]


@pytest.mark.parametrize("layout", sorted(make_layouts.LAYOUTS))
def test_rebuilt_pdf_is_byte_identical(layout, tmp_path):
    # one document per layout keeps this quick; the script draws every document the same way
    name = next(f"{lay}-{src.stem}" for src, _, _, lays in PLAN for lay in lays if lay == layout)
    assert make_layouts.build(tmp_path, only={name}) == [name]
    assert (tmp_path / f"{name}.pdf").read_bytes() == (make_layouts.OUT / f"{name}.pdf").read_bytes()


def test_markdown_and_restructured_text_become_blocks():
    md = "# Card X\n\nIntro text\nwraps here.\n\n| Spec | Value |\n|---|---|\n| **Ports** | 2x 200G<br>QSFP |\n\n- one\n- two\n"
    assert make_layouts.parse(md, plain=False) == [
        ("h", 1, "Card X"),
        ("p", "Intro text wraps here."),
        ("table", [["Spec", "Value"], ["Ports", "2x 200G\nQSFP"]]),
        ("li", "one"),
        ("li", "two"),
    ]
    rst = "Title\n=====\n\n.. list-table::\n    :header-rows: 1\n\n    *   - Size\n        - Chips\n    *   - big\n        - 12\n"
    assert make_layouts.parse(rst, plain=False) == [("h", 2, "Title"), ("table", [["Size", "Chips"], ["big", "12"]])]
