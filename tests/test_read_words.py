"""The reader reads every word a reference reader reads: on every PDF of samples/, tests/ and ../shared/corpus (when
that folder is there; a clean clone has none), the words of the reader's segments are held against pdfplumber's
`extract_words()` (x and y tolerance 3, after `dedupe_chars()`, as the reader drops text printed twice in place).

How two readings are compared (AGREEMENT is the share of pdfplumber's words the reader has):
- words are compared as multisets, after NFKC (ligatures: 'ﬁ' is 'fi') and case folding (pdfplumber reads small
  caps by their glyph names: 'pERSONAL' where the text is 'PERSONAL'), with soft hyphens and control characters
  dropped as the reader drops them;
- a pdfplumber word that ends a line with '-' is found when its two halves are one word in the reader (the reader
  joins a word hyphenated over two lines);
- a pdfplumber word made of several of the reader's words in a row is found (the reader parts words pdfplumber's
  fixed 3-point tolerance glues: a 1.5-point gap in 6-point type is a space), never the other way round: a word
  the reader glued to its neighbours is missing, which is what this test is for;
- a word in Chinese or Japanese script is found inside the reader's text of that page with its spaces taken out
  (CJK is written without spaces; the reader joins its runs and sets a space where the script changes);
- a piece of one or two characters is found inside any of the reader's words of that page: letters set apart
  ('N V I D I A') or set on their side reach pdfplumber as pieces in the order of their positions, which the
  reader joins into the word; a piece that short says nothing about words glued together;
- the reader's row labels and column headers count once per table (block).
The reader drops nothing on purpose (no running header or footer is left out); a page the reader keeps as plain
text (long documents, read.pdf) is read by pdfium's own word breaks and held to the same tolerance.

    python tests/test_read_words.py [PDF...]      # the agreement of every PDF (or of those given), worst first
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
WORD_GAP = 0.15  # pdfplumber parts words this share of the font size apart (the reader: 0.13)
AGREEMENT = 0.97  # at least this share of pdfplumber's words is read by the reader, on every PDF
MIN_WORDS = 20  # PDFs with fewer words than this in pdfplumber are held to every word but two
PIECE = 2  # a piece of pdfplumber's this short is found inside the reader's words of its page
CONCAT = 6  # at most this many of the reader's words in a row make one of pdfplumber's
_DROP = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\ufffe\uffff]|\(cid:\d+\)")
_CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")


# 200,000 one-point characters, there to exceed a time limit (tests/hostile): no reference for words
LEFT_OUT = {"many-chars.pdf"}


def pdfs() -> list[Path]:
    """Every PDF the project and the shared corpus hold (those a reader must refuse are left out by _readable)."""
    found = sorted((ROOT / "samples").rglob("*.pdf")) + sorted((ROOT / "tests").rglob("*.pdf"))
    # tests/layouts: 88 PDFs drawn from the real text documents (benchmarks/layouts_vs_text.py measures them); here
    # they would more than double this test's time
    found = [p for p in found if "layouts" not in p.relative_to(ROOT).parts[:2]]
    if CORPUS.is_dir():
        found += sorted(CORPUS.rglob("*.pdf"))
    return [p for p in found if p.name not in LEFT_OUT]


def norm(word: str) -> str:
    return _DROP.sub("", unicodedata.normalize("NFKC", word)).casefold()


def reference_words(path: Path, max_pages: int | None = None) -> list[list[str]]:
    """pdfplumber's words, page by page (None for a file it cannot read)."""
    import pdfplumber

    out = []
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages[:max_pages]:
            words = [norm(w["text"]) for w in page.dedupe_chars().extract_words(x_tolerance_ratio=WORD_GAP)]
            out.append([w for w in words if w])
            page.close()
    return out


def reader_words(path: Path, max_pages: int | None = None) -> list[list[str]]:
    """The reader's words, page by page, as the audit reads the file (long documents' pages kept as plain text
    where the triage finds nothing on them)."""
    from sheetaudit.read import read_document
    from sheetaudit.stages.s2_triage import may_hold_figures

    doc = read_document(path, max_pages=max_pages, ocr=False, needs_layout=may_hold_figures)
    pages: list[list[str]] = [[] for _ in range(doc.pages)]
    seen: set[tuple] = set()
    for s in doc.segments:
        words = pages[s.page - 1]
        words += [norm(w) for w in s.text.split()]
        for extra in (s.label, s.column):
            if extra and (s.block, extra) not in seen:
                seen.add((s.block, extra))
                words += [norm(w) for w in extra.split()]
    return [[w for w in p if w] for p in pages]


