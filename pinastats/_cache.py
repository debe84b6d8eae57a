"""The compile cache of the kernels, and its digest (no numba imported here).

Why the cache is keyed by one digest. numba's own cache (``cache=True``) stamps
each kernel with its own source file only, but a kernel's machine code also
holds every kernel it inlines or calls from other modules and every module
constant it reads (the ``K_*`` agent kinds of :mod:`pinastats._engine.kinds`,
the rule codes of :mod:`pinastats.game.rules`): after an edit or an upgrade of
one of those, numba would load the old code. Here the cache of
all kernels lives in one folder named by a digest of everything they are
compiled from::

    D = sha256(Python, numba, NumPy versions; (path, bytes) of each source)

over the kernel modules (every module of the package importing ``_jit``, found
by scanning, so a new kernel module counts at once), ``_jit.py``, this file
and the package modules they import, transitively. Any edit there gives a new folder: a cold but
never stale cache. numba still keys each entry by the kernel's bytecode,
signature and CPU. Scanning the package (~50 files) and hashing its kernel
sources costs 2-3 ms at import.

The folder is ``numba-<D>`` in the first writable root of :func:`cache_roots`:
``$NUMBA_CACHE_DIR/pinastats`` when the user set it, the package's
``__pycache__``, the per-user cache directory; with none writable the kernels
compile in every process. Each process marks its folder as the newest and
prunes its root to the :data:`KEEP` newest, so upgrades do not pile up caches;
:func:`clear_cache` removes them all. The folder is found by a locator of our
own (:class:`pinastats._jit._DigestLocator`) set on each kernel's dispatcher, so numba's global
list of locators (and ``NUMBA_CACHE_LOCATOR_CLASSES``) is neither changed nor
consulted, and kernels of other libraries cache as before.

:mod:`pinastats._jit` sets this cache on every kernel; the turn solutions of
:mod:`pinastats.dice.stored` are kept in the same folder, so a command that
finds its solution there starts without numba.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
import sys
import tempfile
from importlib import metadata
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
"""The package folder whose kernel sources key the cache."""

KEEP = 3
"""How many ``numba-<digest>`` folders a cache root keeps (the newest)."""

_PREFIX = "numba-"

# top-level `from X import (a, b)`, `from X import a`, `import X`; X absolute or relative
# (kernels read module globals only, and those come from top-level imports). Matched
# after a newline: an `^` under re.M is tried at every byte and ten times slower.
_IMPORTS = re.compile(
    rb"\n(?:from[ \t]+([\w.]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]*)|import[ \t]+([\w.]+))"
)
_MENTIONS_JIT = re.compile(rb"_jit\b")


def _modules(package: Path) -> dict[str, str]:
    """The module files of ``package`` by dotted name (``pinastats._engine.state``)."""
    modules: dict[str, str] = {}
    root = str(package)
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = [d for d in subfolders if d != "__pycache__"]
        prefix = package.name + folder[len(root) :].replace(os.sep, ".")
        for file in files:
            if file.endswith(".py"):
                name = prefix if file == "__init__.py" else f"{prefix}.{file[:-3]}"
                modules[name] = os.path.join(folder, file)
    return modules


def _imports(name: str, path: str, source: bytes, modules: dict[str, str]) -> set[str]:
    """The modules of the package that module ``name`` (file ``path``) imports."""
    found: set[str] = set()
    for absolute, names, plain in _IMPORTS.findall(b"\n" + source):
        module = (absolute or plain).decode()
        if module.startswith("."):  # relative to the package holding `name`
            dots = len(module) - len(module.lstrip("."))
            anchor = name if path.endswith("__init__.py") else name.rpartition(".")[0]
            anchor = anchor.rsplit(".", dots - 1)[0] if dots > 1 else anchor
            module = f"{anchor}.{module.lstrip('.')}".rstrip(".")
        found.add(module)
        if modules.get(module, "").endswith("__init__.py"):  # `from pkg import m`, m a module?
            for item in names.strip(b"()").replace(b"\n", b",").split(b","):
                found.add(f"{module}.{item.split(b' as ')[0].strip().decode()}")
    return found & modules.keys()


def _kernel_files(package: Path) -> dict[str, bytes]:
    """The sources the kernels of ``package`` are compiled from, by file path.

    The kernel modules (those importing ``<package>._jit``), ``_jit.py`` itself
    and every package module they import, transitively.
    """
    modules = _modules(package)
    jit_name = f"{package.name}._jit"
    sources: dict[str, bytes] = {}
    for name, path in modules.items():
        with open(path, "rb") as file:
            sources[name] = file.read()
    imports = {
        name: _imports(name, modules[name], source, modules)
        for name, source in sources.items()
        if _MENTIONS_JIT.search(source)  # cheap filter before parsing (faster than `in`)
    }
    todo = [jit_name, *(name for name, found in imports.items() if jit_name in found)]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name not in seen and name in modules:
            seen.add(name)
            if name not in imports:
                imports[name] = _imports(name, modules[name], sources[name], modules)
            todo.extend(imports[name])
    return {modules[name]: sources[name] for name in seen}


def kernel_sources(package: Path = PACKAGE_DIR) -> list[Path]:
    """The files whose contents key the cache of ``package``'s kernels, sorted."""
    return sorted(Path(path) for path in _kernel_files(package))


