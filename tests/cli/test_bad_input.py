"""Bad input that once gave a traceback or an unclear message: now one clear error each."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pinastats.errors import PinastatsError
from pinastats.game import Game, GameConfig, load_catalogue
from pinastats.simulation import play_turn, wilson_interval

ROOT = Path(__file__).resolve().parents[2]
Cli = Callable[..., Any]  # the ``cli`` fixture of tests/conftest.py


def run_pinastats(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pinastats.cli.main", *args],
                          capture_output=True, text=True, check=False)  # fmt: skip


def finished_state(tmp_path: Path) -> Path:
    """The example position with seat 1 holding the whole bottom row: a PIÑA COLADICE."""
    state = json.loads((ROOT / "examples" / "state.json").read_text())
    state["tokens"] = [[[], [], [], []], [[], [0], [], [0]], [[1], [], [], [0]],
                       [[1], [1], [1], [1]]]  # fmt: skip
    state["scores"] = [8, 15]  # what these tokens scored
    path = tmp_path / "finished.json"
    path.write_text(json.dumps(state))
    return path


def test_advise_on_a_finished_game_says_how_it_ended_in_words(tmp_path: Path) -> None:
    done = run_pinastats("advise", "--state", str(finished_state(tmp_path)), "--dice", "1", "2",
                         "3", "4", "5", "--rolls-left", "0")  # fmt: skip
    assert done.returncode == 2
    assert "the game is over: PIÑA COLADICE (a full line)" in done.stderr
    assert "PINA_COLADICE" not in done.stderr


def test_a_short_catalogue_is_blamed_on_coasters_not_on_the_state_file(tmp_path: Path) -> None:
    csv = tmp_path / "short.csv"
    load_catalogue().to_frame().head(11).to_csv(csv, index=False)
    state = ROOT / "examples" / "state.json"
    done = run_pinastats("advise", "--state", str(state), "--coasters", str(csv), "--dice", "1",
                         "2", "3", "4", "5", "--rolls-left", "0")  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith("pinastats: error: --coasters: the coaster catalogue")
    assert str(state) not in done.stderr


@pytest.mark.parametrize("seed", [-1, "abc", 2.5])
def test_a_bad_seed_is_named(seed: object) -> None:
    with pytest.raises(PinastatsError, match="seed must be a whole number >= 0"):
        Game.new(players=2, seed=seed)  # type: ignore[arg-type]


@pytest.mark.parametrize(("field", "value"), [("layout", "hexagon"), ("catalogue", "x.csv")])
def test_a_config_of_names_instead_of_objects_says_how_to_load_them(field: str, value: str) -> None:
    with pytest.raises(PinastatsError, match=f"{field} must be a .*load_{field}"):
        GameConfig(players=2, **{field: value})  # type: ignore[arg-type]


def test_play_turn_wants_a_generator_and_takes_an_agent_name() -> None:
    game = Game.new(players=2, seed=3)
    with pytest.raises(PinastatsError, match=r"rng must be a numpy\.random\.Generator"):
        play_turn(game, "ev", 1)  # type: ignore[arg-type]
    record = play_turn(game, "ev", np.random.default_rng(1))
    assert record.player == 0
    assert game.turn == 1


@pytest.mark.parametrize("successes", [-1, 11])
def test_wilson_interval_refuses_counts_outside_the_trials(successes: int) -> None:
    with pytest.raises(PinastatsError, match="from 0 to the 10 trials"):
        wilson_interval(successes, 10)


STATE = str(ROOT / "examples" / "state.json")
BAD_LINES: list[tuple[list[str], str]] = [
    (["simulate", "--agents", "strategic(line=nan),ev", "--games", "2"],
     "line must be a finite number from -1e+09 to 1e+09, got 'nan'"),
    (["simulate", "--agents", "strategic(line=1e400),ev", "--games", "2"], "got '1e400'"),
    (["simulate", "--agents", "strategic(line=1,line=2),ev", "--games", "2"],
     "parameter 'line' is given twice"),
    (["simulate", "--agents", "rollout(rollouts=inf),ev", "--games", "2"],
     "rollouts must be a whole number from 1 to 10,000 (play-outs per placement), got 'inf'"),
    (["simulate", "--agents", "rollout(rollouts=nan),ev", "--games", "2"], "got 'nan'"),
    (["simulate", "--agents", "rollout(rollouts=1e12),ev", "--games", "2"], "got '1e12'"),
    (["simulate", "--agents", "coach(playouts=10000000000000),ev", "--games", "2"],
     "play-outs must be a whole number from 1 to 10000, got 10000000000000"),
    (["advise", "--state", STATE, "--dice", "1", "2", "3", "4", "5", "--rolls-left", "0",
      "--objective", "win", "--playouts", "10001"], "from 1 to 10000, got 10001"),
]  # fmt: skip
"""Command lines with a bad agent parameter or play-out count, and what their error says."""


@pytest.mark.parametrize(
    ("argv", "message"), BAD_LINES, ids=[" ".join(a[:4]) for a, _ in BAD_LINES]
)
def test_a_bad_command_line_is_one_error_line(cli: Cli, argv: list[str], message: str) -> None:
    assert message in cli(*argv).one_error_line()
