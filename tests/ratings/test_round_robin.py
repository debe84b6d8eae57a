"""The round-robin: reproducible from its seed, the first move alternating, schedules checked."""

from __future__ import annotations

import sys
import zlib

import numpy as np
import pytest

from pinastats.game.config import GameConfig
from pinastats.ratings import (
    RatingError,
    RoundRobin,
    block_size,
    ladder_agent,
    pair_games,
    round_robin,
)
from pinastats.ratings.agents import is_mcts, mcts_parameters
from pinastats.ratings.round_robin import ProgressReport
from pinastats.simulation import simulate

CHEAP = ["random", "greedy", "ev"]


def _by_pair(result: RoundRobin) -> dict[frozenset[str], tuple[int, ...]]:
    """Each pair's counts keyed by its agents, seen from the name-first agent."""
    out: dict[frozenset[str], tuple[int, ...]] = {}
    for p in result.pairs:
        first_is_a = p.a < p.b
        wins = (p.a_wins, p.b_wins) if first_is_a else (p.b_wins, p.a_wins)
        first = p.a_first if first_is_a else p.games - p.a_first
        out[frozenset((p.a, p.b))] = (p.games, *wins, p.draws, first, p.mover_wins)
    return out


def test_same_seed_same_games_on_any_workers_and_in_any_order() -> None:
    one = round_robin(CHEAP, 41, seed=3)
    again = round_robin(CHEAP, 41, seed=3)
    two = round_robin(CHEAP, 41, seed=3, workers=2)
    shuffled = round_robin(["ev", "random", "greedy"], 41, seed=3)
    assert one.table().drop(columns="seconds").equals(again.table().drop(columns="seconds"))
    assert one.table().drop(columns="seconds").equals(two.table().drop(columns="seconds"))
    assert _by_pair(one) == _by_pair(shuffled)
    other = round_robin(CHEAP, 41, seed=4)
    assert _by_pair(one) != _by_pair(other)  # the seed matters


def test_adding_an_agent_keeps_the_other_pairs_games() -> None:
    small = round_robin(["random", "greedy"], 30, seed=9)
    large = round_robin(["random", "greedy", "strategic"], 30, seed=9)
    pair = frozenset(("random", "greedy"))
    assert _by_pair(small)[pair] == _by_pair(large)[pair]


def test_counts_match_a_direct_replay_of_the_documented_seeds() -> None:
    """The slow oracle: each block's games played by simulate() from the seeds the module
    docstring gives, counted here game by game."""
    games = 1203  # three blocks of 500, 500 and 203, an odd count
    result = round_robin(["greedy", "ev"], games, seed=11)
    (pair,) = result.pairs
    assert (pair.a, pair.b) == ("greedy", "ev")
    names = sorted(["greedy", "ev"])  # seat 0: the name-first agent, "ev"
    hashes = [zlib.crc32(n.encode()) for n in names]
    wins = {"ev": 0, "greedy": 0}
    draws = mover_wins = ev_first = 0
    for block, start in enumerate(range(0, games, 500)):
        numbers = range(start, min(start + 500, games))
        for mover in (0, 1):
            n = sum(1 for g in numbers if g % 2 == mover)
            seed = int(np.random.SeedSequence([11, *hashes, block, mover]).generate_state(1)[0])
            played = simulate(names, n, seed=seed, first_seat=mover, workers=1, chunk_size=n)
            for winner in played.games["winner"]:
                if winner < 0:
                    draws += 1
                else:
                    wins[names[winner]] += 1
                mover_wins += winner == mover
            ev_first += n if mover == 0 else 0
    assert (pair.a_wins, pair.b_wins, pair.draws) == (wins["greedy"], wins["ev"], draws)
    assert pair.mover_wins == mover_wins
    assert pair.a_first == games - ev_first == 601  # ev, name-first, opens the even games: 602
    assert pair.a_wins + pair.b_wins + pair.draws == games


def test_fit_of_the_games() -> None:
    result = round_robin(CHEAP, 200, seed=1)
    fit = result.fit(anchor="random")
    w = result.points()
    assert w.sum() == 600
    assert np.all(np.diag(w) == 0)
    table = fit.ratings()
    assert table["agent"].iloc[-1] == "random"  # random is the weakest by far
    assert table.set_index("agent").loc["random", "elo"] == 0
    pairs = result.table()
    assert list(pairs.columns[:6]) == ["a", "b", "games", "a_wins", "b_wins", "draws"]
    assert (pairs["a_score_low"] <= pairs["a_score"]).all()
    assert (pairs["a_score"] <= pairs["a_score_high"]).all()


