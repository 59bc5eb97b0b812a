"""The product's name: what a buyer calls what the sheet sells ("NVIDIA DGX A100", "Arista 7050X4 Series"), never a
section heading ("Product Highlights"), a tagline ("Powerful Networking for the Future of AI") or the document's
type ("Datasheet"). One name per sheet; every output (report, e-mail, index, CSV, API) prints this one.

Candidates are the cover's display lines (alone and run together with the lines of the same type under them), the
file's own title and, for a cover that names nothing, the text's most repeated model number with the words around
it. Each is cut to its name (a document type, a heading word, a separator or a tagline's first word ends it; it
ends on a word that names: a model number, a product noun, a maker, a family code) and scored by the vocabulary of
naming (rules/vocabulary.yaml name_*), its type size and how often the text and the file name repeat it."""

from __future__ import annotations

import os
import re
import sys
from collections import Counter
from pathlib import Path

from . import regex_cache
from .records import Document
from .rules import compiled, load_rules, rx
from .technologies import technology
from .textsafe import safe_text

_MARKS = regex_cache.compile(r"[™®©℠*†‡]")
_SEPARATORS = regex_cache.compile(r"\s+[|–—•·›»→>]\s+|\s+-\s+|[:：|/]\s+|\.\s+|[,;，；。、]\s*|\s*[()（）\[\]]\s*")
_MARKUP = regex_cache.compile(
    r"!?\[([^\]]*)\]\([^)]*\)|\S+://\S+|\S+\.(?:png|jpe?g|gif|svg|pdf|html?|md|txt)\b|<[^>]+>"
)
_CAMEL = regex_cache.compile(r"[a-z][A-Z]")  # "ConnectX", "SuperNIC", "BasePOD", "PowerEdge"
_ACRONYM = regex_cache.compile(r"^[A-Z]{2,6}$")  # a family code: "DGX", "UCS", "RTX", "HGX"
_ARTICLES = {"the", "a", "an", "each", "every", "all"}  # skipped before a name ("Each Intel Gaudi 3 ...")
_CJK_EDGE = regex_cache.compile(
    r"(?<=[A-Za-z0-9])(?=[\u3400-\u9fff])|(?<=[\u3400-\u9fff])(?=[A-Za-z0-9])"
)  # "BM1684详情"
_TRIM = " \t-–—_.,;:!?'\"“”‘’"
MAX_WORDS = 8  # a name longer than this is a sentence
TEXT_CHARS = 200_000  # characters of text counted for mentions (the first pages name the product most)
SIZE_SCORES = (5.0, 3.0, 1.0)  # the cover's largest type, its second and third: where a sheet names its product
TEXT_SCORES = (2.0, 1.5, 1.0)  # a text file's first headings and sentences: order says less than type size
CJK_BRAND = 4  # a Chinese brand before a model is this short ("天河", "衡川网络"); longer is prose
FILE_SPELLS = 2.0  # ... and every word of the candidate's name (its maker aside), three or more of them
FILE_MODEL = 3.0  # the file's name holds the candidate's model number ("ucs-x9508-chassis-ds.pdf")
BARE_NAME_WORDS = 4  # a name with no model, noun or maker ("ZEPHYR FORGE"): this short, in the largest type
LATER_PIECE = 1.0  # a name after the first in one title is a subtitle's or a component's ("... Featuring X")
NAMED_BY_LABEL = 3.0  # a row labelled as the product's name ("product-name", "产品型号"): the sheet says so
MINED_MODELS = 3  # the text's this many most repeated model numbers are candidates
MENTIONS_FULL = 2  # a name the text repeats this often has its full mention score


def product_name(doc: Document) -> str:
    """The product's name for doc: the best-scored candidate, with its maker's name before it where the text
    writes it so, in the case the text writes it; the title where nothing names a product. Fit for UTF-8 (a
    damaged text layer's lone surrogate is shown as a replacement character)."""
    return safe_text(_best(doc))


