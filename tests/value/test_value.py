"""The learned evaluator: features, labels, the numba forward pass, the value agent."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pinastats import _engine as E
from pinastats.agents.builtin import AgentError, make_agent
from pinastats.agents.network import (
    NETWORK_ENV,
    NETWORK_VERSION,
    NetworkError,
    evaluate_states,
    load_networks,
    save_networks,
)
from pinastats.coach.agent import Coach
from pinastats.coach.outcomes import outcome_positions
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.game.layout import load_layout
from pinastats.game.rules import Rules
from pinastats.simulation import simulate
from pinastats.simulation.play import play_turn
from pinastats.value.data import (
    Positions,
    label_states,
    make_positions,
    playout_seeds,
    read_positions,
    write_positions,
)
from pinastats.value.features import features, state_features, win_chances
from tests.value.nets import tilted_weights


def _positions(players: int, games: int = 6, seed: int = 3, happy_hour: bool = False) -> Positions:
    config = GameConfig(players=players, rules=Rules(happy_hour=happy_hour))
    return make_positions(["strategic"] * players, games, seed=seed, config=config, playouts=8,
                          workers=1)  # fmt: skip


def _relabel(state: E.GameState, perm: list[int]) -> E.GameState:
    """The same position with seat ``s`` renamed ``perm[s]``."""
    s = E.copy_state(state)
    spaces = s.spaces
    spaces[:] = np.where(state.spaces >= 0, np.array(perm)[np.maximum(state.spaces, 0)], -1)
    for old, new in enumerate(perm):
        s.players[new] = state.players[old]
    st = s.status[0]
    for name in ("first", "to_move"):
        st[name] = perm[int(state.status[0][name])]
    return s


@pytest.mark.parametrize("players", [2, 3, 4])
def test_features_are_seat_relative(players: int) -> None:
    """Renaming the seats (turn order kept) leaves the features and the network's output alone."""
    p = _positions(players)
    perm = [(s + 1) % players for s in range(players)]  # a rotation keeps the turn order
    renamed = E.stack_states([_relabel(p.states.state(i), perm) for i in range(len(p))])
    np.testing.assert_array_equal(features(p), state_features(p.config, renamed))
    np.testing.assert_allclose(
        evaluate_states(p.config, p.states), evaluate_states(p.config, renamed)
    )


def test_line_features_count_threats() -> None:
    """Three own tokens on an open row: one line of three, one threat; the others see none."""
    game = Game.new(seed=5)
    row = next(line for line in game.config.layout.lines if len(line) == 4)
    state = E.copy_state(game.state)
    for c in row[:3]:
        state.spaces[c, 0] = 0
    state.status[0]["to_move"] = 0
    x = state_features(game.config, E.stack_states([state]))[0]
    n_cells, n = 16, 2
    seat0 = n_cells * (6 + n)
    assert x[seat0 + 6] >= 0.25  # lines holding three own tokens (/4)
    assert x[seat0 + 7] >= 0.25  # cells completing a line (/4)
    seat1 = seat0 + 10
    assert x[seat1 + 6] == 0
    assert x[seat1 + 7] == 0


def test_labels_are_the_play_outs_of_the_coach() -> None:
    """A label equals the mean result of the coach's play-outs with the same seeds and policy."""
    p = _positions(2, games=2)
    seeds = playout_seeds(11, 40)
    labels = label_states(p.config, p.states, make_agent("strategic"), seeds)
    np.testing.assert_allclose(labels.sum(axis=1), 1.0)
    from pinastats.agents.tables import workspace

    work = workspace(p.config, memo=True)
    agent = make_agent("strategic")
    for i in range(0, len(p), 3):
        state = p.states.state(i)
        mover = int(state.status[0]["to_move"])
        out = np.zeros(len(seeds))
        rng = E.stream_rng(E.new_stream())
        E.play_outs(agent.code, agent.param_vector(), p.config.board, state, E.turn_tables(3), work,
                    rng, seeds, mover, 0, out)  # fmt: skip
        assert out.mean() == pytest.approx(labels[i, 0] + 0.5 * labels[i, 2], abs=1e-12)


def test_same_seed_same_data_whatever_the_workers(tmp_path: Path) -> None:
    config = GameConfig(players=3)
    one = make_positions(["strategic", "ev", "greedy"], 12, seed=4, config=config, playouts=4,
                         chunk_size=3, workers=1)  # fmt: skip
    two = make_positions(["strategic", "ev", "greedy"], 12, seed=4, config=config, playouts=4,
                         chunk_size=3, workers=2)  # fmt: skip
    assert one.digest() == two.digest()
    assert one.provenance["digest"] == one.digest()
    path = tmp_path / "positions.parquet"
    write_positions(path, one)
    back = read_positions(path)
    assert back.digest() == one.digest()
    assert back.provenance["seed"] == 4
    other = make_positions(["strategic", "ev", "greedy"], 12, seed=5, config=config, playouts=4,
                           chunk_size=3, workers=1)  # fmt: skip
    assert other.digest() != one.digest()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_numba_forward_pass_matches_pytorch(players: int) -> None:
    """The kernels' network equals PyTorch's on 1,000 positions of self-play."""
    pytest.importorskip("torch")
    from pinastats.value.train import torch_forward

    p = _positions(players, games=400 // players, seed=9, happy_hour=players == 3)
    assert len(p) >= 1000 // 3
    x = features(p)
    ours = evaluate_states(p.config, p.states)
    theirs = torch_forward(load_networks().for_players(players), x)
    np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-12)


