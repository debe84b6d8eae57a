"""What each coaster is worth in one turn: exact chances, expected points and a tier.

For a coaster targeted alone (the turn played with the holds that maximise
the chance of its combination, :func:`pinastats.dice.solve_turn`), the
expected points of a turn are ``P(3 rolls) × points``: side A's single space,
or side B's first space. The neighbour bonus and the other coasters on the
board are left out; they are the business of the game simulations.

The *tier* compares a coaster's expected points on the sides in play for the
player count with the best coaster of the catalogue (see :data:`TIERS`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from pinastats.dice import solve_turn
from pinastats.game import Catalogue

ROLLS = (1, 2, 3)
"""Rolls per turn for which each coaster's chance is computed (3 is the game's)."""

TIERS: tuple[tuple[str, float], ...] = (("S", 0.85), ("A", 0.65), ("B", 0.45), ("C", 0.25))
"""Tier letters and the share of the best coaster's expected points each needs; below: D."""


def tier_of(value: float, best: float) -> str:
    """The tier letter of an expected value, relative to the best of the catalogue.

    >>> tier_of(1.5, 1.58), tier_of(0.7, 1.58), tier_of(0.18, 1.58)
    ('S', 'C', 'D')
    """
    share = value / best if best > 0 else 0.0
    for letter, threshold in TIERS:
        if share >= threshold - 1e-12:
            return letter
    return "D"


@dataclass(frozen=True)
class CoasterRow:
    """One coaster of the catalogue, its chances and its expected points per turn.

    Attributes:
        id, name, colour: the coaster (``name`` is its combination's display name).
        side_a: points of side A's single space.
        side_b: points of side B's first and second spaces.
        chances: chance of making the combination with optimal holds in a turn of
            1, 2 and 3 rolls (:data:`ROLLS`).
        fraction: the 3-roll chance exactly.
        ev_in_play: expected points per turn on the sides in play (side B weighted
            by its share of the board's cells for the player count).
        tier: ``S``, ``A``, ``B``, ``C`` or ``D`` (:func:`tier_of`).
    """

    id: str
    name: str
    colour: str
    side_a: int
    side_b: tuple[int, int]
    chances: tuple[float, float, float]
    fraction: Fraction
    ev_in_play: float
    tier: str

    @property
    def one_roll(self) -> float:
        """Chance of the combination on a single roll of five dice."""
        return self.chances[0]

    @property
    def three_rolls(self) -> float:
        """Chance of the combination in a full turn of three rolls, optimal holds."""
        return self.chances[2]

    @property
    def ev_a(self) -> float:
        """Expected points per turn on side A, targeted alone."""
        return self.three_rolls * self.side_a

    @property
    def ev_b(self) -> float:
        """Expected points per turn on side B (first token), targeted alone."""
        return self.three_rolls * self.side_b[0]


def coaster_rows(catalogue: Catalogue, b_share: float) -> tuple[CoasterRow, ...]:
    """Solve every coaster of ``catalogue``; ``b_share`` is the share of cells on side B."""
    solved: list[tuple[tuple[float, float, float], Fraction, float]] = []
    for coaster in catalogue:
        turns = [solve_turn(coaster.combination, rolls=r) for r in ROLLS]
        chances = (turns[0].value, turns[1].value, turns[2].value)
        fraction = turns[2].fraction
        assert fraction is not None  # a 0/1 target is always solved exactly
        ev = chances[2] * ((1 - b_share) * coaster.side_a + b_share * coaster.side_b[0])
        solved.append((chances, fraction, ev))
    best = max(ev for _, _, ev in solved)
    return tuple(
        CoasterRow(
            id=c.id, name=c.name, colour=c.colour.value, side_a=c.side_a, side_b=c.side_b,
            chances=chances, fraction=fraction, ev_in_play=ev, tier=tier_of(ev, best),
        )
        for c, (chances, fraction, ev) in zip(catalogue, solved, strict=True)
    )  # fmt: skip
