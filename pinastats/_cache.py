"""The user's cache folder: compiled kernels, keyed so that they are never stale (no numba here).

Everything pinastats keeps between runs goes under one per-user folder,
:func:`user_cache_dir`: ``$PINASTATS_CACHE`` when set, else the platform's
per-user cache folder (``platformdirs``: ``~/.cache/pinastats`` on Linux,
``~/Library/Caches/pinastats`` on macOS, ``%LOCALAPPDATA%/pinastats/Cache`` on
Windows). Nothing is written beside the code, so a read-only install works
and compiles once per user. In that folder:

* ``numba-<D>/``: the compiled kernels (and :mod:`pinastats.dice.stored`'s solved
  turns), see below;
* ``tables/``: the solved boards of :mod:`pinastats.solve.table`, keyed by the
  board and the solver only (:func:`tables_dir`), so they outlive other upgrades.

numba's own cache stamps each kernel with its own source file only, but a
kernel's machine code also holds the kernels it inlines or calls from other
modules and the module constants it reads (the rule codes of
:mod:`pinastats._engine.codes`, ``TIE_TOL``...). So every kernel is cached in
one folder named by a digest of all the files they are compiled from::

    D = sha256(Python, numba, NumPy versions; (path, bytes) of each file of KERNEL_SOURCES)

An edit there gives a new folder: a cold cache, never a stale one (numba still
keys each entry by its own file, the signature and the CPU).

The kernels' folder is ``numba-<D>`` in the first writable root of
:func:`cache_roots`: ``$NUMBA_CACHE_DIR/pinastats`` when the user set numba's
own setting, else the user's cache folder; with none writable the kernels
compile in every process. Each process marks its folder as the newest
and prunes its root: a folder beyond the :data:`KEEP` newest goes once unused
for :data:`STALE_AFTER` seconds, so upgrades do not pile up caches and two
installs sharing the folder do not remove each other's.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path

import platformdirs

PACKAGE_DIR = Path(__file__).resolve().parent
"""The package folder, which :data:`KERNEL_SOURCES` are relative to."""

CACHE_ENV = "PINASTATS_CACHE"
"""The environment variable naming the cache folder, in place of the platform's."""

KERNEL_SOURCES = (
    "_jit.py",
    "_engine",
    "dice/_kernels.py",
    "dice/hands.py",
    "dice/errors.py",
    "errors.py",
    "_arrays.py",
)
"""What the kernels are compiled from: the kernel modules (a folder stands for its
modules), ``_jit.py``, and the modules the kernels import constants from."""

KEEP = 3
"""How many ``numba-<digest>`` folders a cache root keeps whatever their age (the newest)."""

STALE_AFTER = 24 * 3600
"""Seconds unused after which a kernel folder beyond the :data:`KEEP` newest is removed."""


def kernel_sources(package: Path = PACKAGE_DIR) -> list[Path]:
    """The files of :data:`KERNEL_SOURCES` in ``package``, in digest order."""
    files: list[Path] = []
    for name in KERNEL_SOURCES:
        path = package / name
        files += sorted(path.glob("*.py")) if path.is_dir() else [path]
    return files


def source_digest(package: Path = PACKAGE_DIR) -> str:
    """The digest ``D`` (see the module docstring) of the kernel sources of ``package``."""
    versions = (sys.version, metadata.version("numba"), metadata.version("numpy"))
    h = hashlib.sha256("\0".join(versions).encode())
    for path in kernel_sources(package):  # paths relative to the package: a copy, the same digest
        h.update(f"\0{path.relative_to(package).as_posix()}\0".encode() + path.read_bytes())
    return h.hexdigest()[:20]


def user_cache_dir() -> Path:
    """The per-user cache folder of pinastats: ``$PINASTATS_CACHE``, else the platform's.

    Read anew at each call (nothing is made here).
    """
    given = os.environ.get(CACHE_ENV, "")
    if given:
        return Path(given).expanduser()
    return Path(platformdirs.user_cache_dir("pinastats", appauthor=False))


def tables_dir() -> Path:
    """The folder of the solved boards' tables: ``tables/`` of :func:`user_cache_dir`."""
    return user_cache_dir() / "tables"


def cache_roots() -> list[Path]:
    """The folders that may hold ``numba-<digest>`` cache folders, in order of preference."""
    numba_dir = os.environ.get("NUMBA_CACHE_DIR", "")
    return [Path(numba_dir) / "pinastats", user_cache_dir()] if numba_dir else [user_cache_dir()]


def legacy_roots() -> list[Path]:
    """Where earlier versions cached kernels and tables: the package's own ``__pycache__``."""
    return [PACKAGE_DIR / "__pycache__"]


def _prune(root: Path, current: Path, keep: int = KEEP, now: float | None = None) -> None:
    """Remove the cache folders of ``root`` beyond the ``keep`` newest unused for a while.

    ``current`` stays; so does any folder used in the last :data:`STALE_AFTER`
    seconds (another install's, sharing the folder).
    """

    def mtime(folder: Path) -> float:
        try:
            return folder.stat().st_mtime
        except OSError:  # removed meanwhile by another process
            return 0.0

    now = time.time() if now is None else now
    folders = sorted((p for p in root.glob("numba-*") if p != current), key=mtime, reverse=True)
    for old in folders[keep - 1 :]:
        if now - mtime(old) > STALE_AFTER:
            shutil.rmtree(old, ignore_errors=True)


@functools.cache
def cache_dir() -> Path | None:
    """The ``numba-<digest>`` folder this process caches kernels in, or None if none is writable.

    Found once per process, which also marks it as the newest of its root and
    prunes the root.
    """
    name = "numba-" + source_digest()
    for root in cache_roots():
        folder = root / name
        try:
            folder.mkdir(parents=True, exist_ok=True)
            tempfile.TemporaryFile(dir=folder).close()
            os.utime(folder)
        except OSError:
            continue
        _prune(root, folder)
        return folder
    return None


def clear_cache() -> list[Path]:
    """Remove the kernel folders of every root, and earlier versions' caches; return them.

    The kernels recompile on use. The tables of ``tables/`` stay
    (:mod:`pinastats.solve.table` removes those).
    """
    removed = [p for root in cache_roots() + legacy_roots() for p in root.glob("numba-*")]
    for folder in removed:
        shutil.rmtree(folder, ignore_errors=True)
    cache_dir.cache_clear()
    return removed
