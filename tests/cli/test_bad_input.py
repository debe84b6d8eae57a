"""Bad input that once gave a traceback or an unclear message: now one clear error each."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pinastats.errors import PinastatsError
from pinastats.game import Game, GameConfig, load_catalogue
from pinastats.simulation import play_turn, wilson_interval

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
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
    done = cli("advise", "--state", str(finished_state(tmp_path)), "--dice", "1", "2", "3", "4",
               "5", "--rolls-left", "0")  # fmt: skip
    assert done.returncode == 2
    assert "the game is over: PIÑA COLADICE (a full line)" in done.stderr
    assert "PINA_COLADICE" not in done.stderr


def test_a_short_catalogue_is_blamed_on_coasters_not_on_the_state_file(tmp_path: Path) -> None:
    csv = tmp_path / "short.csv"
    load_catalogue().to_frame().head(11).to_csv(csv, index=False)
    state = ROOT / "examples" / "state.json"
    done = cli("advise", "--state", str(state), "--coasters", str(csv), "--dice", "1", "2", "3",
               "4", "5", "--rolls-left", "0")  # fmt: skip
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
