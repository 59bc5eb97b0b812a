"""`sheetaudit read FILE`: the text as the audit reads it, page by page, each segment with its kind, heading, row
label and column header; `--format json` gives the same as data. Run as a user runs it."""

import json
from pathlib import Path

import pytest

from conftest import SAMPLES, run_cli

READ = Path(__file__).resolve().parent / "read"
HOSTILE = Path(__file__).resolve().parent / "hostile" / "files"


def test_text_shows_each_segment_with_its_kind_label_and_heading():
    r = run_cli("read", READ / "two-column-spec-table.pdf")
    assert r.returncode == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0] == f"{READ / 'two-column-spec-table.pdf'}: 2 pages (pdf), title: Merlin M8 GPU Server"
    assert "--- page 1" in lines and "--- page 2" in lines
    at = lines.index("cell      896 GB/s per accelerator, bidirectional")
    assert lines[at + 1].strip() == "label: Scale-up bandwidth"
    at = lines.index("cell      400 Gb/s")
    assert lines[at + 1].strip() == "label: Cluster Port | column: Speed"
    assert "heading   Overview" in lines


def test_words_without_space_glyphs_are_shown_as_read():
    r = run_cli("read", READ / "no-space-glyphs.pdf")
    assert r.returncode == 0 and "1.8 TB/s bidirectional throughput per GPU" in r.stdout


def test_json_gives_pages_of_segments():
    r = run_cli("read", "--format", "json", READ / "two-column-spec-table.pdf")
    assert r.returncode == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["schema"] == "sheetaudit-read/1" and doc["source"]["pages"] == 2
    assert [p["page"] for p in doc["pages"]] == [1, 2]
    seg = next(s for s in doc["pages"][0]["segments"] if s["label"] == "System power")
    assert seg["text"] == "10.2 kW maximum" and seg["kind"] == "cell" and seg["page"] == 1
    assert set(seg) >= {"text", "kind", "page", "heading", "label", "column", "row", "bbox"}
    assert len(seg["bbox"]) == 4


def test_a_page_without_text_is_named():
    r = run_cli("read", READ / "title-over-photo.pdf")
    assert "--- page 3  (no text layer read)" in r.stdout and "page 3: no text layer was read" in r.stdout
    assert json.loads(run_cli("read", "--format", "json", READ / "title-over-photo.pdf").stdout)["no_text_pages"] == [3]


@pytest.mark.parametrize(
    "name", ["osprey-o4-inference-server.txt", "cormorant-c8x-platform.md", "gannet-gx800-xdr-switch.html"]
)
def test_text_markdown_and_html_are_read_as_check_reads_them(name):
    r = run_cli("read", "--format", "json", SAMPLES / name)
    assert r.returncode == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["source"]["kind"] in ("text", "markdown", "html")
    assert sum(s["kind"] == "cell" for s in doc["pages"][0]["segments"]) >= 4


def test_output_file(tmp_path):
    out = tmp_path / "read.json"
    r = run_cli("read", "--format", "json", "-o", out, SAMPLES / "kestrel-k8x-gpu-server.pdf")
    assert r.returncode == 0 and r.stdout == "" and json.loads(out.read_text())["source"]["kind"] == "pdf"


@pytest.mark.parametrize(
    "name, message",
    [
        ("empty.pdf", "empty file (0 bytes)"),
        ("png-named.pdf", "not a PDF (PNG image)"),
        ("truncated.pdf", "damaged or truncated PDF"),
        ("encrypted.pdf", "encrypted PDF, password needed (use --password)"),
        ("no-such-file.pdf", "no such file"),
    ],
)
def test_unreadable_input_is_one_line_and_exit_2(name, message):
    r = run_cli("read", HOSTILE / name, isolated=True)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith(f"sheetaudit: error: {HOSTILE / name}: ") and message in r.stderr
    assert len(r.stderr.splitlines()) == 1 and "Traceback" not in r.stderr


def test_encrypted_with_its_password():
    r = run_cli("read", "--password", "s3cret", HOSTILE / "encrypted.pdf")
    assert r.returncode == 0 and "kW" in r.stdout


def test_a_folder_is_a_usage_error(tmp_path):
    r = run_cli("read", tmp_path)
    assert r.returncode == 2 and "is a directory" in r.stderr
