"""Dice combinations: the 25 coaster combinations and generic analysis targets.

Each :class:`Combination` is defined once, by a predicate on the face counts
``c = (c1, ..., c6)`` of the five final dice (see ``RULES.md``); its *mask*
over the 252 hands is that predicate evaluated on every hand. Names given by a
user are resolved by :func:`parse_combination`, which is case-insensitive,
knows the usual aliases ("fh", "5≠", "sum <= 9", "pair of 6s", ...) and
suggests the closest names when it finds none.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from enum import StrEnum
from functools import cache

import numpy as np
import numpy.typing as npt

from pinastats.dice.hands import N_HANDS, dice_tables

Counts = Sequence[int]


class Combination(StrEnum):
    """A combination of the five final dice; the value is its display name."""

    PAIR_1 = "Pair of 1s"
    """At least two dice show 1."""
    PAIR_2 = "Pair of 2s"
    """At least two dice show 2."""
    PAIR_3 = "Pair of 3s"
    """At least two dice show 3."""
    PAIR_4 = "Pair of 4s"
    """At least two dice show 4."""
    PAIR_5 = "Pair of 5s"
    """At least two dice show 5."""
    PAIR_6 = "Pair of 6s"
    """At least two dice show 6."""
    DOUBLE_PAIR = "Double Pair"
    """Two pairs, possibly of the same value (four or five of a kind count)."""
    THREE_1 = "Three 1s"
    """At least three dice show 1."""
    THREE_2 = "Three 2s"
    """At least three dice show 2."""
    THREE_3 = "Three 3s"
    """At least three dice show 3."""
    THREE_4 = "Three 4s"
    """At least three dice show 4."""
    THREE_5 = "Three 5s"
    """At least three dice show 5."""
    THREE_6 = "Three 6s"
    """At least three dice show 6."""
    ODDS = "Odds"
    """Every die is 1, 3 or 5."""
    EVENS = "Evens"
    """Every die is 2, 4 or 6."""
    SUM_LE_9 = "Sum ≤ 9"
    """The dice add up to 9 or less."""
    SUM_12_14 = "Sum 12-14"
    """The dice add up to 12, 13 or 14."""
    SUM_21_23 = "Sum 21-23"
    """The dice add up to 21, 22 or 23."""
    SUM_GE_26 = "Sum ≥ 26"
    """The dice add up to 26 or more."""
    SMALL_STRAIGHT = "Small Straight"
    """1-2-3-4, 2-3-4-5 or 3-4-5-6 among the dice (a large straight counts)."""
    LARGE_STRAIGHT = "Large Straight"
    """1-2-3-4-5 or 2-3-4-5-6."""
    FOUR_OF_A_KIND = "Four of a Kind"
    """At least four dice of one value."""
    FULL_HOUSE = "Full House"
    """Three of one value and two of another, or five of a kind."""
    ALL_DIFFERENT = "All Different"
    """Five distinct values (5≠; a large straight counts)."""
    FIVE_OF_A_KIND = "Five of a Kind"
    """All five dice equal."""
    # generic analysis targets (not coasters)
    PAIR = "Pair"
    """At least two dice of one value (any value)."""
    THREE_OF_A_KIND = "Three of a Kind"
    """At least three dice of one value (any value)."""
    TWO_DISTINCT_PAIRS = "Two Distinct Pairs"
    """Two different values shown at least twice each."""
    STRICT_FULL_HOUSE = "Strict Full House"
    """Exactly three of one value and two of a different value."""
    FOUR_1 = "Four 1s"
    """At least four dice show 1."""
    FOUR_2 = "Four 2s"
    """At least four dice show 2."""
    FOUR_3 = "Four 3s"
    """At least four dice show 3."""
    FOUR_4 = "Four 4s"
    """At least four dice show 4."""
    FOUR_5 = "Four 5s"
    """At least four dice show 5."""
    FOUR_6 = "Four 6s"
    """At least four dice show 6."""
    FIVE_1 = "Five 1s"
    """All five dice show 1."""
    FIVE_2 = "Five 2s"
    """All five dice show 2."""
    FIVE_3 = "Five 3s"
    """All five dice show 3."""
    FIVE_4 = "Five 4s"
    """All five dice show 4."""
    FIVE_5 = "Five 5s"
    """All five dice show 5."""
    FIVE_6 = "Five 6s"
    """All five dice show 6."""

    @property
    def is_coaster(self) -> bool:
        """Whether the combination is printed on one of the 25 coasters."""
        return self in COASTER_COMBINATIONS

    def holds(self, dice: Sequence[int]) -> bool:
        """Whether five dice show this combination.

        >>> Combination.FULL_HOUSE.holds([5, 5, 5, 3, 3])
        True
        >>> Combination.FULL_HOUSE.holds([5, 5, 5, 5, 3])
        False
        """
        counts = [0] * 6
        for d in dice:
            counts[int(d) - 1] += 1
        return _PREDICATES[self](counts)

    def mask(self) -> npt.NDArray[np.bool_]:
        """Boolean mask over the 252 hands (read-only)."""
        row: npt.NDArray[np.bool_] = combination_masks()[list(Combination).index(self)]
        return row


def _total(c: Counts) -> int:
    return sum((face + 1) * n for face, n in enumerate(c))


def _runs(c: Counts, length: int) -> bool:
    return any(all(c[s + i] > 0 for i in range(length)) for s in range(7 - length))


def _at_least(face: int, n: int) -> Callable[[Counts], bool]:
    return lambda c: c[face - 1] >= n


_PREDICATES: dict[Combination, Callable[[Counts], bool]] = {
    **{Combination[f"PAIR_{v}"]: _at_least(v, 2) for v in range(1, 7)},
    Combination.DOUBLE_PAIR: lambda c: sum(n // 2 for n in c) >= 2,
    **{Combination[f"THREE_{v}"]: _at_least(v, 3) for v in range(1, 7)},
    Combination.ODDS: lambda c: c[1] + c[3] + c[5] == 0,
    Combination.EVENS: lambda c: c[0] + c[2] + c[4] == 0,
    Combination.SUM_LE_9: lambda c: _total(c) <= 9,
    Combination.SUM_12_14: lambda c: 12 <= _total(c) <= 14,
    Combination.SUM_21_23: lambda c: 21 <= _total(c) <= 23,
    Combination.SUM_GE_26: lambda c: _total(c) >= 26,
    Combination.SMALL_STRAIGHT: lambda c: _runs(c, 4),
    Combination.LARGE_STRAIGHT: lambda c: _runs(c, 5),
    Combination.FOUR_OF_A_KIND: lambda c: max(c) >= 4,
    Combination.FULL_HOUSE: lambda c: sorted(c)[-2:] == [2, 3] or max(c) == 5,
    Combination.ALL_DIFFERENT: lambda c: max(c) == 1,
    Combination.FIVE_OF_A_KIND: lambda c: max(c) == 5,
    Combination.PAIR: lambda c: max(c) >= 2,
    Combination.THREE_OF_A_KIND: lambda c: max(c) >= 3,
    Combination.TWO_DISTINCT_PAIRS: lambda c: sum(n >= 2 for n in c) >= 2,
    Combination.STRICT_FULL_HOUSE: lambda c: sorted(c)[-2:] == [2, 3],
    **{Combination[f"FOUR_{v}"]: _at_least(v, 4) for v in range(1, 7)},
    **{Combination[f"FIVE_{v}"]: _at_least(v, 5) for v in range(1, 7)},
}

COASTER_COMBINATIONS: tuple[Combination, ...] = tuple(list(Combination)[:25])
"""The 25 combinations printed on the coasters, in catalogue order."""


@cache
def combination_masks() -> npt.NDArray[np.bool_]:
    """``(len(Combination), 252)`` mask of every combination over the hands."""
    counts = dice_tables().hand_counts
    masks = np.zeros((len(Combination), N_HANDS), dtype=np.bool_)
    for i, comb in enumerate(Combination):
        predicate = _PREDICATES[comb]
        masks[i] = [predicate([int(x) for x in c]) for c in counts]
    masks.setflags(write=False)
    return masks


# ---------------------------------------------------------------- names

_NUMBER_WORDS = {
    "one": "1", "ones": "1", "two": "2", "twos": "2", "deuces": "2", "three": "3",
    "threes": "3", "treys": "3", "four": "4", "fours": "4", "five": "5", "fives": "5",
    "six": "6", "sixes": "6",
}  # fmt: skip


def normalize_name(name: str) -> str:
    """Canonical spelling of a combination name, used for matching aliases.

    >>> normalize_name("Sum ≤ 9")
    'sum <= 9'
    >>> normalize_name("Pair of 6's")
    'pair of 6'
    >>> normalize_name("sum 12, 13 or 14")
    'sum 12 13 14'
    """
    s = name.strip().lower()
    for a, b in (("≤", "<="), ("≥", ">="), ("≠", "!="), ("’", "'"), ("=<", "<="), ("=>", ">=")):
        s = s.replace(a, b)
    s = re.sub(r"(<=|>=|!=|<|>)", r" \1 ", s)
    s = re.sub(r"(\d)'?s\b", r"\1", s)  # "6s" and "6's" before the apostrophe goes
    s = re.sub(r"[,/_\-+.'()]", " ", s)
    words = [_NUMBER_WORDS.get(w, w) for w in s.split() if w not in {"or", "and"}]
    # "three 3" style words: the first number word in "three of a kind" stays a word
    return " ".join(words)


def _aliases() -> dict[Combination, list[str]]:
    al: dict[Combination, list[str]] = {c: [c.value] for c in Combination}
    for v in range(1, 7):
        al[Combination[f"PAIR_{v}"]] += [f"pair {v}", f"pair of {v}", f"2x{v}", f"{v}{v}"]
        al[Combination[f"THREE_{v}"]] += [
            f"three of {v}", f"triple {v}", f"3x{v}", f"{v}{v}{v}", f"three of a kind {v}",
        ]  # fmt: skip
        al[Combination[f"FOUR_{v}"]] += [f"four of {v}", f"4x{v}", f"{v}{v}{v}{v}"]
        al[Combination[f"FIVE_{v}"]] += [f"five of {v}", f"5x{v}", f"{v}{v}{v}{v}{v}"]
    al[Combination.DOUBLE_PAIR] += ["double pairs", "dp", "pair pair", "2 pairs same value"]
    al[Combination.ODDS] += ["odd", "all odd", "all odds"]
    al[Combination.EVENS] += ["even", "all even", "all evens"]
    al[Combination.SUM_LE_9] += ["sum < 10", "sum 9 or less", "sum le 9", "sum max 9", "low"]
    al[Combination.SUM_12_14] += ["sum 12 13 14", "sum 12 to 14", "sum 12..14"]
    al[Combination.SUM_21_23] += ["sum 21 22 23", "sum 21 to 23", "sum 21..23"]
    al[Combination.SUM_GE_26] += ["sum > 25", "sum 26 or more", "sum ge 26", "sum min 26", "high"]
    al[Combination.SMALL_STRAIGHT] += ["ss", "small", "sm straight", "short straight"]
    al[Combination.LARGE_STRAIGHT] += [
        "ls",
        "large",
        "lg straight",
        "big straight",
        "long straight",
    ]
    al[Combination.FOUR_OF_A_KIND] += ["4oak", "4 of a kind", "quads", "square", "carre"]
    al[Combination.FULL_HOUSE] += ["fh", "full", "boat", "full house 3+2"]
    al[Combination.ALL_DIFFERENT] += ["5≠", "5!=", "5 different", "all distinct", "all diff"]
    al[Combination.FIVE_OF_A_KIND] += ["5oak", "5 of a kind", "yahtzee", "yam", "quintuple"]
    al[Combination.PAIR] += ["one pair", "a pair", "any pair", "at least a pair"]
    al[Combination.THREE_OF_A_KIND] += ["3oak", "3 of a kind", "trips", "any three", "triple"]
    al[Combination.TWO_DISTINCT_PAIRS] += ["two pairs", "two pair", "2 pairs", "2 pair"]
    al[Combination.STRICT_FULL_HOUSE] += ["full house strict", "yahtzee full house"]
    return al


@cache
def _alias_table() -> dict[str, Combination]:
    table: dict[str, Combination] = {}
    for comb, names in _aliases().items():
        for n in names:
            key = normalize_name(n)
            if table.get(key, comb) is not comb:
                raise AssertionError(f"alias {n!r} names two combinations")
            table[key] = comb
    return table


class UnknownCombinationError(ValueError):
    """A name that matches no combination; ``suggestions`` lists the closest."""

    def __init__(self, name: str, suggestions: list[str]) -> None:
        self.name = name
        self.suggestions = suggestions
        hint = f"; did you mean {', '.join(repr(s) for s in suggestions)}?" if suggestions else ""
        super().__init__(
            f"unknown combination {name!r}{hint} (`pinastats targets` lists all of them)"
        )


def parse_combination(name: str | Combination) -> Combination:
    """Resolve a user-supplied combination name (case-insensitive, with aliases).

    >>> parse_combination("full house")
    <Combination.FULL_HOUSE: 'Full House'>
    >>> parse_combination("pair of 6s").name, parse_combination("5≠").name
    ('PAIR_6', 'ALL_DIFFERENT')
    >>> parse_combination("sum <= 9").name, parse_combination("Sum 12-14").name
    ('SUM_LE_9', 'SUM_12_14')
    """
    if isinstance(name, Combination):
        return name
    table = _alias_table()
    key = normalize_name(name)
    if key in table:
        return table[key]
    close = difflib.get_close_matches(key, list(table), n=6, cutoff=0.5)
    suggestions = list(dict.fromkeys(table[c].value for c in close))[:3]
    raise UnknownCombinationError(name, suggestions)
