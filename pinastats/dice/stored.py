"""Solved turns of the named targets, kept in the compile cache folder between runs.

``pinastats optimal-hold`` answers one target at a time; solving it takes
microseconds, but starting numba to do so takes most of a second. So the
command keeps each named target's solution (:func:`save_solution`) and a later
run reads it back (:func:`load_solution`) without importing numba.

A solution is stored under ``solutions/`` of :func:`pinastats._cache.cache_dir`,
a folder named by the digest of every kernel source and of the Python, numba
and NumPy versions, in a file named by the SHA-256 of the target's values per
hand, the rolls, the holds and the sources that turn the kernel's output into a
:class:`~pinastats.dice.solver.TurnSolution` (this file, ``solver.py``,
``_dp.py``): a change to any of them reads nothing stale. Files are written
whole (:func:`~pinastats._files.written_whole`); one that cannot be read is solved again.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

import numpy as np

from pinastats._cache import cache_dir
from pinastats._files import written_whole
from pinastats.dice.combinations import Combination
from pinastats.dice.hands import N_KEEPS
from pinastats.dice.solver import TurnSolution, check_rolls, target_values

_SOURCES = ("stored.py", "solver.py", "_dp.py")
"""The files of this folder that make a solution out of the kernel's numbers."""


def _path(comb: Combination, rolls: int, sticky: bool) -> Path | None:
    """Where the solution of ``comb`` is kept (None: no writable cache folder)."""
    folder = cache_dir()
    if folder is None:
        return None
    h = hashlib.sha256(b"pinastats turn solution\0")
    h.update(np.ascontiguousarray(target_values(comb), dtype=np.int64).tobytes())
    h.update(f"\0{rolls}\0{bool(sticky)}\0".encode())
    h.update(_sources_digest(Path(__file__).resolve().parent))
    return folder / "solutions" / f"{h.hexdigest()[:32]}.npz"


@functools.cache
def _sources_digest(folder: Path) -> bytes:
    """The SHA-256 of the :data:`_SOURCES` in ``folder``, read once per process."""
    h = hashlib.sha256()
    for name in _SOURCES:
        h.update((folder / name).read_bytes())
    return h.digest()


def load_solution(
    comb: Combination, *, rolls: int = 3, sticky: bool = False
) -> TurnSolution | None:
    """The stored solution of ``comb``, or None when none is stored (or it cannot be read)."""
    rolls = check_rolls(rolls)
    path = _path(comb, rolls, sticky)
    if path is None or not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            keep_value = np.array(data["keep_value"], dtype=np.float64)
            numerator = np.array(data["keep_numerator"], dtype=np.int64)
    except (OSError, ValueError, KeyError):
        return None
    if keep_value.shape != (rolls, N_KEEPS) or numerator.shape != keep_value.shape:
        return None
    final = target_values(comb).astype(np.float64)
    for a in (final, keep_value, numerator):
        a.setflags(write=False)
    return TurnSolution(final_value=final, rolls=rolls, sticky=bool(sticky),
                        keep_value=keep_value, keep_numerator=numerator)  # fmt: skip


def save_solution(comb: Combination, solution: TurnSolution) -> Path | None:
    """Keep ``solution`` (of ``comb``) for :func:`load_solution`; return its file, or None.

    Nothing is kept without a writable cache folder, or for a solution whose exact
    values do not fit int64 (more rolls than a target's int64 DP allows).
    """
    numerator = solution.keep_numerator
    path = _path(comb, solution.rolls, solution.sticky)
    if path is None or numerator is None or numerator.dtype != np.int64:
        return None
    try:
        with written_whole(path) as file:
            np.savez(file, keep_value=solution.keep_value, keep_numerator=numerator)
    except OSError:  # the cache is an aid: a solution not kept is solved again
        return None
    return path
