"""What a user sees when printing the engine's public objects: words, not codes."""

from __future__ import annotations

from enum import IntEnum

import numpy as np
import pytest

from pinastats.agents.advice import advise
from pinastats.game import Game
from pinastats.game.rules import EndReason, HappyHourEffect, PlacementRule, Trigger
from pinastats.game.view import GameResult, Outcome
from pinastats.simulation import play_game, simulate

ENUMS = [EndReason, Trigger, PlacementRule, HappyHourEffect]


@pytest.mark.parametrize("enum", ENUMS, ids=lambda e: e.__name__)
def test_enum_members_print_as_distinct_words_and_keep_their_int(enum: type[IntEnum]) -> None:
    words = [str(m) for m in enum]
    assert len(set(words)) == len(words), "each member has its own words"
    for m in enum:
        assert not str(m).isdigit()
        assert f"{m}" == str(m)
        assert f"{m:d}" == str(int(m))  # a numeric format spec still formats the number
        assert repr(m) == f"<{enum.__name__}.{m.name}: {int(m)}>"


def test_members_of_two_enums_with_the_same_value_keep_their_own_words() -> None:
    assert int(EndReason.SCORE) == int(HappyHourEffect.REMOVE_OWN_TOKEN) == 2
    assert str(EndReason.SCORE) != str(HappyHourEffect.REMOVE_OWN_TOKEN)
    assert "PIÑA COLADICE" in str(EndReason.PINA_COLADICE)


def test_a_finished_game_prints_its_end_in_words() -> None:
    game = Game.new(players=2, seed=4)
    play_game(game, ["ev", "ev"], seed=5)
    assert str(game.end_reason) in str(game)  # the board's status line
    result = game.result
    assert isinstance(result, GameResult)
    assert str(result).endswith(str(game.end_reason))
    if result.outcome is Outcome.WON:
        assert str(result).startswith(f"seat {game.winner} won")


def test_advice_prints_a_few_lines_with_the_best_keep() -> None:
    game = Game.new(players=2, seed=1)
    advice = advise(game, [5, 5, 5, 3, 3], 1)
    text = str(advice)
    assert text.splitlines()[0].startswith("seat 0, dice 3 3 5 5 5, 1 re-roll(s) left")
    best = advice.best_keeps[0]
    assert f"{best.expected_points:.3f} points (best)" in text
    assert len(text.splitlines()) <= 8


def test_a_simulation_result_prints_a_summary_not_its_table() -> None:
    result = simulate(["strategic", "ev"], 60, seed=1)
    assert repr(result).startswith("<SimulationResult: 60 games, 2 players (strategic, ev)")
    text = str(result)
    assert len(text.splitlines()) == 5
    wins = result.seat_win_rates()
    assert f"{100 * wins['win_rate'][0]:.1f}%" in text
    assert "pina_coladice" not in text
    assert np.isclose(wins["win_rate"].sum() + (result.games["winner"] < 0).mean(), 1.0)
