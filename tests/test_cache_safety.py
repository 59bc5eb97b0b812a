"""The result cache and OUTDIR on a shared disk: another user may plant links and files in a cache folder, a
killed run leaves temporary files, two runs may share an OUTDIR. The cache follows no link and deletes only what
it wrote; a damaged signing key is replaced once; OUTDIR is locked against a second run."""

import json
import os
import shutil
import time


from conftest import SAMPLES, run_cli

SHEET = SAMPLES / "osprey-o4-inference-server.txt"
OLD = time.time() - 40 * 86400


def _victim(tmp_path):
    """A folder of another user's: a file the clean-up would take for an old entry, and one for a stale temp."""
    victim = tmp_path / "victim"
    victim.mkdir()
    for name in ("precious.json.gz", "precious.tmp"):
        (victim / name).write_text("mine")
        os.utime(victim / name, (OLD, OLD))
    return victim


def test_a_shard_folder_that_is_a_link_is_not_followed(tmp_path):
    import sheetaudit
    from sheetaudit.result_cache import Cache

    cache, victim = tmp_path / "cache", _victim(tmp_path)
    cache.mkdir()
    for i in range(256):  # every shard the entry could land in
        (cache / f"{i:02x}").symlink_to(victim)
    os.environ["SHEETAUDIT_CACHE_DIR"], before = str(cache), os.environ.get("SHEETAUDIT_CACHE_DIR")
    try:
        sheetaudit.audit(SHEET)
    finally:
        os.environ["SHEETAUDIT_CACHE_DIR"] = before
    Cache(cache, "rules", {}).prune()
    assert sorted(p.name for p in victim.iterdir()) == ["precious.json.gz", "precious.tmp"]


def test_the_clean_up_deletes_only_entries_it_could_have_written(tmp_path):
    from sheetaudit.result_cache import Cache

    cache = tmp_path / "cache"
    (cache / "ab").mkdir(parents=True)
    mine = cache / "ab" / ("ab" + "0" * 62 + ".json.gz")
    other = cache / "ab" / "notes.json.gz"
    for p in (mine, other):
        p.write_text("x")
        os.utime(p, (OLD, OLD))
    assert Cache(cache, "rules", {}).prune() == 1
    assert other.exists() and not mine.exists()


def test_an_entry_read_through_a_linked_shard_is_not_trusted(tmp_path):
    import sheetaudit

    cache = tmp_path / "cache"
    os.environ["SHEETAUDIT_CACHE_DIR"], before = str(cache), os.environ.get("SHEETAUDIT_CACHE_DIR")
    try:
        sheetaudit.audit(SHEET)
        (shard,) = [p for p in cache.iterdir() if p.is_dir()]
        moved = tmp_path / "elsewhere"
        shutil.copytree(shard, moved)
        from sheetaudit.result_cache import Cache, file_sha256
        from sheetaudit.rules import rules_hash

        audit_options = {"max_pages": None, "facility": None, "password": None, "ocr": False, "requirements": None}
        assert Cache(cache, rules_hash(), audit_options).get(file_sha256(SHEET), SHEET.name) is not None
        shutil.rmtree(shard)
        shard.symlink_to(moved)
        assert Cache(cache, rules_hash(), audit_options).get(file_sha256(SHEET), SHEET.name) is None
    finally:
        os.environ["SHEETAUDIT_CACHE_DIR"] = before


def _batch(tmp_path, out, **env):
    folder = tmp_path / "in"
    folder.mkdir(exist_ok=True)
    shutil.copy(SHEET, folder / SHEET.name)
    return run_cli("audit", folder, "-o", out, "--jobs", "1", env=env)


def test_a_damaged_signing_key_is_replaced_with_one_warning(tmp_path):
    home = tmp_path / "xdg"
    (home / "sheetaudit").mkdir(parents=True, mode=0o700)
    key = home / "sheetaudit" / "cache-key"
    key.write_bytes(b"short")
    key.chmod(0o600)
    first = _batch(tmp_path, tmp_path / "out1", XDG_CACHE_HOME=home, SHEETAUDIT_CACHE_DIR=tmp_path / "c")
    assert first.returncode in (0, 1) and first.stderr.count("cache-key") == 1, first.output
    assert len(key.read_bytes()) == 32
    second = _batch(tmp_path, tmp_path / "out1", XDG_CACHE_HOME=home, SHEETAUDIT_CACHE_DIR=tmp_path / "c")
    assert "cache-key" not in second.stderr, second.output
    assert json.loads((tmp_path / "out1" / "run.json").read_text())["from_cache"] == 1


def test_a_second_run_into_the_same_outdir_is_refused(tmp_path):
    from sheetaudit.batch.lock import outdir_lock

    out = tmp_path / "out"
    with outdir_lock(out):
        ran = _batch(tmp_path, out)
    assert ran.returncode == 2 and "another sheetaudit run" in ran.stderr, ran.output
    assert not (out / "index.html").exists()
    assert _batch(tmp_path, out).returncode in (0, 1)  # the lock went with the run that held it


def test_temporary_files_of_a_killed_run_are_removed_at_the_next_start(tmp_path):
    out = tmp_path / "out"
    (out / "reports" / "sub").mkdir(parents=True)
    left = [
        out / "reports" / ".osprey.txt.html.k3j_9xq2.tmp",
        out / "reports" / "sub" / ".a.pdf.html.abcdefgh.tmp",
        out / ".audit.json.zzzzzzzz.tmp",
    ]
    for p in left:
        p.write_text("half")
    keep = out / "reports" / "my-notes.tmp"
    keep.write_text("not ours")
    assert _batch(tmp_path, out).returncode in (0, 1)
    assert not any(p.exists() for p in left) and keep.exists()


def test_audit_json_is_written_one_record_at_a_time_as_json_dumps_writes_it(tmp_path):
    from sheetaudit.batch.files import write_json_list_if_changed
    from sheetaudit.batch.spool import item_text

    path = tmp_path / "audit.json"
    for records in ([], [{"a": [1, {"b": "é\n"}]}], [{"x": 1}, {"y": []}, {"z": {}}]):
        assert write_json_list_if_changed(path, map(item_text, records))
        assert path.read_text(encoding="utf-8") == json.dumps(records, ensure_ascii=False, indent=1) + "\n"
        before = path.stat().st_mtime_ns
        assert not write_json_list_if_changed(path, map(item_text, records))  # the same bytes: left alone
        assert path.stat().st_mtime_ns == before
    assert [p.name for p in tmp_path.iterdir()] == ["audit.json"]
