"""A hold guide a person can read: the 252 hands grouped by what to keep.

For each decision point (``rolls_left`` rolls still to come) every hand gets
its optimal keeps (all exact ties). Hands are then grouped under one rule:

* hands that already show the target: *stop*;
* targets that only depend on the pattern of the dice (pairs, full house,
  straights of kinds, ...; "face-symmetric") are grouped by the hand's shape
  (``3+1+1``) and the keep described in shape words ("the three of a kind");
* other targets (sums, odds, pairs of 6s, straights) are covered greedily by
  rules on face values ("every die ≥ 5", "one each of 2 3 4 5", "the 5s"),
  the rule that is optimal for the most likely hands first; a literal keep
  ("6 6 5") is the last resort.

Each group carries its success range and ``share``: the chance of facing a
hand of the group at that point of a turn played by the guide.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from pinastats.dice import Combination, TurnSolution

Dice = tuple[int, ...]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

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
_NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}
STOP = "stop"
REROLL = "re-roll all five"


@dataclass(frozen=True)
class HandAdvice:
    """The optimal keeps of one hand at one decision point.

    Attributes:
        rolls_left: rolls still to come (the decision is made before them).
        hand: the five dice, sorted.
        keeps: every optimal keep (sorted dice), the one the guide follows first.
        probability: chance of success from here with optimal play.
        fraction: the same, exactly (None without exact arithmetic).
    """

    rolls_left: int
    hand: Dice
    keeps: tuple[Dice, ...]
    probability: float
    fraction: Fraction | None


@dataclass
class GuideRow:
    """A group of hands sharing one rule at one decision point."""

    rolls_left: int
    situation: str
    rule: str
    hands: list[HandAdvice] = field(default_factory=list)
    share: float = 0.0

    @property
    def low(self) -> HandAdvice:
        """The hand of the group with the lowest chance of success."""
        return min(self.hands, key=lambda a: a.probability)

    @property
    def high(self) -> HandAdvice:
        """The hand of the group with the highest chance of success."""
        return max(self.hands, key=lambda a: a.probability)

    def examples(self, n: int = 3) -> list[HandAdvice]:
        """Up to ``n`` of the group's likeliest hands, spread over the faces."""
        from pinastats.dice.hands import multinomial

        def likelihood(a: HandAdvice) -> int:
            return multinomial([a.hand.count(v) for v in range(1, 7)])

        top = max(likelihood(a) for a in self.hands)
        hands = sorted((a for a in self.hands if likelihood(a) == top), key=lambda a: a.hand)
        if len(hands) < n:
            rest = sorted(self.hands, key=lambda a: (-likelihood(a), a.hand))
            hands = sorted(dict.fromkeys(hands + rest[:n]), key=lambda a: a.hand)[:n]
        picks = sorted({round(i * (len(hands) - 1) / max(n - 1, 1)) for i in range(n)})
        return [hands[i] for i in picks]


# ---------------------------------------------------------------- per-hand advice


def hand_advice(solution: TurnSolution, rolls_left: int) -> list[HandAdvice]:
    """Optimal keeps of all 252 hands with ``rolls_left`` rolls left (nothing locked).

    Keeps are ordered: stop first, then re-roll all, then the most dice kept.
    """
    from pinastats.dice import dice_tables

    t = dice_tables()
    exact = solution.keep_numerator
    values = solution.keep_value[rolls_left - 1]
    denominator = 6 ** (5 * rolls_left)
    out = []
    for h in range(len(t.hand_dice)):
        ks = t.hand_keep[t.hand_keep_ptr[h] : t.hand_keep_ptr[h + 1]]
        if exact is not None:
            row = exact[rolls_left - 1, ks]
            best = ks[row == row.max()]
            fraction: Fraction | None = Fraction(int(row.max()), denominator)
        else:
            row_f = values[ks]
            best = ks[row_f >= row_f.max() - 1e-12 * max(1.0, abs(float(row_f.max())))]
            fraction = None
        hand = tuple(int(d) for d in t.hand_dice[h])
        keeps = [_keep_dice(t.keep_counts[k]) for k in best]
        keeps.sort(key=lambda k: (k != hand, len(k) != 0, -len(k), k))
        out.append(HandAdvice(rolls_left, hand, tuple(keeps), float(values[best[0]]), fraction))
    return out


def _keep_dice(counts: npt.ArrayLike) -> Dice:
    return tuple(int(d) for d in np.repeat(_FACES, np.asarray(counts)))


