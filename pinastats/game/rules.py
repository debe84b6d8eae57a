"""The vocabulary of a game: rule options, and the game's codes.

The codes (how a game ends, the trigger, placement rules, Happy Hour faces) are defined,
with their words, in :mod:`pinastats._engine.codes`.
"""

from __future__ import annotations

from dataclasses import dataclass

from pinastats._engine import (
    EndReason,
    HappyHourEffect,
    PlacementRule,
    Trigger,
    end_clause,
    end_entry,
)
from pinastats.errors import PLAYER_COUNTS, PinastatsError, check_players, players_text

MAX_ROLLS = 6
"""The most rolls per turn the engine plays (the agents' turn DP is solved per roll)."""
VALUE_LIMIT = 10**12
"""The largest size of a score, a starting score, a target score, a turn limit or a placement
clock that pinastats takes.

A turn adds at most a few dozen points and one placement, and a game stops after
``Rules.max_turns`` turns, so no game comes near it; the engine's 64-bit
integers (up to about 9.2e18) have room for millions of times more.
"""


class RulesError(PinastatsError):
    """A rule option out of its range; the message names the option and the range."""


__all__ = [
    "MAX_ROLLS",
    "PLAYER_COUNTS",
    "VALUE_LIMIT",
    "EndReason",
    "HappyHourEffect",
    "PlacementRule",
    "Rules",
    "RulesError",
    "Trigger",
    "check_players",
    "end_clause",
    "end_entry",
    "game_points",
    "players_text",
]


def game_points(winner: int | None, seat: int) -> float:
    """What a finished game scores for ``seat``: 1 for its win, ½ when nobody won, else 0.

    The score of every win rate, duel and chance in pinastats (a game without a
    winner counts half a win for each seat).

    >>> game_points(1, 1), game_points(0, 1), game_points(None, 1)
    (1.0, 0.0, 0.5)
    """
    return 0.5 if winner is None else float(winner == seat)


def _digits(value: int) -> int:
    """The decimal digits of ``value`` > 0, without writing it out (very long ints cannot be)."""
    digits = int(value.bit_length() * 0.30102999566398120)  # log10(2)
    power: int = 10**digits
    return digits + (value >= power)


@dataclass(frozen=True)
class Rules:
    """Rule options of a game.

    Attributes:
        target_score: a score at least this high triggers the end (20; at most
            :data:`VALUE_LIMIT`, as ``max_turns``).
        tokens: tokens each player can place (6; the 7th marks the score); at most
            the layout's cells, which :class:`~pinastats.game.GameConfig` checks
            (a player places at most one token per coaster).
        happy_hour: play the Happy Hour variant.
        negative_scores: Happy Hour's "lose 3" may go below 0 (Board Game Arena).
        max_turns: safety limit on the number of turns of a game (ends as TURN_LIMIT).
        rolls: rolls allowed per turn (3; the first roll and up to ``rolls - 1`` re-rolls).
    """

    target_score: int = 20
    tokens: int = 6
    happy_hour: bool = False
    negative_scores: bool = False
    max_turns: int = 1000
    rolls: int = 3

    def __post_init__(self) -> None:
        for name in ("target_score", "tokens", "max_turns"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise RulesError(f"rules: {name} must be a whole number >= 1, got {value!r}")
        for name in ("target_score", "max_turns"):  # the engine counts them in 64 bits
            value = getattr(self, name)
            if value > VALUE_LIMIT:
                shown = f"{value:,}" if value < 10**40 else f"a number of {_digits(value)} digits"
                raise RulesError(
                    f"rules: {name} must be a whole number from 1 to {VALUE_LIMIT:,}, got {shown}"
                )
        for name in ("happy_hour", "negative_scores"):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(
                    f"rules: {name} must be True or False, got {getattr(self, name)!r}"
                )
        rolls = self.rolls
        if isinstance(rolls, bool) or not isinstance(rolls, int) or not 1 <= rolls <= MAX_ROLLS:
            raise RulesError(
                f"rules: rolls must be a whole number from 1 to {MAX_ROLLS}, got {rolls!r}"
            )
