"""The one place where pinastats fixes its numba options and its compile cache.

Every kernel module imports :func:`jit` from here instead of ``numba.njit``:

* compiled machine code is cached on disk (:mod:`pinastats._cache`), so only the first run on a
  machine pays the compile time (a CLI call then starts warm);
* ``nogil=True`` lets threads (Dask workers, notebooks) run kernels side by side;
* ``error_model="numpy"`` gives NumPy semantics for division (no Python
  ``ZeroDivisionError`` checks in the hot loops);
* ``boundscheck`` stays off; the Python API validates every array before a
  kernel sees it.

The compile cache (a folder keyed by a digest of every kernel source, never
stale) is :mod:`pinastats._cache`, which imports no numba.
"""

from __future__ import annotations

import contextlib
import inspect
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar, cast

import numba
from numba.core import types
from numba.core.caching import CompileResultCacheImpl, FunctionCache, _CacheLocator
from numba.core.dispatcher import Dispatcher

from pinastats._cache import DIGEST as DIGEST
from pinastats._cache import KEEP as KEEP
from pinastats._cache import PACKAGE_DIR as PACKAGE_DIR
from pinastats._cache import _prune as _prune
from pinastats._cache import cache_dir as cache_dir
from pinastats._cache import cache_roots as cache_roots
from pinastats._cache import clear_cache as clear_cache
from pinastats._cache import kernel_sources as kernel_sources
from pinastats._cache import source_digest as source_digest

F = TypeVar("F", bound=Callable[..., Any])

_OPTIONS: dict[str, Any] = {"nogil": True, "error_model": "numpy"}


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
