"""The evaluation package: its registry, its policy, and the same number on every surface."""

from __future__ import annotations

import argparse
import io
import json
import re
import time
from collections.abc import Callable

import pytest

from pinastats.cli._common import EVALUATOR_CHOICES
from pinastats.cli.main import build_parser
from pinastats.evaluation import (
    EVALUATORS,
    EvaluationError,
    Evaluator,
    ExactEvaluator,
    advise,
    choose,
    evaluator_names,
    make_evaluator,
)
from pinastats.evaluation.background import solve_in_background
from pinastats.game import Game, GameConfig, Layout, Rules, notation_of
from pinastats.records import record_games, replay
from pinastats.records.review import EVALUATORS as REVIEW_EVALUATORS
from pinastats.records.review import review_game
from pinastats.solve import solve
from pinastats.tabletop.view import advice_view
from tests.conftest import CliResult

Cli = Callable[..., CliResult]


def _choices(command: str) -> tuple[str, ...]:
    """The names ``pinastats COMMAND --evaluator`` takes."""
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    parser = sub.choices[command]
    action = next(a for a in parser._actions if "--evaluator" in a.option_strings)
    return tuple(action.choices or ())


def test_every_surface_offers_every_evaluator() -> None:
    names = evaluator_names()
    assert set(names) >= {"exact", "network", "playouts"}
    assert names == EVALUATOR_CHOICES
    assert _choices("advise") == names
    assert _choices("review") == names
    assert names == REVIEW_EVALUATORS
    for name in names:
        e = make_evaluator(name)
        assert isinstance(e, Evaluator)
        assert e.name == name
        assert e.label


def test_an_unknown_evaluator_or_setting_is_refused_by_name() -> None:
    with pytest.raises(
        EvaluationError, match=r"evaluator must be one of .*, got 'netwrok'; did you mean 'network'"
    ):
        make_evaluator("netwrok")
    with pytest.raises(EvaluationError, match="takes no playouts"):
        make_evaluator("network", playouts=10)
    assert make_evaluator("network", playouts=10, strict=False).name == "network"


def _tiny() -> GameConfig:
    """A 3×3 grid with lines of three, 4 tokens and 3 rolls: solved in a second."""
    cells = [(r, c) for r in range(3) for c in range(3)]
    lines = [[(r, c) for c in range(3)] for r in range(3)]
    lines += [[(r, c) for r in range(3)] for c in range(3)]
    lines += [[(i, i) for i in range(3)], [(i, 2 - i) for i in range(3)]]
    layout = Layout.build("grid-3x3", cells, lines, {2: "A" * 9})
    return GameConfig(layout=layout, rules=Rules(target_score=12, tokens=4, rolls=3))


def test_the_policy_picks_the_strongest_evaluator_in_the_budget() -> None:
    three = Game.new(players=3, seed=4)
    advised = choose(three, "advise").evaluator
    assert (advised.name, advised.instant) == ("search", True)  # the strongest instant one
    assert advised.strength > make_evaluator("network").strength
    graded = choose(three, "review").evaluator
    assert graded.label == "search over the network, 3 turns deep"
    assert graded.strength > choose(three, "board").evaluator.strength  # stronger than advice
    happy = Game.new(seed=4, config=GameConfig(players=2, rules=Rules(happy_hour=True)))
    c = choose(happy, "advise")
    assert (c.evaluator.name, c.exact_note, c.solve) == ("search", "", "")
    base = Game.new(players=2, seed=4)
    for surface, solve_how in (("advise", ""), ("board", "background"), ("table", "background")):
        c = choose(base, surface)
        assert c.evaluator.name == "search"
        assert c.solve == solve_how
        assert "pinastats solve --position" in c.exact_note
        assert notation_of(base) in c.exact_note
    review = choose(base, "review")
    assert (review.evaluator.name, review.solve) == ("exact", "first")
    assert choose(base, "board-review").evaluator.label.endswith("3 turns deep")  # no solve
    with pytest.raises(EvaluationError, match="exact evaluator cannot value this game"):
        choose(three, "advise", asked="exact")
    with pytest.raises(EvaluationError, match="unknown surface 'phone'"):
        choose(three, "phone")


def test_a_kept_table_makes_every_surface_exact() -> None:
    game = Game.new(config=_tiny(), seed=7)
    assert ExactEvaluator().covers(game.config) is None
    solve(game)
    for surface in ("advise", "board", "table", "review", "board-review", "python"):
        c = choose(game, surface)
        assert (c.evaluator.name, c.solve, c.exact_note) == ("exact", "", ""), surface


def test_estimates_state_their_error_and_exact_answers_none() -> None:
    game = Game.new(players=2, seed=4)
    net = advise(game, (1, 2, 2, 5, 5), 1, evaluator="network")
    assert net.evaluator == "network"
    assert net.win_probability_se == pytest.approx(EVALUATORS["network"]().chance_error)
    searched = advise(game, (1, 2, 2, 5, 5), 1, surface="advise")
    assert searched.evaluator == "search"
    assert searched.win_probability_se == pytest.approx(make_evaluator("search").chance_error)
    assert all(k.win_probability_se > 0 for k in net.keeps)
    tiny = Game.new(config=_tiny(), seed=7)
    solve(tiny)
    exact = advise(tiny, (1, 2, 2, 5, 5), 1)
    assert exact.evaluator == "exact"
    assert exact.win_probability_se == 0.0