def _best(doc: Document) -> str:
    v = load_rules().vocab
    text = _clean(" ".join(s.text for s in doc.segments)[:TEXT_CHARS])
    lower = text.lower()
    file_key = re.sub(r"[^a-z0-9]", "", Path(doc.path).stem.lower())
    scored: dict[str, tuple[float, float, str]] = {}  # key -> (score, its type's score, name)
    meta = doc.meta_title.lower()
    top = (SIZE_SCORES if doc.kind == "pdf" else TEXT_SCORES)[0]
    for source, size_score in _sources(doc):
        for i, name in enumerate(_names(source, v)):
            key = name.lower()
            s = _score(name, size_score - LATER_PIECE * bool(i), lower, file_key, v, meta, top)
            if s is not None and s > scored.get(key, (-1e9,))[0]:
                scored[key] = (s, size_score, name)
    for name in _mined(text, v, file_key):
        key = name.lower()
        s = _score(name, 0.0, lower, file_key, v, meta)
        if s is not None and s > scored.get(key, (-1e9,))[0]:
            scored[key] = (s, 0.0, name)
    if os.environ.get("SHEETAUDIT_DEBUG_NAME"):
        for sc, _, name in sorted(scored.values(), reverse=True)[:8]:
            print(f"name {sc:5.1f} {name}", file=sys.stderr)
    if not scored:
        return _fallback(doc)
    # best score; on a tie the one with more words (the "Ada Generation" of "NVIDIA RTX 6000 Ada Generation"),
    # then the one in larger type
    best = max(scored.values(), key=lambda s: (s[0], len(s[2].split()), s[1]))[2]
    return _as_written(_with_vendor(best, text, v), f"{text} {doc.meta_title}")


def _sources(doc: Document) -> list[tuple[str, float]]:
    """(text, size score): each display line, each run of lines of one type, the file's title, the reader's."""
    scores = SIZE_SCORES if doc.kind == "pdf" else TEXT_SCORES
    sizes = sorted({size for _, size, _ in doc.cover}, reverse=True)[: len(scores)]
    rank = dict(zip(sizes, scores))
    out: list[tuple[str, float]] = []
    lines = doc.cover
    for i, (text, size, page) in enumerate(lines):
        score = rank.get(size, 0.0)
        if i and _same_type(lines[i - 1], lines[i]):
            score -= LATER_PIECE  # the second line of a title ("H100 Systems"): the name began above
        out.append((text, score))
        run = text
        for k in range(i + 1, min(i + 4, len(lines))):  # a name set over two or three lines of its type
            if not _same_type(lines[k - 1], lines[k]):
                break
            run += " " + lines[k][0]
            out.append((run, score))
    v = load_rules().vocab
    label, title = rx(v["name_label"]), rx(v["name_title_label"])
    for seg in doc.segments if doc.kind != "pdf" else ():  # a PDF's tables name parts ("型号" of a NIC)
        if seg.kind == "cell" and seg.label and label.match(seg.label):
            out.append((seg.text, scores[0] + NAMED_BY_LABEL))  # "product-name: TT-LoudBox", "| 产品型号 | BM1684X |"
        elif seg.kind == "cell" and seg.label and title.match(seg.label):
            out.append((seg.text, scores[0]))  # "title: Sonic交换机" in front matter
    if doc.meta_title:
        out.append((doc.meta_title, scores[1]))
    if doc.title:
        out.append((doc.title, scores[-1]))
    return out


def _clean(text: str, link_end: str = " ") -> str:
    """Text without trademark marks, markup (a link's words kept), addresses and file names; a model number
    apart from the Chinese it is set against."""
    text = _MARKUP.sub(lambda m: f" {m.group(1) or ''}{link_end}", _MARKS.sub("", text))
    return _CJK_EDGE.sub(" ", text)


def _same_type(a: tuple[str, float, int], b: tuple[str, float, int]) -> bool:
    return a[2] == b[2] and abs(a[1] - b[1]) <= 0.05 * a[1]


def _names(source: str, v: dict) -> list[str]:
    """The names a line can give: each piece between separators, document types and heading words, cut to the
    run of naming words it opens with."""
    source = _clean(source, " | ")
    source = rx(v["name_document_type"]).sub(" | ", source)
    source = rx(v["name_heading"]).sub(" | ", source)
    out = []
    for piece in _SEPARATORS.split(source):
        words = piece.split()
        while words:
            name, used = _cut(words, v)
            if name:
                out.append(name)
            words = words[max(used, 1) :]
    return out


