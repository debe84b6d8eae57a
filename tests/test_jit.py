"""The numba internals ``pinastats._jit`` relies on still behave as it expects.

Each failure names the installed numba version: a numba upgrade that changes
one of them has to be met in ``pinastats/_jit.py``.
"""

from __future__ import annotations

import inspect
import os
from pathlib import Path
from typing import Any

import numba
import numpy as np
import pytest
from numba.core import types
from numba.core.dispatcher import Dispatcher

from pinastats import _jit

NUMBA = f"numba {numba.__version__}"


def _double(x: Any) -> Any:
    return 2 * x


def _zeros(n: Any) -> Any:
    return np.zeros(n)


@pytest.fixture
def no_disk_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Kernels made here compile in this process only."""
    monkeypatch.setattr(_jit, "cache_dir", lambda: None)


def _compiles(kernel: Any, *args: Any) -> bool:
    try:
        kernel(*args)
    except numba.core.errors.TypingError:
        return False
    return True


def test_jit_flat_turns_reference_counting_off(no_disk_cache: None) -> None:
    assert _compiles(_jit.jit(_zeros), 2)
    assert not _compiles(_jit.jit_flat(_zeros), 2), (  # allocating needs numba's NRT
        f"{NUMBA}: the _nrt=False option of jit_flat no longer turns the NRT off"
    )


def test_kernels_compile_once_per_plain_signature(no_disk_cache: None) -> None:
    params = list(inspect.signature(Dispatcher.get_call_template).parameters)
    assert params == ["self", "args", "kws"], f"{NUMBA}: Dispatcher.get_call_template{params}"
    add: Any = _jit.jit(lambda a, b: a + b)
    calls: Any = numba.njit(lambda x: add(x, -1) + add(x, 2) + add(x, True))
    assert calls(3) == 2 + 5 + 4
    literal = [t for signature in add.signatures for t in signature if isinstance(t, types.Literal)]
    assert literal == [], f"{NUMBA}: _plain_types no longer keeps literal types out"
    assert len(add.signatures) == 2  # (int64, int64) and (int64, bool)


def test_a_kernel_without_a_disk_cache_is_cold_until_compiled(no_disk_cache: None) -> None:
    double = _jit.jit(_double)  # no cache on disk: every process compiles it
    assert not _jit.cache_is_warm([double])
    assert double(4) == 8
    assert _jit.cache_is_warm([double])  # compiled in this process


def test_a_cached_kernel_is_warm_once_numba_wrote_its_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_jit, "cache_dir", lambda: tmp_path)
    double: Any = _jit.jit(_double)
    assert Path(double.stats.cache_path).parent == tmp_path
    assert not _jit.cache_is_warm([double])
    assert double(4) == 8
    assert _jit.cache_is_warm([_jit.jit(_double)]), (  # a new dispatcher: compiled nothing yet
        f"{NUMBA}: cache_is_warm no longer finds numba's index file "
        "(Dispatcher._cache._cache_file._index_path)"
    )
    config: Any = numba.config  # set while a kernel is decorated only
    assert os.environ.get("NUMBA_CACHE_DIR", "") == config.CACHE_DIR
