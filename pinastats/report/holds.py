"""Hold cheat-sheets: for each hard coaster, a decision list of what to keep.

Each sheet is the :class:`~pinastats.holds.decision_sheet.CheatSheet` of the
coaster's combination: ordered rules, the first that fits the dice decides,
learned from the exact optimal keeps and checked hand by hand against them.
For the coasters of one value (Pair of 3s, Three 5s, ...) the rule is always
"keep every die of the value"; :func:`value_sheet` gives their chances by how
many such dice are held.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from pinastats.dice import Combination, dice_tables, solve_turn
from pinastats.game import Catalogue
from pinastats.holds.decision_sheet import CheatSheet, StageSheet, cheat_sheet

_PER_VALUE = re.compile(r"(PAIR|THREE|FOUR|FIVE)_([1-6])")
_NEEDED = {"PAIR": 2, "THREE": 3, "FOUR": 4, "FIVE": 5}
_KIND_NAMES = {
    "PAIR": "Pair of a value",
    "THREE": "Three of a value",
    "FOUR": "Four of a value",
    "FIVE": "Five of a value",
}


@dataclass(frozen=True)
class HoldSection:
    """The list used after roll ``after_roll`` (or after both rolls, when they agree)."""

    after_rolls: tuple[int, ...]
    stage: StageSheet

    @property
    def rolls_left(self) -> tuple[int, ...]:
        """Rolls left at the decisions the section covers."""
        return tuple(3 - r for r in self.after_rolls)


@dataclass(frozen=True)
class HoldSheet:
    """The cheat-sheet of one coaster.

    Attributes:
        id, combination: the coaster.
        probability, fraction: chance of the combination in a turn with optimal holds.
        lists: the decision lists and what following them costs.
    """

    id: str
    combination: Combination
    probability: float
    fraction: Fraction
    lists: CheatSheet

    @property
    def name(self) -> str:
        """The combination's display name."""
        return self.combination.value

    @property
    def sections(self) -> tuple[HoldSection, ...]:
        """One list per decision point, or a single one when both points use the same rules."""
        first, second = self.lists.stages
        if first.rules.rules == second.rules.rules:
            return (HoldSection((1, 2), first),)
        return (HoldSection((1,), first), HoldSection((2,), second))


def is_per_value(comb: Combination) -> bool:
    """Whether the combination is "at least k dice of one value N" (Pair of 3s, Three 5s, ...).

    >>> is_per_value(Combination.THREE_5), is_per_value(Combination.FULL_HOUSE)
    (True, False)
    """
    return _PER_VALUE.fullmatch(comb.name) is not None


def hold_sheet(coaster_id: str, comb: Combination) -> HoldSheet:
    """The cheat-sheet of one combination (a 3-roll turn, free holds)."""
    solution = solve_turn(comb)
    fraction = solution.fraction
    assert fraction is not None
    return HoldSheet(coaster_id, comb, solution.value, fraction, cheat_sheet(comb))


def hold_sheets(catalogue: Catalogue) -> tuple[HoldSheet, ...]:
    """A cheat-sheet for every coaster of the catalogue that is not of one value."""
    return tuple(
        hold_sheet(c.id, c.combination) for c in catalogue if not is_per_value(c.combination)
    )


# ---------------------------------------------------------------- coasters of one value


@dataclass(frozen=True)
class ValueKind:
    """Coasters needing ``needed`` dice of one value, e.g. the Pairs of 1s to 6s.

    Attributes:
        title: "Pair of a value".
        names: the catalogue's coasters of this kind.
        needed: dice of the value the combination needs.
        probability: chance in a turn (the same for every value).
        success: ``success[j][i]``: chance of success holding ``j`` dice of the value
            after roll ``i + 1`` (keep them, re-roll the rest), for ``j < needed``.
    """

    title: str
    names: tuple[str, ...]
    needed: int
    probability: float
    success: tuple[tuple[float, ...], ...]


def value_sheet(catalogue: Catalogue) -> tuple[ValueKind, ...]:
    """The coasters of one value in the catalogue, by kind, with their chances."""
    t = dice_tables()
    kinds: dict[str, list[Combination]] = {}
    for c in catalogue:
        match = _PER_VALUE.fullmatch(c.combination.name)
        if match is not None:
            kinds.setdefault(match.group(1), []).append(c.combination)
    out = []
    for kind in ("PAIR", "THREE", "FOUR", "FIVE"):
        if kind not in kinds:
            continue
        comb = kinds[kind][0]
        face = int(comb.name[-1])
        solution = solve_turn(comb)
        needed = _NEEDED[kind]
        success = tuple(
            tuple(
                float(solution.keep_value[rolls_left - 1, t.keep_index((face,) * held)])
                for rolls_left in range(solution.rolls - 1, 0, -1)
            )
            for held in range(needed)
        )
        names = tuple(c.value for c in kinds[kind])
        out.append(ValueKind(_KIND_NAMES[kind], names, needed, solution.value, success))
    return tuple(out)


__all__ = [
    "HoldSection",
    "HoldSheet",
    "ValueKind",
    "hold_sheet",
    "hold_sheets",
    "is_per_value",
    "value_sheet",
]
