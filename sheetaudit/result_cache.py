"""Result cache: one gzip'd JSON entry per (file content, rules, tool, options), written atomically.

The key hashes the file name's suffix (it picks the reader), the sha256 of the bytes the worker read (not of a separate read, which a file rewritten meanwhile
would make stale), `rules_hash()`, the tool version together with a digest of the package's own code and templates
(so an upgrade or a local edit never serves a stale result) and the options that change a result (pages, password,
facility, thorough, OCR). The limits (--timeout, --max-memory) are not in the key because a result that hit one is
never stored: only what depends on the content alone is. Entries hold data only, never a report: a report is
always rendered from a fresh audit. Entries unused for MAX_AGE_DAYS are pruned.

A cache folder is data that others can write (a shared folder, a script, another user). An entry is trusted only
if it is signed: an HMAC-SHA256 over its bytes with a key kept in the user's own cache folder (made on first use,
0600). An entry that is not a regular file (a FIFO, a link to /dev/zero: never opened, never followed), is over
MAX_ENTRY_BYTES, is not signed with this user's key, does not parse or has the wrong shape (sheetaudit.contract: the
JSON Schema) is ignored with one warning and overwritten by the fresh result. Editing a number, or deleting
findings, breaks the signature. The shape is checked once, by the worker that writes the entry (its signature then
says so: CHECKED), so a cached re-run of thousands of files spends no schema check; an entry signed without that
word is checked as it is read.

No symbolic link inside the cache folder is followed (a shard folder that is a link another user planted would
otherwise receive our writes and lose its files to the clean-up): every entry is opened, written and removed
through a descriptor of its shard folder opened without following links (sheetaudit.fileio.open_folder); the
cache folder itself is followed only when the link is the user's own. The clean-up removes only files named as
this module names them and owned by this user. A damaged signing key (truncated, not the user's, writable by
others) is replaced, with one warning: the entries signed with it are audited again.
"""

from __future__ import annotations

import gzip
import hashlib
import hmac
import json
import os
import re
import secrets
import stat
import time
import zlib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from .version import __version__
from .cachedir import user_cache_dir
from .contract import validate_result
from .fileio import NOFOLLOW, NotARegularFile, open_folder, read_regular

FORMAT = 3  # 3: signed entries (an unsigned format-2 entry is simply not found)
MAX_AGE_DAYS = 30  # an entry no run has used for this long is removed at the end of a batch
MAX_ENTRY_BYTES = 16 * 2**20  # compressed; the largest real entry is well under 1 MiB
KEY_BYTES = 32
TMP_MAX_AGE = 3600  # a temporary entry this old belongs to a writer that died
_SHARD = re.compile(r"[0-9a-f]{2}")
_ENTRY = re.compile(r"[0-9a-f]{64}\.json\.gz")
_TMP = re.compile(r"\.[0-9a-f]{64}\.json\.gz\.[0-9a-f]{16}\.tmp")


class DamagedKey(OSError):
    """The signing key file exists but cannot be trusted (truncated, not this user's, writable by others)."""


def signing_key(warn=None) -> bytes:
    """This user's key for signing cache entries: 32 random bytes in the user's cache folder, made on first use
    (mode 0600 in a 0700 folder). A damaged key is replaced (warn(message) says so). Raises OSError when it
    cannot be read or made safely; then nothing is cached."""
    folder = user_cache_dir()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = folder / "cache-key"
    for _ in range(2):
        try:
            return _read_key(path)
        except FileNotFoundError:
            pass
        except (DamagedKey, NotARegularFile) as exc:
            path.unlink()  # the link or file itself, never what a link points to
            if warn:
                warn(
                    f"cache signing key {path} was damaged ({exc.strerror or exc}): replaced; results cached "
                    "before are audited again"
                )
        tmp = folder / f".cache-key.{os.getpid()}.{secrets.token_hex(4)}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(secrets.token_bytes(KEY_BYTES))
                fh.flush()
                os.fsync(fh.fileno())
            try:
                os.link(tmp, path)  # never replaces a key another run made meanwhile: theirs is read
            except FileExistsError:
                pass
        finally:
            tmp.unlink(missing_ok=True)
    return _read_key(path)


def _read_key(path: Path) -> bytes:
    import errno

    try:
        key = read_regular(path, KEY_BYTES, follow_links=False)
    except OSError as exc:
        if exc.errno == errno.EFBIG:
            raise DamagedKey(errno.EINVAL, "longer than a key", str(path)) from None
        raise
    st = os.stat(path, follow_symlinks=False)
    if len(key) != KEY_BYTES:
        raise DamagedKey(errno.EINVAL, f"{len(key)} bytes, not {KEY_BYTES}", str(path))
    if st.st_uid != os.getuid() or st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise DamagedKey(errno.EPERM, "not a key only this user can write", str(path))
    return key


