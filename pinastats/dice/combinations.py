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
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from pinastats.dice.errors import TargetError
from pinastats.dice.errors import UnknownCombinationError as UnknownCombinationError
from pinastats.dice.hands import N_HANDS, check_dice, dice_tables

Counts = Sequence[int]


class CombinationKind(StrEnum):
    """The family of a combination: what the rule looks at on the five dice."""

    PAIR_OF_N = "pair-of-N"
    """At least two dice show one given face (Pair of 1s ... Pair of 6s)."""
    THREE_OF_N = "three-of-N"
    """At least three dice show one given face (Three 1s ... Three 6s)."""
    FOUR_OF_N = "four-of-N"
    """At least four dice show one given face."""
    FIVE_OF_N = "five-of-N"
    """All five dice show one given face."""
    N_OF_A_KIND = "n-of-a-kind"
    """At least ``needed`` equal dice, any face (Pair ... Five of a Kind)."""
    STRAIGHT = "straight"
    """A run of consecutive faces."""
    SUM = "sum"
    """The total of the dice falls in a range."""
    PARITY = "parity"
    """Every die odd, or every die even."""
    PATTERN = "pattern"
    """A pattern of equal and different dice (double pair, full house, all different)."""


class Combination(StrEnum):
    """A combination of the five final dice; the value is its player label.

    Each member also knows its :attr:`description` (what it means on the five
    dice, as in ``RULES.md``), its :attr:`kind`, and its :attr:`face` and
    :attr:`needed` where it has them (Three 5s: face 5, needed 3).
    """

    PAIR_1 = "Pair of 1s"
    PAIR_2 = "Pair of 2s"
    PAIR_3 = "Pair of 3s"
    PAIR_4 = "Pair of 4s"
    PAIR_5 = "Pair of 5s"
    PAIR_6 = "Pair of 6s"
    DOUBLE_PAIR = "Double Pair"
    THREE_1 = "Three 1s"
    THREE_2 = "Three 2s"
    THREE_3 = "Three 3s"
    THREE_4 = "Three 4s"
    THREE_5 = "Three 5s"
    THREE_6 = "Three 6s"
    ODDS = "Odds"
    EVENS = "Evens"
    SUM_LE_9 = "Sum ≤ 9"
    SUM_12_14 = "Sum 12-14"
    SUM_21_23 = "Sum 21-23"
    SUM_GE_26 = "Sum ≥ 26"
    SMALL_STRAIGHT = "Small Straight"
    LARGE_STRAIGHT = "Large Straight"
    FOUR_OF_A_KIND = "Four of a Kind"
    FULL_HOUSE = "Full House"
    ALL_DIFFERENT = "All Different"
    FIVE_OF_A_KIND = "Five of a Kind"
    # generic analysis targets (not coasters)
    PAIR = "Pair"
    THREE_OF_A_KIND = "Three of a Kind"
    TWO_DISTINCT_PAIRS = "Two Distinct Pairs"
    STRICT_FULL_HOUSE = "Strict Full House"
    FOUR_1 = "Four 1s"
    FOUR_2 = "Four 2s"
    FOUR_3 = "Four 3s"
    FOUR_4 = "Four 4s"
    FOUR_5 = "Four 5s"
    FOUR_6 = "Four 6s"
    FIVE_1 = "Five 1s"
    FIVE_2 = "Five 2s"
    FIVE_3 = "Five 3s"
    FIVE_4 = "Five 4s"
    FIVE_5 = "Five 5s"
    FIVE_6 = "Five 6s"

    @property
    def label(self) -> str:
        """The name a player reads on the coaster or in a table ("Pair of 6s")."""
        return str(self.value)

    @property
    def description(self) -> str:
        """One line: what the combination means on the five final dice."""
        return _INFO[self].description

    @property
    def kind(self) -> CombinationKind:
        """The family of the combination."""
        return _INFO[self].kind

    @property
    def face(self) -> int | None:
        """The face the combination is about (Pair of 6s: 6), None when it has none."""
        return _INFO[self].face

    @property
    def needed(self) -> int | None:
        """How many equal dice it needs (Three 5s, Three of a Kind: 3), None if no such rule."""
        return _INFO[self].needed

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
        for d in check_dice(dice):
            counts[d - 1] += 1
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


class _Info(NamedTuple):
    kind: CombinationKind
    description: str
    face: int | None = None
    needed: int | None = None


