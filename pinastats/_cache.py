"""The folder the compiled kernels are cached in, keyed so that it is never stale (no numba here).

numba's own cache stamps each kernel with its own source file only, but a
kernel's machine code also holds the kernels it inlines or calls from other
modules and the module constants it reads (the rule codes of
:mod:`pinastats._engine.codes`, ``TIE_TOL``...). So every kernel is cached in
one folder named by a digest of all the files they are compiled from::

    D = sha256(Python, numba, NumPy versions; (path, bytes) of each file of KERNEL_SOURCES)

An edit there gives a new folder: a cold cache, never a stale one (numba still
keys each entry by its own file, the signature and the CPU).

The folder is ``numba-<D>`` in the first writable root of :func:`cache_roots`:
``$NUMBA_CACHE_DIR/pinastats`` when the user set it, the package's
``__pycache__``, the per-user cache directory; with none writable the kernels
compile in every process. Each process marks its folder as the newest and
prunes its root to the :data:`KEEP` newest, so upgrades do not pile up caches.
:mod:`pinastats.dice.stored` keeps solved turns in the same folder, so a
command that finds its solution there starts without numba.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import sys
import tempfile
from importlib import metadata
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
"""The package folder, which :data:`KERNEL_SOURCES` are relative to."""

KERNEL_SOURCES = (
    "_jit.py",
    "_engine",
    "dice/_kernels.py",
    "dice/hands.py",
    "dice/errors.py",
    "errors.py",
)
"""What the kernels are compiled from: the kernel modules (a folder stands for its
modules), ``_jit.py``, and the modules the kernels import constants from."""

KEEP = 3
"""How many ``numba-<digest>`` folders a cache root keeps (the newest)."""


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
    """The per-user cache folder of pinastats (as numba's ``appdirs`` names it)."""
    home = Path.home()
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA") or str(home / "AppData" / "Local")
        return Path(local) / "pinastats" / "Cache"
    if sys.platform == "darwin":
        return home / "Library" / "Caches" / "pinastats"
    return Path(os.environ.get("XDG_CACHE_HOME") or home / ".cache") / "pinastats"


def cache_roots() -> list[Path]:
    """The folders that may hold ``numba-<digest>`` cache folders, in order of preference."""
    user_dir = os.environ.get("NUMBA_CACHE_DIR", "")
    roots = [PACKAGE_DIR / "__pycache__", user_cache_dir()]
    return [Path(user_dir) / "pinastats", *roots] if user_dir else roots


def _prune(root: Path, current: Path, keep: int = KEEP) -> None:
    """Remove all but the ``keep`` newest cache folders of ``root``; ``current`` stays."""

    def mtime(folder: Path) -> float:
        try:
            return folder.stat().st_mtime
        except OSError:  # removed meanwhile by another process
            return 0.0

    folders = sorted((p for p in root.glob("numba-*") if p != current), key=mtime, reverse=True)
    for old in folders[keep - 1 :]:
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
    """Remove the cache folders of every root and return them (the kernels recompile on use)."""
    removed = [p for root in cache_roots() for p in root.glob("numba-*")]
    for folder in removed:
        shutil.rmtree(folder, ignore_errors=True)
    cache_dir.cache_clear()
    return removed