def sign(secret: bytes, payload: bytes) -> bytes:
    return hmac.new(secret, payload, hashlib.sha256).hexdigest().encode("ascii")


# The signature of an entry whose result passed the schema check as it was written (in the worker, in parallel):
# it covers this word too, so it says both who wrote the entry and that its shape was checked, and the reader
# spends no schema check on it. An entry signed plainly (an edit re-signed by a script) is checked as it is read.
CHECKED = b"checked "


def sign_checked(secret: bytes, payload: bytes) -> bytes:
    return CHECKED + sign(secret, CHECKED + payload)


@lru_cache(maxsize=1)
def code_digest() -> str:
    """A digest of the sheetaudit package's sources and templates: part of the tool version in the cache key."""
    pkg = Path(__file__).resolve().parent
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


@dataclass(frozen=True)
class Writer:
    """What writing an entry needs, and only that: the folder, the key's base (rules, code, options) and this user's
    signing key. Plain values, so that a batch worker, forked or spawned, is handed it whole and writes its own
    entries as the Cache does (Cache.writer)."""

    dir: Path
    base: str
    secret: bytes = field(repr=False)

    def put(self, sha256: str, name: str, result: dict) -> None:
        """Store RESULT for this content under this file name's suffix, signed (OSError when it cannot be written)."""
        key, path = entry_path(self.dir, self.base, sha256, name)
        write_entry(path, key, result, self.secret)


class Cache:
    def __init__(self, directory: str | Path | None, rules_hash: str, options: dict, warn=None):
        self.dir = Path(directory) if directory else None
        self.base = hashlib.sha256(
            f"{FORMAT}\0{rules_hash}\0{code_digest()}\0{options_digest(options)}".encode()
        ).hexdigest()
        self.warn = warn or (lambda msg: None)
        self.hits = self.misses = self.corrupt = 0
        self._warned = False
        self.secret = None
        if self.dir is not None:
            try:
                self.secret = signing_key(self.warn)
            except OSError as exc:
                self.warn(f"no cache signing key in {user_cache_dir()} ({exc.strerror or exc}): results are not cached")
                self._warned = True
                self.dir = None
        self.writer = Writer(self.dir, self.base, self.secret) if self.dir is not None else None

    def get(self, sha256: str, name: str) -> dict | None:
        """The stored result for this content under this file name's suffix, validated; None (and one warning) for
        anything else."""
        if self.dir is None:
            return None
        key, path = entry_path(self.dir, self.base, sha256, name)
        p = Path(path)
        shard = None
        try:
            shard = _open_shard(self.dir, p.parent.name)
            raw = read_regular(p.name, MAX_ENTRY_BYTES, follow_links=False, dir_fd=shard)
        except FileNotFoundError:
            _close(shard)
            self.misses += 1
            return None
        except NotARegularFile as exc:
            _close(shard)
            return self._bad(p if shard is not None else p.parent, f"is {exc.strerror}")
        except OSError as exc:
            _close(shard)
            return self._bad(p, f"cannot be read ({exc.strerror or exc})")
        try:
            mac, _, payload = _gunzip(raw).partition(b"\n")
            checked = mac.startswith(CHECKED)
            if not hmac.compare_digest(mac, (sign_checked if checked else sign)(self.secret, payload)):
                raise ValueError("not signed with this user's key: edited, or written by another user")
            entry = json.loads(payload.decode("utf-8"))
            if not (isinstance(entry, dict) and entry.get("key") == key):
                raise ValueError("not a cache entry for this key")
            if not checked:
                validate_result(entry.get("result"), sha256)
        except (OSError, EOFError, zlib.error, UnicodeDecodeError, ValueError, RecursionError) as exc:
            _close(shard)
            return self._bad(p, f"is corrupt ({str(exc)[:200]})")
        self.hits += 1
        try:
            os.utime(p.name, dir_fd=shard, follow_symlinks=False)  # used: not pruned for another MAX_AGE_DAYS
        except (OSError, NotImplementedError):
            pass
        _close(shard)
        return entry["result"]

    def put(self, sha256: str, name: str, result: dict) -> None:
        """Store RESULT for this content under this file name's suffix, signed (OSError when it cannot be written);
        nothing without a cache folder."""
        if self.writer is not None:
            self.writer.put(sha256, name, result)

    def _bad(self, p: Path, why: str):
        self.corrupt += 1
        self.misses += 1
        if not self._warned:
            self.warn(f"cache entry {p} {why}: ignored, the file is audited again")
            self._warned = True
        return None

    def unwritable(self, exc) -> None:
        if not self._warned:
            self.warn(
                f"cache {self.dir} cannot be written ({getattr(exc, 'strerror', None) or exc}): results are not cached"
            )
            self._warned = True

    def prune(self, max_age_days: float = MAX_AGE_DAYS) -> int:
        """Remove entries no run has used for max_age_days, and temporary files a killed worker left; returns the
        number removed. A cache shared by many output folders stays the size of what is still in use. Only this
        user's regular files named as entries (or their temporary files) in real shard folders are removed."""
        if self.dir is None:
            return 0
        try:
            top = open_folder(self.dir, own_link_ok=True)
        except OSError:
            return 0
        removed = 0
        try:
            for shard_entry in os.scandir(top):
                if _SHARD.fullmatch(shard_entry.name) and shard_entry.is_dir(follow_symlinks=False):
                    removed += _prune_shard(top, shard_entry.name, max_age_days)
        except OSError:
            pass
        finally:
            os.close(top)
        return removed


