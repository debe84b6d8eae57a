"""The dice engine: hands, keeps, combinations and the turn dynamic programme."""

from pinastats.dice.combinations import (
    COASTER_COMBINATIONS,
    Combination,
    UnknownCombinationError,
    parse_combination,
)
from pinastats.dice.hands import N_HANDS, N_KEEPS, N_OUTCOMES, DiceTables, check_dice, dice_tables
from pinastats.dice.solver import (
    KeepOption,
    TurnSolution,
    points_values,
    solve_turn,
    success_probability,
    target_values,
)

__all__ = [
    "COASTER_COMBINATIONS",
    "N_HANDS",
    "N_KEEPS",
    "N_OUTCOMES",
    "Combination",
    "DiceTables",
    "KeepOption",
    "TurnSolution",
    "UnknownCombinationError",
    "check_dice",
    "dice_tables",
    "parse_combination",
    "points_values",
    "solve_turn",
    "success_probability",
    "target_values",
]
