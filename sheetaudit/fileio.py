"""Outputs are written to a temporary file beside the target and renamed, so an interrupted run never
leaves a half-written report."""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write(path: str | Path, data: str | bytes, durable: bool = True) -> None:
    """Write beside the target, then rename; the file gets the permissions a plain open() would give it.

    durable=False skips the fsync: for the many per-sheet files a batch writes while its pool runs, where a file
    lost to a power cut is only written again by the next run."""
    with atomic_writer(path, durable) as fh:
        fh.write(data.encode("utf-8") if isinstance(data, str) else data)


class Unchanged(Exception):
    """Raised inside atomic_writer's block to keep the target as it is (the temporary file is removed)."""


@contextmanager
def atomic_writer(path: str | Path, durable: bool = True):
    """atomic_write for data written piece by piece (a 150 MB audit.json is never one string in memory): the
    block writes to the binary file it is given; the file replaces the target when the block ends, unless the
    block raises (Unchanged: the target is kept, quietly)."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        os.fchmod(fd, 0o666 & ~_umask())  # mkstemp makes 0600; a report is meant to be shared
        with os.fdopen(fd, "wb") as fh:
            yield fh
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        try:
            os.replace(tmp, p)
        except OSError as exc:  # name the target (index.html is a folder), not our temporary file
            raise type(exc)(exc.errno, exc.strerror, str(p)) from None
    except Unchanged:
        os.unlink(tmp)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


class NotARegularFile(OSError):
    """A FIFO, a device, a folder or a symbolic link where a file of ours belongs: reading it could hang (a FIFO
    nobody writes), never end (/dev/zero) or follow a planted link."""


def read_regular(path: str | Path, max_bytes: int, follow_links: bool = True, dir_fd: int | None = None) -> bytes:
    """The bytes of a regular file of at most `max_bytes`; NotARegularFile or OSError (EFBIG) otherwise.
    follow_links=False refuses a symbolic link itself (O_NOFOLLOW): for files only sheetaudit writes. With
    dir_fd, `path` is a name in that open folder (no link on the way to it is followed either)."""
    import errno
    import stat

    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    if not follow_links:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP and not follow_links:
            raise NotARegularFile(errno.ELOOP, "a symbolic link, not followed", str(path)) from None
        raise
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotARegularFile(errno.EINVAL, "not a regular file", str(path))
        if st.st_size > max_bytes:
            raise OSError(errno.EFBIG, f"larger than {max_bytes} bytes", str(path))
        data = fh.read(max_bytes + 1)
    if len(data) > max_bytes:  # grew while we read it
        raise OSError(errno.EFBIG, f"larger than {max_bytes} bytes", str(path))
    return data


DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def open_folder(path: str | Path, dir_fd: int | None = None, create: bool = False, own_link_ok: bool = False) -> int:
    """An open descriptor of the folder `path` (a name in `dir_fd` when given), never through a symbolic link:
    a link planted where a folder of ours belongs raises NotARegularFile. create=True makes it first when
    missing. own_link_ok=True follows a link this user owns (a folder the user named, linked on purpose)."""
    import errno
    import stat

    if create:
        try:
            os.mkdir(path, 0o777, dir_fd=dir_fd)
        except FileExistsError:
            pass
    try:
        return os.open(path, DIR_FLAGS | NOFOLLOW, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno not in (errno.ELOOP, errno.ENOTDIR):
            raise
        try:
            st = os.stat(path, dir_fd=dir_fd, follow_symlinks=False)
        except OSError:
            raise exc from None
        if not stat.S_ISLNK(st.st_mode):
            raise
        if own_link_ok and st.st_uid == os.getuid():
            return os.open(path, DIR_FLAGS, dir_fd=dir_fd)
        raise NotARegularFile(errno.ELOOP, "a symbolic link, not followed", str(path)) from None
