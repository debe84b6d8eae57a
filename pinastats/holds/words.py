"""The words of the hold guide: keeps described by the hand's shape or by face values.

*Shape words* name a keep by the parts of the hand it takes ("keep the three
of a kind", "keep both pairs"): they fit targets that only look at the pattern
of equal dice. *Face rules* name keeps by face values ("keep every die ≥ 5",
"keep one each of 2 3 4 5", "keep two dice totalling 5-7"), each with a
simplicity rank; :mod:`pinastats.holds.guide` picks among them.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from pinastats._arrays import BoolArray, IntArray
from pinastats.dice.hands import check_dice, check_keep, dice_tables

Dice = tuple[int, ...]

_FACES = np.arange(1, 7)
_GROUP_NAMES = {5: "five of a kind", 4: "four of a kind", 3: "three of a kind", 2: "pair"}
_SHAPE_NAMES = {
    (5,): "five of a kind",
    (4, 1): "four of a kind",
    (3, 2): "full house",
    (3, 1, 1): "three of a kind",
    (2, 2, 1): "two pairs",
    (2, 1, 1, 1): "one pair",
    (1, 1, 1, 1, 1): "all different",
}
NUMBER_WORDS = {0: "no", 1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}
_NUMBER_WORDS = NUMBER_WORDS
STOP = "stop"
REROLL = "re-roll all five"
DISTINCT = "keep one die of each value"


# ---------------------------------------------------------------- the one vocabulary
# The guide (optimal-hold) and the cheat-sheets' decision lists say their keeps
# with these functions, so a keep they share reads the same in both.


def face_words(faces: Sequence[int]) -> str:
    """Name a set of faces the way a player checks it.

    >>> face_words((1, 2, 3)), face_words((4, 5, 6)), face_words((1, 3, 5)), face_words((6,))
    ('≤ 3', '≥ 4', 'odd', '6')
    >>> face_words((2, 3, 4, 5))
    '2 to 5'
    """
    s = sorted(set(faces))
    if len(s) == 1:
        return str(s[0])
    if s == [1, 3, 5]:
        return "odd"
    if s == [2, 4, 6]:
        return "even"
    if s[0] == 1 and s == list(range(1, s[-1] + 1)):
        return f"≤ {s[-1]}"
    if s[-1] == 6 and s == list(range(s[0], 7)):
        return f"≥ {s[0]}"
    if s == list(range(s[0], s[-1] + 1)):
        return f"{s[0]} to {s[-1]}"
    return " ".join(map(str, s))


def span_text(lo: int, hi: int) -> str:
    """A span of totals: ``8-11``, or ``8`` alone."""
    return str(lo) if lo == hi else f"{lo}-{hi}"


def keep_every(faces: Sequence[int]) -> str:
    """``keep every 6``, ``every odd die``, ``every die ≥ 5``, ``every 1, 3 and 4``.

    Ranges read as ranges (``keep every die 2 to 5``); other sets are listed.
    """
    s = sorted(set(faces))
    words = face_words(s)
    if len(s) == 1:
        return f"keep every {words}"
    if words in ("odd", "even"):
        return f"keep every {words} die"
    if words[0] in "≤≥" or " to " in words:
        return f"keep every die {words}"
    return "keep every " + ", ".join(map(str, s[:-1])) + f" and {s[-1]}"


def keep_one_each(faces: Sequence[int]) -> str:
    """``keep one each of 2 3 4 5``: one die of each of these values held."""
    return f"keep one each of {' '.join(map(str, sorted(set(faces))))}"


def keep_total(n: int, lo: int, hi: int) -> str:
    """``keep four dice totalling 8-11``; ``keep one die of 5-6`` for one die."""
    what = "one die of" if n == 1 else f"{NUMBER_WORDS[n]} dice totalling"
    return f"keep {what} {span_text(lo, hi)}"


def keep_dice(counts: npt.ArrayLike) -> Dice:
    """The sorted dice of a face-count vector: ``(0, 2, 0, 0, 1, 0) -> (2, 2, 5)``."""
    return tuple(int(d) for d in np.repeat(_FACES, np.asarray(counts)))


def shape_of(hand: Sequence[int]) -> Dice:
    """Return the counts pattern of a hand, largest first: ``(2, 2, 5, 4, 1) -> (2, 1, 1, 1)``."""
    dice = check_dice(hand, what="a hand")
    return tuple(sorted((dice.count(v) for v in set(dice)), reverse=True))


def shape_text(hand: Sequence[int]) -> str:
    """``'three of a kind (3+1+1)'``."""
    shape = shape_of(hand)
    return f"{_SHAPE_NAMES[shape]} ({'+'.join(map(str, shape))})"


def shape_rule(hand: Dice, keep: Dice) -> str:
    """Describe a keep by the parts of the hand it takes ("the pair + one single").

    >>> shape_rule((2, 2, 2, 5, 6), (2, 2, 2))
    'keep the three of a kind'
    >>> shape_rule((1, 1, 3, 3, 6), (1, 1, 3, 3))
    'keep both pairs'
    >>> shape_rule((1, 1, 2, 3, 4), (1, 2, 3, 4))
    'keep one die of each value'
    """
    return _shape_rule(check_dice(hand, what="a hand"), check_keep(keep, hand))


def _shape_rule(hand: Dice, keep: Dice) -> str:
    """:func:`shape_rule` of a sorted hand and a sorted keep of it (not checked)."""
    if keep == hand:
        return STOP
    if not keep:
        return REROLL
    counts = {v: hand.count(v) for v in set(hand)}
    kept = {v: keep.count(v) for v in counts}
    if len(set(keep)) == len(keep) == len(counts):
        return DISTINCT
    parts = []
    for size in sorted(set(counts.values()), reverse=True):
        faces = [v for v in counts if counts[v] == size]
        full = sum(kept[v] == size for v in faces)
        partial = sorted((kept[v] for v in faces if 0 < kept[v] < size), reverse=True)
        if size == 1:
            if full:
                parts.append("one single" if full == 1 else f"{_NUMBER_WORDS[full]} singles")
            continue
        name = _GROUP_NAMES[size]
        if full:
            if len(faces) == 1:
                parts.append(f"the {name}")
            else:
                parts.append(f"both {name}s" if full == len(faces) else f"one {name}")
        for n in partial:
            parts.append(f"{_NUMBER_WORDS[n]} of the {name}")
    return "keep " + " + ".join(parts)


# ---------------------------------------------------------------- face rules


@dataclass(frozen=True)
class FaceRule:
    """A rule on face values.

    It names one keep per hand (``index``, -1 where it does not apply) or allows a
    set of keeps (``allowed``, over the 462 keeps).
    """

    text: str
    rank: int
    index: IntArray | None = None
    allowed: BoolArray | None = None

    def fits(self, best: BoolArray, sub: BoolArray) -> BoolArray:
        """Hands for which the rule allows a keep, and only optimal keeps."""
        out: BoolArray
        if self.index is not None:
            ok = self.index >= 0
            out = ok & best[np.arange(len(best)), np.where(ok, self.index, 0)]
            return out
        assert self.allowed is not None
        if self.allowed.sum() == 1:  # a literal keep
            k = int(np.flatnonzero(self.allowed)[0])
            out = sub[:, k] & best[:, k]
            return out
        match = sub & self.allowed
        out = np.logical_and(match.any(axis=1), ~np.any(match & ~best, axis=1))
        return out

    def keep(self, hand: int, sub: BoolArray) -> int:
        """Return the keep (index) the rule gives for one hand, most dice kept if several."""
        if self.index is not None:
            return int(self.index[hand])
        assert self.allowed is not None
        return int(np.flatnonzero(sub[hand] & self.allowed)[-1])


def _face_set_rule(faces: Sequence[int]) -> tuple[str, int]:
    """Words and simplicity rank of "keep every die showing one of ``faces``".

    Rank 2: one face; 3: a parity or a threshold (every die ≥ 5); 4: a list.
    """
    s = sorted(faces)
    rank = 4
    if len(s) == 1:
        rank = 2
    elif s in ([1, 3, 5], [2, 4, 6]) or s in (list(range(s[0], 7)), list(range(1, s[-1] + 1))):
        rank = 3
    return keep_every(s).removeprefix("keep "), rank


def _keep_indices(kept: IntArray) -> IntArray:
    """Keep index of each row of face counts; -1 for an empty keep."""
    t = dice_tables()
    place = 6 ** np.arange(5, -1, -1)
    lut = np.full(6**6, -1, dtype=np.int64)
    lut[t.keep_counts @ place] = np.arange(len(t.keep_counts))
    index = lut[kept @ place]
    return np.where(kept.sum(axis=1) > 0, index, -1)


@cache
def face_rules(sums: bool) -> tuple[FaceRule, ...]:
    """Build the candidate rules, simplest first.

    Stop, re-roll, "every 5 and 6", "one each of 2 3 4 5", with ``sums`` "two dice
    totalling 5-7", and every literal keep.
    """
    t = dice_tables()
    h = np.asarray(t.hand_counts)
    everyone = np.ones(len(h), dtype=np.bool_)
    rules = [
        FaceRule(STOP, 0, index=np.asarray(t.hand_as_keep)),
        FaceRule(REROLL, 1, index=np.where(everyone, 0, 0)),
    ]
    for n in range(1, 6):
        for faces in itertools.combinations(range(1, 7), n):
            mask = np.isin(_FACES, faces).astype(np.int64)
            text, rank = _face_set_rule(faces)
            rules.append(FaceRule(f"keep {text}", rank, index=_keep_indices(h * mask)))
            if n >= 2:
                each = _keep_indices(np.minimum(h, 1) * mask)
                rules.append(FaceRule(keep_one_each(faces), 5, index=each))
    if sums:
        total = t.keep_counts @ _FACES
        for n in range(1, 5):
            for lo in range(n, 6 * n + 1):
                for hi in range(lo, min(lo + 3, 6 * n) + 1):
                    allowed = (t.keep_size == n) & (total >= lo) & (total <= hi)
                    rules.append(FaceRule(keep_total(n, lo, hi), 6, allowed=allowed))
    for k in range(1, len(t.keep_counts)):
        literal = np.arange(len(t.keep_counts)) == k
        rules.append(FaceRule(f"keep {' '.join(map(str, keep_dice(t.keep_counts[k])))}", 7,
                           allowed=literal))  # fmt: skip
    return tuple(rules)


@cache
def sub_keeps() -> BoolArray:
    """``(252, 462)``: keep ``k`` is part of hand ``h``."""
    t = dice_tables()
    sub: BoolArray = np.all(t.hand_counts[:, None, :] >= t.keep_counts[None, :, :], axis=2)
    return sub
