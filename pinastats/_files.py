"""Files written for the user: checked before the work, written whole or not at all.

Every file pinastats writes (per-game tables and their pieces, game records,
reviews, reports, stored turn solutions) goes through :func:`written_whole`:
the bytes go to a temporary file in the target's folder, are flushed and
synced to the disk, and the temporary file is renamed over the target. The
target is then either what it was before or the whole new file. On any failure
(a full disk, Ctrl-C, an error of the code writing) the temporary file is
removed, and a failure of the disk or the file system is an
:class:`~pinastats.errors.OutputError` naming the path as given, with the reason.

:func:`check_output` refuses, before any work, a path that cannot be written;
:func:`claimed` keeps two runs from writing the same file at once.
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, BinaryIO

from pinastats.errors import MissingFileError, OutputError, PinastatsError

LOCK_SUFFIX = ".lock"
"""Added to a file's name to name the lock file of a run writing it (``games.csv.lock``)."""


def _refused(path: str | Path, why: str, code: int) -> OutputError:
    """The error of a path that cannot be written: ``PATH: why``."""
    return OutputError(f"{path}: {why}", str(path), code)


def _nearest_existing(folder: Path) -> Path:
    """``folder``, or its nearest ancestor that exists."""
    folder = folder.absolute()
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder


def _special(path: Path) -> bool:
    """Whether ``path`` is an existing file that is not a regular file (``/dev/null``, a pipe)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def check_output(path: str | Path) -> Path:
    """``path`` as a ``Path`` if a file can be written there, else an :class:`OutputError`.

    Refused: a folder; a path under a file; a folder nothing can be created in
    (tried with a temporary file, which ``os.access`` cannot stand for on every
    file system). Nothing is left behind: a missing folder is made when the
    file is written.
    """
    target = Path(path)
    if target.is_dir():
        raise _refused(path, "is a folder; give a file name", errno.EISDIR)
    if _special(target):
        if not os.access(target, os.W_OK):
            raise _refused(path, "is not writable", errno.EACCES)
        return target
    existing = _nearest_existing(target.parent)
    if not existing.is_dir():
        raise _refused(path, f"{existing} is a file, not a folder", errno.ENOTDIR)
    if not os.access(existing, os.W_OK | os.X_OK):
        raise _refused(path, f"the folder {existing} is not writable", errno.EACCES)
    try:
        tempfile.TemporaryFile(dir=existing).close()
    except OSError as exc:
        code = exc.errno or errno.EACCES
        why = f"cannot write in the folder {existing} ({os.strerror(code)})"
        raise _refused(path, why, code) from None
    return target


def _umask() -> int:
    """The process's umask (read by setting it, then restoring it)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _open(fd: int) -> BinaryIO:
    """The buffered binary file of a new temporary file's descriptor."""
    return open(fd, "wb")


def _os_error(exc: BaseException) -> OSError | None:
    """The ``OSError`` behind ``exc``: itself, or one it was raised from or while handling.

    A library that fails to write may fail again while cleaning up (a PDF's
    ``zlib.error`` after ``ENOSPC``), or wrap the disk's error in its own: the
    first error of the chain with an ``errno`` is the one to report.
    """
    chain: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and all(current is not seen for seen in chain):
        chain.append(current)
        current = current.__cause__ or current.__context__
    errors = [e for e in chain if isinstance(e, OSError)]
    return next((e for e in errors if e.errno), errors[0] if errors else None)


@contextmanager
def written_whole(path: str | Path, encoding: str | None = None) -> Iterator[IO[Any]]:
    """A file to write ``path`` through: on leaving the block, ``path`` is the whole of it.

    Binary, or text in ``encoding`` (no newline translation: a newline is written
    as it is). The bytes go to a temporary file in the folder of ``path`` (made if
    missing), which is flushed, synced to the disk and renamed over ``path``
    (over the file a symbolic link points to). On any exception the temporary
    file is removed; a failure of the disk or the file system (``OSError``,
    also one behind another error) becomes an :class:`OutputError` naming
    ``path`` as given, with the reason. A ``path`` that is not a regular file
    (``/dev/null``, a pipe) is written directly.
    """
    given = Path(path)
    target = Path(os.path.realpath(given)) if given.is_symlink() else given
    if _special(target):
        with _reported(path), target.open("w" if encoding else "wb", encoding=encoding) as device:
            yield device
        return
    temporary: str | None = None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                         dir=target.parent)  # fmt: skip
        try:
            os.chmod(fd, 0o666 & ~_umask())  # mkstemp makes it private (0600)
            binary = _open(fd)
        except BaseException:
            os.close(fd)
            raise
        file: IO[Any] = binary
        if encoding is not None:
            file = io.TextIOWrapper(binary, encoding=encoding, newline="")
        with file:
            yield file
            file.flush()
            os.fsync(binary.fileno())
        os.replace(temporary, target)
        temporary = None
    except BaseException as exc:
        if temporary is not None:
            with contextlib.suppress(OSError):  # its own failure must not hide the first
                os.unlink(temporary)
        _raise_for(path, exc)
        raise
    with contextlib.suppress(OSError):  # the rename itself reaches the disk
        folder = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


