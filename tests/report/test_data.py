"""The report's data: exact chances, tiers, cheat-sheets and pooled simulation counts."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pinastats.dice import Combination, solve_turn, success_probability
from pinastats.holds.decision_sheet import cheat_sheet
from pinastats.report import build_report
from pinastats.report.coasters import TIERS, tier_of
from pinastats.report.holds import is_per_value
from pinastats.report.sims import AGENTS, END_REASONS, Rate, matchups, pool, run_seed
from pinastats.simulation import wilson_interval
from tests.report.conftest import GAMES, SEED, Written


def test_coaster_chances_are_exact(two_players: Written) -> None:
    for row in two_players.report.coasters:
        comb = Combination(row.name)
        assert row.fraction == success_probability(comb)
        for rolls, chance in zip((1, 2, 3), row.chances, strict=True):
            assert chance == pytest.approx(float(success_probability(comb, rolls=rolls)))
    five = next(r for r in two_players.report.coasters if r.id == "five-of-a-kind")
    assert five.fraction == Fraction(347897, 7558272)


def test_two_players_rank_side_a(two_players: Written) -> None:
    rows = two_players.report.coasters
    assert two_players.report.b_share == 0
    assert all(r.ev_in_play == pytest.approx(r.ev_a) for r in rows)
    best = max(rows, key=lambda r: r.ev_in_play)
    assert (best.name, best.tier) == ("All Different", "S")
    assert {r.tier for r in rows if r.name.startswith("Three ")} == {"D"}


@pytest.mark.parametrize(
    ("value", "letter"),
    [(1.0, "S"), (0.85, "S"), (0.849, "A"), (0.65, "A"), (0.45, "B"), (0.25, "C"), (0.2, "D")],
)
def test_tier_thresholds(value: float, letter: str) -> None:
    assert tier_of(value, 1.0) == letter
    assert [t for t, _ in TIERS] == ["S", "A", "B", "C"]


def test_cheat_sheets_are_the_decision_lists(two_players: Written) -> None:
    sheets = two_players.report.holds
    hard = [c for c in two_players.report.coasters if not is_per_value(Combination(c.name))]
    assert [s.id for s in sheets] == [c.id for c in hard]
    for sheet in sheets:
        assert sheet.lists == cheat_sheet(sheet.combination)
        assert sheet.probability == pytest.approx(solve_turn(sheet.combination).value)
        for section in sheet.sections:
            first = section.stage.rules.lines()[0]
            assert first == f"If you already have {sheet.name}: stop."
    by_name = {s.name: s for s in sheets}
    # one list serves both rolls where the best play does not change (pattern targets)
    assert [s.after_rolls for s in by_name["Full House"].sections] == [(1, 2)]
    assert [s.after_rolls for s in by_name["Small Straight"].sections] == [(1,), (2,)]
    full_house = by_name["Full House"].lists.stages[0].rules
    assert full_house.readings((1, 1, 2, 2, 3)) == ((1, 1, 2, 2),)  # both pairs


def test_one_value_coasters(two_players: Written) -> None:
    pair, three = two_players.report.value_kinds
    assert (pair.needed, three.needed) == (2, 3)
    assert len(pair.names) == len(three.names) == 6
    # holding nothing with 2 rolls left is a fresh 2-roll turn
    assert pair.success[0][0] == pytest.approx(float(success_probability("pair of 4s", rolls=2)))
    assert three.success[2][1] == pytest.approx(1 - (5 / 6) ** 3)  # two 5s, three dice re-rolled
    assert pair.probability == pytest.approx(float(success_probability("pair of 1s")))


def test_simulation_counts_add_up(two_players: Written) -> None:
    sims = two_players.report.simulations
    assert (sims.games, sims.seed) == (GAMES, SEED)
    assert [r.agents for r in sims.matchups] == matchups(2)
    runs = [sims.self_play, *sims.matchups]
    assert [r.seeds for r in runs] == [(run_seed(SEED, i),) for i in range(len(runs))]
    for run in runs:
        wins = sum(rate.count for _, rate in run.wins)
        assert wins + run.no_winner.count == run.games == GAMES
        assert sum(p.count for p in run.positions) == wins
        assert sum(rate.count for _, rate in run.end_reasons) == run.games
        assert [name for name, _ in run.end_reasons] == list(END_REASONS)
        assert sum(n for _, n in run.rounds) == run.games
    mixed = sims.mixed
    assert mixed.games == GAMES * len(sims.matchups)
    for agent, rate in mixed.wins:
        assert agent in AGENTS
        assert rate.trials == GAMES * 3  # each agent sits at 3 of the 6 tables
    for c in sims.coasters:
        assert 0 <= c.held_by_winner <= c.taken <= c.dealt <= GAMES
    assert sum(c.dealt for c in sims.coasters) == 16 * GAMES


def test_rates_and_pooling(two_players: Written) -> None:
    rate = Rate(50, 100)
    assert (rate.low, rate.high) == pytest.approx(wilson_interval(50, 100))
    assert Rate(10, 10).high == 1.0  # never below the rate, whatever the rounding
    assert Rate(1, 2) + Rate(3, 4) == Rate(4, 6)
    sims = two_players.report.simulations
    first, second = sims.matchups[:2]  # random vs greedy, random vs ev
    both = pool([first, second], "two")
    assert both.agents == ("random", "greedy", "ev")
    assert both.win_rate("random") == first.wins[0][1] + second.wins[0][1]
    assert both.win_rate("strategic") is None
    assert both.rounds_quantile(1.0) == max(first.rounds[-1][0], second.rounds[-1][0])
    assert pool(sims.matchups, "every match-up") == sims.mixed


def test_bad_arguments() -> None:
    for kwargs, message in [
        ({"players": 5}, "players must be 2, 3 or 4"),
        ({"players": 2, "games": 0}, "games must be a whole number >= 1"),
        ({"players": 2, "games": 1.5}, "games must be a whole number >= 1"),
        ({"players": 2, "seed": -1}, "seed must be a whole number >= 0"),
        ({"players": 2, "workers": 0}, "workers must be a whole number >= 1"),
    ]:
        with pytest.raises(ValueError, match=message):
            build_report(**kwargs)  # type: ignore[arg-type]
