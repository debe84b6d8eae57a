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

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from pinastats._arrays import BoolArray
from pinastats.dice.combinations import Combination, CombinationKind, parse_combination
from pinastats.dice.errors import RollsError, whole_number
from pinastats.dice.hands import dice_tables, multinomial
from pinastats.dice.ranking import keep_order
from pinastats.holds.words import REROLL as REROLL
from pinastats.holds.words import STOP as STOP
from pinastats.holds.words import _shape_rule, face_rules, keep_dice, shape_text, sub_keeps
from pinastats.holds.words import shape_of as shape_of
from pinastats.holds.words import shape_rule as shape_rule

if TYPE_CHECKING:
    from pinastats.dice.solver import TurnSolution

Dice = tuple[int, ...]

_BY_SHAPE = frozenset({CombinationKind.PATTERN, CombinationKind.N_OF_A_KIND})


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

    The optimal keeps are the rank-1 keeps of the keep rule
    (:func:`pinastats.dice.ranking.keep_order`); the probability is that of the
    keep the rule plays. Keeps are listed: stop first, then re-roll all, then the
    most dice kept.
    """
    if solution.rolls < 2:
        raise RollsError(f"no keep to choose in a {solution.rolls}-roll turn")
    r = whole_number(rolls_left, "rolls left", 1, solution.rolls - 1, RollsError)
    t = dice_tables()
    exact = solution.keep_numerator
    values = solution.keep_value[r - 1]
    denominator = 6 ** (5 * r)
    out = []
    for h in range(len(t.hand_dice)):
        ks = t.hand_keep[t.hand_keep_ptr[h] : t.hand_keep_ptr[h + 1]]
        row = values[ks] if exact is None else exact[r - 1, ks]
        order, ranks = keep_order(row, t.keep_size[ks].tolist(), ks.tolist())
        played = int(ks[order[0]])
        fraction = None if exact is None else Fraction(int(exact[r - 1, played]), denominator)
        hand = tuple(int(d) for d in t.hand_dice[h])
        keeps = [keep_dice(t.keep_counts[ks[i]]) for i in order if ranks[i] == 1]
        keeps.sort(key=lambda k: (k != hand, len(k) != 0, -len(k), k))
        out.append(HandAdvice(r, hand, tuple(keeps), float(values[played]), fraction))
    return out


def is_face_symmetric(comb: Combination | str) -> bool:
    """Whether the target depends only on the pattern of equal dice, not on the faces.

    True for the pattern and n-of-a-kind combinations (full house, pair of any
    value, ...); the guide groups their hands by shape.
    """
    return parse_combination(comb).kind in _BY_SHAPE


# ---------------------------------------------------------------- the guide


def build_guide(
    comb: Combination | str, solution: TurnSolution
) -> tuple[list[GuideRow], dict[int, list[HandAdvice]]]:
    """Group the hands of every decision point; return the rows and the per-hand advice.

    With sticky holds only the first decision (nothing locked yet) is covered.
    """
    comb = parse_combination(comb)
    t = dice_tables()
    last = solution.rolls - 1 if not solution.sticky else min(1, solution.rolls - 1)
    points = list(range(solution.rolls - 1, solution.rolls - 1 - last, -1))
    share = t.hand_weight / 6.0**5
    made = comb.mask()
    symmetric = is_face_symmetric(comb)
    rows: list[GuideRow] = []
    advice: dict[int, list[HandAdvice]] = {}
    position = {tuple(int(d) for d in dice): h for h, dice in enumerate(t.hand_dice)}
    for rolls_left in points:
        hands = hand_advice(solution, rolls_left)
        if symmetric:
            section, chosen = _group_by_shape(hands, made)
        else:
            sums = comb.kind is CombinationKind.SUM
            section, chosen = _group_by_face_rules(hands, made, share, sums)
        hands = [
            HandAdvice(a.rolls_left, a.hand, (k, *(x for x in a.keeps if x != k)),
                       a.probability, a.fraction)
            for a, k in zip(hands, chosen, strict=True)
        ]  # fmt: skip
        for row in section:
            index = [position[a.hand] for a in row.hands]
            row.hands = [hands[i] for i in index]
            row.share = float(sum(share[i] for i in index))
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
            key = (shape_text(a.hand), _shape_rule(a.hand, keep))
        groups.setdefault(key, GuideRow(a.rolls_left, *key)).hands.append(a)
        chosen.append(keep)
    return list(groups.values()), chosen


def _simplicity(hand: Dice, keep: Dice) -> tuple[int, bool, int, Dice]:
    """Order of preference among tied keeps: fewest parts, re-roll all, most dice."""
    rule = _shape_rule(hand, keep)
    return rule.count("+"), rule != REROLL, -len(keep), keep


def _group_by_face_rules(
    hands: list[HandAdvice], made: BoolArray, weight: npt.NDArray[np.float64], sums: bool
) -> tuple[list[GuideRow], list[Dice]]:
    t = dice_tables()
    sub = sub_keeps()
    best = np.zeros_like(sub)
    for i, a in enumerate(hands):
        best[i, [t.keep_index(k) for k in a.keeps]] = True
    rows = [GuideRow(hands[0].rolls_left, "already made", STOP)]
    rows[0].hands = [a for i, a in enumerate(hands) if made[i]]
    chosen: list[Dice] = [a.hand if made[i] else () for i, a in enumerate(hands)]
    open_ = ~made
    w = weight + 1e-12
    options = [(rule, rule.fits(best, sub)) for rule in face_rules(sums)]
    while open_.any():
        rule, fits = max(
            options, key=lambda o: (float(w[o[1] & open_].sum()), -o[0].rank, o[0].text)
        )
        take = fits & open_
        row = GuideRow(hands[0].rolls_left, "", rule.text)
        for i in map(int, np.flatnonzero(take)):
            row.hands.append(hands[i])
            k = rule.keep(i, sub)
            chosen[i] = keep_dice(t.keep_counts[k]) if k >= 0 else ()
        rows.append(row)
        open_ = open_ & ~take
    return [r for r in rows if r.hands], chosen


def _next_share(share: npt.NDArray[np.float64], chosen: list[Dice]) -> npt.NDArray[np.float64]:
    """Distribution of the next hand when every hand is played by its chosen keep."""
    t = dice_tables()
    out = np.zeros_like(share)
    for h, keep in enumerate(chosen):
        k = t.keep_index(keep)
        lo, hi = t.keep_ptr[k], t.keep_ptr[k + 1]
        scale = share[h] / 6.0 ** (5 - len(keep))
        np.add.at(out, t.keep_hand[lo:hi], t.keep_weight[lo:hi] * scale)
    return out
