"""Find the spec sheets in a folder: recursive, sorted, every symlinked folder visited once (no loops), other files
skipped with a note. Nothing under the folder is opened for writing."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import UsageError
from ..read import READABLE_SUFFIXES


@dataclass
class Walk:
    root: Path
    files: list[Path] = field(default_factory=list)  # sheets to audit, absolute, sorted
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path relative to root, why)

    def rel(self, path: Path) -> str:
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return str(path)


def walk(root: str | Path) -> Walk:
    root = Path(os.path.abspath(root))
    if not root.is_dir():
        raise UsageError(f"{root}: not a folder")
    out = Walk(root)
    seen_dirs: set[tuple[int, int]] = set()
    seen_files: dict[tuple[int, int], str] = {}
    _visit(root, out, seen_dirs, seen_files)
    out.files.sort(key=lambda p: out.rel(p))
    out.skipped.sort()
    return out


def _visit(folder: Path, out: Walk, seen_dirs: set, seen_files: dict) -> None:
    try:
        st = folder.stat()
    except OSError as exc:
        out.skipped.append((out.rel(folder), f"folder cannot be read: {exc.strerror or exc}"))
        return
    key = (st.st_dev, st.st_ino)
    if key in seen_dirs:
        out.skipped.append((out.rel(folder), "symlink to a folder already visited (loop or duplicate): not followed"))
        return
    seen_dirs.add(key)
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError as exc:
        out.skipped.append((out.rel(folder), f"folder cannot be listed: {exc.strerror or exc}"))
        return
    for entry in entries:
        path = folder / entry.name
        rel = out.rel(path)
        if entry.name.startswith("."):
            out.skipped.append((rel, "hidden"))
            continue
        try:
            is_dir = entry.is_dir(follow_symlinks=True)
            is_file = entry.is_file(follow_symlinks=True)
        except OSError:
            is_dir = is_file = False
        if is_dir:
            _visit(path, out, seen_dirs, seen_files)
            continue
        if not is_file:
            why = "broken symlink" if entry.is_symlink() else "not a regular file"
            out.skipped.append((rel, why))
            continue
        if path.suffix.lower() not in READABLE_SUFFIXES:
            out.skipped.append((rel, f"not a spec sheet type ({path.suffix.lower() or 'no extension'})"))
            continue
        try:
            fst = path.stat()
        except OSError as exc:
            out.skipped.append((rel, f"cannot be read: {exc.strerror or exc}"))
            continue
        fkey = (fst.st_dev, fst.st_ino)
        if fkey in seen_files:
            out.skipped.append((rel, f"same file as {seen_files[fkey]} (link): audited once"))
            continue
        seen_files[fkey] = rel
        out.files.append(path)


def check_outdir(root: str | Path, outdir: str | Path) -> None:
    """Refuse an output folder that is the input folder, inside it, or holds it: outputs must never mix with
    (or be audited as) inputs, and a batch never writes under the folder it reads."""
    r = Path(os.path.realpath(root))
    o = Path(os.path.realpath(outdir))
    if o == r or r in o.parents:
        raise UsageError(f"output folder {outdir} is inside the input folder {root}; choose one outside it")
    if o in r.parents:
        raise UsageError(f"output folder {outdir} contains the input folder {root}; choose one beside it")


def check_cache_dir(root: str | Path, cache_dir: str | Path) -> None:
    """The cache is written to: it must not be inside the input folder either."""
    r = Path(os.path.realpath(root))
    c = Path(os.path.realpath(cache_dir))
    if c == r or r in c.parents:
        raise UsageError(f"cache folder {cache_dir} is inside the input folder {root}; choose one outside it")
