"""Unit tests behind the hostile-input suite: sniffing, time and memory limits, OCR plumbing (with a stand-in
for pytesseract, so they run where tesseract is not installed), control characters."""

from __future__ import annotations

import sys
import time
import types
from pathlib import Path

import pytest

from cpu_clock import cpu_seconds
from sheetaudit.errors import TimeLimitExceeded, UnreadableInput
from sheetaudit.limits import check_deadline, memory_limit, remaining, time_limit
from sheetaudit.read import read_document, sniff

ROOT = Path(__file__).resolve().parents[1]
FILES = ROOT / "tests" / "hostile" / "files"


@pytest.mark.parametrize(
    "data,suffix,expected",
    [
        (b"%PDF-1.7\n...", ".pdf", "pdf"),
        (b"\xef\xbb\xbf  %PDF-1.4", ".txt", "pdf"),  # read for what it is, whatever the name
        (b"junk before the header %PDF-1.4", ".pdf", "pdf"),
        (b"<!DOCTYPE html><html>", ".html", "html"),
        (b"<html><body>", "", "html"),
        (b"Node power: 10 kW", ".txt", "text"),
        (b"# Title\n| a | b |", ".md", "markdown"),
        (b"<p>see <html> tags</p>", ".md", "html"),
        (b"<html> in a note", ".txt", "text"),
        (b"Notes: export as %PDF-1.7 next time", ".txt", "text"),
        (b"Port speed\n==========\n400 Gb/s", ".rst", "text"),  # documentation sources are text
        (b"= Petrel PX4\n\n|===\n|Power |450 W\n|===", ".adoc", "text"),
    ],
)
def test_sniff(data, suffix, expected):
    assert sniff(data, suffix) == expected


@pytest.mark.parametrize(
    "data,suffix,message",
    [
        (
            b"<!doctype html><title>404</title>",
            ".pdf",
            "not a PDF (looks like HTML, e.g. a web page saved under a .pdf name)",
        ),
        (b"\x89PNG\r\n\x1a\n....", ".pdf", "not a PDF (PNG image)"),
        (b"\xff\xd8\xff\xe0....", ".pdf", "not a PDF (JPEG image)"),
        (b"PK\x03\x04....", ".pdf", "not a PDF (ZIP archive)"),
        (b"\xd0\xcf\x11\xe0....", ".pdf", "not a PDF (OLE/Office document)"),
        (b"Hello", ".pdf", "not a PDF (no %PDF- header)"),
        (b"\x89PNG\r\n\x1a\n", ".txt", "not a text file (PNG image)"),
        (b"abc\x00def", ".md", "not a text file (binary data)"),
        (b"PK\x03\x04", ".xlsx", "unsupported file type .xlsx (ZIP archive): expected .pdf, .txt, .md or .html"),
        (b"plain", "", "unsupported file type (no extension): expected .pdf, .txt, .md or .html"),
    ],
)
def test_sniff_refuses(data, suffix, message):
    with pytest.raises(UnreadableInput) as e:
        sniff(data, suffix)
    assert str(e.value) == message


def test_too_large(tmp_path, monkeypatch):
    from sheetaudit import read

    f = tmp_path / "big.txt"
    f.write_bytes(b"x" * 2048)
    with pytest.raises(UnreadableInput, match=r"^file too large"):
        read.read_bytes(f, max_bytes=1024)


@pytest.mark.timing
def test_time_limit_interrupts_a_busy_loop():
    with cpu_seconds() as used:
        with pytest.raises(TimeLimitExceeded, match=r"^time limit of 0.2 s exceeded; raise --timeout$"):
            with time_limit(0.2):
                while used() < 60:  # the alarm ends it; this bound only keeps a broken alarm from hanging
                    pass
    assert used() < 2  # CPU seconds: a loaded machine delays the loop, not the alarm


def test_deadline_is_checked_cooperatively_and_cleared():
    with time_limit(5):
        assert 0 < remaining() <= 5
        check_deadline()
    assert remaining() is None
    check_deadline()  # no limit outside the block
    with time_limit(0):
        assert remaining() is None


def test_time_limit_in_a_thread_is_cooperative():
    import threading

    seen = []

    def work():
        try:
            with time_limit(0.05):
                time.sleep(0.1)
                check_deadline()
        except TimeLimitExceeded as exc:
            seen.append(str(exc))

    t = threading.Thread(target=work)
    t.start()
    t.join(5)
    assert seen and seen[0].startswith("time limit of 0.05 s exceeded")


def test_memory_limit_turns_a_huge_allocation_into_memory_error():
    with pytest.raises(MemoryError):
        with memory_limit(1024):
            bytearray(4 * 2**30)
    bytearray(64 * 2**20)  # the limit is lifted again


def test_control_characters_are_removed_from_text(tmp_path):
    f = tmp_path / "x.txt"
    f.write_bytes(b"\x1b[31mNode power:\x07 10.2 kW\x1b[0m\x7f\n")
    doc = read_document(f)
    assert doc.segments and not any(ch in s.text + s.label for s in doc.segments for ch in "\x1b\x07\x00")


# ---------------------------------------------------------------------------------------------------------
# OCR, with a stand-in for pytesseract