def _cut(words: list[str], v: dict) -> tuple[str, int]:
    """The name a run of words opens with (and how many words it read): leading articles skipped, ended by a
    stop word, a figure or a lower-case word, then cut back to its last naming word."""
    stop, figure = rx(v["name_stop"]), rx(v["name_figure"])
    shouting = all(w.upper() == w for w in words)  # a cover in capitals: no word stands out as a code
    kept: list[str] = []
    used = 0
    for used, w in enumerate(words, start=1):
        w = w.strip(_TRIM)
        if not w:
            continue
        if _numbered(w, kept):
            kept.append(w)
            continue
        if stop.match(w) or figure.match(w):
            if kept:
                break
            if w.lower() in _ARTICLES or figure.match(w):
                continue
            return "", len(words)  # a piece that opens on "Featuring", "with", "for": a tagline's or a component's
        cjk = "\u3400" <= w[:1] <= "\u9fff"  # a Chinese word: a brand before the model ("天河 A8"), else prose
        if cjk and not kept and len(w) > CJK_BRAND and not _names_something(w, v):
            continue  # "下面列出具体的 DCU K100": prose before the name, not a brand
        if ((w[:1].islower() or (cjk and kept)) and not _names_something(w, v, shouting)) or w in kept:
            break  # a sentence goes on, or the name is said again ("Q3450-LD switch Q3450-LD")
        if kept and _is_vendor(w, v) and any(_is_model(k, v) for k in kept):
            break  # a maker after a model begins another name
        kept.append(w)
        if len(kept) > MAX_WORDS:
            return "", len(words)
    coded = any(_is_model(w, v) for w in kept)
    bare = list(kept)
    while kept and not (
        _ends_name(kept[-1], v) or _numbered(kept[-1], kept[:-1]) or (not coded and _CAMEL.search(kept[-1]))
    ):
        kept.pop()  # a name ends on its model number or its noun: "MX301 High-Performance FlowSpec" is MX301
    return " ".join(kept or bare), used  # (nothing names: the words as they are, for the score to judge)


def _numbered(word: str, before: list[str]) -> bool:
    """A bare number after a family code or a capitalised name is the model's number ("RTX 6000", "Tomahawk 5",
    "Gaudi 3"); not after a name that has its model number ("Vireo NX-800 SuperNIC 800": a figure follows)."""
    v = load_rules().vocab
    return (
        word.isdigit()
        and len(word) <= 5
        and bool(before)
        and before[-1][:1].isupper()
        and not before[-1][-1:].isdigit()
        and not any(_is_model(w, v) for w in before)
    )


def _ends_name(word: str, v: dict) -> bool:
    return bool(_is_model(word, v) or rx(v["name_noun"]).match(word))


def _names_something(word: str, v: dict, shouting: bool = False) -> bool:
    return bool(
        _is_model(word, v)
        or rx(v["name_noun"]).match(word)
        or _is_vendor(word, v)
        or _CAMEL.search(word)
        or (not shouting and _ACRONYM.match(word))
    )


def is_model_code(word: str) -> bool:
    """Whether one word is shaped like a product's model number ("SN5640", "CE16808", "A100"), not a figure, a
    technology or a part (rules: name_model, name_figure, name_not_model)."""
    return _is_model(word, load_rules().vocab) and not technology(word)


def _is_model(word: str, v: dict) -> bool:
    return (
        bool(compiled(v["name_model"]).match(word))
        and not rx(v["name_figure"]).match(word)
        and not rx(v["name_not_model"]).match(word)
    )


def _is_vendor(word: str, v: dict) -> bool:
    return bool(rx(v["name_vendor"]).match(word))


def _score(
    name: str, size_score: float, lower: str, file_key: str, v: dict, meta: str = "", top: float = SIZE_SCORES[0]
):
    """A candidate's score, or None where it names no product (a maker alone, a word with no code or noun, a
    technology: "NVLink 4", "PCIe Gen5"). TOP: the score of the document's title (its largest type)."""
    words = name.split()
    if all(technology(w) or w.isdigit() or _is_generation(w) for w in words):
        return None
    shouting = name.upper() == name
    model = any(_is_model(w, v) or _numbered(w, words[:i]) for i, w in enumerate(words))
    noun = any(rx(v["name_noun"]).match(w) for w in words)
    vendor = any(_is_vendor(w, v) for w in words)
    code = any(_CAMEL.search(w) or (not shouting and _ACRONYM.match(w)) for w in words if not _is_vendor(w, v))
    count = lower.count(name.lower())
    if (
        not model
        and not (noun and (vendor or code))
        and not (vendor and code)
        and not (
            size_score >= top
            and len(words) <= BARE_NAME_WORDS
            and all(w[:1].isupper() or "\u3400" <= w[:1] <= "\u9fff" for w in words)
            and any(w[:1].isupper() for w in words)
            and (count >= MENTIONS_FULL or meta.startswith(name.lower()))
        )
    ):
        return None  # no model, noun or maker: a name only where the cover's largest type prints it
    score = size_score + 3.0 * model + 1.0 * noun + 1.0 * vendor
    score += 2.0 * min(count, MENTIONS_FULL) / MENTIONS_FULL
    keys = [re.sub(r"[^a-z0-9]", "", w.lower()) for w in words]
    if any(len(k) >= 3 and k in file_key for k in keys):
        in_file = [len(k) for w, k in zip(words, keys) if _is_model(w, v) and k in file_key]
        # the longer the model number the file's name holds, the surer ("QFX5250-64OE-L" over "QFX5250")
        score += FILE_MODEL - 1.0 + min(1.0, max(in_file) / 10) if in_file else 1.0
        own = [k for w, k in zip(words, keys) if not _is_vendor(w, v)]
        if len(own) >= 3 and all(k in file_key for k in own) and not any(w[:1].islower() for w in words):
            score += FILE_SPELLS  # the file's name spells the whole name ("ucs-x-series-direct-ds")
    return score - max(0, len(words) - 6)


