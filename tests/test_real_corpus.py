"""The project's real corpus (tests/real) is what SOURCES.md says it is: every document labelled, every document
listed with the sha256 of the file as kept, every label in the benchmark's format."""

import hashlib
import json
import re
from pathlib import Path

import pytest

REAL = Path(__file__).resolve().parent / "real"
QUANTITIES = {"bandwidth", "latency", "power", "domain_size", "cooling"}
# dev is tuned on; blind is held out; fresh and fresh2 were scored once as unseen material (README.md).
PARTS = ("dev", "blind", "fresh", "fresh2")


def documents() -> list[Path]:
    return sorted(p for part in PARTS for p in (REAL / part).iterdir() if not p.name.endswith(".expected.json"))


def listed() -> dict[str, str]:
    """File name -> sha256, from SOURCES.md's tables."""
    out = {}
    for line in (REAL / "SOURCES.md").read_text(encoding="utf-8").splitlines():
        name = re.match(r"\|\s*`([^`]+)`", line)
        digest = re.search(r"\b([0-9a-f]{64})\b", line)
        if name and digest:
            out[Path(name.group(1)).name] = digest.group(1)
    return out


def test_the_corpus_holds_at_least_forty_documents_a_third_of_them_blind():
    docs = documents()
    assert len(docs) >= 40
    assert sum(1 for d in docs if d.parent.name == "blind") >= 15


@pytest.mark.parametrize("part", ["fresh", "fresh2"])
def test_each_fresh_part_holds_at_least_fifteen_documents_four_in_chinese(part):
    fresh = [d for d in documents() if d.parent.name == part]
    assert len(fresh) >= 15
    assert sum(1 for d in fresh if "-zh." in d.name) >= 4


@pytest.mark.parametrize("doc", documents(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_each_document_is_listed_with_its_sha256_and_labelled(doc):
    assert listed().get(doc.name) == hashlib.sha256(doc.read_bytes()).hexdigest(), (
        f"{doc.name}: not in SOURCES.md as kept"
    )
    label = json.loads(doc.with_name(doc.name.rsplit(".", 1)[0] + ".expected.json").read_text(encoding="utf-8"))
    assert label["sheet"] == doc.name
    if not label["figures"]:
        # a page of other numbers (versions, deployment minimums, supply ratings): it asks for no figure's check
        assert set(label["checks"]["required"]) <= {"sheet.no-figures"}, "a label without figures requires checks"
    for f in label["figures"]:
        assert f["quantity"] in QUANTITIES and "value" in f["normalized"]
    assert set(label["checks"]) == {"required", "forbidden"}
