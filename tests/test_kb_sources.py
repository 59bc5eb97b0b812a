"""The knowledge base's sources are ones a buyer can quote to a vendor: every row of rules/technologies.yaml cites a
standard, a consortium's specification or the vendor's own document, named first in its `source`, and
`sheetaudit tech NAME` prints it with its kind."""
import pytest

from conftest import run_cli
from sheetaudit.rules import load_rules
from sheetaudit.technologies import SOURCE_KINDS, load


def rows():
    return [(t["name"], g) for t in load_rules().technologies["technologies"] for g in t.get("generations") or []]


def kind_of(source: str) -> str | None:
    kind, sep, cited = str(source).partition(": ")
    return kind if sep and kind in SOURCE_KINDS and len(cited) > 20 else None


@pytest.mark.parametrize("tech,row", rows(), ids=[f"{t}-{g['gen']}" for t, g in rows()])
def test_every_row_cites_a_standard_a_specification_or_the_vendors_document(tech, row):
    assert kind_of(row["source"]), f"{tech} {row['gen']}: {row['source'][:80]!r} is not a standard, a " \
                                   f"specification or a vendor document ({', '.join(SOURCE_KINDS)}: first)"


@pytest.mark.parametrize("source", [
    "Microway, 'NVIDIA Tesla P100 NVLink 16GB GPU Accelerator Up Close' (https://www.microway.com/...)",
    "blog: someone's notes on PCIe speeds (https://example.org/pcie)",
    "vendor:",
])
def test_a_source_of_another_kind_is_refused(source):
    assert kind_of(source) is None


def test_tech_prints_each_generations_source_with_its_kind():
    kb = load()
    for t in kb.technologies:
        for g in t.generations:
            out = run_cli("tech", g.label).stdout
            line = next(x for x in out.splitlines() if x.startswith("Source"))
            assert any(line.startswith(f"Source: [{w}] ") for w in SOURCE_KINDS.values()), (g.label, line)
