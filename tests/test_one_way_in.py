"""One way in: `sheetaudit check`, `sheetaudit audit` and the Python API each build one AuditOptions
(sheetaudit.options) and pass it down. The result cache's key is made of it alone, so an entry sheetaudit.audit()
stored is the batch's entry too; audit_folder without an output folder renders no report; the contract of an audit
is built once, whatever renders it."""

import dataclasses
import json
import os
import shutil

import pytest

import sheetaudit
from conftest import SAMPLES, run_cli
from sheetaudit.batch.run import BatchOptions, run_batch
from sheetaudit.options import AuditOptions

KESTREL = SAMPLES / "kestrel-k8x-gpu-server.pdf"


@pytest.fixture(autouse=True)
def _own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SHEETAUDIT_CACHE_DIR", str(tmp_path / "cache"))


def test_the_cache_key_holds_every_option_and_never_the_password():
    key = AuditOptions(password="s3cret", max_pages=3, ocr=True).cache_key()
    assert set(key) == {f.name for f in dataclasses.fields(AuditOptions)}
    assert "s3cret" not in json.dumps(key)
    assert key != AuditOptions(password="other", max_pages=3, ocr=True).cache_key()


def test_an_entry_the_api_stored_serves_the_batch_and_a_report_is_still_written(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(KESTREL, folder / KESTREL.name)
    sheetaudit.audit(folder / KESTREL.name)  # stored, with no report rendered
    cache = str(tmp_path / "cache")
    results = run_batch(folder, None, BatchOptions(jobs=1, quiet=True, cache_dir=cache))
    assert results.cache_hits == 1 and results.outdir is None
    # a run that writes reports audits it again: the entry holds no report to vouch for
    out = tmp_path / "out"
    written = run_batch(folder, out, BatchOptions(jobs=1, quiet=True, cache_dir=cache))
    assert written.cache_hits == 0 and (out / "reports" / f"{KESTREL.name}.html").is_file()


def test_audit_folder_without_an_output_renders_no_report_and_returns_what_audit_json_holds(tmp_path, monkeypatch):
    from sheetaudit.output import html_out

    rendered = tmp_path / "rendered"
    real = html_out.render

    def render(*args, **kwargs):  # the workers are forked from this process, and so call this one
        with open(rendered, "a", encoding="utf-8") as fh:
            fh.write("x")
        return real(*args, **kwargs)

    monkeypatch.setattr(html_out, "render", render)
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("kestrel-k8x-gpu-server.pdf", "osprey-o4-inference-server.txt"):
        shutil.copy(SAMPLES / name, folder / name)
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4 not really")
    results = sheetaudit.audit_folder(folder, jobs=1, cache=False)
    assert not rendered.exists() and not list(tmp_path.glob("cache/*/*"))
    out = tmp_path / "out"
    assert sheetaudit.audit_folder(folder, jobs=1, cache=False, output=out) == results
    assert results == json.loads((out / "audit.json").read_text(encoding="utf-8"))
    assert [("error" in r) for r in results] == [True, False, False]
    assert rendered.exists() or not _forked()  # the stand-in reached the workers: it did not run before


def _forked() -> bool:
    from sheetaudit.batch.pool import _context

    return _context().get_start_method() == "fork"


def test_ocr_is_an_option_not_the_environment():
    ran = run_cli("check", "--ocr", "--format", "json", SAMPLES / "osprey-o4-inference-server.txt")
    assert ran.returncode in (0, 1) and "SHEETAUDIT_OCR" not in os.environ
    assert "--ocr" in run_cli("audit", "--help").stdout


def test_the_contract_is_built_once_and_no_output_changes_it():
    from sheetaudit.output import html_out, text_out
    from sheetaudit.output.json_out import contract, dumps, to_contract
    from sheetaudit import pipeline

    a = pipeline.run(KESTREL)
    kept = contract(a)
    before = json.dumps(kept, sort_keys=True)
    html_out.render(a)
    text_out.render(a)
    dumps(a)
    assert contract(a) is kept and json.dumps(kept, sort_keys=True) == before == json.dumps(
        to_contract(a), sort_keys=True
    )
