"""The dice engine: hands, keeps, combinations and the turn dynamic programme."""

from pinastats.dice.combinations import (
    COASTER_COMBINATIONS,
    Combination,
    CombinationKind,
    parse_combination,
)
from pinastats.dice.errors import DiceError, RollsError, TargetError, UnknownCombinationError
from pinastats.dice.hands import (
    N_HANDS,
    N_KEEPS,
    N_OUTCOMES,
    TIE_TOL,
    DiceTables,
    check_dice,
    check_hand_index,
    check_keep,
    check_keep_index,
    dice_tables,
)
from pinastats.dice.ranking import best_keep, tie_ranks
from pinastats.dice.solver import (
    EXACT_INT64_ROLLS,
    MAX_ROLLS,
    KeepOption,
    TurnSolution,
    check_rolls,
    points_values,
    solve_turn,
    success_probability,
    target_values,
)

__all__ = [
    "COASTER_COMBINATIONS",
    "EXACT_INT64_ROLLS",
    "MAX_ROLLS",
    "N_HANDS",
    "N_KEEPS",
    "N_OUTCOMES",
    "TIE_TOL",
    "Combination",
    "CombinationKind",
    "DiceError",
    "DiceTables",
    "KeepOption",
    "RollsError",
    "TargetError",
    "TurnSolution",
    "UnknownCombinationError",
    "best_keep",
    "check_dice",
    "check_hand_index",
    "check_keep",
    "check_keep_index",
    "check_rolls",
    "dice_tables",
    "parse_combination",
    "points_values",
    "solve_turn",
    "success_probability",
    "target_values",
    "tie_ranks",
]
