"""The board's words: what a player reads about seats, points, turns and the Happy Hour die.

Every sentence the board and its review show comes from one catalogue per language
(``static/words-<lang>.json``: English, French, Dutch, German), whole sentences with
named placeholders (``{who} wins``), never assembled from English fragments.
:func:`say` fills one in; :func:`count` picks the singular or the plural of a counted
noun by the language's rule (French: 0 and 1 take the singular). The coasters are
named as printed in each language (``coaster.<id>``).

Seats are counted from 1 (or named), a number of points or tokens agrees with its
noun, and a turn is told whole: every roll and keep, then the placement, the pass or
the Happy Hour die, and the end when it is triggered.
"""

from __future__ import annotations

import functools
import json
import string
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pinastats.errors import PinastatsError
from pinastats.game.game import Game
from pinastats.game.rules import HappyHourEffect, Trigger

LANGUAGES = ("en", "fr", "nl", "de")
"""The board's languages; English is the default and the reference catalogue."""
DEFAULT = "en"
WORDS = Path(__file__).parent / "static"
"""The folder of the catalogues ``words-<lang>.json``."""


class LanguageError(PinastatsError):
    """A language the board does not speak."""


def language(lang: object) -> str:
    """``lang`` checked: one of :data:`LANGUAGES` (a tag such as ``fr-BE`` gives ``fr``)."""
    if isinstance(lang, str):
        short = lang.strip().lower().replace("_", "-").split("-")[0]
        if short in LANGUAGES:
            return short
    raise LanguageError(f"language {lang!r} is not spoken by the board; the languages are "
                        f"{', '.join(LANGUAGES)}")  # fmt: skip


@functools.cache
def catalogue(lang: str = DEFAULT) -> dict[str, str]:
    """The messages of one language, by key (read once)."""
    data = json.loads((WORDS / f"words-{language(lang)}.json").read_text(encoding="utf-8"))
    return {str(k): str(v) for k, v in data.items()}


def placeholders(message: str) -> set[str]:
    """The named placeholders of a message: ``{who} wins`` has ``who``."""
    return {name for _, name, _, _ in string.Formatter().parse(message) if name}


def say(lang: str, key: str, **values: Any) -> str:
    """The message ``key`` in ``lang`` with its placeholders filled (English where it lacks)."""
    words = catalogue(lang)
    message = words.get(key)
    if message is None:
        message = catalogue(DEFAULT)[key]
    return message.format(**values)


def count(lang: str, key: str, n: int) -> str:
    """``1 point``, ``2 points``, ``0 point`` (French): ``key.one`` or ``key.other`` with ``n``."""
    one = n == 1 or (language(lang) == "fr" and n == 0)
    return say(lang, f"{key}.{'one' if one else 'other'}", n=n)


def coaster_name(lang: str, coaster_id: str, printed: str) -> str:
    """A coaster's name as printed in ``lang`` (its catalogue name where none is given)."""
    return catalogue(lang).get(f"coaster.{coaster_id}", printed)


def cell_name(game: Game, cell: int, lang: str = DEFAULT) -> str:
    """The name of the coaster on ``cell`` in ``lang``."""
    c = game.coaster(cell)
    return coaster_name(lang, c.id, c.name)


def percent(x: float, digits: int = 1) -> str:
    """``61.2%`` (a chance, 0 to 1)."""
    return f"{100 * x:.{digits}f}%"


def plural(n: int, noun: str) -> str:
    """``1 point``, ``2 points``, ``0 tokens`` (English; :func:`count` in any language)."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def seat_labels(names: Sequence[str], given: Sequence[bool]) -> tuple[str, ...]:
    """Each seat as the board says it: the name a person was given, else ``Seat 1 (you)``."""
    return tuple(
        name if named else f"Seat {i + 1} ({name})"
        for i, (name, named) in enumerate(zip(names, given, strict=True))
    )


def seat_name(seat: int, labels: Sequence[str], lang: str = DEFAULT) -> str:
    """The seat's label (:func:`seat_labels`), or ``Seat N`` (from 1) for a seat without one."""
    return labels[seat] if 0 <= seat < len(labels) else say(lang, "seat.n", n=seat + 1)


