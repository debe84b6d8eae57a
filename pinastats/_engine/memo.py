# mypy: disallow-untyped-defs=False, disallow-untyped-calls=False
"""The memo of prepared turns: a turn solved once is read back, not solved again (private).

A play-out replays the same few positions many times: every play-out of a
placement starts with the same turn, and the next turns branch on few
placements. Preparing a turn (:func:`~pinastats._engine.decide._prepare_turn`:
the agent's value of each open cell, then the turn DP) depends on the position
only through its *key* (:func:`_turn_key`), so a
:class:`~pinastats._engine.work.TurnMemo` keeps the prepared turn of recent
keys in a table of ``slots`` entries, ``slots`` a power of two: the entry of a
key is ``hash(key) mod slots``, and a new key there replaces the old one. An
entry is read back only when its key and the agent's kind and parameter vector
are equal to the last bit, so a memoised turn is the same double for double as
one solved again (tested), and games do not depend on the memo.

The key covers what ``ev`` and ``strategic`` read of the position, and only
those kinds are memoised (:func:`_keyed`): ``value``'s turn reads the network,
whose features are the whole position (every seat's score and reserve, the
turn count), so it is solved every time, memo or not.
"""

from __future__ import annotations

import math

from pinastats._engine.kinds import K_EV, K_STRATEGIC
from pinastats._jit import jit_inline

KEY_HEAD = 5
"""Key words before the cells': kind, seat, the seat's score and reserve, the trigger."""

KEY_PER_CELL = 4
"""Key words of a cell: its coaster, its side, the seats on its two token spaces."""

EMPTY = -1
"""The key words of an entry that holds nothing (a kind is never negative)."""

_MULT = 0x9E3779B97F4A7C15 - (1 << 64)  # the golden-ratio constant, as an int64
_MIX = 0x94D049BB133111EB - (1 << 64)


@jit_inline
def _keyed(kind):
    """Whether the key (:func:`_turn_key`) covers all that ``kind``'s prepared turn reads.

    True for ``ev`` and ``strategic``; ``value`` reads every seat's score and
    reserve and the turn count (the network's features), which the key leaves
    out, so its turns are never memoised.
    """
    return (kind == K_EV) | (kind == K_STRATEGIC)


@jit_inline
def _turn_key(kind, game, seat, key):
    """Write into ``key`` what a prepared turn of ``seat`` reads of ``game``; return its hash.

    That is the agent's kind, the seat, its score and reserve (the race and the
    Happy Hour lottery), the trigger, and every cell's coaster, side and
    tokens. The rest of the state (the other seats' scores and reserves, the
    turn count, the recency clock) plays no part in the values of an ``ev`` or
    ``strategic`` turn: a test changes each of them and solves the turn again.
    It does in ``value``'s, which is therefore never keyed (:func:`_keyed`).
    """
    player = game.players[seat]
    key[0] = kind
    key[1] = seat
    key[2] = player.score
    key[3] = player.reserve
    key[4] = game.status[0].trigger
    spaces = game.spaces
    for c in range(game.cell_coaster.shape[0]):
        at = KEY_HEAD + KEY_PER_CELL * c
        key[at] = game.cell_coaster[c]
        key[at + 1] = game.cell_side[c]
        key[at + 2] = spaces[c, 0]
        key[at + 3] = spaces[c, 1]
    h = 0
    for i in range(key.shape[0]):
        h = (h ^ key[i]) * _MULT
    return h ^ ((h >> 32) * _MIX)


@jit_inline
def _memo_slot(memo, h):
    """The entry of a key whose hash is ``h`` (``slots`` is a power of two)."""
    return h & (memo.keys.shape[0] - 1)


@jit_inline
def _memo_holds(memo, slot, params):
    """Whether entry ``slot`` holds the turn of ``memo.key`` for the parameters ``params``."""
    keys = memo.keys
    key = memo.key
    for i in range(key.shape[0]):
        if keys[slot, i] != key[i]:
            return False
    for i in range(params.shape[0]):
        kept = memo.params[slot, i]
        # equal doubles, and the same sign of zero: -0.0 == 0.0, yet a value may carry it
        if kept != params[i] or math.copysign(1.0, kept) != math.copysign(1.0, params[i]):
            return False
    return True


@jit_inline
def _memo_read(memo, slot, keep_value, cell_value):
    """Copy entry ``slot``'s keep values (its rows) and cell values into the workspace's."""
    kept = memo.keep_value
    for r in range(kept.shape[1]):
        for k in range(kept.shape[2]):
            keep_value[r, k] = kept[slot, r, k]
    for c in range(cell_value.shape[0]):
        cell_value[c] = memo.cell_value[slot, c]
    memo.counts[0] += 1


@jit_inline
def _memo_write(memo, slot, params, keep_value, cell_value):
    """Make entry ``slot`` hold ``memo.key``'s turn: the keep values and cell values given."""
    key = memo.key
    for i in range(key.shape[0]):
        memo.keys[slot, i] = key[i]
    for i in range(params.shape[0]):
        memo.params[slot, i] = params[i]
    kept = memo.keep_value
    for r in range(kept.shape[1]):
        for k in range(kept.shape[2]):
            kept[slot, r, k] = keep_value[r, k]
    for c in range(cell_value.shape[0]):
        memo.cell_value[slot, c] = cell_value[c]
    memo.counts[1] += 1
