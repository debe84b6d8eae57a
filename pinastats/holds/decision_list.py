"""Hold rules as decision lists: ordered rules, the first whose condition holds decides.

A :class:`Rule` is a tuple of :class:`Condition` (all must hold) and a
:class:`Keep` (what to keep). Both are plain data, and each knows two things:
how to evaluate itself on a hand (:meth:`Condition.holds`,
:meth:`Keep.readings`) and how to say itself (:attr:`Condition.text`,
:attr:`Keep.text`). The printed sheet and the checked rule come from the same
objects, so they cannot drift apart.

A keep's *readings* are every keep its wording allows on a hand ("keep four
dice that total 8-11" may allow several fours; "keep a largest group" allows
either pair of two pairs). Whoever checks a list should check every reading.

The public methods validate their dice; the private ``_holds`` and ``_readings`` trust sorted
valid dice, and a list's ``_rule_index``, ``_hand_readings`` tabulate the 252 hands once (its
``rule_for`` and ``readings`` read them).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache, cached_property

import numpy as np

from pinastats._arrays import BoolArray
from pinastats.dice.combinations import Combination
from pinastats.dice.errors import DiceError
from pinastats.dice.hands import check_dice, hand_index_by_dice, hand_tuples
from pinastats.holds.words import (
    DISTINCT,
    NUMBER_WORDS,
    REROLL,
    STOP,
    face_words,
    keep_every,
    keep_one_each,
    keep_total,
    span_text,
)

Dice = tuple[int, ...]

_NUMBER_WORDS = NUMBER_WORDS


def _dice_word(n: int, faces: Sequence[int]) -> str:
    """``two dice ≤ 3``, ``one 6``, ``three odd dice``; ``a 3 or a 4`` for one die of two faces."""
    words = face_words(faces)
    if len(set(faces)) == 1:
        return f"{_NUMBER_WORDS[n]} {words}{'s' if n != 1 else ''}"
    noun = "die" if n == 1 else "dice"
    if words in ("odd", "even"):
        return f"{_NUMBER_WORDS[n]} {words} {noun}"
    return f"{_NUMBER_WORDS[n]} {noun} {words}"


def _one_die(faces: Sequence[int]) -> str:
    """``a 6``, ``an odd die``, ``a die ≤ 3``, ``a 3 or a 4``."""
    words = face_words(faces)
    if len(faces) == 1:
        return f"a {words}"
    if len(faces) == 2:
        return f"a {faces[0]} or a {faces[1]}"
    if words in ("odd", "even"):
        return f"an {words} die"
    return f"a die {words}"


_span = span_text


class Check(StrEnum):
    """What a :class:`Condition` looks at."""

    MADE = "made"
    """The hand already shows the target."""
    AT_LEAST = "at-least"
    """At least ``n`` dice show one of ``faces``."""
    AT_MOST = "at-most"
    """At most ``n`` dice show one of ``faces``."""
    VALUES = "values"
    """At least ``n`` different values among ``faces`` are held."""
    GROUP = "group"
    """At least ``n`` dice of one value."""
    NO_GROUP = "no-group"
    """No ``n`` dice of one value."""
    TWO_PAIRS = "two-pairs"
    """Two values held twice or more."""
    SOME_TOTAL = "some-total"
    """Some ``n`` of the dice total ``lo`` to ``hi``."""


@dataclass(frozen=True)
class Condition:
    """A test a player can make with the dice in hand (see :class:`Check`)."""

    check: Check
    n: int = 0
    faces: Dice = ()
    lo: int = 0
    hi: int = 0
    target: Combination | None = None

    def holds(self, hand: Sequence[int]) -> bool:
        """Whether the condition holds for five dice."""
        return self._holds(check_dice(hand, what="a hand"))

    def _holds(self, dice: Dice) -> bool:
        """:meth:`holds` for five sorted valid dice (not checked)."""
        match self.check:
            case Check.MADE:
                assert self.target is not None
                return self.target.holds(dice)
            case Check.AT_LEAST:
                return sum(d in self.faces for d in dice) >= self.n
            case Check.AT_MOST:
                return sum(d in self.faces for d in dice) <= self.n
            case Check.VALUES:
                return len(set(dice) & set(self.faces)) >= self.n
            case Check.GROUP:
                return max(map(dice.count, dice)) >= self.n
            case Check.NO_GROUP:
                return max(map(dice.count, dice)) < self.n
            case Check.TWO_PAIRS:
                groups = sorted((dice.count(v) for v in set(dice)), reverse=True)
                return len(groups) > 1 and groups[1] >= 2
            case Check.SOME_TOTAL:
                return bool(_totalling(dice, self.n, self.lo, self.hi))
        raise AssertionError(self.check)  # pragma: no cover

    @property
    def text(self) -> str:
        """The condition in words, to follow "if"."""
        match self.check:
            case Check.MADE:
                assert self.target is not None
                return f"you already have {self.target.label}"
            case Check.AT_LEAST:
                if self.n == 1:
                    return f"you hold {_one_die(self.faces)}"
                more = " or more" if self.n < len(_NUMBER_WORDS) - 1 else ""
                return f"you hold {_dice_word(self.n, self.faces)}{more}"
            case Check.AT_MOST:
                if self.n == 0 and len(self.faces) == 2:
                    return f"you hold neither a {self.faces[0]} nor a {self.faces[1]}"
                if self.n == 0:
                    return f"you hold {_dice_word(0, self.faces)}"
                return f"you hold at most {_dice_word(self.n, self.faces)}"
            case Check.VALUES:
                every = len(self.faces) == self.n
                listed = " ".join(map(str, self.faces))
                if every:
                    return f"you hold each of {listed}"
                return f"you hold {_NUMBER_WORDS[self.n]} or more different values of {listed}"
            case Check.GROUP:
                return "you hold a pair or better" if self.n == 2 else (
                    f"you hold {_NUMBER_WORDS[self.n]} or more of a kind")  # fmt: skip
            case Check.NO_GROUP:
                return "your five dice all differ" if self.n == 2 else (
                    f"you hold no {_NUMBER_WORDS[self.n]} of a kind")  # fmt: skip
            case Check.TWO_PAIRS:
                return "you hold two pairs (a full house counts)"
            case Check.SOME_TOTAL:
                return f"{_NUMBER_WORDS[self.n]} of your dice total {_span(self.lo, self.hi)}"
        raise AssertionError(self.check)  # pragma: no cover


class Action(StrEnum):
    """What a :class:`Keep` keeps."""

    STOP = "stop"
    """Keep all five: the turn ends."""
    REROLL = "reroll"
    """Keep nothing."""
    FACES = "faces"
    """Every die showing one of ``faces``."""
    ONE_EACH = "one-each"
    """One die of each value of ``faces`` held."""
    TOTAL = "total"
    """``n`` dice totalling ``lo`` to ``hi`` (any such ``n``)."""
    LARGEST = "largest"
    """A largest group of equal dice (any, on a tie)."""
    REPEATED = "repeated"
    """Every die whose value is held twice or more."""
    DISTINCT = "distinct"
    """One die of each value held."""


@dataclass(frozen=True)
class Keep:
    """What a rule keeps (see :class:`Action`); the other dice are re-rolled."""

    action: Action
    faces: Dice = ()
    n: int = 0
    lo: int = 0
    hi: int = 0

    def readings(self, hand: Sequence[int]) -> tuple[Dice, ...]:
        """Every keep (sorted dice) the wording allows for this hand; at least one."""
        return self._readings(check_dice(hand, what="a hand"))

    def _readings(self, dice: Dice) -> tuple[Dice, ...]:
        """:meth:`readings` for five sorted valid dice (not checked)."""
        match self.action:
            case Action.STOP:
                return (dice,)
            case Action.REROLL:
                return ((),)
            case Action.FACES:
                return (tuple(d for d in dice if d in self.faces),)
            case Action.ONE_EACH:
                return (tuple(sorted(set(dice) & set(self.faces))),)
            case Action.TOTAL:
                found = _totalling(dice, self.n, self.lo, self.hi)
                if not found:
                    raise DiceError(f"no {self.n} dice of {list(dice)} total {self.lo}-{self.hi}")
                return found
            case Action.LARGEST:
                top = max(dice.count(v) for v in dice)
                return tuple((v,) * top for v in sorted(set(dice)) if dice.count(v) == top)
            case Action.REPEATED:
                return (tuple(d for d in dice if dice.count(d) >= 2),)
            case Action.DISTINCT:
                return (tuple(sorted(set(dice))),)
        raise AssertionError(self.action)  # pragma: no cover

    @property
    def text(self) -> str:
        """The keep in words, an imperative ("keep every die ≤ 3, re-roll the others")."""
        match self.action:
            case Action.STOP:
                return STOP
            case Action.REROLL:
                return REROLL
            case Action.FACES:
                return f"{keep_every(self.faces)}, re-roll the others"
            case Action.ONE_EACH:
                return keep_one_each(self.faces)
            case Action.TOTAL:
                return keep_total(self.n, self.lo, self.hi)
            case Action.LARGEST:
                return "keep your largest group of equal dice (on a tie, any one)"
            case Action.REPEATED:
                return "keep every die whose value you hold twice or more"
            case Action.DISTINCT:
                return DISTINCT
        raise AssertionError(self.action)  # pragma: no cover


def _totalling(dice: Dice, n: int, lo: int, hi: int) -> tuple[Dice, ...]:
    """The distinct ``n``-dice keeps of a hand totalling ``lo`` to ``hi``."""
    return tuple(sub for sub, total in _subsets(dice, n) if lo <= total <= hi)


@cache
def _subsets(dice: Dice, n: int) -> tuple[tuple[Dice, int], ...]:
    """The distinct ``n``-dice sub-multisets of a hand, sorted, each with its total."""
    return tuple((sub, sum(sub)) for sub in sorted(set(itertools.combinations(dice, n))))


@cache
def _condition_mask(condition: Condition) -> BoolArray:
    """Whether ``condition`` holds, for each of the 252 hands (read-only)."""
    out = np.array([condition._holds(dice) for dice in hand_tuples()], dtype=np.bool_)
    out.setflags(write=False)
    return out


@dataclass(frozen=True)
class Rule:
    """If every condition holds (an empty tuple always holds), keep ``keep``."""

    conditions: tuple[Condition, ...]
    keep: Keep

    def matches(self, hand: Sequence[int]) -> bool:
        """Whether every condition holds for this hand."""
        return all(c.holds(hand) for c in self.conditions)

    def text(self, position: int) -> str:
        """The rule as a line of its list; ``position`` 0 is the first rule."""
        if not self.conditions:
            lead = "Otherwise" if position else "Always"
            return f"{lead}: {self.keep.text}."
        test = " and ".join(c.text for c in self.conditions)
        keep = self.keep.text
        last = self.conditions[-1]
        if self.keep.action is Action.TOTAL and last.check is Check.SOME_TOTAL:
            n = _NUMBER_WORDS[self.keep.n]
            keep = f"keep those {n} (any {n} that do)" if self.keep.n > 1 else "keep that die"
        lead = "If" if position == 0 else "Else, if"
        return f"{lead} {test}: {keep}."


@dataclass(frozen=True)
class DecisionList:
    """The rules of one decision point of a turn, in order; the last always matches.

    Attributes:
        target: the combination the list plays for.
        rolls_left: rolls still to come when the list is used (2: after roll 1).
        rules: the rules, first match wins; the last has no condition.
    """

    target: Combination
    rolls_left: int
    rules: tuple[Rule, ...]

    def __post_init__(self) -> None:
        if not self.rules or self.rules[-1].conditions:
            raise DiceError("a decision list must end with a rule without condition")

    def rule_for(self, hand: Sequence[int]) -> int:
        """The index of the first rule whose condition holds for the hand."""
        return self._rule_index[hand_index_by_dice()[check_dice(hand, what="a hand")]]

    def readings(self, hand: Sequence[int]) -> tuple[Dice, ...]:
        """Every keep the list allows for the hand (the first matching rule's readings)."""
        return self._hand_readings[hand_index_by_dice()[check_dice(hand, what="a hand")]]

    @cached_property
    def _rule_index(self) -> tuple[int, ...]:
        """:meth:`rule_for` of each of the 252 hands, by hand index."""
        every = np.ones(len(hand_tuples()), dtype=np.bool_)
        hit = [np.all([every, *map(_condition_mask, r.conditions)], axis=0) for r in self.rules]
        return tuple(np.argmax(hit, axis=0).tolist())

    @cached_property
    def _hand_readings(self) -> tuple[tuple[Dice, ...], ...]:
        """:meth:`readings` of each of the 252 hands, by hand index."""
        hands = hand_tuples()
        return tuple(self.rules[i].keep._readings(hands[h]) for h, i in enumerate(self._rule_index))

    def lines(self) -> list[str]:
        """The printed rules, in order."""
        return [r.text(i) for i, r in enumerate(self.rules)]