def fake_tesseract(words):
    """A pytesseract module whose image_to_data returns `words`: (text, left, top, width, height, line)."""
    mod = types.ModuleType("pytesseract")
    mod.Output = types.SimpleNamespace(DICT="dict")
    mod.pytesseract = types.SimpleNamespace(tesseract_cmd="tesseract")
    mod.get_languages = lambda config="": ["eng", "chi_sim", "osd"]
    mod.get_tesseract_version = lambda: "5.3.0"

    def image_to_data(image, lang=None, config=None, output_type=None, timeout=0):
        mod.calls.append(lang)
        cols = {k: [] for k in ("text", "conf", "left", "top", "width", "height", "block_num", "par_num", "line_num")}
        for text, left, top, width, height, line in words:
            for k, v in zip(cols, (text, 90, left, top, width, height, 1, 1, line)):
                cols[k].append(v)
        cols["text"].append("")  # tesseract's block rows: no text, conf -1
        for k in ("conf", "left", "top", "width", "height", "block_num", "par_num", "line_num"):
            cols[k].append(-1 if k == "conf" else 0)
        return cols

    mod.image_to_data = image_to_data
    mod.calls = []
    return mod


WORDS = [
    ("Node", 100, 100, 80, 30, 1),
    ("power", 200, 100, 100, 30, 1),
    ("6.8", 700, 100, 50, 30, 1),
    ("kW", 760, 100, 40, 30, 1),
    ("Host", 100, 160, 80, 30, 2),
    ("link", 190, 160, 60, 30, 2),
    ("PCle", 700, 160, 70, 30, 2),
    ("Gen4:", 780, 160, 80, 30, 2),
    ("64GB/s", 870, 160, 100, 30, 2),
]


def test_ocr_items_are_in_points_and_fixed(monkeypatch):
    from sheetaudit.read import ocr

    fake = fake_tesseract(WORDS)
    monkeypatch.setitem(sys.modules, "pytesseract", fake)
    ocr.languages.cache_clear()
    try:
        items = ocr.ocr_items(types.SimpleNamespace(convert=lambda mode: None), x_offset=0, y_offset=0)
    finally:
        ocr.languages.cache_clear()
    assert fake.calls == ["eng+chi_sim"]
    assert [i.text for i in items] == ["Node", "power", "6.8", "kW", "Host", "link", "PCIe", "Gen4:", "64GB/s"]
    first = items[0]
    assert (round(first.x0, 2), round(first.top, 2), round(first.x1, 2)) == (24.0, 24.0, 43.2)  # 300 dpi -> pt


def test_image_only_page_is_read_by_ocr_when_asked(monkeypatch):
    from sheetaudit.records import Document
    from sheetaudit.read import ocr
    from sheetaudit.read.layout import Item

    items = [
        Item(x0 * 0.24, top * 0.24, (x0 + w) * 0.24, (top + h) * 0.24, text=t, size=9.0)
        for t, x0, top, w, h, _ in WORDS
    ]
    monkeypatch.setattr(ocr, "status", lambda: (True, ""))
    monkeypatch.setattr(
        ocr,
        "ocr_items",
        lambda *a, **k: [ocr.Item(i.x0, i.top, i.x1, i.bottom, text=ocr.fix_word(i.text), size=i.size) for i in items],
    )
    page = types.SimpleNamespace(render=lambda resolution: (None, 0.0, 0.0))
    doc = Document(path="x.pdf", sha256="", pages=1, kind="pdf", no_text_pages=[1])
    ocr.read_page(page, 1, doc, [], 0, "")
    assert doc.ocr_pages == [1]
    assert doc.segments and all(s.ocr for s in doc.segments)
    assert "PCIe" in " ".join(s.text for s in doc.segments)


def test_scanned_pdf_through_the_reader_with_a_stand_in_ocr(monkeypatch):
    from sheetaudit.options import AuditOptions
    from sheetaudit import pipeline
    from sheetaudit.read import ocr
    from sheetaudit.read.layout import Item

    monkeypatch.setattr(ocr, "status", lambda: (True, ""))
    monkeypatch.setattr(
        ocr,
        "ocr_items",
        lambda *a, **k: [
            Item(60, 100, 110, 110, text="Node", size=10),
            Item(115, 100, 150, 110, text="power", size=10),
            Item(155, 100, 175, 110, text="6.8", size=10),
            Item(178, 100, 190, 110, text="kW", size=10),
        ],
    )
    a = pipeline.run(FILES / "scanned.pdf", AuditOptions(ocr=True))
    assert a.document.ocr_pages == [1]
    power = [f for f in a.figures if f.quantity == "power"]
    assert power and power[0].ocr and power[0].to_json()["ocr"] is True
    msg = [f for f in a.findings if f.check == "sheet.no-text"][0].message
    assert "read by OCR" in msg


def test_ocr_is_opt_in(monkeypatch):
    from sheetaudit.read import ocr

    called = []
    monkeypatch.setattr(ocr, "read_page", lambda *a, **k: called.append(1))
    doc = read_document(FILES / "scanned.pdf")
    assert called == [] and doc.ocr_pages == [] and doc.no_text_pages == [1]


def test_watchdog_ends_a_process_the_alarm_cannot_reach(tmp_path):
    """With SIGALRM blocked (as inside C code that never returns to Python), the watchdog thread still ends the
    process: a one-line error and exit code 2, never a hang."""
    import subprocess

    code = (
        "import signal, time\n"
        "from sheetaudit.limits import time_limit\n"
        "with time_limit(0.3, hard_exit_after=0.3, name='stuck.pdf'):\n"
        "    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGALRM])\n"
        "    time.sleep(3600)\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)  # a hang fails
    assert p.returncode == 2
    assert p.stderr == "sheetaudit: error: stuck.pdf: time limit of 0.3 s exceeded; raise --timeout\n"


def test_a_broken_marked_section_in_html_loses_nothing_else(tmp_path):
    """html.parser asserts on "<![" followed by no name (found by the fuzz test): the page is read with it as text."""
    page = tmp_path / "spec.html"
    page.write_bytes(b"<html><body><p>NVLink: 900 GB/s per GPU</p><![\x01 <p>Rack power: 40 kW</p></body></html>")
    text = " ".join(s.text for s in read_document(page).segments)
    assert "900 GB/s" in text and "40 kW" in text