def is_face_symmetric(comb: Combination) -> bool:
    """Whether the target depends only on the pattern of counts, not on the faces."""
    from pinastats.dice import dice_tables

    seen: dict[Dice, bool] = {}
    for counts, hit in zip(dice_tables().hand_counts, comb.mask(), strict=True):
        shape = tuple(sorted((int(c) for c in counts if c), reverse=True))
        if seen.setdefault(shape, bool(hit)) != bool(hit):
            return False
    return True


# ---------------------------------------------------------------- shape words


def shape_of(hand: Sequence[int]) -> Dice:
    """Return the counts pattern of a hand, largest first: ``(2, 2, 5, 4, 1) -> (2, 1, 1, 1)``."""
    return tuple(sorted((hand.count(v) for v in set(hand)), reverse=True))


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
    if keep == hand:
        return STOP
    if not keep:
        return REROLL
    counts = {v: hand.count(v) for v in set(hand)}
    kept = {v: keep.count(v) for v in counts}
    if len(set(keep)) == len(keep) == len(counts):
        return "keep one die of each value"
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
class _Rule:
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


def _face_set_text(faces: Sequence[int]) -> str:
    s = sorted(faces)
    if len(s) == 1:
        return f"every {s[0]}"
    if s == [1, 3, 5]:
        return "every odd die"
    if s == [2, 4, 6]:
        return "every even die"
    if s == list(range(s[0], 7)):
        return f"every die ≥ {s[0]}"
    if s == list(range(1, s[-1] + 1)):
        return f"every die ≤ {s[-1]}"
    return "every " + ", ".join(map(str, s[:-1])) + f" and {s[-1]}"


def _keep_indices(kept: IntArray) -> IntArray:
    """Keep index of each row of face counts; -1 for an empty keep."""
    from pinastats.dice import dice_tables

    t = dice_tables()
    place = 6 ** np.arange(5, -1, -1)
    lut = np.full(6**6, -1, dtype=np.int64)
    lut[t.keep_counts @ place] = np.arange(len(t.keep_counts))
    index = lut[kept @ place]
    return np.where(kept.sum(axis=1) > 0, index, -1)


@cache
def _face_rules(sums: bool) -> tuple[_Rule, ...]:
    """Build the candidate rules, simplest first.

    Stop, re-roll, "every 5 and 6", "one each of 2 3 4 5", with ``sums`` "two dice
    totalling 5-7", and every literal keep.
    """
    from pinastats.dice import dice_tables

    t = dice_tables()
    h = np.asarray(t.hand_counts)
    everyone = np.ones(len(h), dtype=np.bool_)
    rules = [
        _Rule(STOP, 0, index=np.asarray(t.hand_as_keep)),
        _Rule(REROLL, 1, index=np.where(everyone, 0, 0)),
    ]
    for n in range(1, 6):
        for faces in itertools.combinations(range(1, 7), n):
            mask = np.isin(_FACES, faces).astype(np.int64)
            text = _face_set_text(faces)
            rank = (
                2 if n == 1 else 3 if "every die" in text or "odd" in text or "even" in text else 4
            )
            rules.append(_Rule(f"keep {text}", rank, index=_keep_indices(h * mask)))
            if n >= 2:
                listed = " ".join(map(str, faces))
                each = _keep_indices(np.minimum(h, 1) * mask)
                rules.append(_Rule(f"keep one each of {listed}", 5, index=each))
    if sums:
        total = t.keep_counts @ _FACES
        for n in range(1, 5):
            for lo in range(n, 6 * n + 1):
                for hi in range(lo, min(lo + 3, 6 * n) + 1):
                    allowed = (t.keep_size == n) & (total >= lo) & (total <= hi)
                    span = f"{lo}" if lo == hi else f"{lo}-{hi}"
                    what = "one die of" if n == 1 else f"{_NUMBER_WORDS[n]} dice totalling"
                    rules.append(_Rule(f"keep {what} {span}", 6, allowed=allowed))
    for k in range(1, len(t.keep_counts)):
        literal = np.arange(len(t.keep_counts)) == k
        rules.append(_Rule(f"keep {' '.join(map(str, _keep_dice(t.keep_counts[k])))}", 7,
                           allowed=literal))  # fmt: skip
    return tuple(rules)


@cache
def _sub_keeps() -> BoolArray:
    """``(252, 462)``: keep ``k`` is part of hand ``h``."""
    from pinastats.dice import dice_tables

    t = dice_tables()
    sub: BoolArray = np.all(t.hand_counts[:, None, :] >= t.keep_counts[None, :, :], axis=2)
    return sub


# ---------------------------------------------------------------- the guide