def _is_generation(word: str) -> bool:
    return bool(compiled(r"(?i)gen\d*|v\d+(?:\.\d+)?|\d+(?:\.\d+)?").fullmatch(word))


def _mined(text: str, v: dict, file_key: str = "") -> list[str]:
    """The text's most repeated model numbers and those the file's name holds, with the naming words around each
    as the text writes them most often ("NVIDIA A100 Tensor Core GPU", "Atlas 200I A2"): a cover that is a
    picture, or names only a tagline or a section, still has them."""
    counts = Counter(w for w in re.findall(r"[A-Za-z0-9][\w.-]*[A-Za-z0-9]", text) if _is_model(w, v))
    if not counts:
        return []
    runs: Counter = Counter()
    tops = [top for top, _ in counts.most_common(MINED_MODELS)]
    tops += [w for w in counts if w not in tops and len(w) >= 3 and re.sub(r"[^a-z0-9]", "", w.lower()) in file_key]
    for top in tops:
        _runs_of(top, text, v, runs)
    return list(runs)


def _runs_of(top: str, text: str, v: dict, runs: Counter) -> None:
    for m in re.finditer(r"(?<![\w-])" + re.escape(top) + r"(?![\w-])", text):
        before = text[max(0, m.start() - 60) : m.start()].split()
        after = text[m.end() : m.end() + 80].split()
        left: list[str] = []
        for w in reversed(before[-3:]):
            w = w.strip(_TRIM)
            brand = not left and w[:1].isupper() and w.isalpha() and not rx(v["name_stop"]).match(w)
            if not w[:1].isupper() or not (_names_something(w, v) or brand):
                break  # a capitalised word right before the model is its brand ("Atlas 200I")
            left.insert(0, w)
        name = _cut(left + [top] + after[:6], v)[0]
        if name:
            runs[name] += 1
    runs[top] += 0


def _with_vendor(name: str, text: str, v: dict) -> str:
    """'7050X4 Series' as 'Arista 7050X4 Series' where the text puts its maker before it."""
    if any(_is_vendor(w, v) for w in name.split()):
        return name
    before = Counter(
        m.group(1)
        for m in re.finditer(r"([^\W\d_][\w-]*)\s+" + re.escape(name) + r"(?![\w-])", text)
        if _is_vendor(m.group(1), v)
    )
    return f"{before.most_common(1)[0][0]} {name}" if before else name


def _as_written(name: str, text: str) -> str:
    """A name set in capitals on the cover ('NVIDIA DGX STATION'), in the case the text writes it most; its codes
    ('DGX', 'MX301') keep their capitals."""
    words = name.split()
    if name.upper() != name or not any(len(w) > 4 and w.isalpha() for w in words):
        return name
    forms = Counter(
        m.group(0)
        for m in re.finditer(re.escape(name), text, re.I)
        if m.group(0).upper() != m.group(0)
        and all(a == b for a, b in zip(words, m.group(0).split()) if len(a) <= 3 or not a.isalpha())
    )
    return forms.most_common(1)[0][0] if forms else name


def _fallback(doc: Document) -> str:
    """Where nothing names a product: the title's name part (before a tagline run into it), or the file's name."""
    title = (doc.title or "").strip()
    if title:
        words = title.split()
        return " ".join(words[:MAX_WORDS])
    return Path(doc.path).stem