def _prune_shard(top: int, name: str, max_age_days: float) -> int:
    try:
        shard = open_folder(name, dir_fd=top)
    except OSError:
        return 0
    now, removed = time.time(), 0
    try:
        for e in os.scandir(shard):
            entry = _ENTRY.fullmatch(e.name) and e.name.startswith(name)
            if not (entry or _TMP.fullmatch(e.name)):
                continue
            try:
                st = os.stat(e.name, dir_fd=shard, follow_symlinks=False)
                if not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid():
                    continue
                age = now - st.st_mtime
                if age > (max_age_days * 86400 if entry else TMP_MAX_AGE):
                    os.unlink(e.name, dir_fd=shard)
                    removed += 1
            except OSError:
                continue
    finally:
        os.close(shard)
    return removed


def _open_shard(directory: Path, name: str, create: bool = False) -> int:
    """The shard folder NAME of the cache DIRECTORY, opened without following a link (NotARegularFile for one)."""
    if create:
        directory.mkdir(parents=True, exist_ok=True)
    top = open_folder(directory, own_link_ok=True)
    try:
        return open_folder(name, dir_fd=top, create=create)
    finally:
        os.close(top)


def _close(fd: int | None) -> None:
    if fd is not None:
        os.close(fd)


def _gunzip(raw: bytes, limit: int = 64 * 2**20) -> bytes:
    """gzip.decompress with a ceiling: a planted entry that inflates to gigabytes is corrupt, not a crash."""
    d = zlib.decompressobj(16 + zlib.MAX_WBITS)
    out = d.decompress(raw, limit)
    if d.unconsumed_tail or not d.eof:
        raise ValueError("truncated, or larger than any result")
    return out


def entry_path(directory: str | Path, base: str, sha256: str, name: str) -> tuple[str, str]:
    """(key, file) of the entry for content `sha256` read as file `name` under the cache's `base` (rules, code and
    options). The name's suffix is in the key: the same bytes named .pdf and .txt are read differently."""
    key = hashlib.sha256(f"{base}\0{sha256}\0{Path(name).suffix.lower()}".encode()).hexdigest()
    return key, str(Path(directory) / key[:2] / f"{key}.json.gz")


CACHED_FIELDS = ("status", "kind", "error", "contract", "report_sha256", "html_error", "warnings")


def write_entry(path: str, key: str, result: dict, secret: bytes) -> None:
    """One entry: its signature, a newline and the JSON (never pickle: a cache folder is data, not code), gzip'd and
    renamed into place."""
    entry = {"key": key, "result": {k: result[k] for k in CACHED_FIELDS if k in result}}
    payload = json.dumps(entry, ensure_ascii=False).encode("utf-8")
    try:
        validate_result(entry["result"], ((entry["result"].get("contract") or {}).get("source") or {}).get("sha256"))
        mac = sign_checked(secret, payload)
    except (ValueError, KeyError, TypeError, AttributeError):  # out of shape: the reader says so, as before
        mac = sign(secret, payload)
    data = gzip.compress(mac + b"\n" + payload, compresslevel=1, mtime=0)
    p = Path(path)
    shard = _open_shard(p.parent.parent, p.parent.name, create=True)
    tmp = f".{p.name}.{secrets.token_hex(8)}.tmp"
    try:
        fd = os.open(
            tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW | getattr(os, "O_CLOEXEC", 0), 0o666, dir_fd=shard
        )
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, p.name, src_dir_fd=shard, dst_dir_fd=shard)  # replaces a planted link, never follows it
        except BaseException:
            try:
                os.unlink(tmp, dir_fd=shard)
            except OSError:
                pass
            raise
    finally:
        os.close(shard)


def default_cache_dir(outdir: str | Path | None) -> Path | None:
    """$SHEETAUDIT_CACHE_DIR, else OUTDIR/.cache (None without either: nothing is cached)."""
    env = os.environ.get("SHEETAUDIT_CACHE_DIR")
    if env:
        return Path(env)
    return Path(outdir) / ".cache" if outdir is not None else None
