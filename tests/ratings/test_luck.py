"""Luck-adjusted, paired matches (:mod:`pinastats.ratings.luck`)."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Callable

import numpy as np
import pytest

from pinastats.agents import make_agent
from pinastats.dice.hands import dice_tables
from pinastats.game import Game, GameConfig, Rules
from pinastats.ratings.luck import LuckError, TurnValues, luck_match, play_deal
from pinastats.simulation.play import play_turn
from pinastats.solve import solve
from tests.conftest import CliResult

Cli = Callable[..., CliResult]

SMALL = GameConfig(rules=Rules(tokens=3))
"""The 4x4 grid with 3 tokens a player: solved in about a second."""


def _mean_after(values: TurnValues, keep: tuple[int, ...], rolls_left: int) -> np.ndarray:
    """The mean of ``V_r`` over every way of rolling the other dice, by enumeration."""
    t = dice_tables()
    outcomes = Counter(
        tuple(sorted(keep + roll)) for roll in itertools.product(range(1, 7), repeat=5 - len(keep))
    )
    total = sum(outcomes.values())
    return (
        sum(
            (values.after(t.hand_index(h), rolls_left) * c for h, c in outcomes.items()),
            start=np.zeros(values.w.shape[1]),
        )
        / total
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_roll_is_worth_on_average_what_the_keep_it_came_from_is_worth(players: int) -> None:
    game = Game.new(players, seed=31)
    values = TurnValues.of(game, "network")
    t = dice_tables()
    for keep, left in [((), 3), ((6, 6), 2), ((1, 2, 3), 1), ((5,), 1)]:
        expected = _mean_after(values, keep, left - 1)
        assert values.before(t.keep_index(keep), left) == pytest.approx(expected, abs=1e-12)


def test_every_seat_has_its_own_value_of_the_roll() -> None:
    game = Game.new(3, seed=8)
    values = TurnValues.of(game, "network")
    t = dice_tables()
    good, bad = t.hand_index((6, 6, 6, 6, 6)), t.hand_index((1, 2, 4, 5, 6))
    mover = game.to_move
    swing = values.after(good, 0) - values.after(bad, 0)
    assert swing.shape == (3,)
    assert not np.allclose(swing, swing[mover])  # the others' values move their own way


def test_with_perfect_play_and_the_exact_table_the_adjusted_result_is_the_exact_chance() -> None:
    """Perfect play keeps the exact value of the position: all that moves it is the dice, so
    the result minus the luck of every roll is the start's exact chance, in every game."""
    start = Game.new(config=SMALL, seed=4)
    exact = solve(start).chances(start)
    perfect = make_agent("perfect")
    for deal in range(3):
        result = play_deal(SMALL, [perfect, perfect], seed=7, deal=deal, evaluator="exact",
                           start=start)  # fmt: skip
        for r in range(2):
            for i in range(2):
                seat = (i + r) % 2
                adjusted = result.raw[r, i] - result.luck[r, i]
                assert adjusted == pytest.approx(exact[seat], abs=1e-5)
        assert not np.allclose(result.luck, 0.0)  # the dice did move the games


def test_the_value_agents_turn_moves_its_value_by_the_dice_only() -> None:
    """The value agent plays the turn DP on the same network: over its own turn, its value
    changes from the turn's start to the outcome it reaches by the luck alone."""
    game = Game.new(3, seed=12)
    agent = make_agent("value")
    rng = np.random.default_rng(3)
    for _ in range(6):
        values = TurnValues.of(game, "network")
        mover = game.to_move
        before = game.copy()
        turn = play_turn(game, agent, rng)
        outcomes = values.outcomes
        if turn.cell is not None:
            column = list(outcomes.cells).index(turn.cell)
            reached = values.w[column, mover]
        elif turn.happy_hour is not None:
            reached = values.w[outcomes.happy_columns[int(turn.happy_hour) - 1], mover]
        else:
            reached = values.w[outcomes.pass_column, mover]
        luck = values.turn_luck(turn)[mover]
        assert reached - values.start()[mover] == pytest.approx(luck, abs=1e-9), before
        if game.is_over:
            break


def test_rotations_share_the_deal_and_the_dice() -> None:
    """The same agent in every seat: each rotation is the same game, seen from a turned table."""
    config = GameConfig(players=3)
    ev = make_agent("ev")
    result = play_deal(config, [ev, ev, ev], seed=1, deal=0, evaluator="network")
    for r in range(3):
        for i in range(3):
            assert result.raw[r, i] == result.raw[0, (i + r) % 3]
            assert result.luck[r, i] == pytest.approx(result.luck[0, (i + r) % 3])


def test_a_match_reports_raw_and_adjusted_shares_with_intervals() -> None:
    result = luck_match(["value", "strategic", "strategic"], 12, seed=3)
    assert (result.deals, result.games) == (4, 12)
    out = result.as_dict()
    for key in ("raw", "adjusted"):
        share = out[key]
        assert share["low"] <= share["share"] <= share["high"]
    assert out["variance_ratio"] > 0
    raw = result.raw[:, :, 0].mean()
    assert out["raw"]["share"] == pytest.approx(raw)
    again = luck_match(["value", "strategic", "strategic"], 12, seed=3)
    assert np.array_equal(again.luck, result.luck)


def test_the_margin_stops_a_match_early() -> None:
    result = luck_match(["ev", "ev"], 400, seed=2, margin=0.99, batch=10)
    assert result.deals == 10  # the first look (10 deals) already clears a ± 99-point margin


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"field": ["ev"], "games": 10}, "1 agents for 2 players"),
        ({"field": ["ev", "ev"], "games": 1}, "games must be"),
        ({"field": ["ev", "ev"], "games": 10, "margin": 2.0}, "margin must be"),
        ({"field": ["ev", "ev"], "games": 10, "evaluator": "oracle"}, "unknown evaluator"),
        ({"field": ["ev", "ev", "ev"], "games": 10, "evaluator": "exact"}, "two players"),
    ],
)
def test_bad_settings_are_refused(kwargs: dict[str, object], words: str) -> None:
    field = kwargs.pop("field")
    games = kwargs.pop("games")
    if len(field) == 1:  # type: ignore[arg-type]
        kwargs["config"] = GameConfig(players=2)
    with pytest.raises(LuckError, match=words):
        luck_match(field, games, **kwargs)  # type: ignore[arg-type]


def test_simulate_luck_adjusted_prints_both_shares(cli: Cli) -> None:
    out = cli("simulate", "--agents", "value,strategic,strategic", "--games", "6",
              "--luck-adjusted", "--format", "json", "--workers", "1")  # fmt: skip
    assert out.code == 0, out.err
    summary = json.loads(out.out)
    assert summary["games"] == 6
    assert summary["players"] == 3
    assert {"raw", "adjusted", "variance_ratio", "members"} <= summary.keys()
    text = cli("simulate", "--agents", "ev,ev", "--games", "4", "--luck-adjusted", "--workers", "1")
    assert text.code == 0
    assert "adjusted" in text.out


def test_simulate_luck_adjusted_refuses_what_it_does_not_play(cli: Cli) -> None:
    out = cli("simulate", "--agents", "ev,ev", "--games", "4", "--luck-adjusted", "--out", "x.csv")
    assert out.code == 2
    assert "--out is not played with --luck-adjusted" in out.err
