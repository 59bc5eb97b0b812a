"""Compiled regular expressions of the rules, kept between runs.

Why: the rules become about 170 regular expressions, and Python compiles a pattern in Python code (re._parser and
re._compiler, ~25 ms for them all): a fifth of the CPU a one-page sheet's check costs, more than pdfium spends
reading it. What those modules produce for _sre.compile (the pattern's code list and group tables) is plain data,
so it is kept in the user cache and a later run builds each pattern from it in microseconds.

The cache can make a run faster, never different: entries are keyed by the pattern and its flags, the file by the
Python version and _sre's MAGIC and CODESIZE (the code format), and anything unexpected (another Python, a corrupt
or foreign file, a code list _sre rejects) falls back to re.compile. Only patterns passed to compile() here are
kept, and those come from rules/ and our own modules, so the file stays small (a cap guards it anyway).

Scanning is made cheaper the same way for every pattern: where the characters a match can start with are known
(the first literal or character class of each alternative, after zero-width assertions), the compiled code
begins with a lookahead for one of them. Every match passes it, so what matches is unchanged; positions that
cannot start a match are passed over in one test instead of trying each alternative (a case-insensitive
vocabulary over a long document scans three to four times faster). Not where re finds a literal prefix or a
first-character set itself: it scans for those in C, faster still.
"""

from __future__ import annotations

import os
import re
import sys
from functools import lru_cache
from pathlib import Path

FORMAT = 5  # what an entry holds: 3 = code with the first-character lookahead where re has no prefix
# scan of its own; 4 = the same code as packed machine words; 5 = keyed by the pattern as written, holding the
# pattern widened to traditional Chinese (older files are ignored)
MAX_ENTRIES = 4096  # rules edited many times leave old patterns behind: past this the cache starts over

_entries: dict | None = None  # (pattern, flags) -> the arguments of _sre.compile after the pattern
_added = False


def compile(pattern: str, flags: int = 0) -> re.Pattern:  # noqa: A001 - the name re users expect
    """re.compile(pattern, flags) with each simplified Chinese character of the pattern matching its traditional
    form too (rules/zh_variants.txt: every pattern of the rules and of our modules goes this one way), built from
    the cache when an earlier run compiled it."""
    global _added
    entries = _load()
    key = (pattern, int(flags))
    parts = entries.get(key)
    if parts is None:
        widened = with_traditional(pattern)
        parts = _parts(widened, int(flags))
        if parts is None:
            return re.compile(widened, flags)
        parts = (widened, *parts)
        entries[key] = parts
        _added = True
    try:
        import _sre

        widened, flags_, code, *rest = parts
        return _sre.compile(widened, flags_, _unpack(code) if isinstance(code, bytes) else code, *rest)
    except Exception:  # noqa: BLE001 - a code list this _sre does not take: compile it as re does
        entries.pop(key, None)
        return re.compile(with_traditional(pattern), flags)


def with_traditional(pattern: str) -> str:
    """PATTERN with each simplified character that has a traditional form matching either: '个' becomes '[个個]', and
    inside a class '[个颗]' becomes '[个個颗顆]' (a character at either end of a range is left as it is)."""
    if pattern.isascii():
        return pattern
    variants = _zh_variants()
    out, in_class, i = [], False, 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if ch == "[" and not in_class:
            in_class = True
        elif ch == "]" and in_class:
            in_class = False
        alt = variants.get(ch)
        if alt is None:
            out.append(ch)
        elif in_class:
            ranged = pattern[i - 1 : i] == "-" or pattern[i + 1 : i + 2] == "-"
            out.append(ch if ranged else ch + alt)
        else:
            out.append(f"[{ch}{alt}]")
        i += 1
    return "".join(out)


@lru_cache(maxsize=1)
def _variants_text() -> str:
    from .errors import RulesError
    from .rules_folder import rules_dir

    try:
        return (rules_dir() / "zh_variants.txt").read_text(encoding="utf-8")
    except (OSError, ValueError, RulesError):  # no rules folder: loading the rules says so, not every pattern
        return ""


@lru_cache(maxsize=1)
def _zh_variants() -> dict[str, str]:
    """rules/zh_variants.txt: simplified character -> its traditional form."""
    lines = _variants_text().splitlines()
    pairs = [w for line in lines if not line.lstrip().startswith("#") for w in line.split()]
    return {w[0]: w[1] for w in pairs if len(w) == 2 and w[0] != w[1]}


def kept(key: tuple, compute):
    """compute(), kept between runs with the compiled patterns under KEY (whose first item names the kind): for
    what is read off a pattern's parse (technologies.prefilter's literals), plain data marshal holds. Keyed by
    the pattern as the patterns are, so it is as trustworthy; what it returns is never mutated by callers."""
    global _added
    entries = _load()
    key = ("kept", *key)
    if key in entries:
        return entries[key]
    value = entries[key] = compute()
    _added = True
    return value


@lru_cache(maxsize=1024)
def cached(pattern: str, flags: int = 0) -> re.Pattern:
    """compile(), once per process: for a fixed pattern used inline (`cached(r"...").search(text)`), so that it
    is built from the cache, not compiled by re on every run."""
    return compile(pattern, flags)


