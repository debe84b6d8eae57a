"""The dice part of a turn in progress, as a public object: rolls, keeps, what is left.

A turn rolls the five dice, then up to ``rolls - 1`` times keeps some of them
and re-rolls the others; keeping all five stops. :class:`Turn` records that
sequence. It draws through the engine's own roll kernel
(:func:`pinastats._engine.rules._roll`: each re-rolled die is
``floor(6 u) + 1``, ``u = rng.random()``, in order), so a turn played here
with a generator draws exactly what the simulator draws with it.

The exact distribution of a re-roll comes from the dice layer: re-rolling the
``n = 5 - |k|`` dice not in keep ``k`` gives the sorted hand ``k + r`` with
probability ``w_n(r) / 6**n``, ``w_n(r) = n! / prod(r_f!)`` (:func:`keep_outcomes`).

>>> import numpy as np
>>> from pinastats.game.game import Game
>>> game = Game.new(players=2, seed=1)
>>> turn = Turn.start(game, np.random.default_rng(0))
>>> turn.rolls_used, turn.rolls_left
(1, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

import numpy as np

from pinastats import _engine as E
from pinastats.dice.hands import (
    N_DICE,
    check_dice,
    check_keep,
    dice_tables,
    hand_index_by_dice,
    hand_tuples,
    keep_index_by_dice,
    key_to_hand,
)
from pinastats.errors import PinastatsError
from pinastats.game.game import Game, IllegalMoveError

Dice = tuple[int, ...]


def roll_dice(rng: np.random.Generator, keep: Sequence[int] = ()) -> Dice:
    """Keep ``keep`` (0 to 5 dice), roll the others with the engine's kernel; the sorted hand."""
    index = keep_index_by_dice().get(keep) if isinstance(keep, tuple) else None
    if index is None:
        index = dice_tables().keep_index(keep)
    t = dice_tables()
    return hand_tuples()[E.roll(rng, t.keep_counts, key_to_hand(), index)]


@cache
def _distinct_keeps(hand: int) -> tuple[Dice, ...]:
    t = dice_tables()
    keeps = t.hand_keep[t.hand_keep_ptr[hand] : t.hand_keep_ptr[hand + 1]]
    return tuple(t.keep_of(int(k)) for k in keeps)


@cache
def _keep_set(hand: int) -> frozenset[Dice]:
    return frozenset(_distinct_keeps(hand))


def part_of(keep: Sequence[int], dice: Sequence[int]) -> bool:
    """Whether the dice ``keep`` are among ``dice``, as many of each face: kept from that roll.

    >>> part_of([4, 4], [1, 4, 4, 6, 2]), part_of([4, 4], [1, 4, 2, 6, 5])
    (True, False)
    """
    rest = list(dice)
    for d in keep:
        if d not in rest:
            return False
        rest.remove(d)
    return True


def checked_keep(keep: Sequence[int], dice: Dice) -> Dice:
    """``keep`` sorted, checked to be part of the sorted hand ``dice`` (a clear error if not)."""
    if isinstance(keep, tuple | list) and all(type(d) is int for d in keep):
        kept = tuple(sorted(keep))
        if kept in _keep_set(hand_index(dice)):
            return kept
    return check_keep(keep, dice)


def check_rerolls_left(game: Game, rolls_left: int) -> int:
    """Validate the re-rolls still allowed in the mover's turn: 1 to ``rules.rolls - 1``."""
    rolls = game.config.rules.rolls
    if (
        isinstance(rolls_left, bool)
        or not isinstance(rolls_left, int | np.integer)
        or not 1 <= rolls_left <= rolls - 1
    ):
        raise PinastatsError(
            f"rolls left must be a whole number from 1 to {rolls - 1} (re-rolls still "
            f"allowed this turn), got {rolls_left!r}"
        )
    return int(rolls_left)


def hand_index(dice: Sequence[int]) -> int:
    """The dice layer's index of five dice (a table lookup for sorted tuples of ints)."""
    index = hand_index_by_dice().get(dice) if isinstance(dice, tuple) else None
    return dice_tables().hand_index(dice) if index is None else index


def distinct_keeps(dice: Sequence[int]) -> tuple[Dice, ...]:
    """Every distinct keep of five dice, from the empty keep to all five (= stop).

    A hand with face counts ``c`` has ``prod(c_f + 1)`` distinct keeps (32 when
    the five dice differ), in the dice layer's keep order.

    >>> len(distinct_keeps([1, 2, 3, 4, 5])), distinct_keeps([6, 6, 6, 6, 6])[:2]
    (32, ((), (6,)))
    """
    return _distinct_keeps(hand_index(dice))


@cache
def _keep_outcomes(keep: int) -> tuple[tuple[Dice, int], ...]:
    t = dice_tables()
    lo, hi = t.keep_ptr[keep], t.keep_ptr[keep + 1]
    hands, weights = t.keep_hand[lo:hi], t.keep_weight[lo:hi]
    return tuple((t.hand_of(int(h)), int(w)) for h, w in zip(hands, weights, strict=True))


