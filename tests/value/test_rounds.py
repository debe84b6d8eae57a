"""Policy iteration's pieces: another network in one seat, and training on from a network."""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pinastats.agents.builtin import AgentError
from pinastats.agents.network import load_networks, save_networks
from pinastats.agents.weights import NetworkAgent
from pinastats.game.config import GameConfig
from pinastats.game.rules import Rules
from pinastats.simulation import simulate
from pinastats.value.data import make_positions
from pinastats.value.train import TrainError, fit
from tests.value.nets import tilted_weights


def _games(result: object) -> list[tuple[int, ...]]:
    frame = result.games  # type: ignore[attr-defined]
    return [tuple(int(x) for x in row) for row in frame[["winner", "turns", "score_0", "score_1"]]
            .itertuples(index=False)]  # fmt: skip


def _tilted(tmp_path: Path) -> Path:
    """The shipped 2-player network pushed to think the mover always wins, alone in a file."""
    return tilted_weights(tmp_path / "tilted.npz", 3.0, others=False)


@pytest.mark.parametrize("happy_hour", [False, True])
def test_a_copy_of_the_shipped_weights_plays_values_games(tmp_path: Path, happy_hour: bool) -> None:
    path = tmp_path / "copy.npz"
    nets = load_networks()
    save_networks(path, nets.networks, {"command": "test"})
    config = GameConfig(players=2, rules=Rules(happy_hour=happy_hour))
    copy = NetworkAgent(path, "copy")
    assert copy.name == "copy"
    assert NetworkAgent(path).name == "value[copy]"
    mine = simulate([copy, "strategic"], games=12, seed=8, config=config, workers=1)
    kernel = simulate(["value", "strategic"], games=12, seed=8, config=config, workers=1)
    assert _games(mine) == _games(kernel)


def test_another_network_plays_other_games_and_sits_beside_the_shipped_one(tmp_path: Path) -> None:
    tilted = NetworkAgent(_tilted(tmp_path))
    mine = simulate([tilted, "value"], games=12, seed=8, workers=1)
    kernel = simulate(["value", "value"], games=12, seed=8, workers=1)
    assert _games(mine) != _games(kernel)
    again = pickle.loads(pickle.dumps(tilted))
    assert again.name == tilted.name
    assert _games(simulate([again, "value"], games=12, seed=8, workers=1)) == _games(mine)


def test_a_file_without_the_player_count_is_refused(tmp_path: Path) -> None:
    tilted = NetworkAgent(_tilted(tmp_path))
    with pytest.raises(AgentError, match="no network for 3 players"):
        simulate([tilted, "value", "value"], games=1, seed=1, workers=1)


def test_training_goes_on_from_a_network() -> None:
    pytest.importorskip("torch")
    config = GameConfig(players=2)
    positions = make_positions(["strategic"] * 2, 12, seed=5, config=config, playouts=4, workers=1)
    start = load_networks().for_players(2)
    still = fit([positions], init=start, epochs=1, learning_rate=1e-12, held_out=0.5, stream=None)
    assert still.network.sizes == start.sizes
    np.testing.assert_array_equal(still.network.mean, start.mean)
    for (w, b), (w0, b0) in zip(still.network.layers, start.layers, strict=True):
        np.testing.assert_allclose(w, w0, atol=1e-8)
        np.testing.assert_allclose(b, b0, atol=1e-8)
    moved = fit([positions], init=start, epochs=1, learning_rate=1e-2, held_out=0.5, stream=None)
    assert not np.allclose(moved.network.layers[0][0], start.layers[0][0])
    with pytest.raises(TrainError, match="init must be a 2-player network"):
        fit([positions], init=load_networks().for_players(3), epochs=1, stream=None)


def test_the_rounds_table_of_the_docs_is_the_recorded_one() -> None:
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, str(root / "benchmarks" / "policy_iteration.py"),
                           "table", "--out", str(root / "studies" / "policy-iteration.json")],
                          capture_output=True, text=True, check=True)  # fmt: skip
    docs = (root / "docs" / "value.md").read_text(encoding="utf-8")
    block = docs.split("<!-- table: policy-iteration -->\n")[1].split("<!-- end table -->")[0]
    assert block == done.stdout
    assert block.count("\n| ") >= 3  # a header, its rule and at least one round
