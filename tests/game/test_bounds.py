"""A target score, a turn limit and starting scores out of range: one clear error with the range.

Found by a reliability rerun: a 30-digit target was an internal error (``OverflowError`` in
the engine's 64-bit arrays), a 300-digit one a 500 at the table, and starting scores at or
above the target were played by ``simulate`` (every game then ends in its first round).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from pinastats.errors import PinastatsError
from pinastats.game import GameConfig, Rules
from pinastats.game.notation import parse_position
from pinastats.game.rules import VALUE_LIMIT, RulesError
from pinastats.simulation.runner import simulate
from pinastats.tabletop.session import PlayError
from pinastats.tabletop.table import TableSession

Cli = Callable[..., Any]  # the ``cli`` fixture of tests/conftest.py
POSITION = "pc1 OD,T3,T4,T5/5K,S21+1,S26,T6+1/SS+2,P3,P2,FH+2/T1,P5+2,AD+1,P4+2 1"
"""A position line of two players (the one of docs/notation.md's advise example)."""
RANGE = "from 1 to 1,000,000,000,000"
HUGE = "9" * 30


@pytest.mark.parametrize("field", ["target_score", "max_turns"])
@pytest.mark.parametrize(
    "value", [VALUE_LIMIT + 1, 10**30, 10**5000], ids=["limit+1", "1e30", "1e5000"]
)
def test_rules_refuse_a_target_or_turn_limit_the_engine_cannot_count(
    field: str, value: int
) -> None:
    with pytest.raises(RulesError, match=rf"{field} must be a whole number {RANGE}, got "):
        Rules(**{field: value})  # type: ignore[arg-type]


def test_the_largest_target_plays() -> None:
    config = GameConfig(rules=Rules(target_score=VALUE_LIMIT, max_turns=VALUE_LIMIT))
    result = simulate(["random", "random"], 20, seed=3, config=config, workers=1)
    assert len(result.games) == 20
    assert (result.games["trigger"] != "score").all()  # nobody reaches a trillion points


@pytest.mark.parametrize("digits", [30, 300, 5000])
def test_a_position_line_with_a_huge_target_is_refused_with_the_range(digits: int) -> None:
    with pytest.raises(PinastatsError, match=f"target: expected a whole number {RANGE}") as bad:
        parse_position(f"{POSITION} target={'9' * digits}")
    assert len(str(bad.value)) < 200


def test_the_table_refuses_a_300_digit_target() -> None:
    with pytest.raises(PlayError, match=f"cannot be set: .*{RANGE}"):
        TableSession().setup(position=f"{POSITION} target={'9' * 300}")


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "--target", HUGE],
        ["solve", "--position", f"{POSITION} target={HUGE}"],
        ["advise", "--position", f"{POSITION} target={HUGE}", "--dice", "5", "5", "5", "3", "3",
         "--rolls-left", "0"],
    ],
    ids=["solve-target", "solve-position", "advise-position"],
)  # fmt: skip
def test_the_commands_refuse_a_huge_target_in_one_line(cli: Cli, argv: list[str]) -> None:
    line = cli(*argv).one_error_line()
    assert "target" in line
    assert RANGE in line


@pytest.mark.parametrize("scores", [(25, 1), (1, 20), (20, 20)])
def test_a_run_refuses_starting_scores_at_or_above_the_target(scores: tuple[int, int]) -> None:
    """A config takes them (a position may start at the end); a run of games would end each
    in its first round, and is refused with the range."""
    config = GameConfig(starting_scores=scores)  # taken: positions set up an ending so
    with pytest.raises(PinastatsError, match=r"from 0 to 19, below the target score 20"):
        simulate(["random", "random"], 10, config=config, workers=1)
    higher = GameConfig(starting_scores=scores, rules=Rules(target_score=26))
    assert len(simulate(["random", "random"], 10, config=higher, workers=1).games) == 10
