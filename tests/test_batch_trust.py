"""Issue 14: a cache you can trust, interrupts that keep the work, an output folder checked before the work.

Each test is named after the problem it pins down and failed before the fix. Real processes throughout: the CLI in
a subprocess, real signals, real worker processes killed for real, real files changed while the batch runs.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import signal
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from test_batch import ROOT, SAMPLES, batch
from test_batch_isolation import OnTerminal, children, records, slow_folder, slow_pdf, start, wait_for  # noqa: F401

sys.path.insert(0, str(ROOT / "tests" / "hostile"))
OSPREY = "osprey-o4-inference-server.txt"
KESTREL = "kestrel-k8x-gpu-server.pdf"


HERON = """# Heron H9 rack (fictional)

Scale-up: NVLink 4, 900 GB/s per GPU, 8 GPUs per NVLink domain.
Scale-out: 8x 400 Gb/s InfiniBand NDR per node.
Rack power: 120 kW per rack, air-cooled.
"""


def one_sheet(tmp_path: Path, name: str = "heron-h9-rack.md") -> Path:
    """A folder with one sheet: a sample, or by default a rack sheet with an error finding (exit 1)."""
    folder = tmp_path / "in"
    folder.mkdir()
    if (SAMPLES / name).is_file():
        shutil.copy(SAMPLES / name, folder / name)
    else:
        (folder / name).write_text(HERON, encoding="utf-8")
    return folder


def cache_entries(cache: Path) -> list[Path]:
    return sorted(cache.rglob("*.json.gz"))


def edit_entry(path: Path, change, resign: bool = True) -> None:
    """Rewrite a cache entry as a script of the same user could, signing it again with the user's key (so what is
    tested is the shape check behind the signature); resign=False is anyone else: the old signature stays."""
    from sheetaudit.result_cache import sign, signing_key

    mac, _, payload = gzip.decompress(path.read_bytes()).partition(b"\n")
    entry = json.loads(payload)
    change(entry["result"])
    payload = json.dumps(entry).encode()
    path.write_bytes(gzip.compress((sign(signing_key(), payload) if resign else mac) + b"\n" + payload))


# -- problem 1: a cache entry that parses but has the wrong shape ------------------------------------------------


def _set_contract(field, value):
    return lambda r: r["contract"].__setitem__(field, value)


TAMPERED = {
    "figures-a-number": _set_contract("figures", 7),
    "findings-a-string": _set_contract("findings", "none"),
    "contract-empty": lambda r: r.__setitem__("contract", {}),
    "findings-removed-to-pass-as-clean": _set_contract("findings", []),
    "value-a-list": lambda r: r["contract"]["figures"][0].__setitem__("value", [1, 2]),
    "normalized-value-text": lambda r: r["contract"]["figures"][0]["normalized"].__setitem__("value", "fast"),
    "severity-unknown": lambda r: r["contract"]["findings"][0].__setitem__("severity", "critical"),
    "other-contents-result": lambda r: r["contract"]["source"].__setitem__("sha256", "0" * 64),
    "status-ok-without-contract": lambda r: r.pop("contract"),
}


@pytest.mark.parametrize("how", sorted(TAMPERED))
def test_cache_entry_of_the_wrong_shape_is_audited_again(tmp_path, how):
    folder, out, cache = one_sheet(tmp_path), tmp_path / "out", tmp_path / "cache"
    first = batch(folder, "-o", out, "--cache-dir", cache)
    assert first.returncode == 1, first.stderr  # 120 kW per rack, air-cooled: an error
    expected = (out / "audit.json").read_text(encoding="utf-8")
    [entry] = cache_entries(cache)
    edit_entry(entry, TAMPERED[how])
    again = batch(folder, "-o", out, "--cache-dir", cache)
    assert again.returncode == first.returncode, again.stderr
    assert "internal error" not in again.stderr and "Traceback" not in again.stderr
    assert again.stderr.count("warning: cache entry") == 1 and "corrupt" in again.stderr
    assert "from cache" not in again.stderr
    assert (out / "audit.json").read_text(encoding="utf-8") == expected
    third = batch(folder, "-o", out, "--cache-dir", cache)  # the entry was overwritten with a good one
    assert "1 audited (1 from cache)" in third.stderr and "warning: cache entry" not in third.stderr


def test_cached_html_never_reaches_a_report(tmp_path):
    folder, out, cache = one_sheet(tmp_path, KESTREL), tmp_path / "out", tmp_path / "cache"
    batch(folder, "-o", out, "--cache-dir", cache)
    report = out / "reports" / f"{KESTREL}.html"
    clean = report.read_text(encoding="utf-8")
    evil = "<script>alert('from the cache')</script>"
    [entry] = cache_entries(cache)
    edit_entry(entry, lambda r: r.update(html=evil + clean))
    report.unlink()  # a fresh OUTDIR, or a report deleted: it must be written again
    again = batch(folder, "-o", out, "--cache-dir", cache)
    assert again.returncode in (0, 1), again.stderr
    text = report.read_text(encoding="utf-8")
    assert evil not in text and "alert(" not in text
    assert text.count("<script") == clean.count("<script")


def test_cache_entry_that_inflates_to_hundreds_of_megabytes_is_corrupt(tmp_path):
    folder, out, cache = one_sheet(tmp_path), tmp_path / "out", tmp_path / "cache"
    batch(folder, "-o", out, "--cache-dir", cache)
    [entry] = cache_entries(cache)
    z = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    entry.write_bytes(z.compress(b" " * (200 * 2**20)) + z.flush())  # 200 MB of spaces, 200 KB on disk
    again = batch(folder, "-o", out, "--cache-dir", cache)
    assert again.returncode == 1 and "corrupt" in again.stderr and "from cache" not in again.stderr


# -- problem 2: two (or more) Ctrl-C in quick succession -----------------------------------------------------------


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_repeated_interrupts_still_write_the_finished_sheets(slow_folder, tmp_path, sig):
    out = tmp_path / "out"
    t = OnTerminal(slow_folder, out, "--jobs", "2")
    p = t.proc
    wait_for(lambda: "[2/3]" in t.read(), timeout=120)  # the parent holds the two quick sheets' results
    workers = children(p.pid)
    while p.poll() is None:  # keep pressing Ctrl-C until the batch has exited
        p.send_signal(sig)
        t.read()
        try:
            p.wait(timeout=0.02)
        except subprocess.TimeoutExpired:
            pass
    err = t.close()
    assert p.returncode == 130, err
    assert "Traceback" not in err
    recs = records(out)
    assert "error" not in recs[OSPREY] and "error" not in recs["gannet-gx800-xdr-switch.html"]
    assert "interrupted" in recs["slow.pdf"]["error"]
    assert (out / "index.html").is_file() and json.loads((out / "run.json").read_text())["interrupted"] is True
    for w in workers:
        with pytest.raises(ProcessLookupError):
            os.kill(w, 0)


# -- problem 3: a file that changes while the batch runs -----------------------------------------------------------


def test_file_emptied_while_queued_never_caches_an_error_for_its_old_content(slow_folder, tmp_path):
    """The parent hashes osprey, then (while the only worker is busy with slow.pdf) the file is emptied, the worker
    reads it empty, and the file is restored. The "empty file" error belongs to the empty content only."""
    out, cache = tmp_path / "out", tmp_path / "cache"
    target = slow_folder / OSPREY
    p = start(slow_folder, out, "--jobs", "1", "--cache-dir", cache)
    worker = wait_for(lambda: children(p.pid))[0]  # every file is hashed before the pool starts
    target.write_bytes(b"")
    os.kill(worker, signal.SIGKILL)  # slow.pdf is that file's crash; osprey is next
    _, err = p.communicate(timeout=120)
    assert p.returncode == 2, err
    assert records(out)[OSPREY]["error"] == "empty file (0 bytes)"
    shutil.copy(SAMPLES / OSPREY, target)  # restored, byte for byte
    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.copy(target, alone / OSPREY)
    again = batch(alone, "-o", tmp_path / "out2", "--cache-dir", cache)
    assert again.returncode == 0, again.stderr
    assert "error" not in records(tmp_path / "out2")[OSPREY]
    assert "from cache" not in again.stderr


# -- problem 4: limits are not a property of the file --------------------------------------------------------------


def memory_hungry_pdf(path: Path, inflated_mb: int = 150) -> None:
    """A one-page sheet whose embedded Type 1 font program inflates to `inflated_mb` MB (pdfminer inflates it to
    look for the font's encoding): read in full with room to spare, out of memory under a tight --max-memory."""
    from make_hostile import raw_pdf, raw_stream, text_ops

    tounicode = (
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Sheet def "
        b"1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfrange <20> <7E> <0020> endbfrange "
        b"endcmap CMapName currentdict /CMap defineresource pop end end"
    )
    path.write_bytes(
        raw_pdf(
            [
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R "
                b"/Resources << /Font << /F1 5 0 R >> >> >>",
                raw_stream(text_ops([b"Scale-out: 8x 400 Gb/s InfiniBand NDR per node"])),
                b"<< /Type /Font /Subtype /Type1 /BaseFont /Sheet /FirstChar 32 /LastChar 126 /Widths ["
                + b" ".join([b"600"] * 95)
                + b"] /ToUnicode 8 0 R /FontDescriptor 6 0 R >>",
                b"<< /Type /FontDescriptor /FontName /Sheet /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 "
                b"/Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile 7 0 R >>",
                raw_stream(b"\0" * (inflated_mb * 2**20), compress=True, extra=b" /Length1 16 /Length2 0 /Length3 0"),
                raw_stream(tounicode),
            ]
        )
    )


def test_memory_limit_hit_is_worded_as_a_limit_and_never_cached(tmp_path):
    folder, cache = tmp_path / "in", tmp_path / "cache"
    folder.mkdir()
    memory_hungry_pdf(folder / "hungry.pdf")
    tight = batch(folder, "-o", tmp_path / "out", "--cache-dir", cache, "--max-memory", "300")
    assert tight.returncode == 2, tight.stderr
    error = records(tmp_path / "out")["hungry.pdf"]["error"]
    assert "--max-memory" in error and "damaged" not in error, error
    roomy = batch(folder, "-o", tmp_path / "out", "--cache-dir", cache)
    assert roomy.returncode in (0, 1), roomy.stderr
    assert "from cache" not in roomy.stderr
    assert any(f["text"] == "400 Gb/s" for f in records(tmp_path / "out")["hungry.pdf"]["figures"])


def test_check_names_the_memory_limit_not_damage(tmp_path):
    from conftest import run_cli

    memory_hungry_pdf(tmp_path / "hungry.pdf")
    p = run_cli("check", tmp_path / "hungry.pdf", "--max-memory", "300", isolated=True)  # a memory cap: its own process
    assert p.returncode == 2 and p.stderr.count("\n") == 1, p.stderr
    assert "raise --max-memory" in p.stderr and "damaged" not in p.stderr


# -- problem 5: an output folder that cannot be written ------------------------------------------------------------


def test_unwritable_output_folder_is_one_plain_line_before_any_audit(tmp_path):
    folder, cache = one_sheet(tmp_path), tmp_path / "cache"
    (tmp_path / "a-file").write_text("not a folder", encoding="utf-8")
    outdir = tmp_path / "a-file" / "out"
    p = batch(folder, "-o", outdir, "--cache-dir", cache)
    assert p.returncode == 2
    assert p.stderr.count("\n") == 1, p.stderr
    assert p.stderr.startswith(f"sheetaudit: error: cannot write to the output folder {outdir}: Not a directory")
    assert "internal error" not in p.stderr
    assert cache_entries(cache) == []  # nothing was audited
