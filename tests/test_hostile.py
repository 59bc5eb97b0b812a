"""Hostile and odd inputs (tests/hostile/files, written by tests/hostile/make_hostile.py): the real CLI in a real
process on every file, asserting the exact exit code and the exact one-line error, and that no traceback is
ever printed. See tests/hostile/README.md for what each file is."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
import shutil
from pathlib import Path

import pytest

from conftest import ROOT, run_cli
from cpu_clock import cpu_seconds

FILES = ROOT / "tests" / "hostile" / "files"
GOOD = FILES / "nested" / "deeper" / "good-sheet.pdf"
GOOD_FIGURES = {"900 GB/s", "400 Gb/s", "100GbE", "10.2 kW", "Air-cooled"}
RAW_FIGURES = {"10.2 kW", "400 Gb/s", "Air-cooled"}  # the hand-built PDFs of make_hostile.write_raw_pdfs

pytestmark = pytest.mark.skipif(not FILES.is_dir(), reason="run tests/hostile/make_hostile.py first")


def run(*args, cwd=FILES, timeout=120, env=None):
    """A hostile file is audited in a real process (run from the hostile folder): a crash or hang ends it, not pytest."""
    return run_cli(*args, isolated=True, cwd=cwd, timeout=timeout, env=env)


def no_traceback(p):
    assert "Traceback" not in p.stderr and "Traceback" not in p.stdout, p.stderr


def check_json(name, *extra, cwd=FILES):
    p = run("check", "--format", "json", "--fail-on", "never", *extra, "--", name, cwd=cwd)
    no_traceback(p)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout), p


# ---------------------------------------------------------------------------------------------------------
# Unreadable: one line on stderr naming the file, nothing on stdout, exit 2.

UNREADABLE = {
    "empty.pdf": re.escape("empty file (0 bytes)"),
    "html-named.pdf": re.escape("not a PDF (looks like HTML, e.g. a web page saved under a .pdf name)"),
    "png-named.pdf": re.escape("not a PDF (PNG image)"),
    "zip-named.pdf": re.escape("not a PDF (ZIP archive)"),
    "png-named.txt": re.escape("not a text file (PNG image)"),
    "truncated.pdf": r"damaged or truncated PDF \(.+\)",
    "garbage-after-header.pdf": r"damaged or truncated PDF \(.+\)",
    "encrypted.pdf": re.escape("encrypted PDF, password needed (use --password)"),
    "encrypted-pubsec.pdf": re.escape("encrypted PDF with an unsupported encryption scheme (Adobe.PubSec)"),
    "no-pages.pdf": re.escape("damaged PDF, not repairable (no pages found)"),
    "bad-types.pdf": r"damaged PDF, not repairable \(.+\)",
}


@pytest.mark.parametrize("name", sorted(UNREADABLE))
def test_unreadable_file_is_one_line_and_exit_2(name):
    with cpu_seconds() as used:
        p = run("check", "--", name)
    assert p.returncode == 2
    assert p.stdout == ""
    assert re.fullmatch(rf"sheetaudit: error: {re.escape(name)}: {UNREADABLE[name]}\n", p.stderr), p.stderr
    assert used() < 30  # promptly: no long repair loop (CPU seconds: the wall clock runs on under load)


def test_html_named_pdf_is_never_read_as_an_html_spec_page():
    p = run("check", "--format", "json", "html-named.pdf")
    assert p.returncode == 2 and p.stdout == ""


def test_wrong_and_right_password():
    p = run("check", "--password", "nope", "encrypted.pdf")
    assert (p.returncode, p.stdout, p.stderr) == (
        2,
        "",
        "sheetaudit: error: encrypted.pdf: encrypted PDF: wrong password\n",
    )
    doc, _ = check_json("encrypted.pdf", "--password", "s3cret")
    assert GOOD_FIGURES <= {f["text"] for f in doc["figures"]}


# ---------------------------------------------------------------------------------------------------------
# Readable, however odd: audited, exit 0 (with --fail-on never), nothing but notes on stderr.

READABLE = {
    "damaged-xref.pdf": GOOD_FIGURES,
    "-leading dash.pdf": GOOD_FIGURES,
    'quote\'s "name".pdf': GOOD_FIGURES,
    "规格 spec é.pdf": GOOD_FIGURES,
    "nested/deeper/good-sheet.pdf": GOOD_FIGURES,
    "injection.pdf": {"400 Gb/s", "650 W", "Air-cooled"},
    "injection.html": {"400 Gb/s", "650 W", "Air-cooled"},
    "page-tree-loop.pdf": RAW_FIGURES,
    "count-lies.pdf": RAW_FIGURES,
    "deep-nesting.pdf": RAW_FIGURES,
    "flate-bomb.pdf": RAW_FIGURES,
    "xobject-loop.pdf": RAW_FIGURES,
    "zero-mediabox.pdf": RAW_FIGURES,
    "bad-page.pdf": RAW_FIGURES,  # a media box of infinities: pdfium lays the page out on its default size
    "control-chars.pdf": {"10.2 kW", "Air-cooled"},
    "control-chars.txt": {"10.2 kW", "Air-cooled"},
    "utf16.txt": {"10.2 kW", "Air-cooled"},
}


@pytest.mark.parametrize("name", sorted(READABLE))
def test_readable_file_is_audited(name):
    doc, p = check_json(name)
    assert READABLE[name] <= {f["text"] for f in doc["figures"]}
    assert all(line.startswith("sheetaudit: note: ") for line in p.stderr.splitlines()), p.stderr
    assert doc["source"]["path"] == name


def test_page_count_is_counted_not_believed():
    doc, _ = check_json("count-lies.pdf")
    assert doc["source"]["pages"] == 1
    doc, _ = check_json("page-tree-loop.pdf")
    assert doc["source"]["pages"] == 3  # pdfium walks the loop to the /Count the root claims, never without end


def test_notes_are_read_as_text_and_nothing_is_a_figure():
    doc, _ = check_json("notes.txt")
    assert doc["figures"] == []
    assert [f["check"] for f in doc["findings"]] == ["sheet.no-figures"]


@pytest.mark.parametrize("fmt", ["text", "json", "html"])
@pytest.mark.parametrize("name", ["control-chars.pdf", "control-chars.txt"])
def test_control_characters_never_reach_the_output(name, fmt):
    p = run("check", "--format", fmt, "--fail-on", "never", name)
    assert p.returncode == 0
    assert not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", p.stdout)


# ---------------------------------------------------------------------------------------------------------
# Scanned pages: sheet.no-text names the pages; nothing is guessed; OCR only when asked for.


def no_text(doc):
    found = [f for f in doc["findings"] if f["check"] == "sheet.no-text"]
    assert len(found) == 1
    return found[0]


def test_scanned_file():
    doc, _ = check_json("scanned.pdf")
    assert doc["figures"] == []
    f = no_text(doc)
    assert f["pages"] == [1] and f["message"].startswith("The whole file has no text layer")
    assert "--ocr" in f["message"]
    assert run("check", "--fail-on", "warning", "scanned.pdf").returncode == 1
    assert run("check", "--fail-on", "error", "scanned.pdf").returncode == 0


def test_mixed_scanned_file():
    doc, _ = check_json("mixed-scanned.pdf")
    assert {f["page"] for f in doc["figures"]} == {1}
    assert {"10.2 kW", "400 Gb/s"} <= {f["text"] for f in doc["figures"]}
    f = no_text(doc)
    assert f["pages"] == [2] and f["message"].startswith("Page 2 has no text layer")


def test_no_text_says_how_to_enable_ocr_when_it_is_missing(monkeypatch):
    from sheetaudit import pipeline
    from sheetaudit.read import ocr

    monkeypatch.setattr(ocr, "status", lambda: (False, "the OCR extra is not installed"))
    a = pipeline.run(FILES / "mixed-scanned.pdf")
    f = [x for x in a.findings if x.check == "sheet.no-text"][0]
    assert "pip install 'sheetaudit[ocr]'" in f.message and "tesseract-ocr-chi-sim" in f.message
    assert f.pages == [2]


def test_ocr_asked_for_but_missing_is_a_note_not_a_crash(monkeypatch):
    from sheetaudit.read import ocr, read_document

    monkeypatch.setattr(ocr, "status", lambda: (False, "the OCR extra is not installed"))
    doc = read_document(FILES / "scanned.pdf", ocr=True)
    assert doc.no_text_pages == [1] and doc.ocr_pages == [] and doc.segments == []
    assert any(n.startswith("OCR was asked for but the OCR extra is not installed") for n in doc.notes)


def ocr_available() -> bool:
    try:
        from sheetaudit.read import ocr

        return ocr.available()
    except Exception:
        return False


@pytest.mark.skipif(not ocr_available(), reason="OCR extra (pytesseract + tesseract-ocr) not installed")
def test_ocr_reads_image_only_pages_and_marks_their_figures():
    doc, _ = check_json("mixed-scanned.pdf", "--ocr")
    assert doc["source"]["ocr_pages"] == [2]
    page2 = [f for f in doc["figures"] if f["page"] == 2]
    assert page2 and all(f.get("ocr") is True for f in page2)
    assert not any(f.get("ocr") for f in doc["figures"] if f["page"] == 1)
    assert {"6.8 kW"} <= {f["text"] for f in page2}
    assert "read by OCR" in no_text(doc)["message"]


# ---------------------------------------------------------------------------------------------------------
# Long and pathological files: page and time limits, reported, never a hang.


@pytest.mark.timing
@pytest.mark.parametrize("mode", [[], ["--thorough"]])
def test_long_file_is_read_whole(mode):
    with cpu_seconds() as used:
        doc, _ = check_json("long-1000.pdf", *mode)
    assert used() < 90
    assert doc["source"]["pages"] == 1000
    pages = {f["text"]: f["page"] for f in doc["figures"]}
    assert (pages["400 Gb/s"], pages["10.2 kW"], pages["900 GB/s"]) == (3, 500, 998)


def test_page_limit_is_reported():
    doc, p = check_json("long-1000.pdf", "--max-pages", "5")
    assert "sheetaudit: note: long-1000.pdf: read the first 5 of 1000 pages (--max-pages 5)\n" in p.stderr
    assert doc["source"]["pages"] == 1000
    assert "read the first 5 of 1000 pages (--max-pages 5)" in doc["source"]["notes"]
    assert [f["text"] for f in doc["figures"] if f["quantity"] != "domain_size"] == ["400 Gb/s"]


@pytest.mark.timing
@pytest.mark.parametrize("name", ["many-chars.pdf", "digit-run.txt"])
def test_time_limit_is_a_clean_error(name):
    with cpu_seconds() as used:  # the limit is wall-clock; the work it allows is bounded in CPU seconds
        p = run("check", "--timeout", "1", name, timeout=300)
    no_traceback(p)
    assert used() < 20
    if p.returncode == 2:  # digit-run.txt finishes in time once the quantity finder is linear on it
        assert re.fullmatch(
            rf"sheetaudit: error: {re.escape(name)}: time limit of 1 s exceeded.*; raise --timeout.*\n", p.stderr
        ), p.stderr
    else:
        assert name == "digit-run.txt" and p.returncode in (0, 1)


# ---------------------------------------------------------------------------------------------------------
# Text crafted against the report.


def test_injection_is_text_in_html_json_and_text():
    for name in ("injection.pdf", "injection.html"):
        html = run("check", "--format", "html", name).stdout
        assert "<script>alert(1)" not in html and "<img src=x" not in html and 'onmouseover="alert' not in html
        assert "document.write" not in html
        assert "{{ 7*7 }}" in html and "${7*7}" in html  # shown as printed, never evaluated
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in run("check", "--format", "html", "injection.pdf").stdout
    doc, _ = check_json("injection.pdf")
    contexts = " ".join(f["context"] for f in doc["figures"])
    assert '=HYPERLINK("http://x")' in contexts and "<b>Typical power</b>" in contexts
    assert "400 Gb/s" in run("check", "injection.pdf").stdout


def test_csv_cells_are_neutralised_in_the_batch(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    for name in ("injection.pdf", "injection.html", "-leading dash.pdf"):
        shutil.copy(FILES / name, src / name)
    p = run("audit", src, "-o", tmp_path / "out", "--no-cache", "-q", "--fail-on", "never")
    no_traceback(p)
    assert p.returncode == 0, p.stderr
    cells = []
    for table in (tmp_path / "out").glob("*.csv"):
        cells += [c for row in csv.reader(io.StringIO(table.read_text(encoding="utf-8"))) for c in row]
    assert any("HYPERLINK" in c for c in cells)
    bad = [c for c in cells if c.startswith(("=", "+", "-", "@", "\t", "\r"))]
    assert bad == []


# ---------------------------------------------------------------------------------------------------------
# Names, paths and the file system.


def test_odd_names_round_trip(tmp_path):
    from markupsafe import escape

    names = ("-leading dash.pdf", 'quote\'s "name".pdf', "规格 spec é.pdf", "new\nline.pdf")
    (tmp_path / "in").mkdir()
    for name in names:
        shutil.copy(GOOD, tmp_path / "in" / name)
        doc, _ = check_json(name, cwd=tmp_path / "in")
        assert doc["source"]["path"] == name
        html = run("check", "--format", "html", "--", name, cwd=tmp_path / "in").stdout
        assert '"name"' not in html and "<b>" not in html
    p = run("check", "--format", "json", "./-leading dash.pdf", cwd=tmp_path / "in")
    assert p.returncode in (0, 1) and json.loads(p.stdout)["source"]["path"] == "./-leading dash.pdf"
    p = run("audit", tmp_path / "in", "-o", tmp_path / "out", "--no-cache", "-q", "--fail-on", "never")
    assert p.returncode == 0, p.stderr
    index = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    for name in names[:3]:
        assert str(escape(name)) in index
    rows = json.loads((tmp_path / "out" / "audit.json").read_text(encoding="utf-8"))
    assert {Path(r["source"]["path"]).name for r in rows} == set(names)


def test_control_character_in_a_name_stays_on_one_line(tmp_path):
    (tmp_path / "bad\nname.pdf").write_bytes(b"")
    p = run("check", "bad\nname.pdf", cwd=tmp_path)
    assert (p.returncode, p.stderr) == (2, "sheetaudit: error: bad\\nname.pdf: empty file (0 bytes)\n")


def test_paths_that_are_not_files(tmp_path):
    (tmp_path / "dir.pdf").mkdir()
    p = run("check", "dir.pdf", cwd=tmp_path)
    assert (p.returncode, p.stderr) == (
        2,
        "sheetaudit: error: dir.pdf: is a directory; to audit a folder use 'sheetaudit audit FOLDER -o OUTDIR'\n",
    )
    p = run("check", "missing.pdf", cwd=tmp_path)
    assert (p.returncode, p.stderr) == (2, "sheetaudit: error: missing.pdf: no such file\n")
    os.symlink("missing.pdf", tmp_path / "dangling.pdf")
    p = run("check", "dangling.pdf", cwd=tmp_path)
    assert (p.returncode, p.stderr) == (
        2,
        "sheetaudit: error: dangling.pdf: broken symbolic link (its target missing.pdf does not exist)\n",
    )
    os.symlink("loop-b.pdf", tmp_path / "loop-a.pdf")
    os.symlink("loop-a.pdf", tmp_path / "loop-b.pdf")
    p = run("check", "loop-a.pdf", cwd=tmp_path)
    assert (p.returncode, p.stderr) == (2, "sheetaudit: error: loop-a.pdf: symbolic link loop\n")
    os.symlink(GOOD, tmp_path / "link.pdf")
    doc, _ = check_json("link.pdf", cwd=tmp_path)
    assert GOOD_FIGURES <= {f["text"] for f in doc["figures"]}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_fifo_is_refused_without_blocking(tmp_path):
    os.mkfifo(tmp_path / "pipe.pdf")
    p = run("check", "pipe.pdf", cwd=tmp_path, timeout=30)
    assert (p.returncode, p.stderr) == (2, "sheetaudit: error: pipe.pdf: not a regular file (a FIFO)\n")


def test_unreadable_file(tmp_path, monkeypatch):
    target = tmp_path / "locked.pdf"
    shutil.copy(GOOD, target)
    target.chmod(0)
    try:
        if os.geteuid() != 0:  # root reads anything: the same path is driven by a patched open below
            p = run("check", "locked.pdf", cwd=tmp_path)
            assert (p.returncode, p.stderr) == (2, "sheetaudit: error: locked.pdf: permission denied\n")
    finally:
        target.chmod(0o644)
    import builtins
    from sheetaudit.errors import UnreadableInput
    from sheetaudit.read import read_document

    real_open = builtins.open

    def denying_open(path, *a, **k):
        if str(path).endswith("locked.pdf"):
            raise PermissionError(13, "Permission denied")
        return real_open(path, *a, **k)

    monkeypatch.setattr(builtins, "open", denying_open)
    with pytest.raises(UnreadableInput, match=r"^permission denied$"):
        read_document(target)


# ---------------------------------------------------------------------------------------------------------
# Outputs.


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_output_never_overwrites_the_input(tmp_path):
    sheet = tmp_path / "sheet.pdf"
    shutil.copy(GOOD, sheet)
    before = sha(sheet)
    os.symlink(sheet, tmp_path / "alias.html")
    os.link(sheet, tmp_path / "hard.html")
    for out in ("sheet.pdf", "./sheet.pdf", "alias.html", "hard.html"):
        p = run("check", "--format", "html", "sheet.pdf", "-o", out, cwd=tmp_path)
        assert p.returncode == 2, out
        assert re.fullmatch(
            r"sheetaudit: error: -o .* is the input file itself; choose another output file\n", p.stderr
        )
    assert sha(sheet) == before


def test_output_is_written_whole_or_not_at_all(tmp_path):
    p = run("check", "--format", "json", "--fail-on", "never", GOOD, "-o", tmp_path / "out" / "r.json")
    assert p.returncode == 0 and p.stdout == ""
    assert json.loads((tmp_path / "out" / "r.json").read_text(encoding="utf-8"))["figures"]
    assert [x.name for x in (tmp_path / "out").iterdir()] == ["r.json"]  # no temporary left behind
    (tmp_path / "file").write_text("x")
    p = run("check", GOOD, "-o", tmp_path / "file" / "r.json")
    assert p.returncode == 2 and p.stderr.startswith("sheetaudit: error: cannot write ") and "\n" == p.stderr[-1]
    no_traceback(p)


# ---------------------------------------------------------------------------------------------------------
# Bugs and interrupts: one line without --debug, the traceback with it.


def test_internal_error_is_one_line_unless_debug(monkeypatch):
    from click.testing import CliRunner
    from sheetaudit import cli, pipeline

    def boom(*a, **k):
        raise ValueError("something broke")

    monkeypatch.setattr(pipeline, "run", boom)
    r = CliRunner().invoke(cli.main, ["check", str(GOOD)])
    assert r.exit_code == 2
    assert "internal error while auditing (ValueError: something broke)" in r.output
    assert "Traceback" not in r.output
    r = CliRunner().invoke(cli.main, ["--debug", "check", str(GOOD)])
    assert isinstance(r.exception, ValueError)


def test_ctrl_c_is_one_line(monkeypatch):
    from click.testing import CliRunner
    from sheetaudit import cli, pipeline

    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(pipeline, "run", interrupted)
    r = CliRunner().invoke(cli.main, ["check", str(GOOD)])
    assert r.exit_code == 130 and "interrupted" in r.output and "Traceback" not in r.output


# ---------------------------------------------------------------------------------------------------------
# The batch over the whole hostile folder: each bad file is one error row, the others are audited.


def test_batch_over_the_hostile_folder(tmp_path):
    """Every file but the slow one is audited first without a tight limit (on a busy machine a good file can take
    seconds), then the slow one joins under a 1 s limit while the others come from the cache: no race between a
    good file and the clock."""
    folder, aside = tmp_path / "hostile", tmp_path / "many-chars.pdf"
    shutil.copytree(FILES, folder)
    (folder / "many-chars.pdf").rename(aside)
    first = run("audit", folder, "-o", tmp_path / "out", "-q", "--fail-on", "never", timeout=600)
    no_traceback(first)
    aside.rename(folder / "many-chars.pdf")
    p = run("audit", folder, "-o", tmp_path / "out", "--timeout", "1", "-q", "--fail-on", "never", timeout=300)
    no_traceback(p)
    assert p.returncode == 2  # some files could not be audited
    rows = {
        Path(r["source"]["path"]).relative_to(folder).as_posix(): r
        for r in json.loads((tmp_path / "out" / "audit.json").read_text(encoding="utf-8"))
    }
    for name, pattern in UNREADABLE.items():
        assert re.fullmatch(pattern, rows[name]["error"]), (name, rows[name]["error"])
    for name, figures in READABLE.items():
        assert not rows[name].get("error"), (name, rows[name].get("error"))
        assert figures <= {f["text"] for f in rows[name]["figures"]}, name
    assert re.match(r"time limit of 1 s exceeded|timed out after", rows["many-chars.pdf"]["error"])


def test_a_failing_report_writer_is_one_line_naming_the_file(monkeypatch):
    from click.testing import CliRunner
    from sheetaudit import cli
    from sheetaudit.output import html_out

    def broken(*a, **k):
        raise TypeError("'NoneType' object is not iterable")

    monkeypatch.setattr(html_out, "render", broken)
    r = CliRunner().invoke(cli.main, ["check", "--format", "html", str(GOOD)])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert f"sheetaudit: error: {GOOD}: internal error while writing the html report (TypeError: " in r.output


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_batch_over_links_loops_and_fifos(tmp_path):
    """A folder with a symlink loop, a dangling link, a link loop between files, a FIFO and a duplicate link: the
    batch never hangs, audits each real sheet once and says why it passed over the rest."""
    src = tmp_path / "in"
    (src / "sub").mkdir(parents=True)
    shutil.copy(GOOD, src / "good.pdf")
    shutil.copy(GOOD, src / "sub" / "-dash.pdf")
    os.symlink("..", src / "sub" / "up")
    os.symlink("missing.pdf", src / "dangling.pdf")
    os.symlink("loop-b.pdf", src / "loop-a.pdf")
    os.symlink("loop-a.pdf", src / "loop-b.pdf")
    os.symlink(src / "good.pdf", src / "alias.pdf")
    os.mkfifo(src / "pipe.pdf")
    p = run("audit", src, "-o", tmp_path / "out", "--no-cache", "-q", "--fail-on", "never", timeout=600)  # a hang fails
    no_traceback(p)
    assert p.returncode == 0, p.stderr
    rows = json.loads((tmp_path / "out" / "audit.json").read_text(encoding="utf-8"))
    assert len(rows) == 2 and all(not r.get("error") for r in rows)
    index = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    for name in ("dangling.pdf", "loop-a.pdf", "pipe.pdf", "sub/up"):
        assert name in index