@contextmanager
def _reported(path: str | Path) -> Iterator[None]:
    """Turn a failure of the disk or the file system in the block into an :class:`OutputError`."""
    try:
        yield
    except BaseException as exc:
        _raise_for(path, exc)
        raise


def _raise_for(path: str | Path, exc: BaseException) -> None:
    """Raise the :class:`OutputError` of ``path`` for ``exc`` if it is the disk's failure."""
    if isinstance(exc, PinastatsError | KeyboardInterrupt | GeneratorExit):
        return
    cause = _os_error(exc)
    if cause is not None:
        code = cause.errno or errno.EIO
        raise OutputError(f"cannot write {path}: {os.strerror(code)}", str(path), code) from exc


@contextmanager
def claimed(path: str | Path) -> Iterator[Path]:
    """Hold ``path`` for this run while it plays and writes: no other run may write it meanwhile.

    The hold is a lock file next to it, ``PATH.lock`` (:data:`LOCK_SUFFIX`),
    created exclusively (``O_EXCL``) with this process's id and removed at the
    end. A run asking for a held path is refused at once (an
    :class:`OutputError` naming the process holding it); a lock left by a
    process that no longer runs is taken over. Folders made for the lock are
    removed at the end if nothing was written in them. A path that is not a
    regular file (``/dev/null``) is not held: it is written directly.
    """
    target = Path(path)
    if _special(target):
        yield target
        return
    lock = target.with_name(target.name + LOCK_SUFFIX)
    made = [f for f in [target.parent, *target.parent.parents] if not f.exists()]
    try:
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            code = exc.errno or errno.EACCES
            raise _refused(path, f"cannot make its folder ({os.strerror(code)})", code) from None
        _take(path, lock)
    except BaseException:
        _remove_empty(made)
        raise
    try:
        yield target
    finally:
        with contextlib.suppress(OSError):
            lock.unlink()
        _remove_empty(made)


def _take(path: str | Path, lock: Path) -> None:
    """Create ``lock`` holding this process's id, taking over one whose process has ended."""
    for _ in range(2):
        try:
            fd = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            owner = _owner(lock)
            if owner is None or _running(owner):
                who = "another run" if owner is None else f"another run (process {owner})"
                raise _refused(
                    path,
                    f"{who} is writing it: wait for it to end or write to another file "
                    f"(if no run is, remove {lock})",
                    errno.EBUSY,
                ) from None
            with contextlib.suppress(FileNotFoundError):  # left by a run that has ended
                lock.unlink()
            continue
        except OSError as exc:
            code = exc.errno or errno.EACCES
            raise _refused(path, f"cannot create {lock} ({os.strerror(code)})", code) from None
        with os.fdopen(fd, "w", encoding="ascii") as file:
            file.write(f"{os.getpid()}\n")
        return
    raise _refused(path, f"another run is writing it (it holds {lock})", errno.EBUSY)


def _owner(lock: Path) -> int | None:
    """The process id in ``lock``, or None if it cannot be read (it may be being written)."""
    try:
        return int(lock.read_text(encoding="ascii").strip())
    except (OSError, ValueError):
        return None


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs (unknown: taken as running)."""
    if pid == os.getpid():
        return True
    if os.name != "posix":  # os.kill(pid, 0) would end the process on Windows
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # e.g. another user's process
        return True
    return True


def _remove_empty(folders: list[Path]) -> None:
    """Remove those of ``folders`` that are empty (deepest first)."""
    for folder in folders:
        with contextlib.suppress(OSError):
            folder.rmdir()


def read_json(path: str | Path, what: str) -> Any:
    """The JSON document at ``path``; a missing file or bad JSON is an error naming ``what``.

    A missing file raises :class:`~pinastats.errors.MissingFileError` ("PATH: no WHAT
    file"), text that is not JSON a :class:`~pinastats.errors.PinastatsError` ("PATH: not
    a WHAT file (reason)").
    """
    source = Path(path)
    try:
        return json.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MissingFileError(f"{source}: no {what} file", str(source)) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise PinastatsError(f"{source}: not a {what} file ({exc})") from None
