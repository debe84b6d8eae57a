"""The same position gets the same answer through every way in.

Positions reached in recorded games (2-4 players, Happy Hour off and on) are
taken from the record (the game replayed up to the turn, as the board, the
review and the notebooks see it), written to the state file, to the position
notation, and read back into a ``Game``. From each, the learned evaluator's
features, the advice by the chance to win (the evaluator the policy of
:mod:`pinastats.evaluation` picks, as the board shows it) and by this turn's points
(``pinastats.agents.advice``) must be identical, and ``pinastats advise
--objective win --format json`` must print the same JSON from ``--state`` and
from ``--position``.

The review of a recorded game (``pinastats review``) prints each turn's
position line and values the turn's first keep as ``win_advice`` does on that
line, to the last digits of rounding (its turn DP adds in another order).
(``tests/evaluation`` checks the same number on every surface, for each kind of game.)

A control shows the check can fail: without the turns played (as state files
were before they carried them) the network's answer changes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pinastats._engine import stack_states
from pinastats.agents.advice import advise
from pinastats.evaluation import NetworkEvaluator
from pinastats.evaluation import advise as advise_win
from pinastats.game import Game, GameConfig, Rules, notation_of, parse_position
from pinastats.game.position import game_from_position, position_of
from pinastats.records import record_games, replay
from pinastats.records.review import review_game
from pinastats.tabletop import view as board_view
from pinastats.value.features import state_features
from tests.conftest import CliResult

Cli = Callable[..., CliResult]
SETUPS = [(2, False), (3, False), (4, False), (2, True), (3, True), (4, True)]
EVERY = 4  # every 4th turn of each recorded game


def _positions(players: int, happy_hour: bool) -> list[tuple[Game, tuple[int, ...]]]:
    """Positions of two recorded games, each with the first roll of its turn."""
    config = GameConfig(players=players, rules=Rules(happy_hour=happy_hour))
    records = record_games(["strategic", "greedy", "ev", "strategic"][:players], 2,
                           seed=players + 10 * happy_hour, config=config)  # fmt: skip
    out: list[tuple[Game, tuple[int, ...]]] = []
    for record in records:
        replay(
            record, visit=lambda k, g, t: out.append((g, t.rolls[0])) if k % EVERY == 1 else None
        )
    return out


def board_advice(game: Game, dice: tuple[int, ...], rolls_left: int) -> Any:
    """What the board's coach panel shows for the dice (the view's advice function)."""
    names = vars(board_view)
    advice = names.get("advice_view") or names["_advice"]
    return advice(game, dice, rolls_left)


def _ways_in(game: Game) -> dict[str, Game]:
    """The game itself, and the game read back from its state file and from its line."""
    text = json.dumps(position_of(game))
    return {
        "record": game,
        "state file": game_from_position(json.loads(text)),
        "notation": parse_position(notation_of(game)),
    }


def _win(game: Game, dice: tuple[int, ...], rolls_left: int) -> dict[str, Any]:
    advice = advise_win(game, dice, rolls_left, surface="board")
    out = asdict(advice)
    out.pop("seed", None)
    return out


def _points(game: Game, dice: tuple[int, ...], rolls_left: int) -> Any:
    advice = advise(game, dice, rolls_left)
    return [(k.keep, k.fraction) for k in advice.keeps], advice.placements


@pytest.mark.parametrize(("players", "happy_hour"), SETUPS)
def test_every_way_in_gives_the_same_advice(players: int, happy_hour: bool) -> None:
    positions = _positions(players, happy_hour)
    assert len(positions) >= 6
    for game, dice in positions:
        ways = _ways_in(game)
        features = {k: state_features(g.config, stack_states([g.state])) for k, g in ways.items()}
        for name, f in features.items():
            assert np.array_equal(f, features["record"]), (name, notation_of(game))
        for rolls_left in (2, 0):
            answers = {k: _win(g, dice, rolls_left) for k, g in ways.items()}
            points = {k: _points(g, dice, rolls_left) for k, g in ways.items()}
            board = {k: board_advice(g, dice, rolls_left) for k, g in ways.items()}
            for name in ways:
                assert answers[name] == answers["record"], (name, notation_of(game))
                assert points[name] == points["record"], (name, notation_of(game))
                assert board[name] == board["record"], (name, notation_of(game))


def test_advise_prints_the_same_json_from_the_state_file_and_the_line(
    cli: Cli, tmp_path: Path
) -> None:
    positions = _positions(3, True)[1:4]
    for game, dice in positions:
        state = tmp_path / "state.json"
        state.write_text(json.dumps(position_of(game)), encoding="utf-8")
        args = [
            "--dice",
            *map(str, dice),
            "--rolls-left",
            "2",
            "--objective",
            "win",
            "--format",
            "json",
        ]
        by_file = cli("advise", "--state", str(state), *args)
        by_line = cli("advise", "--position", notation_of(game), *args)
        assert by_file.code == by_line.code == 0, by_file.err + by_line.err
        assert by_file.out == by_line.out
        record = json.loads(by_file.out)
        assert record["position"] == notation_of(game)
        api = advise_win(game, dice, 2, surface="advise")
        assert record["win_probability"] == api.win_probability


def test_the_review_values_a_turn_as_the_advice_on_its_line() -> None:
    config = GameConfig(players=3, rules=Rules(happy_hour=True))
    record = record_games(["strategic", "greedy", "ev"], 1, seed=3, config=config)[0]
    review = review_game(record, evaluator="network", playouts=1)
    before: dict[int, Game] = {}
    replay(record, visit=lambda k, g, t: before.__setitem__(k, g))
    lines = dict(review.positions)  # the lines the review prints
    firsts = [d for d in review.decisions if d.roll == 1 and d.decision == "keep"]
    assert len(firsts) > 10
    for d in firsts:
        assert lines[d.turn] == notation_of(before[d.turn])
        game = parse_position(lines[d.turn])
        advice = NetworkEvaluator().advise(game, d.dice, d.rolls_left)
        assert d.best_win == pytest.approx(advice.win_probability, abs=1e-12)


def test_without_the_turns_played_the_answer_changes() -> None:
    """The control: the evaluator reads the turns played, which old state files lacked."""
    changed = 0
    for game, dice in _positions(2, False):
        data = position_of(game)
        del data["turns"]
        old = game_from_position(data)
        old.state.status[0]["turn"] = (old.to_move - old.first_player) % old.players
        changed += _win(old, dice, 2) != _win(game, dice, 2)
    assert changed > 0