def _advise_json(cli: Cli, game: Game, dice: tuple[int, ...], left: int) -> dict[str, object]:
    r = cli("advise", "--position", notation_of(game), "--dice", *map(str, dice),
            "--rolls-left", str(left), "--format", "json")  # fmt: skip
    assert r.code == 0, r.err
    record: dict[str, object] = json.loads(r.out)
    return record


def _advise_text_chance(cli: Cli, game: Game, dice: tuple[int, ...], left: int) -> str:
    r = cli("advise", "--position", notation_of(game), "--dice", *map(str, dice),
            "--rolls-left", str(left))  # fmt: skip
    assert r.code == 0, r.err
    found = re.search(r"Best: .* → ([\d.]+%)", r.out)
    assert found is not None, r.out
    return found.group(1)


KINDS = {
    "three players": GameConfig(players=3),
    "four players": GameConfig(players=4),
    "two players, Happy Hour": GameConfig(players=2, rules=Rules(happy_hour=True)),
    "two players, base, not solved": GameConfig(players=2),
}


@pytest.mark.parametrize("kind", list(KINDS))
def test_the_same_position_gets_the_same_number_everywhere(
    cli: Cli, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The board, advise (text and JSON), table, the Python API: one evaluator, one number;
    the review grades the same position with an evaluator at least as strong, and says which."""
    record = record_games(["strategic"] * KINDS[kind].players, 1, seed=21,
                          config=KINDS[kind])[0]  # fmt: skip
    turns: list[tuple[Game, tuple[int, ...]]] = []
    replay(record, visit=lambda k, g, t: turns.append((g, tuple(t.rolls[0]))) if k == 3 else None)
    game, dice = turns[0]
    api = advise(game, dice, 2, surface="python")
    board = advice_view(game, dice, 2)
    assert board is not None
    data = _advise_json(cli, game, dice, 2)
    text = _advise_text_chance(cli, game, dice, 2)
    monkeypatch.setattr("sys.stdin", io.StringIO(f"dice {' '.join(map(str, dice))}\n"))
    table = cli("table", "--position", notation_of(game))  # the first roll: 2 rolls left
    assert table.code == 0, table.err
    at_table = re.search(r"Best: .* → ([\d.]+%)", table.out)
    assert at_table is not None, table.out
    assert at_table.group(1) == text
    assert board["win"] == data["win_probability"] == api.win_probability
    assert board["evaluator"] == data["evaluator"] == api.evaluator
    assert data["win_probability_se"] == board["error"]
    assert (board["error"] == 0) == (api.evaluator == "exact")  # a kept table: exact here
    assert text == f"{100 * api.win_probability:.1f}%"
    grading = choose(game, "review")
    assert grading.evaluator.strength >= choose(game, "board").evaluator.strength
    if grading.solve == "first":  # the two-player base game: the review solves the board first
        assert grading.evaluator.name == "exact"
        return
    review = review_game(record, seats=[record.turns[2].seat], playouts=8)
    assert review.evaluator == grading.evaluator.name
    assert review.graded_by == grading.evaluator.label
    assert "Graded by" in review.how_graded


def test_a_solved_position_gets_the_exact_number_everywhere() -> None:
    config = _tiny()
    record = record_games(["strategic", "strategic"], 1, seed=5, config=config)[0]
    turns: list[tuple[Game, tuple[int, ...]]] = []
    replay(record, config, visit=lambda k, g, t: turns.append((g, tuple(t.rolls[0]))))
    game, dice = turns[1]
    solution = solve(game)
    api = advise(game, dice, 2)
    board = advice_view(game, dice, 2)
    assert board is not None
    assert api.evaluator == board["evaluator"] == "exact"
    assert board["win"] == api.win_probability
    # the review grades exactly, and values this turn's first keep as the advice does
    review = review_game(record, config=config)
    assert review.evaluator == "exact"
    first = next(d for d in review.decisions if d.turn == 2 and d.roll == 1)
    assert first.best_win == pytest.approx(api.win_probability, abs=1e-9)
    start = dict(((t, s), w) for t, s, w in review.starts)[(2, game.to_move)]
    assert solution.chances(game)[game.to_move] == pytest.approx(start, abs=1e-6)


def test_the_background_solve_switches_the_board_to_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PINASTATS_BACKGROUND_SOLVE", "1")
    game = Game.new(config=_tiny(), seed=11)
    from pinastats.solve.table import forget

    forget()
    first = choose(game, "board")
    if first.evaluator.name != "exact":  # not kept yet: solved in the background
        assert first.solve == "background"
        status = solve_in_background(game)
        deadline = time.monotonic() + 120
        while status.state == "solving" and time.monotonic() < deadline:
            time.sleep(0.05)
            status = solve_in_background(game)
        assert status.state == "ready", status
    assert choose(game, "board").evaluator.name == "exact"
