r"""Advice for the player to move: where to place, and which dice to keep.

The turn is scored by the points of the placement it ends with. For the
player to move, the value of ending the turn with final hand ``h`` is

.. math::

    f(h) = \max_{c \text{ open, } h \text{ shows } c} \bigl(\text{space}(c)
           + \#\{\text{own tokens next to } c\}\bigr), \qquad 0 \text{ if no } c,

where a coaster is *open* when it has a free space, no token of the player,
and the player still has a token in reserve. :func:`placement_values` reads
``f`` off the agents' kernel (the ``ev`` agent's final values), so the rule
is written once. The keep advice is the turn DP of
:func:`pinastats.dice.solve_turn` on ``f``: with ``r`` rolls left, keep ``k``
is worth ``K_r(k)``, the expected points after re-rolling the other dice and
playing on optimally. Points are whole numbers, so every ``K_r`` is an exact
fraction with denominator ``6**(5r)``.

Keeping all five dice is stopping: the turn ends and it is worth ``f(h)``,
the best placement's points for the dice shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from pinastats import _engine as E
from pinastats._arrays import IntArray
from pinastats._engine import DEFAULT_ROLLS
from pinastats.agents.tables import workspace
from pinastats.dice.hands import N_DICE, check_dice
from pinastats.dice.solver import solve_turn
from pinastats.errors import PinastatsError
from pinastats.game.game import Game
from pinastats.game.view import Placement

Dice = tuple[int, ...]

MAX_ROLLS_LEFT = DEFAULT_ROLLS - 1
"""Rolls that can still follow the first roll of a turn (2)."""

_NO_PARAMS = np.zeros(6)  # the ``ev`` kind reads no parameters


def placement_values(game: Game) -> IntArray:
    """``f(h)``: points of the best legal placement of the player to move, per hand.

    ``(252,)`` int64 indexed like :func:`pinastats.dice.dice_tables` hands;
    0 for a hand that matches no open coaster (or when the reserve is empty).

    >>> from pinastats.dice import dice_tables
    >>> board = ["pair of 1s", "pair of 2s", "pair of 3s", "pair of 4s",
    ...          "pair of 5s", "pair of 6s", "double pair", "three 1s",
    ...          "three 2s", "three 3s", "full house", "three 5s",
    ...          "odds", "evens", "small straight", "large straight"]
    >>> f = placement_values(Game.from_board(board))  # 2 players: side A, no tokens yet
    >>> int(f[dice_tables().hand_index([5, 5, 5, 3, 3])])  # full house
    3
    """
    work = workspace(game.config)
    E.final_values(E.K_EV, _NO_PARAMS, game.config.board, game.state, game.to_move, work)
    values: npt.NDArray[np.float64] = work.stop_value
    points = np.rint(values).astype(np.int64)
    points.setflags(write=False)
    return points


TOP = 5
"""Keeps (or placements) shown when an :class:`Advice` is printed."""


class KeptDice:
    """What a keep says about the roll: ``stop`` and ``rerolled`` (``keep``: the dice kept)."""

    keep: Dice

    @property
    def stop(self) -> bool:
        """Whether this keeps all five dice, that is, ends the rolling."""
        return len(self.keep) == N_DICE

    @property
    def rerolled(self) -> int:
        """How many dice this re-rolls."""
        return N_DICE - len(self.keep)


@dataclass(frozen=True)
class KeepAdvice(KeptDice):
    """One way to continue the turn: keep some dice and re-roll the others, or stop.

    Attributes:
        keep: the dice kept, sorted; all five means stop.
        expected_points: expected points of the turn after this keep (``K_r(k)``),
            or ``f(h)`` for stopping.
        fraction: the same value, exactly.
        best: tied for the highest expected points.
    """

    keep: Dice
    expected_points: float
    fraction: Fraction
    best: bool


@dataclass(frozen=True)
class Advice:
    """What the player to move should do with these dice.

    Attributes:
        player: the seat to move.
        dice: the five dice, sorted.
        rolls_left: rolls still allowed this turn (0, 1 or 2).
        placements: every legal placement for these dice, most points first
            (then by cell); empty when no open coaster matches.
        keeps: every distinct keep with its expected points, best first (ties go
            to the keep with more dice); empty with 0 rolls left.
        expected_points: expected points of the turn with optimal play from here,
            ``V_r(h)`` (the best keep's value; ``f(h)`` with 0 rolls left).
        expected_fraction: the same value, exactly.
        stop_points: points of stopping now, ``f(h)`` (the best placement's points).
    """

    player: int
    dice: Dice
    rolls_left: int
    placements: tuple[Placement, ...]
    keeps: tuple[KeepAdvice, ...]
    expected_points: float
    expected_fraction: Fraction
    stop_points: int

    def __str__(self) -> str:
        """The advice in a few lines: the best keeps (or placements) and their points."""
        dice = " ".join(map(str, self.dice))
        head = f"seat {self.player}, dice {dice}, {self.rolls_left} re-roll(s) left: "
        head += f"{self.expected_points:.3f} expected points with optimal play"
        lines = [head]
        for k in self.keeps[:TOP]:
            what = "stop" if k.stop else "keep " + (" ".join(map(str, k.keep)) or "nothing")
            lines.append(f"  {what:<20} {k.expected_points:.3f} points" + (" (best)" * k.best))
        for p in self.placements[: TOP if not self.keeps else 1]:
            unit = "point" if p.points == 1 else "points"
            lines.append(f"  place on {p.combination} (cell {p.cell}): {p.points} {unit}")
        if not self.placements:
            lines.append("  no coaster matches these dice now")
        return "\n".join(lines)

    @property
    def best_keeps(self) -> tuple[KeepAdvice, ...]:
        """The keeps tied for the best expected points (empty with 0 rolls left)."""
        return tuple(k for k in self.keeps if k.best)


def check_rolls_left(rolls_left: int) -> int:
    """Validate the number of rolls still allowed this turn (0, 1 or 2)."""
    if (
        isinstance(rolls_left, bool)
        or not isinstance(rolls_left, int | np.integer)
        or not 0 <= rolls_left <= MAX_ROLLS_LEFT
    ):
        raise PinastatsError(
            f"rolls left must be 0, 1 or 2 (re-rolls still allowed this turn), got {rolls_left!r}"
        )
    return int(rolls_left)


def _keeps(values: IntArray, dice: Dice, rolls_left: int) -> tuple[KeepAdvice, ...]:
    solution = solve_turn(values, rolls=DEFAULT_ROLLS)
    assert solution.keep_numerator is not None  # integer points: always exact
    options: list[tuple[Dice, Fraction]] = []
    for option in solution.ranked_keeps(dice, rolls_left):  # no pandas: advise starts faster
        assert option.fraction is not None
        options.append((tuple(int(d) for d in option.keep), option.fraction))
    options.sort(key=lambda o: (-o[1], -len(o[0]), o[0]))
    top = options[0][1]
    return tuple(KeepAdvice(k, float(f), f, f == top) for k, f in options)


def advise(game: Game, dice: Sequence[int], rolls_left: int) -> Advice:
    """Advise the player to move, who holds ``dice`` with ``rolls_left`` rolls left.

    With 0 rolls left the dice are final: the advice is the legal placements.
    Otherwise it also ranks every keep by the expected points of the turn.
    Raises ``ValueError`` for bad dice or rolls left, or when the game is over.
    """
    hand = check_dice(dice)
    rolls_left = check_rolls_left(rolls_left)
    if game.is_over:
        raise PinastatsError(f"the game is over: {game.end_reason}; there is no turn to advise")
    placements = sorted(game.legal_placements(hand), key=lambda p: (-p.points, p.cell))
    stop_points = placements[0].points if placements else 0
    keeps: tuple[KeepAdvice, ...] = ()
    expected = Fraction(stop_points)
    if rolls_left > 0:
        keeps = _keeps(placement_values(game), hand, rolls_left)
        expected = keeps[0].fraction
    return Advice(
        player=game.to_move,
        dice=hand,
        rolls_left=rolls_left,
        placements=tuple(placements),
        keeps=keeps,
        expected_points=float(expected),
        expected_fraction=expected,
        stop_points=stop_points,
    )