def keep_outcomes(keep: Sequence[int]) -> tuple[tuple[Dice, Fraction], ...]:
    """The sorted hands a re-roll after ``keep`` reaches, with their exact probabilities.

    The probabilities sum to 1; keeping all five dice reaches that hand surely.

    >>> keep_outcomes([1, 2, 3, 4])[:2]
    (((1, 1, 2, 3, 4), Fraction(1, 6)), ((1, 2, 2, 3, 4), Fraction(1, 6)))
    """
    kept = check_keep(keep)
    total = 6 ** (N_DICE - len(kept))
    index = dice_tables().keep_index(kept)
    return tuple((hand, Fraction(w, total)) for hand, w in _keep_outcomes(index))


@dataclass
class Turn:
    """The dice of one turn so far, roll by roll, and the keeps between the rolls.

    ``rolls[i]`` holds the sorted dice after roll ``i + 1``, ``keeps[i]`` the dice
    kept before roll ``i + 2``. Build it with :meth:`start` (or :meth:`from_dice`
    for given dice); then :meth:`keep` re-rolls the dice not kept. The turn's
    token (or pass, or Happy Hour) is played on the
    :class:`~pinastats.game.game.Game` with :attr:`dice`.
    """

    player: int
    rolls_allowed: int
    rolls: list[Dice] = field(default_factory=list)
    keeps: list[Dice] = field(default_factory=list)
    stopped: bool = False

    @classmethod
    def start(cls, game: Game, rng: np.random.Generator) -> Turn:
        """The mover's turn, with the five dice rolled from ``rng`` (the engine's draws)."""
        return cls.from_dice(game, roll_dice(rng))

    @classmethod
    def from_dice(cls, game: Game, dice: Sequence[int]) -> Turn:
        """The mover's turn, its first roll showing ``dice`` (five dice 1-6)."""
        if game.is_over:
            raise IllegalMoveError(f"the game is over: {game.end_reason}; no turn to play")
        hand = tuple(dice)
        if hand not in hand_index_by_dice():
            hand = check_dice(dice)
        return cls(game.to_move, game.config.rules.rolls, [hand])

    @property
    def dice(self) -> Dice:
        """The dice showing now (sorted)."""
        return self.rolls[-1]

    @property
    def rolls_used(self) -> int:
        """How many times the dice were rolled."""
        return len(self.rolls)

    @property
    def rolls_left(self) -> int:
        """Re-rolls still allowed (0 once the turn stopped)."""
        return 0 if self.stopped else self.rolls_allowed - self.rolls_used

    @property
    def is_done(self) -> bool:
        """Whether the dice are final: the turn stopped or used all its rolls."""
        return self.rolls_left == 0

    def distinct_keeps(self) -> tuple[Dice, ...]:
        """The keeps allowed now (all five = stop); empty once the dice are final."""
        return () if self.is_done else distinct_keeps(self.dice)

    def _kept(self, keep: Sequence[int]) -> Dice:
        if self.is_done:
            why = "stopped" if self.stopped else f"used all {self.rolls_allowed} rolls"
            raise IllegalMoveError(f"no re-roll left: the turn {why}")
        return checked_keep(keep, self.dice)

    def keep(self, keep: Sequence[int], rng: np.random.Generator) -> Dice:
        """Keep ``keep`` (part of the dice) and re-roll the others from ``rng``; the new dice.

        Keeping all five dice stops the turn and draws nothing.
        """
        kept = self._kept(keep)
        if kept == self.dice:
            self.stopped = True
            return self.dice
        return self._record(kept, roll_dice(rng, kept))

    def keep_to(self, keep: Sequence[int], dice: Sequence[int]) -> Dice:
        """Keep ``keep`` and record the re-roll's outcome ``dice`` (which must contain it)."""
        kept = self._kept(keep)
        if kept == self.dice:
            self.stopped = True
            return self.dice
        new = tuple(dice)
        if new not in hand_index_by_dice():
            new = check_dice(dice)
        checked_keep(kept, new)
        return self._record(kept, new)

    def _record(self, kept: Dice, dice: Dice) -> Dice:
        self.keeps.append(kept)
        self.rolls.append(dice)
        return dice

    def __deepcopy__(self, memo: dict[int, object]) -> Turn:
        # dice and keeps are tuples of ints: copying the lists is a deep copy
        return Turn(
            self.player, self.rolls_allowed, list(self.rolls), list(self.keeps), self.stopped
        )

    def check(self, game: Game) -> None:
        """Raise unless this turn belongs to the mover of ``game``."""
        if game.to_move != self.player:
            raise PinastatsError(
                f"this turn is seat {self.player}'s, but seat {game.to_move} is to move"
            )