def dice_text(dice: Sequence[int]) -> str:
    """``1 3 4 4 6``."""
    return " ".join(str(int(d)) for d in dice)


def _effect(effect: HappyHourEffect | str | int) -> HappyHourEffect:
    return HappyHourEffect[effect] if isinstance(effect, str) else HappyHourEffect(effect)


def effect_name(effect: HappyHourEffect | str | int, lang: str = DEFAULT) -> str:
    """The effect's short words: ``flip a coaster``."""
    return say(lang, f"effect.name.{_effect(effect).name}")


def effect_text(effect: HappyHourEffect | str | int, lang: str = DEFAULT) -> str:
    """What the effect does, in a sentence."""
    return say(lang, f"effect.text.{_effect(effect).name}")


def option_text(game: Game, effect: HappyHourEffect | str | int, option: int,
                names: Sequence[str], lang: str = DEFAULT) -> str:  # fmt: skip
    """A Happy Hour option by coaster: ``flip Pair of 3s``, ``move Seat 2's token from ... to``."""
    e = _effect(effect)
    d = game.decode_happy_hour(e, option)
    if "from_cell" in d:
        return say(lang, "option.move", who=seat_name(d["owner"], names, lang),
                   start=cell_name(game, d["from_cell"], lang),
                   end=cell_name(game, d["to_cell"], lang))  # fmt: skip
    if "cell" in d:
        kind = {HappyHourEffect.FLIP_COASTER: "flip",
                HappyHourEffect.REMOVE_OWN_TOKEN: "take_back"}.get(e, "on")  # fmt: skip
        return say(lang, f"option.{kind}", coaster=cell_name(game, d["cell"], lang))
    return say(lang, "option.apply")


def trigger_text(game: Game, seat: int, names: Sequence[str], lang: str = DEFAULT) -> str:
    """Why the end was triggered by ``seat``'s turn."""
    who = seat_name(seat, names, lang)
    if game.trigger == Trigger.SCORE:
        points = count(lang, "n.points", int(game.config.rules.target_score or 0))
        return say(lang, "log.trigger_score", who=who, points=points)
    return say(lang, "log.trigger_tokens", who=who)


def turn_text(before: Game, after: Game, rolls: Sequence[Sequence[int]],
              keeps: Sequence[Sequence[int] | None], cell: int | None, points: int,
              happy: HappyHourEffect | None, option: int | None,
              names: Sequence[str], lang: str = DEFAULT) -> str:  # fmt: skip
    """One turn in words: the rolls and keeps, then what was done with the last dice.

    A keep that is not known (None: not entered at a real table) is not told.
    """
    seat = before.to_move
    steps = []
    for i, roll in enumerate(rolls):
        key = "log.rolled" if i == 0 else "log.then"
        steps.append(say(lang, key, dice=dice_text(roll)))
        if i < len(keeps) and i + 1 < len(rolls) and keeps[i] is not None:
            kept = keeps[i] or ()
            steps.append(say(lang, "log.kept", dice=dice_text(kept)) if kept
                         else say(lang, "log.kept_nothing"))  # fmt: skip
    what = {"turn": before.turn + 1, "who": seat_name(seat, names, lang),
            "steps": say(lang, "log.separator").join(steps)}  # fmt: skip
    if cell is not None:
        said = say(lang, "log.placed", coaster=cell_name(before, cell, lang),
                   points=count(lang, "n.points", points), **what)  # fmt: skip
    elif happy is not None:
        chosen = "" if option is None else option_text(before, happy, option, names, lang)
        fields = {"face": int(happy), "effect": effect_name(happy, lang), **what}
        if chosen and chosen != say(lang, "option.apply"):
            said = say(lang, "log.happy_chosen", choice=chosen, **fields)
        else:
            said = say(lang, "log.happy", **fields)
    else:
        said = say(lang, "log.passed", **what)
    if before.trigger == Trigger.NONE and after.trigger != Trigger.NONE:
        said = say(lang, "log.and_trigger", turn=said, trigger=trigger_text(after, seat, names,
                                                                             lang))  # fmt: skip
    return said
