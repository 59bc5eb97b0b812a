"""Names and text that UTF-8 cannot hold: a file name that is not UTF-8 (a Latin-1 name from an old zip) and a lone
surrogate in a PDF's text layer (a damaged sheet). Every output is still written, and says which file it was."""

import csv
import io
import json
import os
import shutil
import sys

import pytest

from conftest import ROOT, SAMPLES, run_cli

sys.path.insert(0, str(ROOT / "tests" / "hostile"))
from make_hostile import raw_pdf, raw_stream, text_ops  # noqa: E402

LATIN1_NAME = "café.pdf".encode("latin-1")  # b"caf\xe9.pdf": not UTF-8


def damaged_text_layer_pdf() -> bytes:
    """A PDF whose font maps '~' to U+D800, half of a UTF-16 pair: the text layer holds a lone surrogate."""
    cmap = (
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Damaged def\n"
        b"1 begincodespacerange <00> <FF> endcodespacerange\n1 beginbfchar <7E> <D800> endbfchar\n"
        b"endcmap CMapName currentdict /CMap defineresource pop end end"
    )
    lines = [b"NVLink: 900 GB/s per GPU ~ scale-up", b"Node power: 10.2 kW max ~", b"Cooling: Air-cooled"]
    return raw_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> "
            b"/Contents 5 0 R >>",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>",
            raw_stream(text_ops(lines)),
            raw_stream(cmap),
        ]
    )


@pytest.fixture
def latin1_folder(tmp_path):
    folder = tmp_path / "sheets"
    folder.mkdir()
    shutil.copy(SAMPLES / "osprey-o4-inference-server.txt", folder)
    shutil.copy(SAMPLES / "kestrel-k8x-gpu-server.pdf", os.path.join(os.fsencode(folder), LATIN1_NAME))
    return folder


def test_a_file_name_that_is_not_utf8_loses_nothing(latin1_folder, tmp_path):
    """It was: every file audited, then UnicodeEncodeError writing the outputs; exit 2, no index, no audit.json."""
    out = tmp_path / "out"
    r = run_cli("audit", latin1_folder, "-o", out, isolated=True)
    assert r.returncode in (0, 1), r.stderr
    records = json.loads((out / "audit.json").read_text(encoding="utf-8"))
    assert sorted(os.path.basename(rec["source"]["path"]) for rec in records) == [
        "caf\\xe9.pdf",
        "osprey-o4-inference-server.txt",
    ]  # the bad byte shown, not lost
    assert all(rec["status"] != "incomplete" for rec in records)
    assert "caf\\xe9.pdf" in (out / "index.html").read_text(encoding="utf-8")
    assert (out / "reports" / "caf\\xe9.pdf.html").is_file()
    rows = list(csv.DictReader(io.StringIO((out / "comparison.csv").read_text(encoding="utf-8"))))
    assert {row["sheet"] for row in rows} == {"caf\\xe9.pdf", "osprey-o4-inference-server.txt"}
    again = run_cli("audit", latin1_folder, "-o", out, isolated=True)  # from the cache, the same
    assert again.returncode == r.returncode
    assert json.loads((out / "run.json").read_text())["from_cache"] == 2


def test_a_single_check_of_a_latin1_name_prints_json(latin1_folder):
    r = run_cli(
        "check",
        "--format",
        "json",
        os.path.join(os.fsencode(latin1_folder), LATIN1_NAME).decode("utf-8", "surrogateescape"),
        isolated=True,
    )
    assert r.returncode in (0, 1), r.stderr
    assert json.loads(r.stdout)["source"]["path"].endswith("caf\\xe9.pdf")


@pytest.mark.parametrize("fmt", ["json", "html", "text"])
def test_a_lone_surrogate_in_the_text_layer_is_shown_as_a_replacement_character(tmp_path, fmt):
    """It was: check --format json and html ended in an internal error."""
    pdf = tmp_path / "damaged.pdf"
    pdf.write_bytes(damaged_text_layer_pdf())
    r = run_cli("check", "--format", fmt, pdf, isolated=True)
    assert r.returncode in (0, 1), r.stderr
    assert "internal error" not in r.stderr
    if fmt == "json":
        figures = json.loads(r.stdout)["figures"]
        assert any(f["text"] == "900 GB/s" for f in figures)
        assert "\ufffd" in r.stdout


def test_a_lone_surrogate_in_a_batch_is_an_audited_sheet_not_a_crashed_worker(tmp_path):
    folder = tmp_path / "sheets"
    folder.mkdir()
    (folder / "damaged.pdf").write_bytes(damaged_text_layer_pdf())
    out = tmp_path / "out"
    r = run_cli("audit", folder, "-o", out, isolated=True)
    assert r.returncode in (0, 1), r.stderr
    [record] = json.loads((out / "audit.json").read_text(encoding="utf-8"))
    assert record["status"] != "incomplete" and record["figures"]
    assert (out / "reports" / "damaged.pdf.html").is_file()
