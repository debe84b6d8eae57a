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


def _lane_sums(rows: Any, a: Any, b: Any, out: Any) -> None:
    """``out`` row ``i`` = ``a`` row ``rows[i]`` + ``b`` row ``i`` (rows of 4 lanes)."""
    for i in range(rows.shape[0]):
        j = (rows[i] * 4) & 0x3FFFFFFF  # known non-negative: no wraparound select
        k = (i * 4) & 0x3FFFFFFF
        s0, s1, s2, s3 = a[j] + b[k], a[j + 1] + b[k + 1], a[j + 2] + b[k + 2], a[j + 3] + b[k + 3]
        out[k], out[k + 1], out[k + 2], out[k + 3] = s0, s1, s2, s3


def test_jit_lanes_packs_the_lanes_into_simd_and_leaves_numba_config_alone(
    no_disk_cache: None,
) -> None:
    config: Any = numba.config  # set at import, unknown to type checkers
    assert not config.SLP_VECTORIZE
    kernel: Any = _jit.jit_lanes(_lane_sums)
    rows = np.array([3, 0, 2, 1], dtype=np.int64)
    a, b, out = np.arange(16.0), np.arange(16.0) * 2, np.zeros(16)
    kernel(rows, a, b, out)
    np.testing.assert_array_equal(out, a.reshape(4, 4)[rows].ravel() + b)
    assert not config.SLP_VECTORIZE  # back to numba's default after the compile
    assembly = kernel.inspect_asm(kernel.signatures[0])
    assert "vaddpd" in assembly or "addpd" in assembly, (
        f"{NUMBA}: setting numba.config.SLP_VECTORIZE for one compile no longer vectorizes"
    )
    plain: Any = _jit.jit_flat(_lane_sums)
    plain(rows, a, b, out)
    assert "addpd" not in plain.inspect_asm(plain.signatures[0])  # the option made the difference
