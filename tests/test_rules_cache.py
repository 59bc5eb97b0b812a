"""The parsed rules are cached between runs (a short sheet's audit would otherwise spend a fifth of its time
parsing YAML), and the cache never changes what the rules say."""

import subprocess
import sys

from sheetaudit.rules import _cache_path, _cached_docs, load_rules, rules_dir

LOAD = (
    "import sys; from sheetaudit.rules import load_rules; r = load_rules(); "
    "print('yaml' in sys.modules, r.technologies['checked_default'])"
)


def _run(cache_home):
    out = subprocess.run(
        [sys.executable, "-c", LOAD],
        capture_output=True,
        text=True,
        check=True,
        env={"XDG_CACHE_HOME": str(cache_home), "PATH": "/usr/bin:/bin"},
    )
    return out.stdout.split()


def test_the_second_run_reads_the_cache_and_imports_no_yaml_parser(tmp_path):
    first = _run(tmp_path)
    second = _run(tmp_path)
    assert first[0] == "True"  # parsed the YAML, and wrote the cache
    assert second[0] == "False"  # read the cache: no YAML parser imported
    assert first[1] == second[1]  # a date in the rules reads the same either way


def test_every_rule_file_can_be_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    load_rules.cache_clear()
    try:
        rules = load_rules()
        assert _cache_path(rules_dir()).exists(), "a rule file holds a value the cache cannot keep (a date?)"
        assert _cached_docs(rules_dir())["technologies.yaml"] == rules.technologies
    finally:
        load_rules.cache_clear()


def test_a_corrupt_cache_is_ignored(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    path = _cache_path(rules_dir())
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\x00not marshal")
    load_rules.cache_clear()
    try:
        assert load_rules().checks  # parsed from the YAML instead
    finally:
        load_rules.cache_clear()


def test_an_empty_xdg_cache_home_means_the_default_folder_not_the_working_directory(tmp_path):
    """XDG_CACHE_HOME= (set, empty) once made `check` write ./sheetaudit/ wherever it ran. Every cache the tool
    keeps (rules, patterns, pint, templates) lives under one folder, sheetaudit.cachedir.user_cache_dir()."""
    from conftest import SAMPLES, run_cli

    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    r = run_cli(
        "check",
        "--format",
        "html",
        "--fail-on",
        "never",
        "-o",
        tmp_path / "r.html",
        SAMPLES / "kestrel-k8x-gpu-server.pdf",
        isolated=True,
        cwd=work,
        env={"XDG_CACHE_HOME": "", "HOME": home},
    )
    assert r.returncode == 0, r.stderr
    assert list(work.iterdir()) == []
    kept = {p.name.split("-")[0] for p in (home / ".cache" / "sheetaudit").iterdir()}
    assert {"rules", "regex", "pint", "templates"} <= kept, kept


def test_edits_of_the_rules_leave_only_the_newest_caches_behind(tmp_path):
    """Each edit of the rules is a new hash and a new cache file; the old ones are pruned to the newest few of their
    family, and nothing else in the folder (another family, a file of the user's) is touched."""
    import os

    from sheetaudit.cachedir import HASH16, KEEP_PER_FAMILY, store

    cache = tmp_path / "sheetaudit"
    cache.mkdir()
    (cache / "notes.txt").write_text("mine")
    (cache / "factors-0123456789abcdef.json").write_text("{}")
    for i in range(KEEP_PER_FAMILY + 5):
        path = cache / f"rules-{i:016x}-py311.marshal"
        store(path, b"x", f"rules-{HASH16}-py*.marshal")
        os.utime(path, ns=(i * 10**9, i * 10**9))  # written one after another
    left = sorted(p.name for p in cache.glob("rules-*"))
    assert left == [f"rules-{i:016x}-py311.marshal" for i in range(5, KEEP_PER_FAMILY + 5)]
    assert (cache / "notes.txt").read_text() == "mine" and (cache / "factors-0123456789abcdef.json").exists()
    assert not list(cache.glob("*.tmp"))