def missing(reference: list[str], read: list[str]) -> list[str]:
    """pdfplumber's words (of one page) the reader did not read."""
    have = Counter(read)
    joined = {"".join(read[i : i + k]) for i in range(len(read)) for k in range(2, CONCAT + 1) if i + k <= len(read)}
    cjk_text = "".join(read)  # spaces the reader sets between scripts ("吴昌辉， 2024 年 4 月") part no CJK word
    page_text = " ".join(read)
    lost: list[str] = []
    skip = False
    for i, w in enumerate(reference):
        if skip:
            skip = False
            continue
        if have[w] > 0:
            have[w] -= 1
            continue
        if w.endswith("-") and i + 1 < len(reference):
            whole = next((j for j in (w[:-1] + reference[i + 1], w + reference[i + 1]) if have[j] > 0), None)
            if whole:
                have[whole] -= 1
                skip = True
                continue
        if w in joined or (_CJK.search(w) and w in cjk_text) or (len(w) <= PIECE and w in page_text):
            continue
        lost.append(w)
    return lost


def agreement(path: Path, max_pages: int | None = None) -> tuple[float, int, list[str]]:
    """(share of pdfplumber's words read, how many pdfplumber read, a few of those missing)."""
    ref, got = reference_words(path, max_pages), reader_words(path, max_pages)
    total = sum(len(p) for p in ref)
    lost = [w for r, g in zip(ref, got) for w in missing(r, g)]
    return (1.0 - len(lost) / total if total else 1.0), total, lost


def _readable(path: Path) -> bool:
    from sheetaudit.errors import UnreadableInput
    from sheetaudit.read import read_bytes, sniff

    try:
        data = read_bytes(path)
        return bool(data) and sniff(data, ".pdf") == "pdf" and b"/Encrypt" not in data
    except UnreadableInput:
        return False


MAX_PAGES = 60  # the 1,000-page hostile file is read in part: its pages are all alike


@pytest.mark.parametrize("path", [p for p in pdfs() if _readable(p)], ids=lambda p: str(p.relative_to(p.parents[1])))
def test_reader_reads_pdfplumbers_words(path):
    pytest.importorskip("pdfplumber")
    from sheetaudit.errors import UnreadableInput

    try:
        share, total, lost = agreement(path, MAX_PAGES)
    except UnreadableInput as exc:  # the hostile files the reader must refuse (tests/hostile/README.md)
        if "hostile" not in path.parts:
            raise
        pytest.skip(f"refused, as tests/test_hostile.py expects: {exc}")
    except Exception as exc:  # noqa: BLE001 - a file pdfplumber cannot open has no reference
        if "pdfminer" in type(exc).__module__ or "pdfplumber" in type(exc).__module__:
            pytest.skip(f"pdfplumber cannot read it: {exc}")
        raise
    allowed = (1 - AGREEMENT) * total if total >= MIN_WORDS else 2
    assert len(lost) <= allowed, f"{share:.3f} of {total} words read; missing: {lost[:30]}"


def test_the_corpus_part_skips_without_the_shared_folder():
    """CI runs on a clean clone: ../shared/corpus is absent and only the project's own PDFs are compared."""
    assert all(CORPUS in p.parents for p in pdfs() if ROOT not in p.parents)


if __name__ == "__main__":
    paths = [Path(a) for a in sys.argv[1:]] or [p for p in pdfs() if _readable(p)]
    rows = []
    for p in paths:
        try:
            rows.append((*agreement(p, MAX_PAGES), p))
        except Exception as exc:  # noqa: BLE001
            print(f"{p}: {type(exc).__name__}: {exc}")
    rows.sort(key=lambda r: r[0])
    for share, total, lost, p in rows:
        print(f"{share:.3f} {total:6d}  {p.relative_to(p.parents[1])}  {' '.join(lost[:8])[:90]}")
    if rows:
        shares = [r[0] for r in rows]
        print(f"min {min(shares):.3f}  mean {sum(shares) / len(shares):.3f}  over {len(rows)} PDFs")