def test_schedule() -> None:
    names = ["random", "ev", "coach", "mcts9"]
    plan = pair_games(names, 100, {"coach": 10, "mcts9": 4, "mcts9:random": 0, "ev : coach": 20})
    assert plan == {
        ("random", "ev"): 100,
        ("random", "coach"): 10,
        ("random", "mcts9"): 0,
        ("ev", "coach"): 20,
        ("ev", "mcts9"): 4,
        ("coach", "mcts9"): 4,  # the smaller of the agents' counts
    }
    assert pair_games(["a", "b"], 3, None) == {("a", "b"): 3}


@pytest.mark.parametrize(
    ("agents", "games", "schedule", "message"),
    [
        (["ev"], 10, None, "at least 2 agents"),
        (["ev", "ev"], 10, None, "named twice: ev"),
        (CHEAP, 0, None, "games must be a whole number >= 1"),
        (CHEAP, 2.5, None, "games must be a whole number >= 1"),
        (CHEAP, 10, {"nobody": 3}, "schedule entry 'nobody'"),
        (CHEAP, 10, {"ev:ev": 3}, "schedule entry 'ev:ev'"),
        (CHEAP, 10, {"ev:greedy:random": 3}, "schedule entry"),
        (CHEAP, 10, {"ev": -1}, "games for 'ev' must be a whole number >= 0"),
        (CHEAP, 10, {"ev": 0}, "gives no games to ev"),
        (
            ["random", "greedy", "ev", "strategic"],
            10,
            {"random:ev": 0, "random:strategic": 0, "greedy:ev": 0, "greedy:strategic": 0},
            "2 groups that never played each other",
        ),
    ],
)
def test_refusals(
    agents: list[str], games: int, schedule: dict[str, int] | None, message: str
) -> None:
    with pytest.raises(RatingError, match=message):
        round_robin(agents, games, schedule=schedule)


def test_other_refusals() -> None:
    three = GameConfig(players=3)
    with pytest.raises(RatingError, match="two-player games"):
        round_robin(CHEAP, 2, config=three)
    with pytest.raises(RatingError, match="workers must be"):
        round_robin(CHEAP, 2, workers=0)
    with pytest.raises(RatingError, match="seed must be"):
        round_robin(CHEAP, 2, seed=-1)
    with pytest.raises(RatingError, match="progress must be"):
        round_robin(CHEAP, 2, progress="yes")  # type: ignore[arg-type]


def test_progress_reports_every_block() -> None:
    seen: list[ProgressReport] = []
    round_robin(["random", "greedy"], 1001, seed=0, progress=seen.append)
    assert [r.played for r in seen] == [500, 1000, 1001]
    assert seen[-1].total == 1001
    assert seen[-1].remaining == 0


def test_block_sizes() -> None:
    assert block_size([ladder_agent("ev"), ladder_agent("greedy")]) == 500
    assert block_size([ladder_agent("ev"), ladder_agent("rollout")]) == 16
    assert block_size([ladder_agent("ev"), ladder_agent("value")]) == 50
    assert block_size([ladder_agent("ev"), ladder_agent("coach")]) == 1


def test_mcts_names() -> None:
    assert is_mcts("mcts100")
    assert is_mcts("MCTS(simulations=5)")
    assert not is_mcts("ev")
    assert mcts_parameters("mcts1000") == (1000, 2.0)
    assert mcts_parameters("mcts(simulations=50, uct_c=1.5)") == (50, 1.5)
    for bad, message in [
        ("mcts0", "at least 1"),
        ("mcts(simulations=x)", "whole number"),
        ("mcts(uct_c=1)", "give the simulations"),
        ("mcts(simulations=5,depth=2)", "parameter 'depth=2'"),
        ("mcts(simulations=5,uct_c=-1)", "uct_c must be"),
        ("mcts", "mcts<K>"),
    ]:
        with pytest.raises(RatingError, match=message):
            ladder_agent(bad)


def test_mcts_needs_openspiel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pinastats.integrations.openspiel_bots", None)
    with pytest.raises(RatingError, match=r"pip install 'pinastats\[openspiel\]'"):
        ladder_agent("mcts100")


def test_mcts_plays_in_the_round_robin() -> None:
    pytest.importorskip("pyspiel")
    agent = ladder_agent("mcts(simulations=2)")
    assert agent.name == "mcts2"
    assert ladder_agent("mcts(simulations=2,uct_c=1)").name == "mcts(simulations=2,uct_c=1)"
    result = round_robin([agent, "random"], 2, seed=5)
    (pair,) = result.pairs
    assert pair.games == 2
    assert pair.a_first == 1
    assert pair.a_wins + pair.b_wins + pair.draws == 2


def test_importing_the_ladder_does_not_import_openspiel() -> None:
    import subprocess

    code = (
        "import sys, pinastats.ratings, pinastats.cli.ladder\n"
        "pinastats.ratings.ladder_agent('ev')\n"
        "assert 'pyspiel' not in sys.modules and 'open_spiel' not in sys.modules, 'imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
