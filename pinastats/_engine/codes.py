"""The game's codes, each member with its words for a player.

How a game ends, what triggered the end, why a placement is refused, and the faces of
the Happy Hour die.
The kernels read these as plain ints; the public names live in :mod:`pinastats.game.rules`.
This is the one place their wording is written.
"""

from __future__ import annotations

from enum import IntEnum

_WORDS: dict[tuple[str, int], str] = {}
"""Each member of the enums below in a player's words, by (enum name, value)."""


def _say(words: dict[_Worded, str]) -> None:
    """Record the words of an enum's members (keyed by enum: members of two enums may be ==)."""
    _WORDS.update({(type(m).__name__, m.value): text for m, text in words.items()})


class _Worded(IntEnum):
    """An int enum that prints as words (``str``, ``format``) and keeps a full ``repr``.

    ``print(EndReason.SCORE)`` shows ``target score reached, best score wins``;
    ``repr`` is ``<EndReason.SCORE: 2>``; a format spec (``f"{x:d}"``) formats the int.
    """

    @property
    def words(self) -> str:
        """The member in a player's words."""
        return _WORDS.get((type(self).__name__, self.value), self.name.lower().replace("_", " "))

    def __str__(self) -> str:
        return self.words

    def __format__(self, spec: str) -> str:
        return (
            self.words.__format__(spec)
            if not spec or spec[-1] not in "bcdoxXn"
            else int.__format__(self, spec)
        )


class EndReason(_Worded):
    """How a game ended (``ONGOING`` while it runs)."""

    ONGOING = 0
    """The game is still being played."""
    PINA_COLADICE = 1
    """A player's tokens filled a line (row, column or diagonal): immediate win."""
    SCORE = 2
    """The end was triggered by a score of 20; the highest score won outright."""
    TOKENS = 3
    """The end was triggered by a last reserve token; the highest score won outright."""
    TIE_BREAK = 4
    """Tied leaders; the one who placed a token most recently won."""
    DRAW = 5
    """Tied leaders, none of whom ever placed a token."""
    TURN_LIMIT = 6
    """The safety limit on turns was reached (no winner); never met in normal play."""


_END_ENTRY = {
    EndReason.ONGOING: "still being played",
    EndReason.PINA_COLADICE: "PIÑA COLADICE (a full line)",
    EndReason.SCORE: "{target} reached, best score wins",
    EndReason.TOKENS: "last token placed, best score wins",
    EndReason.TIE_BREAK: "tied score, latest placement wins",
    EndReason.DRAW: "tied score, nobody placed: draw",
    EndReason.TURN_LIMIT: "turn limit (no winner)",
}
"""How a game ended, as a table entry (``{target}``: the target score, named or in points)."""

_END_CLAUSE = {
    EndReason.ONGOING: "before the end",
    EndReason.PINA_COLADICE: "on a PIÑA COLADICE (a full line)",
    EndReason.SCORE: "after {target} triggered the end",
    EndReason.TOKENS: "after a last token triggered the end",
    EndReason.TIE_BREAK: "on a tie broken by the latest placement",
    EndReason.DRAW: "in a draw",
    EndReason.TURN_LIMIT: "at the turn limit",
}
"""How a game ended, as the end of a sentence ("60% of the games end ...")."""

_say({reason: text.format(target="target score") for reason, text in _END_ENTRY.items()})


def _target(target_score: int | None) -> str:
    return "target score" if target_score is None else f"{target_score} points"


def end_entry(reason: EndReason, target_score: int | None = None) -> str:
    """How a game ended, as a table entry: ``20 points reached, best score wins``.

    Without ``target_score`` it is the member's words (``target score reached, ...``).
    """
    return _END_ENTRY[EndReason(reason)].format(target=_target(target_score))


def end_clause(reason: EndReason, target_score: int | None = None) -> str:
    """How a game ended, as the end of a sentence: ``after 20 points triggered the end``."""
    return _END_CLAUSE[EndReason(reason)].format(target=_target(target_score))


class Trigger(_Worded):
    """What triggered the end of the game (before the round was completed)."""

    NONE = 0
    """Not triggered (yet), or the game ended on a PIÑA COLADICE."""
    SCORE = 1
    """A player reached the target score."""
    TOKENS = 2
    """A player placed their last reserve token."""


_say(
    {
        Trigger.NONE: "not triggered",
        Trigger.SCORE: "target score reached",
        Trigger.TOKENS: "last token placed",
    }
)


class PlacementRule(_Worded):
    """Why a placement is refused, in the order the rules are checked (``OK``: it is legal)."""

    OK = 0
    """The placement is legal."""
    NO_RESERVE = 1
    """The player has no token left in reserve."""
    NO_MATCH = 2
    """The final dice do not show the coaster's combination."""
    OWN_TOKEN = 3
    """The player already has a token on the coaster."""
    COASTER_FULL = 4
    """Every token space of the coaster is taken."""


_say(
    {
        PlacementRule.OK: "legal",
        PlacementRule.NO_RESERVE: "no token left in reserve",
        PlacementRule.NO_MATCH: "the dice do not show the combination",
        PlacementRule.OWN_TOKEN: "already a token of the player on the coaster",
        PlacementRule.COASTER_FULL: "no free space on the coaster",
    }
)


class HappyHourEffect(_Worded):
    """The six faces of the Happy Hour die (variant)."""

    LOSE_3 = 1
    """The player loses 3 points (not below 0 unless negative scores are allowed)."""
    REMOVE_OWN_TOKEN = 2
    """The player takes one of their tokens back to the reserve (points kept)."""
    OTHERS_GAIN_1 = 3
    """Every other player gains 1 point."""
    MOVE_OTHER_TOKEN = 4
    """The player moves another player's token to a free space (no points; may make a line)."""
    FLIP_COASTER = 5
    """The player flips a coaster; its tokens go back to their owners (points kept)."""
    GAIN_4 = 6
    """The player gains 4 points."""


_say(
    {
        HappyHourEffect.LOSE_3: "lose 3 points",
        HappyHourEffect.REMOVE_OWN_TOKEN: "take back an own token",
        HappyHourEffect.OTHERS_GAIN_1: "others gain 1",
        HappyHourEffect.MOVE_OTHER_TOKEN: "move another player's token",
        HappyHourEffect.FLIP_COASTER: "flip a coaster",
        HappyHourEffect.GAIN_4: "gain 4",
    }
)


class TurnEnding(_Worded):
    """How a turn ends once its dice are final: the one answer every path of play asks for."""

    PLACE = 0
    """The dice show an open coaster: a token must be placed."""
    HAPPY_HOUR = 1
    """Nothing can be placed after every roll of the turn, with the variant: roll the die."""
    PASS = 2
    """Nothing can be placed, and no Happy Hour die: the turn passes."""


_say(
    {
        TurnEnding.PLACE: "place a token",
        TurnEnding.HAPPY_HOUR: "roll the Happy Hour die",
        TurnEnding.PASS: "pass",
    }
)
