"""What the tool writes, it reads back: every sheet of samples/, tests/labelled/ and ../shared/corpus (when present)
is audited into a cache, and the next run takes every entry from it, none called corrupt. The cache checks an entry
against the package's JSON Schema (sheetaudit.contract), so a result the schema does not accept would show here
as an entry audited again (the real NVIDIA A100 datasheet, whose page 1 has no text layer, once was: its summary's
unread pages are words, and a hand-written copy of the shape wanted numbers)."""

import re

import pytest

from conftest import ROOT, SAMPLES, run_cli

CORPUS = ROOT.parent / "shared" / "corpus"
FOLDERS = {"samples": SAMPLES, "labelled": ROOT / "tests" / "labelled", "corpus": CORPUS}


@pytest.mark.parametrize("name", sorted(FOLDERS))
def test_every_result_written_to_the_cache_is_read_back(name, tmp_path):
    folder = FOLDERS[name]
    if not folder.is_dir():
        pytest.skip(f"{folder} is not here (a clean clone has no ../shared/corpus)")
    out, cache = tmp_path / "out", tmp_path / "cache"
    first = run_cli("audit", folder, "-o", out, "--cache-dir", cache, "--fail-on", "never", isolated=True, timeout=900)
    assert first.returncode == 0, first.stderr
    audited = int(re.search(r"(\d+) audited", first.stderr).group(1))
    assert audited >= 5
    again = run_cli("audit", folder, "-o", out, "--cache-dir", cache, "--fail-on", "never", isolated=True, timeout=900)
    assert "warning: cache entry" not in again.stderr and "corrupt" not in again.stderr, again.stderr
    assert f"{audited} audited ({audited} from cache)" in again.stderr, again.stderr


def test_the_a100_datasheet_with_an_unread_page_validates():
    """The case that was called corrupt, checked against the schema directly."""
    pdf = CORPUS / "real-nvidia-a100-datasheet.pdf"
    if not pdf.is_file():
        pytest.skip("../shared/corpus is not here")
    import sheetaudit
    from sheetaudit.contract import validate_contract

    contract = sheetaudit.audit(pdf, cache=False)
    assert contract["summary"]["unread"], "the datasheet's page 1 has no text layer"
    validate_contract(contract)
