"""A coaster's cheat-sheet as decision lists, and what following it costs.

:func:`cheat_sheet` learns one list per decision point of a three-roll turn
(:mod:`pinastats.holds.decision_learn`) and measures it with
:func:`assess`, which applies the list hand by hand through
:meth:`DecisionList.readings` (the evaluator the printed words come from) and
compares every reading with the solver's best keep:

* *loss* of a hand: ``V_r(h) - min K_r(k)`` over the keeps the list allows;
* *coverage*: chance that the hand faced at that point loses at most the tolerance;
* *played*: the chance of the target for a player who follows the sheet at
  both decisions and, where the words allow several keeps, always takes the worst.

The chance of facing a hand after roll 1 is that of one roll of five dice; after
roll 2 it is that of a turn played by the sheet (first reading; stopping keeps
the hand).

The measures apply a list to every hand through its tables of the 252 hands (the
first matching rule and the readings, computed once per list by the evaluator of
:meth:`DecisionList.readings`, without re-checking the dice of each hand).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache

import numpy as np

from pinastats._arrays import FloatArray
from pinastats.dice.combinations import Combination, parse_combination
from pinastats.dice.hands import N_DICE, dice_tables, hand_tuples, keep_index_by_dice
from pinastats.dice.solver import TurnSolution, solve_turn
from pinastats.holds.decision_learn import (
    MAX_RULES,
    TOLERANCE,
    learn_list,
    stage_values,
)
from pinastats.holds.decision_list import DecisionList, Dice


@dataclass(frozen=True)
class RuleUse:
    """How one rule of a list is used.

    Attributes:
        share: chance that this rule decides the hand faced at this point.
        low, high: lowest and highest success chance over the hands it decides.
        examples: up to two of the likeliest hands it decides, with the keep (first reading).
    """

    share: float
    low: float
    high: float
    examples: tuple[tuple[Dice, Dice], ...]


@dataclass(frozen=True)
class StageSheet:
    """The list of one decision point and how close it plays to optimal.

    Attributes:
        rules: the decision list.
        exact_rules: the leading rules within the tolerance on every hand they decide
            (all of them when the list is within it everywhere).
        coverage: chance that the hand faced here gets a keep within the tolerance.
        worst: largest loss over the 252 hands.
        mean: mean loss over the hands faced here.
        uses: per rule, how it is used.
        missed: the hands losing more than the tolerance, likeliest first.
    """

    rules: DecisionList
    exact_rules: int
    coverage: float
    worst: float
    mean: float
    uses: tuple[RuleUse, ...]
    missed: tuple[Dice, ...]

    @property
    def rolls_left(self) -> int:
        """Rolls still to come at this decision."""
        return self.rules.rolls_left

    @property
    def exact(self) -> bool:
        """Whether every hand gets a keep within the tolerance."""
        return not self.missed


@dataclass(frozen=True)
class CheatSheet:
    """The cheat-sheet of one combination for a three-roll turn with free holds.

    Attributes:
        target: the combination.
        stages: after roll 1 (2 rolls left), then after roll 2 (1 roll left).
        optimal: the chance of the target in a turn with optimal holds.
        played: the chance for a player following the sheet (worst reading each time).
        tol: the tolerance the lists were learned with.
    """

    target: Combination
    stages: tuple[StageSheet, ...]
    optimal: float
    played: float
    tol: float


def _reading_keeps(rules: DecisionList) -> list[tuple[int, ...]]:
    """The keep indices of the list's readings of each hand, by hand index."""
    index = keep_index_by_dice().__getitem__
    return [tuple(map(index, ks)) for ks in rules._hand_readings]


def _worst(rules: DecisionList, solution: TurnSolution) -> tuple[FloatArray, FloatArray]:
    """Per hand (252): the loss of the list's worst reading, and that reading's chance."""
    keep_value, best = stage_values(solution, rules.rolls_left)
    keeps = _reading_keeps(rules)
    starts = np.cumsum([0, *map(len, keeps[:-1])])
    worst = np.minimum.reduceat(keep_value[list(itertools.chain.from_iterable(keeps))], starts)
    return best - worst, worst


def hand_losses(rules: DecisionList, solution: TurnSolution) -> tuple[FloatArray, list[int]]:
    """Per hand (252): the loss of the list's worst reading, and the index of the rule deciding."""
    return _worst(rules, solution)[0], list(rules._rule_index)


