"""The knowledge base's sources are ones a buyer can quote to a vendor: every row of rules/technologies.yaml cites a
standard, a consortium's specification or the vendor's own document, named first in its `source`, and
`sheetaudit tech NAME` prints it with its kind; and every row says what was read to check it: the addresses of the
copies read when they confirm its figures, or `verified: false` with what could not be read (docs/kb-sources.md)."""

import re

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
    assert kind_of(row["source"]), (
        f"{tech} {row['gen']}: {row['source'][:80]!r} is not a standard, a "
        f"specification or a vendor document ({', '.join(SOURCE_KINDS)}: first)"
    )


@pytest.mark.parametrize(
    "source",
    [
        "Microway, 'NVIDIA Tesla P100 NVLink 16GB GPU Accelerator Up Close' (https://www.microway.com/...)",
        "blog: someone's notes on PCIe speeds (https://example.org/pcie)",
        "vendor:",
    ],
)
def test_a_source_of_another_kind_is_refused(source):
    assert kind_of(source) is None


def test_tech_prints_each_generations_source_with_its_kind():
    kb = load()
    for t in kb.technologies:
        for g in t.generations:
            out = run_cli("tech", g.label).stdout
            line = next(x for x in out.splitlines() if x.startswith("Source"))
            assert any(line.startswith(f"Source: [{w}] ") for w in SOURCE_KINDS.values()), (g.label, line)


# Every row says what was read to check it: the addresses of the copies actually read (a URL, or github:owner/repo
# for a stored copy) when they confirm its figures, else `verified: false` and what could not be read.
ADDRESS = re.compile(r"https?://\S+|github:[\w.-]+/[\w.-]+")


def check_problem(row: dict) -> str | None:
    read, verified, why = row.get("read"), row.get("verified"), str(row.get("unverified") or "")
    if not isinstance(read, list) or not all(isinstance(x, str) and x.strip() for x in read):
        return "`read` must list what was read (possibly nothing)"
    if verified is True:
        return None if any(ADDRESS.search(x) for x in read) else "verified, but no address of a copy read"
    if verified is False:
        return None if len(why) > 20 else "not verified, and no `unverified` note saying what could not be read"
    return "`verified` must be true or false"


@pytest.mark.parametrize("tech,row", rows(), ids=[f"{t}-{g['gen']}" for t, g in rows()])
def test_every_row_carries_a_verified_address_or_says_why_not(tech, row):
    assert check_problem(row) is None, f"{tech} {row['gen']}: {check_problem(row)}"
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(row["checked"])), row["checked"]


@pytest.mark.parametrize(
    "row",
    [
        {"read": [], "verified": True},
        {"read": ["the vendor's page, from memory"], "verified": True},
        {"read": [], "verified": False},
        {"read": ["https://example.org/spec"]},
    ],
)
def test_a_row_without_an_address_read_or_an_honest_note_is_refused(row):
    assert check_problem(row) is not None


def test_tech_says_whether_each_rows_source_was_verified_and_why_not():
    kb = load()
    for t in kb.technologies:
        for g in t.generations:
            out = run_cli("tech", g.label).stdout
            if g.row["verified"]:
                assert "Verified: yes" in out and any(x.startswith("Read: ") for x in out.splitlines()), g.label
            else:
                assert "Verified: NO" in out and "Why not: " in out, g.label


def test_a_finding_quotes_a_row_with_its_kind_and_says_when_it_was_not_verified():
    kb = load()
    checked, unchecked = kb.lookup("NVLink 4")[0], kb.lookup("PCIe Gen4")[0]
    assert checked.citation.startswith("the vendor's own document: NVIDIA") and "not verified" not in checked.citation
    assert unchecked.citation.startswith("specification: PCI-SIG")
    assert unchecked.citation.endswith(
        "(not verified against a copy of the document: 'sheetaudit tech PCIe Gen4' says why)"
    )
