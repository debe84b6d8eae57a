"""Policy iteration: another network in one seat, training on from a network, and the rounds
of :mod:`pinastats.value.rounds` on a tiny scale (a round labels a few dozen positions and trains
a network of four hidden units)."""

from __future__ import annotations

import hashlib
import math
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pinastats.agents.builtin import AgentError
from pinastats.agents.network import load_networks, save_networks
from pinastats.agents.weights import NetworkAgent
from pinastats.game.config import GameConfig
from pinastats.game.rules import Rules
from pinastats.simulation import simulate
from pinastats.value import rounds as R
from pinastats.value.data import make_positions, read_positions
from pinastats.value.train import TrainError, fit
from tests.value.nets import tilted_weights, tiny_weights


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


TINY = R.Settings(playouts=2, parts=1, games=6, epochs=2, workers=1, labelled={2: (3, 2)})
"""A round of a few dozen positions: 3 games labelled with Happy Hour off, 2 on."""


def _wilson(wins: float, games: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval, written out (the oracle of the rounds' intervals)."""
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z / (1 + z * z / games) * math.sqrt(p * (1 - p) / games + z * z / (4 * games**2))
    return centre - half, centre + half


def test_a_share_and_a_pooled_share_carry_wilson_intervals() -> None:
    one, two = R.share(7, 10), R.share(2, 20)
    assert (one["low"], one["high"]) == pytest.approx(_wilson(7, 10))
    both = R.pooled([one, two])
    assert (both["wins"], both["games"], both["share"]) == (9, 30, 0.3)
    assert (both["low"], both["high"]) == pytest.approx(_wilson(9, 30))
    with pytest.raises(R.RoundsError, match="at least 1 game, got 0"):
        R.share(0, 0)


@pytest.mark.parametrize(
    ("players", "share", "stop"),
    [(2, 0.5, True), (2, 0.509, True), (2, 0.52, False), (3, 0.34, True), (4, 0.27, False)],
)
def test_the_rounds_stop_within_a_point_of_the_fair_share(
    players: int, share: float, stop: bool
) -> None:
    assert R.stops({"head_to_head": {"both": {"share": share}}}, players) is stop


def _row(round_: int, share: float) -> dict[str, object]:
    return {"round": round_, "head_to_head": {"both": {"share": share}}}


def test_the_loop_goes_on_from_the_last_round_and_stops_by_the_rule(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    played: list[tuple[int, str]] = []

    def fake(players: int, round_: int, previous: Path, *args: object, **kw: object) -> object:
        played.append((round_, Path(previous).name))
        return _row(round_, 0.6 if round_ < 3 else 0.505)

    monkeypatch.setattr(R, "play_round", fake)
    done = [_row(1, 0.55)]  # round 1 was played before: it is not played again
    R.run_rounds(2, 5, tmp_path / "start.npz", tmp_path, done, TINY)
    assert played == [(2, "round-1-2p.npz"), (3, "round-2-2p.npz")]  # round 3 stops it
    assert [r["round"] for r in done] == [1, 2, 3]
    played.clear()
    R.run_rounds(2, 5, tmp_path / "start.npz", tmp_path, done, TINY)  # all done: nothing to play
    assert played == []
    with pytest.raises(R.RoundsError, match="rounds must be a whole number of at least 1, got 0"):
        R.run_rounds(2, 0, None, tmp_path, [], TINY)


def test_settings_are_checked_and_split_the_labelled_games() -> None:
    assert R.Settings(scale=0.5).labelled_games(2) == (
        900,
        450,
    )  # 3600 and 1800, halved, in 2 parts
    assert TINY.labelled_games(2) == (3, 2)
    with pytest.raises(R.RoundsError, match="no labelled games for 3 players"):
        TINY.labelled_games(3)
    with pytest.raises(R.RoundsError, match="playouts must be a whole number of at least 1, got 0"):
        R.Settings(playouts=0)
    with pytest.raises(R.RoundsError, match="scale must be a number above 0, got -1"):
        R.Settings(scale=-1)


def test_the_labels_are_those_of_the_network_given(tmp_path: Path) -> None:
    copy = tmp_path / "copy.npz"
    save_networks(copy, load_networks().networks, {"command": "test"})
    here = R.label_round(None, 2, 1, tmp_path / "here", TINY)
    child = R.label_round(copy, 2, 1, tmp_path / "child", TINY)  # the same weights, in a child
    tilted = R.label_round(_tilted(tmp_path), 2, 1, tmp_path / "tilted", TINY)
    assert [p.name for p in here] == [p.name for p in child] == [
        "labels-2p-r1-plain-0.parquet", "labels-2p-r1-hh-0.parquet"]  # fmt: skip
    for a, b, c in zip(here, child, tilted, strict=True):
        pa, pb, pc = read_positions(a), read_positions(b), read_positions(c)
        assert len(pa) > 3
        np.testing.assert_array_equal(pa.labels, pb.labels)
        assert pa.digest() == pb.digest()
        assert pc.digest() != pa.digest()  # value plays and plays out with the tilted network
    before = here[0].stat().st_mtime_ns
    assert R.label_round(None, 2, 1, tmp_path / "here", TINY) == here  # kept, not made again
    assert here[0].stat().st_mtime_ns == before


def test_labelling_with_a_network_that_cannot_play_fails_in_one_line(tmp_path: Path) -> None:
    three = tmp_path / "three.npz"
    save_networks(three, {3: load_networks().for_players(3)}, {"command": "test"})
    with pytest.raises(R.RoundsError, match=r"labelling round 1 \(2 players\) with .*three.npz "
                                            r"failed \(exit status 1"):  # fmt: skip
        R.label_round(three, 2, 1, tmp_path / "labels", TINY)
    assert not list((tmp_path / "labels").glob("*.parquet"))
    with pytest.raises(R.RoundsError, match="no weights file at"):
        R.label_round(tmp_path / "none.npz", 2, 1, tmp_path / "labels", TINY)


def test_a_tiny_round_labels_trains_and_duels(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    start = tiny_weights(tmp_path / "start.npz")
    row = R.play_round(2, 1, start, tmp_path / "pi", TINY, command="test round")
    made = tmp_path / "pi" / "round-1-2p.npz"
    assert row["network"] == made.name
    nets = load_networks(made)
    assert nets.for_players(2).sizes == load_networks(start).for_players(2).sizes  # warm start
    prov = nets.provenance
    assert prov["command"] == "test round"
    assert prov["init"]["sha256"] == hashlib.sha256(start.read_bytes()).hexdigest()
    files = sorted((tmp_path / "pi").glob("labels-2p-r1-*.parquet"))
    assert {d["file"] for d in prov["data"]["2"]} == {f.name for f in files}
    assert sum(d["positions"] for d in prov["data"]["2"]) == row["positions"]
    assert {d["digest"] for d in prov["data"]["2"]} == {read_positions(f).digest() for f in files}
    for duel in ("head_to_head", "vs_strategic", "previous_vs_strategic"):
        plain, hh, both = (row[duel][k] for k in ("plain", "happy_hour", "both"))
        assert plain["games"] == hh["games"] == TINY.games
        assert both["wins"] == plain["wins"] + hh["wins"]
    # the head-to-head's wins are the games the new network won, counted again here
    new, old = NetworkAgent(made, "round 1"), NetworkAgent(start, "round 0")
    seed = R.PLAY_SEED + 10_000 * 2 + 100
    games = simulate([new, old], games=TINY.games, seed=seed, config=GameConfig(players=2),
                     workers=1).games  # fmt: skip
    assert row["head_to_head"]["plain"]["wins"] == int((games["winner"] == 0).sum())
    assert R.stops(row, 2) == (row["head_to_head"]["both"]["share"] < 0.51)
    table = R.rounds_table({"2": {"rounds": [row]}})
    assert table.count("\n") == 3
    assert "| 2 | 1 |" in table


def _round_file(path: Path, players: int, push: float, round_: int) -> Path:
    """A weights file shaped as a round of policy iteration for ``players`` players."""
    tilted_weights(path, push)
    nets = load_networks(path)
    data = [{"file": f"labels-r{round_}.parquet", "digest": f"{round_}" * 64, "positions": 5}]
    metrics = {str(players): {"held_out_mae": 0.1}}
    save_networks(path, nets.networks, {"command": f"round {round_}", "seed": round_,
                                        "round": round_, "data": {str(players): data},
                                        "metrics": metrics})  # fmt: skip
    return path


def test_shipping_writes_the_last_round_with_every_rounds_provenance(
    tmp_path: Path, cli: Any
) -> None:
    start = tiny_weights(tmp_path / "start.npz")
    save_networks(start, {**load_networks().networks, 2: load_networks(start).for_players(2)},
                  {"command": "pinastats train --data d", "seed": 0,
                   "data": {"2": [{"file": "a", "digest": "a" * 64, "positions": 9}]},
                   "metrics": {"2": {"held_out_mae": 0.2}}})  # fmt: skip
    one, two = (
        _round_file(tmp_path / "r1.npz", 2, 1.0, 1),
        _round_file(tmp_path / "r2.npz", 2, 2.0, 2),
    )
    out = tmp_path / "shipped.npz"
    result = cli(
        "ship-network", "--use", f"2={one},{two}", "--start", str(start), "--out", str(out)
    )
    assert result.code == 0, result.err
    assert f"weights written to {out}" in result.out
    shipped, last, base = load_networks(out), load_networks(two), load_networks(start)
    for k, (w, b) in enumerate(shipped.for_players(2).layers):
        np.testing.assert_array_equal(w, last.for_players(2).layers[k][0])
        np.testing.assert_array_equal(b, last.for_players(2).layers[k][1])
    np.testing.assert_array_equal(shipped.for_players(3).layers[0][0],
                                  base.for_players(3).layers[0][0])  # fmt: skip
    prov = shipped.provenance
    assert prov["shipped_by"].startswith("pinastats ship-network --use 2=")
    chain = prov["policy_iteration"]["2"]
    assert chain["start_sha256"] == hashlib.sha256(start.read_bytes()).hexdigest()
    assert [r["sha256"] for r in chain["rounds"]] == [
        hashlib.sha256(p.read_bytes()).hexdigest() for p in (one, two)]  # fmt: skip
    assert [r["seed"] for r in chain["rounds"]] == [1, 2]
    assert [d["file"] for d in prov["data"]["2"]] == ["a", "labels-r1.parquet", "labels-r2.parquet"]
    assert prov["metrics"]["2"] == {"held_out_mae": 0.1}
    assert "2 round(s) of policy iteration" in prov["labels"]["2"]
    assert set(prov["weights_sha256"]) == {"2", "3", "4"}
    digest = hashlib.sha256()
    for a, b in shipped.for_players(2).layers:
        digest.update(np.asarray(a, np.float64).tobytes() + np.asarray(b, np.float64).tobytes())
    digest.update(np.asarray(shipped.for_players(2).mean, np.float64).tobytes())
    digest.update(np.asarray(shipped.for_players(2).scale, np.float64).tobytes())
    assert prov["weights_sha256"]["2"] == digest.hexdigest()
    # shipped again from what was shipped: the rounds' data are not counted twice
    again = tmp_path / "again.npz"
    R.ship_networks(out, {2: [one, two]}, again, command="test")
    assert load_networks(again).provenance["data"]["2"] == prov["data"]["2"]


@pytest.mark.parametrize(
    ("use", "message"),
    [
        (
            "5=a.npz",
            "--use: give N=ROUND1.npz,ROUND2.npz with N a player count (2, 3 or 4), got '5=a.npz'",
        ),
        ("2", "--use: give N=ROUND1.npz,ROUND2.npz with N a player count"),
        ("2=", "--use: no round files for 2 players in '2='"),
        ("2=missing.npz", "--use: no weights file at 'missing.npz'"),
    ],
)
def test_shipping_refuses_bad_chains_in_one_line(cli: Any, use: str, message: str) -> None:
    result = cli("ship-network", "--use", use, "--out", "never.npz")
    assert result.code == 2
    assert message in result.err
    assert not Path("never.npz").exists()


def test_a_round_file_of_another_player_count_is_refused(tmp_path: Path) -> None:
    three = _round_file(tmp_path / "r1.npz", 3, 1.0, 1)
    with pytest.raises(R.RoundsError, match="not a round of policy iteration for 2 players"):
        R.ship_networks(tiny_weights(tmp_path / "s.npz"), {2: [three]}, tmp_path / "o.npz",
                        command="test")  # fmt: skip
    assert not (tmp_path / "o.npz").exists()


def test_a_duel_on_given_deals_swaps_the_seats(tmp_path: Path) -> None:
    row = R.duel_on_boards("random", "random", {0: 5, 3: 9}, 3)
    assert row["games"] == 6
    assert 0 <= row["share"] <= 1
    with pytest.raises(R.RoundsError, match="games must be a whole number of at least 1, got 0"):
        R.duel_on_boards("random", "strategic", {0: 5}, 0)