def next_weight(rules: DecisionList, weight: FloatArray) -> FloatArray:
    """Chance of each hand after the next roll when hands of chance ``weight`` follow the list."""
    t = dice_tables()
    out = np.zeros_like(weight)
    keeps = _reading_keeps(rules)
    for h in range(len(weight)):
        k = keeps[h][0]
        lo, hi = t.keep_ptr[k], t.keep_ptr[k + 1]
        scale = weight[h] / 6.0 ** (N_DICE - int(t.keep_size[k]))
        np.add.at(out, t.keep_hand[lo:hi], t.keep_weight[lo:hi] * scale)
    return out


def assess(
    rules: DecisionList, solution: TurnSolution, weight: FloatArray, tol: float = TOLERANCE
) -> StageSheet:
    """Measure a list against the exact keeps; ``weight`` is the chance of facing each hand."""
    loss, worst = _worst(rules, solution)
    used = rules._rule_index
    uses = []
    for i in range(len(rules.rules)):
        hands = [h for h in range(len(loss)) if used[h] == i]
        chances = [worst[h] for h in hands]
        examples = _examples(rules, hands)
        uses.append(RuleUse(float(weight[hands].sum()), min(chances, default=0.0),
                            max(chances, default=0.0), examples))  # fmt: skip
    bad = loss > tol
    missed = tuple(hand_tuples()[int(h)] for h in sorted(np.flatnonzero(bad),
                                                        key=lambda h: (-weight[h], h)))  # fmt: skip
    first_bad = min((used[h] for h in np.flatnonzero(bad)), default=len(rules.rules))
    return StageSheet(
        rules=rules, exact_rules=first_bad, coverage=float(weight[~bad].sum()),
        worst=float(loss.max()), mean=float((weight * loss).sum() / weight.sum()),
        uses=tuple(uses), missed=missed,
    )  # fmt: skip


def _examples(rules: DecisionList, hands: list[int]) -> tuple[tuple[Dice, Dice], ...]:
    """The likeliest hand, then the likeliest keeping another number of dice (if any)."""
    t = dice_tables()
    likely = sorted(hands, key=lambda h: (-int(t.hand_weight[h]), h))
    out: list[tuple[Dice, Dice]] = []
    for h in likely:
        hand = hand_tuples()[h]
        keep = rules._hand_readings[h][0]
        if not out or all(len(k) != len(keep) for _, k in out):
            out.append((hand, keep))
        if len(out) == 2:
            break
    return tuple(out)


def played_chance(lists: tuple[DecisionList, ...], solution: TurnSolution) -> float:
    """The chance of the target when every decision follows ``lists`` (worst reading).

    ``V(h)`` after the last roll is ``f(h)``; before it, ``V(h) = min`` over the
    readings ``k`` of ``f(h)`` if ``k`` is the whole hand (stop), else of the
    mean of the next ``V`` over the re-rolls of the other dice.
    """
    t = dice_tables()
    final = np.asarray(solution.final_value, dtype=np.float64)
    value = final
    for rules in sorted(lists, key=lambda dl: dl.rolls_left):
        nxt = np.zeros_like(value)
        readings, keeps = rules._hand_readings, _reading_keeps(rules)
        rerolled: dict[int, float] = {}  # per keep, the mean next V (the same for every hand)
        for h in range(len(value)):
            options = []
            for keep, k in zip(readings[h], keeps[h], strict=True):
                if len(keep) == N_DICE:
                    options.append(float(final[h]))
                    continue
                if k not in rerolled:
                    lo, hi = t.keep_ptr[k], t.keep_ptr[k + 1]
                    total = float((t.keep_weight[lo:hi] * value[t.keep_hand[lo:hi]]).sum())
                    rerolled[k] = total / 6.0 ** (N_DICE - len(keep))
                options.append(rerolled[k])
            nxt[h] = min(options)
        value = nxt
    first = t.hand_weight / 6.0**N_DICE
    return float((first * value).sum())


@cache
def cheat_sheet(
    target: Combination | str, *, tol: float = TOLERANCE, max_rules: int = MAX_RULES
) -> CheatSheet:
    """Learn and measure the sheet of one combination (three rolls, free holds)."""
    comb = parse_combination(target)
    solution = solve_turn(comb)
    weight = np.asarray(dice_tables().hand_weight / 6.0**N_DICE, dtype=np.float64)
    stages = []
    for rolls_left in range(solution.rolls - 1, 0, -1):
        learned = learn_list(comb, solution, rolls_left, weight, tol=tol, max_rules=max_rules)
        stages.append(assess(learned.rules, solution, weight, tol))
        weight = next_weight(learned.rules, weight)
    played = played_chance(tuple(s.rules for s in stages), solution)
    return CheatSheet(comb, tuple(stages), solution.value, played, tol)
