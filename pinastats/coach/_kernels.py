"""Numba kernels of the coach: play-outs to the end, and the keep of every hand (private).

A play-out starts from an outcome position (the state after the mover's turn),
plays every seat with one built-in one-turn agent (``kind``, ``params``) with
the engine's play-out loop :func:`pinastats.agents._rollout._play_to_end`, and
scores the game for one seat: 1 for a win, 1/2 for no winner (a draw or the
turn limit), 0 for a loss.
"""

from __future__ import annotations

from typing import Any

from pinastats._jit import jit
from pinastats.agents._rollout import _play_to_end
from pinastats.dice._kernels import _best_keep
from pinastats.game._kernels import _copy_game
from pinastats.game._random import _seed_stream


@jit
def _play_outs(
    kind: int, params: Any, board: Any, start: Any, tables: Any, work: Any, rng: Any,
    seeds: Any, seat: int, out: Any,
) -> None:  # fmt: skip
    """``out[i]``: the :func:`_result` for ``seat`` of a play-out of ``start`` to the end.

    Play-out ``i`` copies ``start`` (a game still running) into ``work.playout``
    and draws from the stream of ``rng`` (an :class:`~pinastats.game._random.Rng`
    with ``use_stream``) reseeded with ``seeds[i]``: whatever the start,
    play-out ``i`` sees the same numbers.
    """
    game = work.playout
    for i in range(seeds.shape[0]):
        _seed_stream(rng.stream, seeds[i])
        _copy_game(start, game)
        out[i] = _play_to_end(kind, params, board, game, tables, work, rng, seat)


@jit
def _best_keeps(
    keep_value: Any, hand_keep_ptr: Any, hand_keep: Any, keep_size: Any, out: Any
) -> None:
    """``out[h]``: the keep the dice layer's keep rule plays from hand ``h`` (``keep_value``)."""
    for h in range(out.shape[0]):
        out[h] = _best_keep(keep_value, hand_keep_ptr, hand_keep, keep_size, h)
