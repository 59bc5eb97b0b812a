"""Nothing trusted blindly (issue 23, item 4): a cache entry counts only if this user signed it, and only a regular
file under a size cap is ever opened. Real batches in real processes; entries edited as another user or a script
would, replaced by a FIFO, a link to /dev/zero."""

from __future__ import annotations

import gzip
import json
import os

import pytest

from test_batch import batch
from test_batch_trust import cache_entries, edit_entry, one_sheet


def _nvlink_times_ten(result):
    """The sheet's NVLink 900 GB/s (450 per direction) made 9000 (4500), every other field kept in shape."""
    [f] = [f for f in result["contract"]["figures"] if f["text"] == "900 GB/s"]
    f.update(text="9000 GB/s", value=9000.0)
    f["normalized"]["value"] = 4500.0


def _findings_deleted(result):
    c = result["contract"]
    c["findings"] = []
    c["summary"]["findings"] = {k: 0 for k in c["summary"]["findings"]}
    c["status"] = "pass"


def test_an_edited_number_that_keeps_its_shape_is_audited_again(tmp_path):
    folder, out, cache = one_sheet(tmp_path), tmp_path / "out", tmp_path / "cache"
    batch(folder, "-o", out, "--cache-dir", cache)
    [entry] = cache_entries(cache)
    edit_entry(entry, _nvlink_times_ten, resign=False)
    again = batch(folder, "-o", out, "--cache-dir", cache)
    assert again.stderr.count("warning: cache entry") == 1 and "not signed with this user's key" in again.stderr
    assert "from cache" not in again.stderr
    for name in ("audit.json", "index.html", "comparison.csv"):
        text = (out / name).read_text(encoding="utf-8")
        assert "9000" not in text and "4500" not in text, name
    assert "450" in (out / "comparison.csv").read_text(encoding="utf-8")


def test_deleting_the_findings_does_not_turn_fail_into_pass(tmp_path):
    folder, out, cache = one_sheet(tmp_path), tmp_path / "out", tmp_path / "cache"
    first = batch(folder, "-o", out, "--cache-dir", cache)
    assert first.returncode == 1  # 120 kW per rack, air-cooled
    [entry] = cache_entries(cache)
    edit_entry(entry, _findings_deleted, resign=False)
    again = batch(folder, "-o", out, "--cache-dir", cache)
    assert again.returncode == 1 and "not signed" in again.stderr


def test_an_entry_written_with_another_users_key_is_audited_again_and_said_once(tmp_path):
    folder, out, cache = one_sheet(tmp_path), tmp_path / "out", tmp_path / "cache"
    other = {"XDG_CACHE_HOME": tmp_path / "other-user"}  # another key: another user's cache folder
    batch(folder, "-o", out, "--cache-dir", cache, extra_env=other)
    again = batch(folder, "-o", out, "--cache-dir", cache)
    assert again.stderr.count("warning: cache entry") == 1 and "not signed" in again.stderr
    assert "from cache" not in again.stderr
    third = batch(folder, "-o", out, "--cache-dir", cache)  # now signed with this user's key
    assert "1 audited (1 from cache)" in third.stderr


@pytest.mark.parametrize("plant", ["fifo", "link-to-dev-zero", "link-to-a-good-entry"])
def test_an_entry_that_is_not_a_regular_file_is_never_opened(tmp_path, plant):
    """It was: a FIFO hung `audit` beyond Ctrl-C and SIGTERM; a link to /dev/zero was read until memory ran out."""
    folder, out, cache = one_sheet(tmp_path), tmp_path / "out", tmp_path / "cache"
    batch(folder, "-o", out, "--cache-dir", cache)
    [entry] = cache_entries(cache)
    good = entry.with_name("good")
    os.replace(entry, good)
    if plant == "fifo":
        os.mkfifo(entry)
    else:
        entry.symlink_to("/dev/zero" if plant == "link-to-dev-zero" else good)
    again = batch(folder, "-o", out, "--cache-dir", cache, timeout=120)  # a hang fails here, it does not block
    assert again.returncode == 1, again.stderr
    assert again.stderr.count("warning: cache entry") == 1 and "from cache" not in again.stderr
    assert "regular file" in again.stderr or "symbolic link" in again.stderr
    assert entry.is_file() and not entry.is_symlink()  # replaced by the fresh, signed result


def test_an_entry_over_the_size_cap_is_not_read(tmp_path):
    folder, out, cache = one_sheet(tmp_path), tmp_path / "out", tmp_path / "cache"
    batch(folder, "-o", out, "--cache-dir", cache)
    [entry] = cache_entries(cache)
    with open(entry, "wb") as fh:
        fh.truncate(17 * 2**20)  # sparse: 17 MiB to stat, nothing on disk
    again = batch(folder, "-o", out, "--cache-dir", cache)
    assert again.returncode == 1 and "larger than" in again.stderr


def test_the_signing_key_is_private_to_the_user(tmp_path):
    batch(
        one_sheet(tmp_path),
        "-o",
        tmp_path / "out",
        "--cache-dir",
        tmp_path / "cache",
        extra_env={"XDG_CACHE_HOME": tmp_path / "home-cache"},
    )
    key = tmp_path / "home-cache" / "sheetaudit" / "cache-key"
    assert key.stat().st_mode & 0o077 == 0 and key.stat().st_size == 32
    [entry] = cache_entries(tmp_path / "cache")
    assert key.read_bytes() not in gzip.decompress(entry.read_bytes())  # the key never leaves its folder
    json.loads(gzip.decompress(entry.read_bytes()).partition(b"\n")[2])  # the entry is plain data


def test_an_entry_checked_as_it_was_written_is_not_checked_again_as_it_is_read(tmp_path, monkeypatch):
    """A cached re-run of thousands of small files spent most of its time re-checking the schema of entries its
    own workers wrote; the signature now says the shape was checked. An entry a script signs again is checked."""
    from sheetaudit import audit
    from sheetaudit import result_cache as cache_mod
    from test_batch import SAMPLES

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home"))
    contract = audit(SAMPLES / "osprey-o4-inference-server.txt", cache=False)
    sha = contract["source"]["sha256"]
    store = cache_mod.Cache(tmp_path / "cache", "rules", {})
    key, where = cache_mod.entry_path(store.dir, store.base, sha, "osprey.txt")
    cache_mod.write_entry(where, key, {"status": "ok", "contract": contract}, store.secret)
    checked = []
    real = cache_mod.validate_result
    monkeypatch.setattr(cache_mod, "validate_result", lambda *a: checked.append(a) or real(*a))
    assert store.get(sha, "osprey.txt")["contract"] == contract and checked == []
    edit_entry(cache_mod.Path(where), lambda r: None)  # the same result, signed again by a script
    assert store.get(sha, "osprey.txt")["contract"] == contract and len(checked) == 1
