"""The one place where pinastats fixes its numba options and its compile cache.

Every kernel module imports :func:`jit` from here instead of ``numba.njit``:

* compiled machine code is cached on disk (below), so only the first run on a
  machine pays the compile time (a CLI call then starts warm);
* ``nogil=True`` lets threads (Dask workers, notebooks) run kernels side by side;
* ``error_model="numpy"`` gives NumPy semantics for division (no Python
  ``ZeroDivisionError`` checks in the hot loops);
* ``boundscheck`` stays off; the Python API validates every array before a
  kernel sees it.

Why the cache is keyed by one digest. numba's own cache (``cache=True``) stamps
each kernel with its own source file only, but a kernel's machine code also
holds every kernel it inlines or calls from other modules and every module
constant it reads (the ``K_*`` agent kinds of :mod:`pinastats.agents._kernels`,
the rule codes of :mod:`pinastats.game.rules`): after an edit or an upgrade of
one of those, numba would load the old code. Here the cache of
all kernels lives in one folder named by a digest of everything they are
compiled from::

    D = sha256(Python, numba, NumPy versions; (path, bytes) of each source)

over the kernel modules (every module of the package importing ``_jit``, found
by scanning, so a new kernel module counts at once), this file and the package
modules they import, transitively. Any edit there gives a new folder: a cold but
never stale cache. numba still keys each entry by the kernel's bytecode,
signature and CPU. Scanning the package (~50 files) and hashing its kernel
sources costs 2-3 ms at import.

The folder is ``numba-<D>`` in the first writable root of :func:`cache_roots`:
``$NUMBA_CACHE_DIR/pinastats`` when the user set it, the package's
``__pycache__``, the per-user cache directory; with none writable the kernels
compile in every process. Each process marks its folder as the newest and
prunes its root to the :data:`KEEP` newest, so upgrades do not pile up caches;
:func:`clear_cache` removes them all. The folder is found by a locator of our
own (:class:`_DigestLocator`) set on each kernel's dispatcher, so numba's global
list of locators (and ``NUMBA_CACHE_LOCATOR_CLASSES``) is neither changed nor
consulted, and kernels of other libraries cache as before.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import inspect
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar, cast

import numba
import numpy as np
from numba.core import config, types
from numba.core.caching import CompileResultCacheImpl, FunctionCache, _CacheLocator
from numba.core.dispatcher import Dispatcher
from numba.misc.appdirs import AppDirs

F = TypeVar("F", bound=Callable[..., Any])

_OPTIONS: dict[str, Any] = {"nogil": True, "error_model": "numpy"}

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
    """The module files of ``package`` by dotted name (``pinastats.game._state``)."""
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
    h = hashlib.sha256("\0".join((sys.version, numba.__version__, np.__version__)).encode())
    files = _kernel_files(package)
    start = len(str(package)) + 1
    for path in sorted(files):  # paths relative to the package: a copy has the same digest
        h.update(b"\0" + path[start:].replace(os.sep, "/").encode() + b"\0" + files[path])
    return h.hexdigest()[:20]


DIGEST = source_digest()
"""The digest of the installed kernel sources (computed once, at import)."""


def cache_roots() -> list[Path]:
    """The folders that may hold ``numba-<digest>`` cache folders, in order of preference."""
    roots = [
        PACKAGE_DIR / "__pycache__",
        Path(AppDirs("pinastats", appauthor=False).user_cache_dir),  # type: ignore[no-untyped-call]
    ]
    user_dir: str = config.CACHE_DIR  # type: ignore[attr-defined]  # NUMBA_CACHE_DIR
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


def cache_is_warm(kernels: Iterable[Callable[..., Any]]) -> bool:
    """Whether every kernel of ``kernels`` (made by :func:`jit`) can start without compiling.

    True when the kernel is compiled in this process already, or its index file
    (``<module>.<name>-<line>.py<version>.nbi``) is in :func:`cache_dir` (the folder
    is digest-keyed, so a file there is never stale). Compiles and loads nothing.
    Without a writable cache folder every process compiles: cold. Under
    ``NUMBA_DISABLE_JIT`` nothing compiles: warm.
    """
    for kernel in kernels:
        if not isinstance(kernel, Dispatcher) or kernel.signatures:
            continue
        cache_file = getattr(getattr(kernel, "_cache", None), "_cache_file", None)
        index: str | None = getattr(cache_file, "_index_path", None)
        if index is None or not os.path.exists(index):
            return False
    return True


class _DigestLocator(_CacheLocator):
    """Caches the kernels of module ``pkg/a/b.py`` in ``numba-<digest>/a/``.

    The subfolder keeps the ``_kernels.py`` of different subpackages apart
    (numba names cache files after the file's base name, qualname and line).
    """

    def __init__(self, py_func: Callable[..., Any], py_file: str, folder: Path) -> None:
        self._py_file = py_file  # numba's cachability warning reads it
        self._lineno = py_func.__code__.co_firstlineno
        sub = Path(py_file).resolve().parent.relative_to(PACKAGE_DIR)
        self._cache_path = str(folder / sub)

    def get_cache_path(self) -> str:
        return self._cache_path

    def get_source_stamp(self) -> str:
        return DIGEST

    def get_disambiguator(self) -> str:
        return str(self._lineno)


class _KernelCacheImpl(CompileResultCacheImpl):
    """numba's cache of compile results, located by :class:`_DigestLocator` only."""

    def __init__(self, py_func: Callable[..., Any]) -> None:
        folder = cache_dir()
        if folder is None:
            raise RuntimeError("no writable pinastats cache folder")
        py_file = inspect.getfile(py_func)
        self._lineno = py_func.__code__.co_firstlineno
        self._locator = _DigestLocator(py_func, py_file, folder)
        self._locator.ensure_cache_path()
        fullname = f"{Path(py_file).stem}.{py_func.__qualname__}"
        abiflags = getattr(sys, "abiflags", "")
        self._filename_base = self.get_filename_base(fullname, abiflags)  # type: ignore[no-untyped-call]


class _KernelCache(FunctionCache):
    _impl_class = _KernelCacheImpl


def _plain_types(disp: Dispatcher) -> None:
    """Make ``disp`` compile for the plain types of the arguments it gets from other kernels.

    numba types a constant argument of a call between kernels (``K_STRATEGIC``,
    ``-1``, ``False``) as a literal, and compiles the callee, and every kernel it
    calls in turn, once more for that literal. The kernels never branch on the
    type of a value, so one compile per plain signature serves every call.
    """
    resolve = disp.get_call_template

    def get_call_template(args: Any, kws: Any) -> Any:
        unliteral: Callable[[Any], Any] = types.unliteral
        return resolve([unliteral(a) for a in args], {k: unliteral(v) for k, v in kws.items()})

    disp.get_call_template = get_call_template  # type: ignore[method-assign]


def _compile(func: F, **options: Any) -> F:
    """``numba.njit`` with :data:`_OPTIONS` and the digest-keyed cache."""
    disp = numba.njit(**_OPTIONS, **options)(func)
    if not isinstance(disp, Dispatcher):  # NUMBA_DISABLE_JIT: the Python function
        return disp  # type: ignore[no-any-return]
    _plain_types(disp)
    if Path(inspect.getfile(func)).resolve().is_relative_to(PACKAGE_DIR):
        # nowhere to write: compile in every process rather than risk stale code
        with contextlib.suppress(OSError, RuntimeError):
            disp._cache = _KernelCache(disp.py_func)  # type: ignore[attr-defined,no-untyped-call]
    else:  # a kernel outside the package: numba's own cache
        disp.enable_caching()
    return cast(F, disp)


def jit(func: F) -> F:
    """Compile ``func`` in nopython mode with the package-wide options."""
    return _compile(func)


def jit_flat(func: F) -> F:
    """Like :func:`jit`, without numba's reference counting (``_nrt=False``).

    For the kernels of the game loop: every array they touch belongs to the
    caller, who keeps it alive, so counting references only costs an atomic
    increment and decrement per array and per helper (measured: 2.5 times the
    work of a random agent's turn, and a cache line shared between threads).
    Such a kernel cannot allocate: ``np.zeros``, ``.copy()`` or an array
    assignment inside it fail to compile ("NRT required but not enabled").

    Calls between these kernels are real calls, with no counting to pay: each
    kernel compiles once per signature, and LLVM inlines the small callees
    where that pays (it links every callee into the caller's module first).
    """
    return _compile(func, _nrt=False)


def jit_inline(func: F) -> F:
    """Like :func:`jit`, inlined into its callers at numba IR level.

    The body is copied into every caller before typing, and each caller is then
    typed and optimised with it: no call, and the caller's loop-invariant reads
    (the board's and the tables' arrays) are hoisted out of its loop. For the
    leaf helpers, and for the layers of the turn (``_play_turn``,
    ``_turn_dice``, ``_turn_finish``, the rules they apply) that a game loop
    runs once per turn: a real call there costs more than a random agent's turn
    (measured: 17 µs CPU per random game instead of 11). Every copy compiles
    again, so the agents' decisions and the play-outs stay real
    (:func:`jit_flat`) calls, compiled once: inlining those too took the game
    loop 140 CPU seconds to compile.
    """
    return _compile(func, inline="always")
