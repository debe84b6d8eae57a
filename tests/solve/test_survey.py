"""Many boards solved: the same boards from the same seed, however run, and a resumed run."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from pinastats.dice.hands import hand_tuples
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
    assert seen == [2, 3]  # the two logged boards, then only the missing one solved
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


def test_each_opening_is_the_chance_after_that_first_token() -> None:
    frame = survey(1, seed=2, config=SMALL)
    start = Game.new(config=SMALL, seed=board_seeds(2, 1)[0])
    solution = solve(start, store=False)
    openings = frame["openings"][0]
    assert len(openings) == SMALL.layout.n_cells
    hands = list(hand_tuples())
    for cell in range(SMALL.layout.n_cells):
        dice = next(h for h in hands if cell in start.legal_cells(h))
        after = start.copy()
        after.place(cell, dice)
        assert openings[cell] == pytest.approx(
            solution.chances(after)[start.first_player], abs=1e-9
        )
    assert frame["first_chance"][0] <= max(openings) + 1e-12  # no start beats every opening


def test_a_study_runs_on_each_board_while_it_is_solved(tmp_path: Path) -> None:
    seen: list[tuple[int, float]] = []

    def study(number: int, start: Game, solution: object) -> dict[str, object]:
        chance = solve(start).start_chance  # found in memory, not solved again
        seen.append((number, chance))
        return {"number": number, "chance": chance}

    log = tmp_path / "boards.jsonl"
    frame = survey(2, seed=6, config=SMALL, study=study, log=log)
    assert [row["number"] for row in frame["study"]] == [0, 1]
    assert [c for _, c in seen] == pytest.approx(frame["first_chance"].tolist(), abs=1e-7)
    again = survey(2, seed=6, config=SMALL, study=study, log=log)  # read back, not studied again
    assert len(seen) == 2
    assert again["study"].tolist() == frame["study"].tolist()
