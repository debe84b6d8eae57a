"""Hold cheat-sheets: for each hard coaster, what to keep with each kind of hand.

The grouping is the hold guide of :mod:`pinastats.dice.guide` (hands grouped by
their pattern, or by rules on face values for sums, odds and straights). For
the coasters of one value (Pair of 3s, Three 5s, ...) the rule is always "keep
every die of the value"; :func:`value_sheet` gives their chances by how many
such dice are held.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from pinastats.dice import Combination, dice_tables, solve_turn
from pinastats.dice.guide import REROLL, STOP, GuideRow, HandAdvice, build_guide
from pinastats.game import Catalogue
from pinastats.report.text import dice_text

_PER_VALUE = re.compile(r"(PAIR|THREE|FOUR|FIVE)_([1-6])")
_NEEDED = {"PAIR": 2, "THREE": 3, "FOUR": 4, "FIVE": 5}
_REROLL_ALL = "re-roll\u00a0all"  # a no-break space: the two words stay on one line
_KIND_NAMES = {
    "PAIR": "Pair of a value",
    "THREE": "Three of a value",
    "FOUR": "Four of a value",
    "FIVE": "Five of a value",
}


@dataclass(frozen=True)
class HoldLine:
    """One rule of a cheat-sheet: a kind of hand and what to keep.

    Attributes:
        hand: the kind of hand ("two pairs (2+2+1)"); empty for rules on face values.
        keep: what to keep ("keep both pairs", "stop: keep all five").
        low, high: the lowest and highest chance of success over the hands of the group.
        share: chance of facing such a hand at this point when playing by the sheet.
        examples: up to two example hands with their keep ("1 1 2 2 3 → 1 1 2 2").
    """

    hand: str
    keep: str
    low: float
    high: float
    share: float
    examples: tuple[str, ...]


@dataclass(frozen=True)
class HoldSection:
    """The rules after one roll: ``after_roll`` rolls seen, ``rolls_left`` still to come."""

    after_roll: int
    rolls_left: int
    lines: tuple[HoldLine, ...]


@dataclass(frozen=True)
class HoldSheet:
    """The cheat-sheet of one coaster.

    Attributes:
        id, combination: the coaster.
        probability, fraction: chance of the combination in a turn with these holds.
        by_shape: the rules name kinds of hands (else they are rules on face values).
        sections: after roll 1, then after roll 2.
    """

    id: str
    combination: Combination
    probability: float
    fraction: Fraction
    by_shape: bool
    sections: tuple[HoldSection, ...]

    @property
    def name(self) -> str:
        """The combination's display name."""
        return self.combination.value

    @property
    def summary(self) -> str:
        """The situation met most often after the first roll, and what to keep, in words."""
        lines = [ln for ln in self.sections[0].lines if not ln.keep.startswith(STOP)]
        if not lines:
            return "Stop: the first roll always makes it."
        top = max(lines, key=lambda ln: ln.share)
        if top.hand:
            often = f"{top.share:.0%} of the time"
            return f"After roll 1 you most often hold {top.hand}, {often}: {top.keep}."
        return f"After roll 1 the rule used most ({top.share:.0%} of hands): {top.keep}."


def is_per_value(comb: Combination) -> bool:
    """Whether the combination is "at least k dice of one value N" (Pair of 3s, Three 5s, ...).

    >>> is_per_value(Combination.THREE_5), is_per_value(Combination.FULL_HOUSE)
    (True, False)
    """
    return _PER_VALUE.fullmatch(comb.name) is not None


def _example(a: HandAdvice) -> str:
    keep = a.keeps[0]
    if keep == a.hand:
        return dice_text(a.hand)
    return f"{dice_text(a.hand)} → {dice_text(keep) if keep else _REROLL_ALL}"


def _line(row: GuideRow, name: str, by_shape: bool) -> HoldLine:
    made = row.rule == STOP and row.situation == "already made"
    hand = row.situation
    keep = row.rule
    if made:
        hand = f"{name} already made" if by_shape else ""
        keep = "stop: keep all five" if by_shape else f"stop: {name} already made"
    examples = tuple(_example(a) for a in row.examples(2))
    return HoldLine(hand, keep, row.low.probability, row.high.probability, row.share, examples)


def hold_sheet(coaster_id: str, comb: Combination) -> HoldSheet:
    """The cheat-sheet of one combination (a 3-roll turn, free holds)."""
    solution = solve_turn(comb)
    rows, _ = build_guide(comb, solution)
    by_shape = any(r.situation and r.situation != "already made" for r in rows)
    sections = []
    for rolls_left in sorted({r.rolls_left for r in rows}, reverse=True):
        lines = tuple(_line(r, comb.value, by_shape) for r in rows if r.rolls_left == rolls_left)
        sections.append(HoldSection(solution.rolls - rolls_left, rolls_left, lines))
    fraction = solution.fraction
    assert fraction is not None
    return HoldSheet(coaster_id, comb, solution.value, fraction, by_shape, tuple(sections))


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
    "REROLL",
    "STOP",
    "HoldLine",
    "HoldSection",
    "HoldSheet",
    "ValueKind",
    "hold_sheet",
    "hold_sheets",
    "is_per_value",
    "value_sheet",
]
