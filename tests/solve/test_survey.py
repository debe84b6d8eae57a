"""Many boards solved: the same boards from the same seed, however run, and a resumed run."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from pinastats.game import Game, GameConfig, Rules
from pinastats.solve import SolveError, solve
from pinastats.solve.survey import board_seeds, first_player_summary, survey

SMALL = GameConfig(rules=Rules(tokens=3))


def test_the_same_seed_gives_the_same_boards_on_any_executor(tmp_path: Path) -> None:
    plain = survey(3, seed=9, config=SMALL)
    with ThreadPoolExecutor(2) as pool:
        pooled = survey(3, seed=9, config=SMALL, executor=pool)
    assert plain["seed"].tolist() == pooled["seed"].tolist() == board_seeds(9, 3)
    assert plain["first_chance"].tolist() == pooled["first_chance"].tolist()
    game = Game.new(config=SMALL, seed=board_seeds(9, 3)[1])
    assert plain["first_chance"][1] == pytest.approx(solve(game, store=False).start_chance)


def test_a_logged_survey_goes_on_where_it_stopped(tmp_path: Path) -> None:
    log = tmp_path / "boards.jsonl"
    first = survey(2, seed=4, config=SMALL, log=log)
    with log.open("a", encoding="utf-8") as f:
        f.write('{"board": 2, "seed": ')  # a line cut short by a stop
    seen: list[int] = []
    whole = survey(3, seed=4, config=SMALL, log=log, progress=lambda d, t: seen.append(d))
    assert seen == [3]  # only the missing board was solved
    assert whole["first_chance"][:2].tolist() == first["first_chance"].tolist()
    with pytest.raises(SolveError, match="another survey"):
        survey(3, seed=5, config=SMALL, log=log)


def test_the_summary_states_the_interval_and_the_boards_needed() -> None:
    frame = survey(4, seed=1, config=SMALL)
    s = first_player_summary(frame)
    assert s["low"] < s["mean"] < s["high"]
    assert s["min"] <= s["mean"] <= s["max"]
    assert s["boards_for_0_3_points"] > 0


def test_a_survey_refuses_what_the_solver_does_not_cover() -> None:
    with pytest.raises(SolveError, match="Happy Hour"):
        survey(2, config=GameConfig(rules=Rules(happy_hour=True)))
