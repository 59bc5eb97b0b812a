"""Result cache: one gzip'd JSON entry per (file content, rules, tool, options), written atomically.

The key hashes the file's sha256, `rules_hash()`, the tool version together with a digest of the package's own
code and templates (so an upgrade or a local edit never serves a stale result) and the options that change a
result. A corrupt or unreadable entry is ignored with one warning and overwritten by the fresh result.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import os
import zlib
from functools import lru_cache
from pathlib import Path

from .. import __version__
from ..fileio import atomic_write
FORMAT = 1


@lru_cache(maxsize=1)
def code_digest() -> str:
    """A digest of the sheetaudit package's sources and templates: part of the tool version in the cache key."""
    pkg = Path(__file__).resolve().parent.parent
    h = hashlib.sha256(__version__.encode())
    for p in sorted(pkg.rglob("*")):
        if p.suffix in (".py", ".j2", ".yaml", ".txt", ".html", ".css", ".js") and "__pycache__" not in p.parts:
            h.update(p.relative_to(pkg).as_posix().encode() + b"\0")
            try:
                h.update(p.read_bytes())
            except OSError:
                pass
    return h.hexdigest()


def file_sha256(path: str | Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def options_digest(options: dict) -> str:
    return hashlib.sha256(json.dumps(options, sort_keys=True, default=str).encode()).hexdigest()


class Cache:
    def __init__(self, directory: str | Path | None, rules_hash: str, options: dict, warn=None):
        self.dir = Path(directory) if directory else None
        self.base = hashlib.sha256(f"{FORMAT}\0{rules_hash}\0{code_digest()}\0{options_digest(options)}".encode()
                                   ).hexdigest()
        self.warn = warn or (lambda msg: None)
        self.hits = self.misses = self.corrupt = 0
        self._warned = False

    def key(self, sha256: str) -> str:
        return hashlib.sha256(f"{self.base}\0{sha256}".encode()).hexdigest()

    def _path(self, key: str) -> Path:
        return self.dir / key[:2] / f"{key}.json.gz"

    def where(self, sha256: str) -> tuple[str, str] | None:
        """(key, file) of the entry for this content, for a worker to write it; None without a cache."""
        if self.dir is None:
            return None
        key = self.key(sha256)
        return key, str(self._path(key))

    def get(self, sha256: str) -> dict | None:
        if self.dir is None:
            return None
        key = self.key(sha256)
        p = self._path(key)
        try:
            raw = p.read_bytes()
        except FileNotFoundError:
            self.misses += 1
            return None
        except OSError as exc:
            return self._bad(p, f"cannot be read ({exc.strerror or exc})")
        try:
            entry = json.loads(gzip.decompress(raw).decode("utf-8"))
            if not (isinstance(entry, dict) and entry.get("key") == key and isinstance(entry.get("result"), dict)):
                raise ValueError("not a cache entry for this key")
        except (OSError, EOFError, zlib.error, UnicodeDecodeError, ValueError) as exc:
            return self._bad(p, f"is corrupt ({exc})")
        self.hits += 1
        return entry["result"]

    def _bad(self, p: Path, why: str):
        self.corrupt += 1
        self.misses += 1
        if not self._warned:
            self.warn(f"cache entry {p} {why}: ignored, the file is audited again")
            self._warned = True
        return None

    def put(self, sha256: str, result: dict) -> None:
        if self.dir is None:
            return
        key, path = self.where(sha256)
        try:
            write_entry(path, key, result)
        except OSError as exc:
            self.unwritable(exc)

    def unwritable(self, exc) -> None:
        if not self._warned:
            self.warn(f"cache {self.dir} cannot be written ({getattr(exc, 'strerror', None) or exc}): "
                      "results are not cached")
            self._warned = True


CACHED_FIELDS = ("status", "kind", "error", "contract", "html", "html_error", "warnings")


def write_entry(path: str, key: str, result: dict) -> None:
    """One entry: gzip'd JSON (never pickle: a cache folder is data, not code), renamed into place."""
    entry = {"key": key, "result": {k: result[k] for k in CACHED_FIELDS if k in result}}
    atomic_write(path, gzip.compress(json.dumps(entry, ensure_ascii=False).encode("utf-8"), compresslevel=1, mtime=0),
                 durable=False)


def default_cache_dir(outdir: str | Path) -> Path:
    env = os.environ.get("SHEETAUDIT_CACHE_DIR")
    return Path(env) if env else Path(outdir) / ".cache"