def _parts(pattern: str, flags: int):
    """What re._compiler.compile hands _sre.compile after the pattern; None where that cannot be had."""
    try:
        from re import _compiler, _parser

        p = _parser.parse(pattern, flags)
        _lead_with_first_chars(p, flags | p.state.flags)
        code = _pack([int(c) for c in _compiler._code(p, flags)])  # opcodes are int subclasses marshal refuses
        groupindex = dict(p.state.groupdict)
        indexgroup = [None] * p.state.groups
        for name, i in groupindex.items():
            indexgroup[i] = name
        return (int(flags | p.state.flags), code, p.state.groups - 1, groupindex, tuple(indexgroup))
    except Exception:  # noqa: BLE001 - a Python whose re is built otherwise: no caching
        return None


def _pack(code: list[int]) -> bytes:
    """The code list as _sre's own machine words: a file of these loads as a few copies of bytes, where a list of
    ints loads int by int (the patterns of one version's rules: ~5 ms a run as lists; every run pays the load,
    and only the patterns it compiles need unpacking)."""
    from array import array

    return array(_word(), code).tobytes()


def _unpack(code: bytes) -> list[int]:
    from array import array

    return array(_word(), code).tolist()


@lru_cache(maxsize=1)
def _word() -> str:
    """The array type code of _sre's code words (CODESIZE bytes; part of the file's signature)."""
    import _sre
    from array import array

    return next(t for t in "IL" if array(t).itemsize == _sre.CODESIZE)


def _lead_with_first_chars(p, flags: int) -> None:
    """Prefix the parsed pattern with a lookahead for the characters a match can start with (see the module's
    docstring); nothing when they are not known or a match may be empty."""
    from re import _compiler, _constants as C, _parser

    if _compiler._get_literal_prefix(p, flags)[0] or _compiler._get_charset_prefix(p, flags):
        return  # sre scans for those itself, in C: a lookahead would hide them from it
    folded = []  # set when a case-insensitive group starts a match of a sensitive pattern
    first = _first(p.data, bool(flags & C.SRE_FLAG_IGNORECASE), folded)
    if first is None or first[1] or not first[0]:
        return
    look = [(C.IN, list(dict.fromkeys(first[0])))]
    if folded:  # the class then folds case as those groups do (a superset: every match still passes)
        look = [(C.SUBPATTERN, (None, C.SRE_FLAG_IGNORECASE, 0, _parser.SubPattern(p.state, look)))]
    p.data.insert(0, (C.ASSERT, (1, _parser.SubPattern(p.state, look))))
    p.width = None


def _first(seq, ignore_case: bool, folded: list):
    """(the class items a match of the sequence can start with, whether it can match empty); None: unknown."""
    from re import _constants as C

    out: list = []
    for op, av in seq:
        if op is C.LITERAL:
            return out + [(C.LITERAL, av)], False
        if op is C.IN:
            if any(o is C.NEGATE for o, _ in av):
                return None
            return out + list(av), False
        if op in (C.AT, C.ASSERT, C.ASSERT_NOT):
            continue  # zero-width: the match starts with what follows
        if op is C.SUBPATTERN:
            _, add, _, sub = av
            if add & C.SRE_FLAG_IGNORECASE and not ignore_case:
                folded.append(True)
            inner = _first(sub.data, ignore_case or bool(add & C.SRE_FLAG_IGNORECASE), folded)
        elif op is C.ATOMIC_GROUP:
            inner = _first(av.data, ignore_case, folded)
        elif op is C.BRANCH:
            parts = [_first(b.data, ignore_case, folded) for b in av[1]]
            if any(x is None for x in parts):
                return None
            inner = ([i for x in parts for i in x[0]], any(x[1] for x in parts))
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            lo, _, sub = av
            inner = _first(sub.data, ignore_case, folded)
            inner = inner and (inner[0], inner[1] or lo == 0)
        else:
            return None  # any character, a back-reference, a conditional: not known
        if inner is None:
            return None
        out += inner[0]
        if not inner[1]:
            return out, False
    return out, True


def save() -> None:
    """Write the patterns compiled in this process that the cache lacked (atomically; a failure is ignored).
    Entries another process wrote meanwhile are kept."""
    global _added
    if not _added:
        return
    _added = False
    import marshal

    path = _path()
    try:
        merged = {**_read(path), **_entries}
        if len(merged) > MAX_ENTRIES:
            merged = dict(_entries)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(marshal.dumps((_signature(), merged)))
        os.replace(tmp, path)
    except (OSError, ValueError, TypeError):  # an unwritable home: no cache, same results
        pass


def _load() -> dict:
    global _entries
    if _entries is None:
        _entries = _read(_path())
        _remove_legacy()
    return _entries


def _remove_legacy() -> None:
    """The file of the first format (no number in its name; no version of sheetaudit reads it any more): removed,
    by its exact name, so it does not stay in the user's cache for ever. A link of that name is removed, never
    followed."""
    try:
        (_path().parent / f"regex-{sys.implementation.cache_tag}.marshal").unlink()
    except OSError:
        pass


def _read(path: Path) -> dict:
    import marshal

    try:
        signature, entries = marshal.loads(path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    return entries if signature == _signature() and isinstance(entries, dict) else {}


def _signature() -> tuple:
    import hashlib

    import _sre

    variants = hashlib.sha256(_variants_text().encode("utf-8")).hexdigest()[:16]  # what the widening read
    return (FORMAT, sys.implementation.cache_tag, sys.version, _sre.MAGIC, _sre.CODESIZE, variants)


def _path() -> Path:
    from .cachedir import user_cache_dir

    # the format in the name: two versions of sheetaudit sharing a home keep a file each instead of replacing
    # each other's on every run
    return user_cache_dir() / f"regex-{sys.implementation.cache_tag}-{FORMAT}.marshal"