_PER_FACE = {2: ("PAIR", CombinationKind.PAIR_OF_N, "two"),
             3: ("THREE", CombinationKind.THREE_OF_N, "three"),
             4: ("FOUR", CombinationKind.FOUR_OF_N, "four")}  # fmt: skip
_K = CombinationKind
_INFO: dict[Combination, _Info] = {
    **{
        Combination[f"{word}_{v}"]: _Info(kind, f"At least {n_word} dice show {v}.", v, n)
        for n, (word, kind, n_word) in _PER_FACE.items()
        for v in range(1, 7)
    },
    **{
        Combination[f"FIVE_{v}"]: _Info(_K.FIVE_OF_N, f"All five dice show {v}.", v, 5)
        for v in range(1, 7)
    },
    Combination.DOUBLE_PAIR: _Info(
        _K.PATTERN, "Two pairs, possibly of the same value (four or five of a kind count)."
    ),
    Combination.ODDS: _Info(_K.PARITY, "Every die is 1, 3 or 5."),
    Combination.EVENS: _Info(_K.PARITY, "Every die is 2, 4 or 6."),
    Combination.SUM_LE_9: _Info(_K.SUM, "The dice add up to 9 or less."),
    Combination.SUM_12_14: _Info(_K.SUM, "The dice add up to 12, 13 or 14."),
    Combination.SUM_21_23: _Info(_K.SUM, "The dice add up to 21, 22 or 23."),
    Combination.SUM_GE_26: _Info(_K.SUM, "The dice add up to 26 or more."),
    Combination.SMALL_STRAIGHT: _Info(
        _K.STRAIGHT, "1-2-3-4, 2-3-4-5 or 3-4-5-6 among the dice (a large straight counts)."
    ),
    Combination.LARGE_STRAIGHT: _Info(_K.STRAIGHT, "1-2-3-4-5 or 2-3-4-5-6."),
    Combination.FOUR_OF_A_KIND: _Info(_K.N_OF_A_KIND, "At least four dice of one value.", None, 4),
    Combination.FULL_HOUSE: _Info(
        _K.PATTERN, "Three of one value and two of another; five of a kind counts, 4 + 1 does not."
    ),
    Combination.ALL_DIFFERENT: _Info(
        _K.PATTERN, "Five distinct values (5≠; a large straight counts)."
    ),
    Combination.FIVE_OF_A_KIND: _Info(_K.N_OF_A_KIND, "All five dice equal.", None, 5),
    Combination.PAIR: _Info(_K.N_OF_A_KIND, "At least two dice of one value (any value).", None, 2),
    Combination.THREE_OF_A_KIND: _Info(
        _K.N_OF_A_KIND, "At least three dice of one value (any value).", None, 3
    ),
    Combination.TWO_DISTINCT_PAIRS: _Info(
        _K.PATTERN, "Two different values shown at least twice each."
    ),
    Combination.STRICT_FULL_HOUSE: _Info(
        _K.PATTERN, "Exactly three of one value and two of a different value."
    ),
}

ANALYSIS_TARGETS: frozenset[Combination] = frozenset(
    {
        Combination.PAIR,
        Combination.THREE_OF_A_KIND,
        Combination.TWO_DISTINCT_PAIRS,
        Combination.STRICT_FULL_HOUSE,
        *(Combination[f"{word}_{v}"] for word in ("FOUR", "FIVE") for v in range(1, 7)),
    }
)
"""The generic analysis targets, printed on no coaster; every other combination is a coaster's."""

COASTER_COMBINATIONS: tuple[Combination, ...] = tuple(
    c for c in Combination if c not in ANALYSIS_TARGETS
)
"""The combinations printed on the coasters, in catalogue order (a new member is one)."""


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
    if not isinstance(name, str):
        raise TargetError(f"a combination name must be a string, got {name!r}")
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
    if not isinstance(name, str):
        raise TargetError(
            f"a target must be a combination name (a string) or a Combination, got {name!r} "
            "(`pinastats targets` lists them)"
        )
    table = _alias_table()
    key = normalize_name(name)
    if key in table:
        return table[key]
    close = difflib.get_close_matches(key, list(table), n=6, cutoff=0.5)
    suggestions = list(dict.fromkeys(table[c].value for c in close))[:3]
    raise UnknownCombinationError(name, suggestions)
