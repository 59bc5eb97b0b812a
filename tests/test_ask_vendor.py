"""'Ask the vendor' in the vendor's words (issue 20): each question one a vendor's engineer can answer from their
own data, with the page; the copyable text an email to the vendor; what the buyer checks kept apart; no question
names a command of this tool."""

import html as htmllib
import re

from conftest import SAMPLES, finding

from sheetaudit import pipeline
from sheetaudit.output.html_out import render

COMMAND = re.compile(r"sheetaudit|`[a-z]+ [A-Z]+`|--[a-z]")


def _ask(html: str) -> str:
    return html[html.index('id="ask"') : html.index('id="findings"')]


def test_questions_name_the_figure_and_its_page_in_a_pdf():
    a = pipeline.run(SAMPLES / "borealis-bx72-rack.pdf")
    asked = [x.question for x in a.findings if x.severity in ("error", "warning")]
    assert asked and all(q.rstrip().endswith(("?", ".", ")")) and "?" in q for q in asked)
    assert any(re.search(r"the [\d.,]+ \w+(?:/s)? on page \d", q) for q in asked)
    assert not any(COMMAND.search(q) for q in asked)


def test_a_text_sheet_quotes_the_line_instead_of_a_page(sheet):
    a = sheet("# Helix G8 server\n\nEight GPUs fully connected through NVSwitch.\n\nNVLink: 900 GB/s per GPU\n")
    q = finding(a, "bandwidth.direction-unspecified").question
    assert q.startswith('Is the 900 GB/s ("NVLink: 900 GB/s per GPU")') and "both directions added?" in q
    assert "page" not in q


def test_an_inferred_scope_is_asked_about(sheet):
    """'Is the 900 GB/s on page 5 per GPU or per pair of cards, and per direction or both directions added?'"""
    a = sheet("# Helix G8 server\n\nGPU fabric: NVLink, 900 GB/s\n")
    q = finding(a, "bandwidth.direction-unspecified").question
    assert "per GPU or for a pair or group of them" in q and "per direction or both directions added" in q


def test_the_copyable_text_is_an_email_and_the_buyer_list_is_apart():
    a = pipeline.run(SAMPLES / "borealis-bx72-rack.pdf")
    page = render(a, images=False)
    ask = _ask(page)
    text = htmllib.unescape(ask[ask.index('id="questions-text"') :])
    text = text[text.index(">") + 1 : text.index("</textarea>")]
    lines = text.splitlines()
    assert lines[0] == "Hello," and "Thank you," in lines and any(ln.startswith("1. ") for ln in lines)
    assert not COMMAND.search(text)
    buyer = ask[ask.index('id="buyer-h"') :]
    assert "your hall" in htmllib.unescape(buyer)
    assert "your hall" not in text  # what the buyer checks is not asked of the vendor


def test_no_question_names_a_command_of_this_tool_on_any_sample():
    for p in sorted(SAMPLES.iterdir()):
        if p.suffix not in (".pdf", ".md", ".txt", ".html") or p.name.endswith(".expected.json"):
            continue
        a = pipeline.run(p)
        for x in a.findings:
            assert not COMMAND.search(x.question), (p.name, x.check, x.question)
            assert not COMMAND.search(x.fix), (p.name, x.check, x.fix)
