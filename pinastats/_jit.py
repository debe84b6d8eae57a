"""The one place where pinastats sets its numba options, and the only one using numba internals.

Every kernel module takes its decorator from here (:func:`jit`, :func:`jit_flat`,
:func:`jit_inline`), which compiles in nopython mode with:

* ``cache=True`` in the digest-keyed folder of :mod:`pinastats._cache` (never
  stale), so only the first run on a machine pays the compile time;
* ``nogil=True``, so that threads (Dask workers, notebooks) run kernels side by side;
* ``error_model="numpy"``: NumPy semantics for division (no Python
  ``ZeroDivisionError`` checks in the hot loops);
* ``boundscheck`` off: the Python API validates every array before a kernel sees it.

numba internals used here, and nowhere else (``tests/test_jit.py`` names the
numba version when one of them changes): the ``_nrt`` option (:func:`jit_flat`),
``Dispatcher.get_call_template`` (:func:`_plain_types`), a dispatcher's
``_cache._cache_file._index_path`` (:func:`cache_is_warm`), and
``numba.config.SLP_VECTORIZE`` and ``Dispatcher.compile`` (:func:`jit_lanes`).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from typing import Any, TypeVar, cast

import numba
from numba.core import types
from numba.core.dispatcher import Dispatcher

from pinastats._cache import cache_dir

F = TypeVar("F", bound=Callable[..., Any])

_OPTIONS: dict[str, Any] = {"nogil": True, "error_model": "numpy"}
_CONFIG = threading.Lock()  # numba.config is global: one kernel decorated at a time
_VECTORIZE = threading.RLock()  # one compile with the SLP vectorizer at a time (they nest)


def cache_is_warm(kernels: Iterable[Callable[..., Any]]) -> bool:
    """Whether every kernel of ``kernels`` (made by :func:`jit`) can start without compiling.

    True when the kernel is compiled in this process already, or numba's index
    file of it is in :func:`~pinastats._cache.cache_dir` (the folder is
    digest-keyed, so a file there is never stale). Compiles and loads nothing.
    Without a writable cache folder every process compiles: cold. Under
    ``NUMBA_DISABLE_JIT`` nothing compiles: warm.
    """
    for kernel in kernels:
        if isinstance(kernel, Dispatcher) and not kernel.signatures:
            cache_file = getattr(getattr(kernel, "_cache", None), "_cache_file", None)
            if cache_file is None or not os.path.exists(cache_file._index_path):
                return False
    return True


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
    """``numba.njit`` with :data:`_OPTIONS`, cached in :func:`~pinastats._cache.cache_dir`.

    numba's cache locator reads ``numba.config.CACHE_DIR`` as the kernel is
    decorated: it is set for that moment only (and a user's
    ``NUMBA_CACHE_LOCATOR_CLASSES`` set aside), so kernels of other libraries
    cache as before.
    """
    folder = cache_dir()
    config: Any = numba.config  # its settings are set at import, unknown to type checkers
    with _CONFIG:
        saved = config.CACHE_DIR, getattr(config, "CACHE_LOCATOR_CLASSES", "")
        config.CACHE_DIR, config.CACHE_LOCATOR_CLASSES = str(folder or ""), ""
        try:  # nowhere to write: compile in every process rather than risk stale code
            disp = numba.njit(cache=folder is not None, **_OPTIONS, **options)(func)
        finally:
            config.CACHE_DIR, config.CACHE_LOCATOR_CLASSES = saved
    if isinstance(disp, Dispatcher):  # else NUMBA_DISABLE_JIT: the Python function
        _plain_types(disp)
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


def jit_lanes(func: F) -> F:
    """Like :func:`jit_flat`, compiled with LLVM's SLP vectorizer on.

    For kernels that work on several independent lanes at once, written as
    tuples of one value per lane (:mod:`pinastats._engine.solve`): the
    vectorizer packs each tuple's arithmetic into SIMD instructions (measured:
    the solver's turn DP on 8 boards at once costs 3 times less per board than
    one board at a time). numba leaves the vectorizer off by default
    (``NUMBA_SLP_VECTORIZE``); it is set for this kernel's compile only. It
    reorders no arithmetic (no fast-math), so every value is the one a
    scalar loop gives.
    """
    disp = _compile(func, _nrt=False)
    if isinstance(disp, Dispatcher):
        compile_ = disp.compile

        def compile(sig: Any) -> Any:
            config: Any = numba.config
            with _VECTORIZE:
                saved = config.SLP_VECTORIZE
                config.SLP_VECTORIZE = 1
                try:
                    return compile_(sig)
                finally:
                    config.SLP_VECTORIZE = saved

        disp.compile = compile  # type: ignore[method-assign]
    return disp


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
