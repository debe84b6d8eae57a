"""The board's words: what a player reads about seats, points, turns and the Happy Hour die.

Seats are counted from 1 (or named), coasters are named as printed, a number of
points or tokens agrees with its noun, and a turn is told whole: every roll and keep,
then the placement, the pass or the Happy Hour die, and the end when it is triggered.
"""

from __future__ import annotations

from collections.abc import Sequence

from pinastats.game.game import Game
from pinastats.game.rules import HappyHourEffect, Trigger

EFFECT_WORDS = {
    HappyHourEffect.LOSE_3: "you lose 3 points",
    HappyHourEffect.REMOVE_OWN_TOKEN: "take one of your tokens back into your reserve (you keep "
    "its points)",
    HappyHourEffect.OTHERS_GAIN_1: "every other player gains 1 point",
    HappyHourEffect.MOVE_OTHER_TOKEN: "move another player's token to a free space (no points; "
    "it may make a line)",
    HappyHourEffect.FLIP_COASTER: "turn a coaster over to its other side: its tokens go back to "
    "their owners, who keep their points",
    HappyHourEffect.GAIN_4: "you gain 4 points",
}
"""What each face of the Happy Hour die does, as a player reads it."""


def plural(n: int, noun: str) -> str:
    """``1 point``, ``2 points``, ``0 tokens``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def seat_labels(names: Sequence[str], given: Sequence[bool]) -> tuple[str, ...]:
    """Each seat as the board says it: the name a person was given, else ``Seat 1 (you)``."""
    return tuple(
        name if named else f"Seat {i + 1} ({name})"
        for i, (name, named) in enumerate(zip(names, given, strict=True))
    )


def seat_name(seat: int, labels: Sequence[str]) -> str:
    """The seat's label (:func:`seat_labels`), or ``Seat N`` for a seat without one."""
    return labels[seat] if 0 <= seat < len(labels) else f"Seat {seat + 1}"


def dice_text(dice: Sequence[int]) -> str:
    """``1 3 4 4 6``."""
    return " ".join(str(int(d)) for d in dice)


def effect_name(effect: HappyHourEffect | str | int) -> str:
    """The effect's short words: ``flip a coaster``."""
    if isinstance(effect, str):
        effect = HappyHourEffect[effect]
    return str(HappyHourEffect(effect))


def effect_text(effect: HappyHourEffect | str | int) -> str:
    """What the effect does, in a sentence."""
    if isinstance(effect, str):
        effect = HappyHourEffect[effect]
    return EFFECT_WORDS[HappyHourEffect(effect)]


def option_text(game: Game, effect: HappyHourEffect | str | int, option: int,
                names: Sequence[str]) -> str:  # fmt: skip
    """A Happy Hour option by coaster: ``flip Pair of 3s``, ``move Seat 2's token from ... to``."""
    if isinstance(effect, str):
        effect = HappyHourEffect[effect]
    d = game.decode_happy_hour(HappyHourEffect(effect), option)
    if "from_cell" in d:
        start, end = game.coaster(d["from_cell"]).name, game.coaster(d["to_cell"]).name
        return f"move {seat_name(d['owner'], names)}'s token from {start} to {end}"
    if "cell" in d:
        verb = {HappyHourEffect.FLIP_COASTER: "flip", HappyHourEffect.REMOVE_OWN_TOKEN:
                "take your token back from"}.get(HappyHourEffect(effect), "on")  # fmt: skip
        return f"{verb} {game.coaster(d['cell']).name}"
    return "apply it"


def trigger_text(game: Game, seat: int, names: Sequence[str]) -> str:
    """Why the end was triggered by ``seat``'s turn."""
    who = seat_name(seat, names)
    if game.trigger == Trigger.SCORE:
        return (f"{who} reached {plural(int(game.config.rules.target_score or 0), 'point')}: "
                "the end is triggered — last round")  # fmt: skip
    return f"{who} placed their last token: the end is triggered — last round"


def turn_text(before: Game, after: Game, rolls: Sequence[Sequence[int]],
              keeps: Sequence[Sequence[int]], cell: int | None, points: int,
              happy: HappyHourEffect | None, option: int | None,
              names: Sequence[str]) -> str:  # fmt: skip
    """One turn in words: the rolls and keeps, then what was done with the last dice."""
    seat = before.to_move
    steps = []
    for i, roll in enumerate(rolls):
        steps.append(("rolled " if i == 0 else "then ") + dice_text(roll))
        if i < len(keeps) and i + 1 < len(rolls):
            steps.append(f"kept {dice_text(keeps[i]) or 'nothing'}")
    said = f"Turn {before.turn + 1} · {seat_name(seat, names)}: {', '.join(steps)}"
    if cell is not None:
        said += f" — placed on {before.coaster(cell).name} for {plural(points, 'point')}"
    elif happy is not None:
        said += (f" — nothing to place; Happy Hour die shows {int(happy)} "
                 f"({effect_name(happy)})")  # fmt: skip
        chosen = "" if option is None else option_text(before, happy, option, names)
        if chosen and chosen != "apply it":
            said += f": {chosen}"
    else:
        said += " — nothing to place: the turn passes"
    said += "."
    if before.trigger == Trigger.NONE and after.trigger != Trigger.NONE:
        said += f" {trigger_text(after, seat, names)}."
    return said