def build_guide(
    comb: Combination, solution: TurnSolution
) -> tuple[list[GuideRow], dict[int, list[HandAdvice]]]:
    """Group the hands of every decision point; return the rows and the per-hand advice.

    With sticky holds only the first decision (nothing locked yet) is covered.
    """
    from pinastats.dice import dice_tables

    t = dice_tables()
    last = solution.rolls - 1 if not solution.sticky else min(1, solution.rolls - 1)
    points = list(range(solution.rolls - 1, solution.rolls - 1 - last, -1))
    share = t.hand_weight / 6.0**5
    made = comb.mask()
    symmetric = is_face_symmetric(comb)
    rows: list[GuideRow] = []
    advice: dict[int, list[HandAdvice]] = {}
    for rolls_left in points:
        hands = hand_advice(solution, rolls_left)
        if symmetric:
            section, chosen = _group_by_shape(hands, made)
        else:
            sums = comb.name.startswith("SUM_")
            section, chosen = _group_by_face_rules(hands, made, share, sums)
        hands = [
            HandAdvice(a.rolls_left, a.hand, (k, *(x for x in a.keeps if x != k)),
                       a.probability, a.fraction)
            for a, k in zip(hands, chosen, strict=True)
        ]  # fmt: skip
        for row in section:
            row.hands = [hands[t.hand_index(a.hand)] for a in row.hands]
            row.share = float(sum(share[t.hand_index(a.hand)] for a in row.hands))
        if symmetric:
            section.sort(key=lambda r: (r.rule != STOP, -r.high.probability, -r.share))
        else:
            section.sort(key=lambda r: (r.rule != STOP, r.rule == REROLL, -r.share))
        rows.extend(section)
        advice[rolls_left] = hands
        share = _next_share(share, chosen)
    return rows, advice


def _group_by_shape(hands: list[HandAdvice], made: BoolArray) -> tuple[list[GuideRow], list[Dice]]:
    groups: dict[tuple[str, str], GuideRow] = {}
    chosen = []
    for i, a in enumerate(hands):
        keep = min(a.keeps, key=lambda k: _simplicity(a.hand, k))
        if made[i]:
            keep = a.hand
            key = ("already made", STOP)
        else:
            key = (shape_text(a.hand), shape_rule(a.hand, keep))
        groups.setdefault(key, GuideRow(a.rolls_left, *key)).hands.append(a)
        chosen.append(keep)
    return list(groups.values()), chosen


def _simplicity(hand: Dice, keep: Dice) -> tuple[int, bool, int, Dice]:
    """Order of preference among tied keeps: fewest parts, re-roll all, most dice."""
    rule = shape_rule(hand, keep)
    return rule.count("+"), rule != REROLL, -len(keep), keep


def _group_by_face_rules(
    hands: list[HandAdvice], made: BoolArray, weight: npt.NDArray[np.float64], sums: bool
) -> tuple[list[GuideRow], list[Dice]]:
    from pinastats.dice import dice_tables

    t = dice_tables()
    sub = _sub_keeps()
    best = np.zeros_like(sub)
    for i, a in enumerate(hands):
        best[i, [t.keep_index(k) for k in a.keeps]] = True
    rows = [GuideRow(hands[0].rolls_left, "already made", STOP)]
    rows[0].hands = [a for i, a in enumerate(hands) if made[i]]
    chosen: list[Dice] = [a.hand if made[i] else () for i, a in enumerate(hands)]
    open_ = ~made
    w = weight + 1e-12
    options = [(rule, rule.fits(best, sub)) for rule in _face_rules(sums)]
    while open_.any():
        rule, fits = max(
            options, key=lambda o: (float(w[o[1] & open_].sum()), -o[0].rank, o[0].text)
        )
        take = fits & open_
        row = GuideRow(hands[0].rolls_left, "", rule.text)
        for i in map(int, np.flatnonzero(take)):
            row.hands.append(hands[i])
            k = rule.keep(i, sub)
            chosen[i] = _keep_dice(t.keep_counts[k]) if k >= 0 else ()
        rows.append(row)
        open_ = open_ & ~take
    return [r for r in rows if r.hands], chosen


def _next_share(share: npt.NDArray[np.float64], chosen: list[Dice]) -> npt.NDArray[np.float64]:
    """Distribution of the next hand when every hand is played by its chosen keep."""
    from pinastats.dice import dice_tables

    t = dice_tables()
    out = np.zeros_like(share)
    for h, keep in enumerate(chosen):
        k = t.keep_index(keep)
        lo, hi = t.keep_ptr[k], t.keep_ptr[k + 1]
        scale = share[h] / 6.0 ** (5 - len(keep))
        np.add.at(out, t.keep_hand[lo:hi], t.keep_weight[lo:hi] * scale)
    return out