def source_digest(package: Path = PACKAGE_DIR) -> str:
    """The digest ``D`` (see the module docstring) of the kernel sources of ``package``."""
    versions = (sys.version, metadata.version("numba"), metadata.version("numpy"))
    h = hashlib.sha256("\0".join(versions).encode())
    files = _kernel_files(package)
    start = len(str(package)) + 1
    for path in sorted(files):  # paths relative to the package: a copy has the same digest
        h.update(b"\0" + path[start:].replace(os.sep, "/").encode() + b"\0" + files[path])
    return h.hexdigest()[:20]


DIGEST = source_digest()
"""The digest of the installed kernel sources (computed once, at import)."""


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
    roots = [PACKAGE_DIR / "__pycache__", user_cache_dir()]
    user_dir = os.environ.get("NUMBA_CACHE_DIR", "")
    if user_dir:
        roots.insert(0, Path(user_dir) / "pinastats")
    return roots


def _prune(root: Path, current: Path, keep: int = KEEP) -> None:
    """Remove all but the ``keep`` newest cache folders of ``root``; ``current`` stays."""

    def mtime(folder: Path) -> float:
        try:
            return folder.stat().st_mtime
        except OSError:  # removed meanwhile by another process
            return 0.0

    folders = [p for p in root.glob(_PREFIX + "*") if p.is_dir() and p != current]
    folders.sort(key=mtime, reverse=True)
    for old in folders[keep - 1 :]:
        shutil.rmtree(old, ignore_errors=True)


@functools.cache
def cache_dir() -> Path | None:
    """The ``numba-<digest>`` folder this process caches kernels in, or None if none is writable.

    Found once per process, which also marks it as the newest of its root and
    prunes the root.
    """
    for root in cache_roots():
        folder = root / (_PREFIX + DIGEST)
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
    """Remove every cache folder of every root (and numba's own per-file cache files).

    Returns the folders and files removed. The kernels recompile on next use.
    """
    removed = [p for root in cache_roots() for p in root.glob(_PREFIX + "*") if p.is_dir()]
    for folder in removed:
        shutil.rmtree(folder, ignore_errors=True)
    legacy = [*PACKAGE_DIR.rglob("__pycache__/*.nbi"), *PACKAGE_DIR.rglob("__pycache__/*.nbc")]
    for path in legacy:
        path.unlink(missing_ok=True)
    cache_dir.cache_clear()
    return removed + legacy
