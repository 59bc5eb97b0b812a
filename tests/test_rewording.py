"""A finding's words can change without changing anything the audit decides: every message is rendered from the
finding's data (sheetaudit.stages.s8_checks.wording), and merging, charts, status and the cache read the data only.

The test rewords every message template (each literal piece of text reversed and bracketed, the pieces in the
opposite order) and audits the same sheets again: which findings are merged into one, the charts' bars, the
status and whether a result may be cached must all come out the same."""

import string

import pytest

from conftest import ROOT, SAMPLES
from sheetaudit import pipeline
from sheetaudit.options import AuditOptions
from sheetaudit.stages.s8_checks import wording
from sheetaudit.output.json_out import to_contract

LABELLED = ROOT / "tests" / "labelled"
CORPUS = ROOT.parent / "shared" / "corpus"
# The samples (zephyr's node total is printed on two pages: one finding), labelled sheets whose findings merge
# across the models of a family, and a real switch datasheet whose mismatched total recurs on two pages.
SHEETS = sorted(p for p in SAMPLES.iterdir() if p.suffix in (".pdf", ".md", ".txt", ".html")) + [
    LABELLED / "kestrel-ks8-oam-server.pdf",
    LABELLED / "tarnwell-tp32-ai-pod.pdf",
    CORPUS / "real-arista-7050x4-datasheet.pdf",
]


def reworded(template: str) -> str:
    """The same fields in other words: every literal piece reversed and bracketed, the pieces in reverse order."""
    pieces = []
    for literal, field, spec, conv in string.Formatter().parse(template):
        if literal:
            pieces.append("«" + literal[::-1].replace("{", "{{").replace("}", "}}") + "»")
        if field is not None:
            pieces.append("{" + field + (f"!{conv}" if conv else "") + (f":{spec}" if spec else "") + "}")
    return " ".join(reversed(pieces))


def decisions(path):
    """What later stages decide about one sheet: merged findings, chart bars, status, cacheability."""
    from sheetaudit.batch.worker import run_one
    from sheetaudit.output.charts import bandwidth_groups, power_bars
    from sheetaudit.output.verdict import status

    a = pipeline.run(str(path))
    contract = to_contract(a)
    merged = [(f.check, f.severity, tuple(f.figures), tuple(f.pages), tuple(f.models)) for f in a.findings]
    bars = [
        (g.label, [(b.label, round(b.value, 6), b.text, b.note) for b in g.bars]) for g in bandwidth_groups(contract)
    ]
    power = [(b.label, round(b.value, 6), b.text, b.note) for b in power_bars(contract)]
    cacheable = run_one(str(path), {})["cacheable"]
    return {"merged": merged, "bandwidth": bars, "power": power, "status": status(a), "cacheable": cacheable}, [
        f.message for f in a.findings
    ]


@pytest.mark.parametrize("sheet", SHEETS, ids=lambda p: p.name)
def test_rewording_every_message_changes_no_decision(sheet, monkeypatch):
    if not sheet.is_file():
        pytest.skip(f"{sheet} is not here (a clean clone has no ../shared/corpus)")
    before, words = decisions(sheet)
    render = wording.render
    monkeypatch.setattr(
        wording,
        "render",
        lambda template, data, each="", models=(): render(
            reworded(template), data, reworded(each) if each else "", models
        ),
    )
    after, new_words = decisions(sheet)
    assert after == before
    assert all(w != n for w, n in zip(words, new_words) if w), "every message was reworded"


def test_the_readers_notes_are_words_only():
    """What the reader could not read is data on the document (pages_read, unread_pages, limited); its notes word it
    for people. Status, the list of what went unread and whether the result may be cached come out the same when
    the notes say something else entirely."""
    from sheetaudit.batch.worker import limited
    from sheetaudit.output.verdict import status, unread

    a = pipeline.run(str(ROOT / "tests" / "hostile" / "files" / "long-1000.pdf"), AuditOptions(max_pages=5))
    before = (status(a), unread(a), limited(to_contract(a)))
    assert before == ("incomplete", ["read the first 5 of 1000 pages (--max-pages 5)"], False)
    a.document.notes = [n[::-1] + " out of memory, timed out" for n in a.document.notes]
    assert (status(a), unread(a), limited(to_contract(a))) == before
    a.document.limited = True  # a page left unread for this run's memory: never cached, whatever the words
    assert limited(to_contract(a))
