"""`sheetaudit check` in the terminal: under the verdict, the questions to ask the vendor, most severe first, one
numbered item each: the same questions the HTML report's "Ask the vendor" lists."""

import json
import re

from conftest import SAMPLES, run_cli


def _questions(out: str) -> list[str]:
    block = out.split("Ask the vendor:\n", 1)[1].split("\n\n", 1)[0]
    items = re.split(r"\n(?=  \d+\. )", block)
    return [re.sub(r"\s+", " ", re.sub(r"^  \d+\. ", "", i)).strip() for i in items]


def test_check_lists_every_question_under_the_verdict_once():
    sheet = SAMPLES / "zephyr-forge-brochure.pdf"
    out = run_cli("check", sheet, "--fail-on", "never").stdout
    contract = json.loads(run_cli("check", sheet, "--format", "json", "--fail-on", "never").stdout)
    wanted = list(
        dict.fromkeys(
            f.get("question") or f["fix"]
            for f in sorted(contract["findings"], key=lambda f: ["error", "warning", "info"].index(f["severity"]))
            if f["severity"] in ("error", "warning")
        )
    )
    assert wanted and _questions(out) == [re.sub(r"\s+", " ", q).strip() for q in wanted]
    verdict_at, asked_at, first_finding = out.index("\n\n"), out.index("Ask the vendor:"), out.index("✖ error")
    assert verdict_at < asked_at < first_finding  # under the verdict, before the findings
    numbers = re.findall(r"^  (\d+)\. ", out, re.M)
    assert numbers == [str(i) for i in range(1, len(wanted) + 1)]  # each question begins its own numbered line


def test_a_sheet_with_nothing_to_ask_shows_no_list():
    out = run_cli("check", SAMPLES / "gannet-gx800-xdr-switch.html").stdout
    assert out.startswith("PASS") and "Ask the vendor" not in out
