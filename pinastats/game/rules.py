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


class RulesError(PinastatsError):
    """A rule option out of its range; the message names the option and the range."""


__all__ = [
    "MAX_ROLLS",
    "PLAYER_COUNTS",
    "EndReason",
    "HappyHourEffect",
    "PlacementRule",
    "Rules",
    "RulesError",
    "Trigger",
    "check_players",
    "end_clause",
    "end_entry",
    "players_text",
]


@dataclass(frozen=True)
class Rules:
    """Rule options of a game.

    Attributes:
        target_score: a score at least this high triggers the end (20).
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