def test_value_agent_values_the_outcome_positions_by_the_network() -> None:
    """Its cell values are the network's win chances after each placement (an oracle in Python)."""
    config = GameConfig(players=3, rules=Rules(happy_hour=True))
    game = Game.new(seed=2, config=config)
    rng = np.random.default_rng(1)
    strategic = make_agent("strategic")
    for _ in range(5):
        play_turn(game, strategic, rng)
    agent = make_agent("value")
    agent.start_turn(game)
    work = agent._work(game)
    outcomes = outcome_positions(game)
    seat = game.to_move
    for o, state in zip(outcomes.outcomes, outcomes.states, strict=True):
        if o.kind != "place":
            continue
        if int(state.status[0]["reason"]) != 0:
            continue
        p = evaluate_states(config, E.stack_states([state]))[0]
        r = (seat - int(state.status[0]["to_move"])) % 3
        assert work.cell_value[o.cell] == pytest.approx(p[r] + 0.5 * p[3], abs=1e-12)


def test_value_agent_beats_random_and_is_reproducible() -> None:
    a = simulate(["value", "random"], 60, seed=3, workers=1)
    b = simulate(["value", "random"], 60, seed=3, workers=2)
    assert a.games.equals(b.games)
    assert a.seat_win_rates()["win_rate"].iloc[0] > 0.8


def test_value_agent_refuses_games_without_a_network() -> None:
    config = GameConfig(players=2, layout=load_layout("grid-5x5"))
    with pytest.raises(AgentError, match=r"value.*16 cells"):
        simulate(["value", "ev"], 2, config=config)
    game = Game.new(config=config)
    with pytest.raises(AgentError, match="16 cells"):
        make_agent("value").choose_keep(game, [1, 2, 3, 4, 5], 2, np.random.default_rng(0))


def test_win_chances_of_a_running_game() -> None:
    game = Game.new(seed=1, config=GameConfig(players=4))
    w = win_chances(game)
    assert list(w["seat"]) == [0, 1, 2, 3, -1]
    assert w["win"].sum() == pytest.approx(1.0)


def test_weights_file_of_another_version_is_refused(tmp_path: Path) -> None:
    nets = load_networks()
    path = tmp_path / "net.npz"
    save_networks(path, nets.networks, {"command": "test"})
    assert load_networks(path).provenance == {"command": "test"}
    data = dict(np.load(path))
    data["version"] = np.array(NETWORK_VERSION + 1)
    np.savez(path, **data)
    with pytest.raises(NetworkError, match=f"version {NETWORK_VERSION + 1}"):
        load_networks(path)
    data["version"] = np.array(NETWORK_VERSION)
    data["p2_mean"] = data["p2_mean"][:-1]
    np.savez(path, **data)
    with pytest.raises(NetworkError, match="2-player network's shapes"):
        load_networks(path)
    with pytest.raises(NetworkError, match="no value network file"):
        load_networks(tmp_path / "missing.npz")


def test_shipped_weights_carry_their_provenance() -> None:
    nets = load_networks()
    prov = nets.provenance
    assert prov["command"].startswith("pinastats train")
    assert set(nets.networks) == {2, 3, 4}
    for n in (2, 3, 4):
        data = prov["data"][str(n)]
        assert data
        assert all(len(d["digest"]) == 64 for d in data)
        assert sum(d["positions"] for d in data) >= 100_000
        assert prov["metrics"][str(n)]["held_out_positions"] > 0
        assert prov["labels"][str(n)].startswith("strategic play-outs")
    # two players: trained on by policy iteration, every round's labels and weights named
    chain = prov["policy_iteration"]["2"]
    assert "policy iteration" in prov["labels"]["2"]
    assert chain["rounds"]
    for k, round_ in enumerate(chain["rounds"], start=1):
        assert round_["round"] == k
        assert len(round_["sha256"]) == 64
        assert all(len(d["digest"]) == 64 for d in round_["data"]["2"])
        assert round_["data"]["2"][0] in prov["data"]["2"]
    assert set(prov["policy_iteration"]) == {"2"}  # 3 and 4 players: strategic play-outs only
    json.dumps(prov)


def test_coach_with_network_leaves() -> None:
    coach = make_agent("coach(playouts=8,leaf=value,depth=1)")
    assert isinstance(coach, Coach)
    assert coach.name == "coach(playouts=8,leaf=value,depth=1)"
    result = simulate([coach, "ev"], 4, seed=2, workers=1)
    assert len(result.games) == 4
    with pytest.raises(AgentError, match="leaf must be one of end, value"):
        make_agent("coach(leaf=net)")


_PLAY = """
import numpy as np
from pinastats.agents.network import evaluate_states
from pinastats.game.game import Game
from pinastats._engine import stack_states
game = Game.new(players=2, seed=4)
print(float(evaluate_states(game.config, stack_states([game.state]))[0, 0]))
"""


def test_an_environment_variable_names_the_weights_every_tool_plays_with(tmp_path: Path) -> None:
    path = tilted_weights(tmp_path / "tilted.npz", 2.0)

    def run(env: dict[str, str]) -> list[str]:
        done = subprocess.run([sys.executable, "-c", _PLAY], env={**os.environ, **env},
                              capture_output=True, text=True, check=False)  # fmt: skip
        return [*done.stdout.split(), done.stderr]

    shipped, tilted_run = run({NETWORK_ENV: ""}), run({NETWORK_ENV: str(path)})
    assert float(tilted_run[0]) > float(shipped[0]) + 0.2  # the mover's chance pushed up
    missing = run({NETWORK_ENV: str(tmp_path / "none.npz")})
    assert f"no value network file at {tmp_path / 'none.npz'}" in missing[-1]
