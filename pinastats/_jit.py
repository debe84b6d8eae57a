"""The one place where pinastats fixes its numba options.

Every kernel module imports :func:`jit` from here instead of ``numba.njit``:

* ``cache=True`` writes compiled machine code next to the sources, so only the
  first run on a machine pays the compile time (a CLI call then starts warm);
* ``nogil=True`` lets threads (Dask workers, notebooks) run kernels side by side;
* ``error_model="numpy"`` gives NumPy semantics for division (no Python
  ``ZeroDivisionError`` checks in the hot loops);
* ``boundscheck`` stays off; the Python API validates every array before a
  kernel sees it.

numba's cache is keyed on each kernel's own source file: a kernel that calls
(or inlines) a kernel of another module keeps its old machine code after that
module is edited. When changing kernels, clear the caches with
``find pinastats -name '*.nb[ic]' -delete``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numba

F = TypeVar("F", bound=Callable[..., Any])

_OPTIONS: dict[str, Any] = {"cache": True, "nogil": True, "error_model": "numpy"}


def jit(func: F) -> F:
    """Compile ``func`` in nopython mode with the package-wide options."""
    return numba.njit(**_OPTIONS)(func)  # type: ignore[no-any-return]


def jit_inline(func: F) -> F:
    """Like :func:`jit`, inlined into its callers at numba IR level.

    For the small helpers called in the hot loops with the board and game
    tuples: a real call would pass every array of the tuples and pay a
    reference-count increment and decrement on each (measured: ~100 ns per
    call, ten times the work of the helper).
    """
    return numba.njit(inline="always", **_OPTIONS)(func)  # type: ignore[no-any-return]
