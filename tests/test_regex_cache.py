"""Compiled patterns are kept between runs (sheetaudit.regex_cache): a pattern built from the cache matches as
re.compile's does, a run with a warm cache writes the same report as one with none, and a cache that cannot be
trusted is ignored."""

import json
import marshal
import re

import pytest

from sheetaudit import regex_cache
from conftest import ROOT, run_cli

PATTERNS = [
    (r"(?P<num>\d+(?:\.\d+)?)\s?(?P<unit>GB/s|Gb/s)", 0),
    (r"(?<![\w.])up\s*to\s+(?P<n>\d+)\s+(?:GPUs?|加速卡)", re.I),
    (r"^\s*(?P<label>[^:]+):\s*(?P=label)?$", re.M),
    (r"(?i:NDR|HDR)200?|XDR", 0),
]
TEXTS = ["Up to 8 GPUs, 900 GB/s each", "400Gb/s NDR ports", "up to 16 加速卡", "Power: Power", "hdr200 xdr"]


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    """An empty user cache, and the module as a new process finds it."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(regex_cache, "_entries", None)
    monkeypatch.setattr(regex_cache, "_added", False)
    return tmp_path


def _as_new_process(monkeypatch):
    monkeypatch.setattr(regex_cache, "_entries", None)


def _same(a: re.Pattern, b: re.Pattern):
    assert (a.pattern, a.flags, a.groups, a.groupindex) == (b.pattern, b.flags, b.groups, b.groupindex)
    for text in TEXTS:
        assert [m.groupdict() or m.group(0) for m in a.finditer(text)] == [
            m.groupdict() or m.group(0) for m in b.finditer(text)
        ]


@pytest.mark.parametrize("pattern,flags", PATTERNS)
def test_a_pattern_from_the_cache_matches_as_re_compile_does(cache_home, monkeypatch, pattern, flags):
    regex_cache.compile(pattern, flags)
    regex_cache.save()
    _as_new_process(monkeypatch)
    from_cache = regex_cache.compile(pattern, flags)
    assert (pattern, flags) in regex_cache._entries
    _same(from_cache, re.compile(pattern, flags))


def test_a_bad_pattern_raises_as_re_does(cache_home):
    with pytest.raises(re.error):
        regex_cache.compile(r"(?P<n>\d+")


def test_a_code_list_this_python_refuses_is_compiled_afresh(cache_home, monkeypatch):
    pattern = PATTERNS[0][0]
    regex_cache.compile(pattern)
    flags, code, *rest = regex_cache._entries[(pattern, 0)]
    regex_cache._entries[(pattern, 0)] = (flags, [255, 255, 255], *rest)
    _same(regex_cache.compile(pattern), re.compile(pattern))


@pytest.mark.parametrize("content", [b"", b"\x00garbage", marshal.dumps((("another python",), {("a", 0): (0,)}))])
def test_a_corrupt_or_foreign_cache_file_is_ignored(cache_home, content):
    path = regex_cache._path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    _same(regex_cache.compile(PATTERNS[1][0], re.I), re.compile(PATTERNS[1][0], re.I))


def test_a_run_with_a_warm_cache_writes_the_same_report_as_a_cold_one(tmp_path):
    sheet = ROOT / "samples" / "tanager-t8-variants.pdf"
    env = {"XDG_CACHE_HOME": str(tmp_path)}
    cold = run_cli("check", "--format", "json", sheet, isolated=True, env=env)
    assert list(tmp_path.glob("sheetaudit/regex-*.marshal")), "the first run keeps its compiled patterns"
    warm = run_cli("check", "--format", "json", sheet, isolated=True, env=env)
    assert cold.returncode == warm.returncode and json.loads(cold.stdout) == json.loads(warm.stdout)


def test_every_pattern_the_tool_compiles_matches_as_re_compile_does(cache_home):
    """The first-character lookahead (regex_cache's docstring) changes no match: every pattern an audit of the
    samples compiles, on the text of every sample and corpus sheet, as it finds it and as re.compile does."""
    from sheetaudit import pipeline
    from sheetaudit.read import read_document
    from sheetaudit.stages.s1_find import _patterns
    from sheetaudit.rules import compiled
    from sheetaudit.units import _rate_patterns

    for cache in (compiled, _patterns, _rate_patterns):
        cache.cache_clear()
    sheets = sorted((ROOT / "samples").glob("*.pdf")) + sorted((ROOT / "tests" / "labelled").glob("*.md"))[:8]
    texts = []
    for sheet in sheets:
        pipeline.run(sheet)
        texts.append("\n".join(f"{s.label} {s.column} {s.text}" for s in read_document(sheet).segments))
    texts.append("Kelvin \u212aelvin ſtraſſe İSTANBUL 40-PIN up TO 8 GPUs, 1,000 W; 液冷 八卡 HDR200")
    checked = 0
    for pattern, flags in [k for k in regex_cache._entries if k[0] != "kept"]:  # kept(): no pattern
        ours, theirs = regex_cache.compile(pattern, flags), re.compile(pattern, flags)
        for text in texts:
            text = text.encode() if isinstance(pattern, bytes) else text  # the reader's patterns over PDF bytes
            assert [m.span() for m in ours.finditer(text)] == [m.span() for m in theirs.finditer(text)], pattern
        checked += 1
    assert checked >= 50  # the vocabularies, the finder's and the units' patterns


def _rule_patterns():
    """Every regular expression the rules hold: the vocabularies, the checks' words, the knowledge base's names
    and generations, the named rates and the conventions (prose that is no pattern is left out)."""
    from sheetaudit.rules import load_rules

    r = load_rules()
    found = []

    def walk(obj, keys=None):
        if isinstance(obj, dict):
            for k, v in obj.items():
                if keys is None or k in keys:
                    walk(v, None if keys is None else ())
                elif isinstance(v, (dict, list)):
                    walk(v, keys)
        elif isinstance(obj, list):
            for v in obj:
                walk(v, keys)
        elif isinstance(obj, str) and keys in (None, ()):
            found.append(obj)

    walk(r.vocab)
    walk(r.words)
    walk({k: v for k, v in r.conventions.items() if isinstance(v, str)})
    walk(r.units.get("named_rates"), {"pattern"})
    walk(r.technologies, {"pattern", "generation_pattern", "names", "rdma_transports"})
    out = []
    for p in dict.fromkeys(found):
        try:
            re.compile(p)
        except re.error:
            continue
        out.append(p)
    return out


def test_every_pattern_the_rules_hold_matches_as_re_compile_does(cache_home, monkeypatch):
    """The cache and its first-character lookahead change no match of any pattern in rules/, whether or not an
    audit of the samples happens to compile it: built fresh and built from the cache, case-sensitive and not, on
    the text of the labelled sheets."""
    patterns = _rule_patterns()
    assert len(patterns) >= 150
    texts = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "tests" / "labelled").glob("*.md"))[:8]]
    texts.append("Kelvin \u212aelvin ſtraſſe İSTANBUL NVLINK nvlink 4th Gen PCIE5 32GT/s x16（PCIE5） 第四代 NVLink")
    for flags in (0, re.I):
        for p in patterns:
            regex_cache.compile(p, flags)
    regex_cache.save()
    _as_new_process(monkeypatch)
    for flags in (0, re.I):
        for p in patterns:
            ours, theirs = regex_cache.compile(p, flags), re.compile(regex_cache.with_traditional(p), flags)
            assert (p, flags) in regex_cache._entries
            for text in texts:
                assert [m.span() for m in ours.finditer(text)] == [m.span() for m in theirs.finditer(text)], p


def test_what_is_kept_beside_the_patterns_comes_back_as_computed(cache_home, monkeypatch):
    """technologies.prefilter's literals, read off a pattern's parse, are kept with the patterns: a later run
    gets the same test of a text without parsing again."""
    from sheetaudit.technologies import prefilter

    texts = ["InfiniBand NDR", "nothing here", "Infiniband", "NVLINK", "ethernet"]
    pattern = r"InfiniBand|\bIB\b|NVLink(?:-C2C)?"
    first = prefilter.__wrapped__(pattern, flags=re.I)
    regex_cache.save()
    _as_new_process(monkeypatch)
    calls = []
    monkeypatch.setattr("sheetaudit.technologies._literals", lambda *a: calls.append(a))
    again = prefilter.__wrapped__(pattern, flags=re.I)
    assert not calls and [first(t) for t in texts] == [again(t) for t in texts]


def test_every_pattern_matches_traditional_characters_as_it_matches_simplified_ones(cache_home):
    """One way to compile for the rules and the modules: a module's own pattern (a word that joins nodes, a
    network card) reads a traditional sheet as the rules' patterns do (rules/zh_variants.txt), cached or not."""
    from sheetaudit.stages.s4_classify import _JOIN_BETWEEN, _PORT_WORD

    assert _JOIN_BETWEEN.search("節點之間") and _JOIN_BETWEEN.search("节点之间")
    assert _PORT_WORD.search("8個網卡") and _PORT_WORD.search("8个网卡")
    assert regex_cache.compile("服务器").search("服務器") and regex_cache.cached("[个颗]GPU").search("8個GPU")


def test_the_first_formats_file_is_removed_and_nothing_else(cache_home, monkeypatch):
    import sys

    folder = cache_home / "sheetaudit"
    folder.mkdir()
    legacy = folder / f"regex-{sys.implementation.cache_tag}.marshal"
    legacy.write_bytes(b"old")
    other = folder / "regex-notes.txt"
    other.write_bytes(b"not ours")
    regex_cache.compile(r"\d+ GB/s")
    assert not legacy.exists() and other.read_bytes() == b"not ours"
