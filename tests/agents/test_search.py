"""The search over whole turns: the kernel against a slow oracle, depth 1 is `value`, the agent."""

from __future__ import annotations

import pickle
from dataclasses import replace

import numpy as np
import pytest

from pinastats.agents.builtin import AgentError, agent_names, make_agent
from pinastats.agents.network import load_networks
from pinastats.agents.search import SearchAgent, Searcher, SearchError
from pinastats.dice.hands import dice_tables
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.game.rules import Rules
from pinastats.simulation.play import play_turn
from tests.agents.search_oracle import oracle
from tests.game.scenarios import mid_game


def _position(players: int, seed: int, turns: int, happy_hour: bool = False) -> Game:
    """A position of ``strategic`` self-play whose search goes deeper than the network."""
    g = mid_game(players, seed, turns, happy_hour=happy_hour, agent="strategic")
    assert not g.is_over
    return g


def _searcher(g: Game, depth: int, variant: str = "max-n") -> Searcher:
    return Searcher(g.config, depth, variant)


# ------------------------------------------------------------------ the kernel and its oracle


@pytest.mark.parametrize(
    ("players", "variant", "happy_hour", "seed", "turns"),
    [
        (2, "max-n", False, 1, 8),
        (2, "max-n", True, 2, 9),
        (3, "max-n", False, 3, 10),
        (3, "paranoid", True, 4, 12),
        (3, "best-reply", False, 5, 11),
        (4, "max-n", False, 1, 16),
        (4, "best-reply", False, 7, 14),
    ],
)
def test_two_plies_match_the_oracle(
    players: int, variant: str, happy_hour: bool, seed: int, turns: int
) -> None:
    g = _position(players, seed, turns, happy_hour)
    s = _searcher(g, 2, variant)
    got = s.position(g.state, 2, g.to_move)
    want = oracle(g.config, g.state, 2, variant)
    np.testing.assert_allclose(got, want, atol=1e-9)
    assert np.abs(got - s.position(g.state, 1, g.to_move)).max() > 1e-6  # the reply counts


def test_three_plies_match_the_oracle() -> None:
    g = _position(3, 3, 10)
    got = _searcher(g, 3, "paranoid").position(g.state, 3, g.to_move)
    np.testing.assert_allclose(got, oracle(g.config, g.state, 3, "paranoid"), atol=1e-9)


def test_a_position_searched_for_another_root() -> None:
    """Paranoid from an opponent's turn guards the root given, not the mover."""
    g = _position(3, 9, 12)
    root = (g.to_move + 2) % 3
    got = _searcher(g, 2, "paranoid").position(g.state, 2, root)
    np.testing.assert_allclose(got, oracle(g.config, g.state, 2, "paranoid", root), atol=1e-9)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_root_fares_no_better_against_guarding_opponents(players: int) -> None:
    """Paranoid opponents minimise the root's chance over every policy, max-n's among them;
    best-reply takes the lower of that and a later opponent's reply: the root's chance
    orders max-n >= paranoid >= best-reply (two players: all equal, the game is zero-sum)."""
    for seed in range(3):
        g = mid_game(players, seed, 4 * players, agent="strategic")
        root = g.to_move
        chance = {v: _searcher(g, 2, v).position(g.state, 2, root)[root]
                  for v in ("max-n", "paranoid", "best-reply")}  # fmt: skip
        assert chance["max-n"] >= chance["paranoid"] - 1e-12
        assert chance["paranoid"] >= chance["best-reply"] - 1e-12
        if players == 2:
            assert chance["max-n"] == pytest.approx(chance["best-reply"], abs=1e-9)


def test_depth_zero_and_a_finished_game() -> None:
    g = mid_game(2, 11, 6, agent="strategic")
    s = _searcher(g, 1)
    np.testing.assert_allclose(s.position(g.state, 0, 0), oracle(g.config, g.state, 0), atol=1e-12)
    done = mid_game(2, 12, 200, agent="strategic")
    assert done.is_over
    winner = int(done.state.status[0]["winner"])
    want = [0.5, 0.5] if winner < 0 else [float(s == winner) for s in range(2)]
    assert list(s.position(done.state, 1, 0)) == want


# ------------------------------------------------------------------ depth 1 is value


@pytest.mark.parametrize(("players", "happy_hour"), [(2, False), (3, True), (4, False)])
def test_depth_one_is_the_value_agent(players: int, happy_hour: bool) -> None:
    value, search = make_agent("value"), SearchAgent(depth=1)
    rng = np.random.default_rng(players)
    hands = dice_tables().hand_dice
    for seed in range(3):
        g = mid_game(players, seed, 3 * seed + 2, happy_hour=happy_hour, agent="strategic")
        value.start_turn(g)
        search.start_turn(g)
        work_v = value._work(g)
        work_s = search._searcher(g).work
        rolls = g.config.rules.rolls
        assert np.array_equal(work_v.keep_value[: rolls - 1], work_s.keep_value[: rolls - 1])
        for _ in range(20):
            dice = [int(d) for d in hands[rng.integers(len(hands))]]
            for left in range(1, rolls):
                assert value.choose_keep(g, dice, left, rng) == search.choose_keep(
                    g, dice, left, rng
                )
            if g.legal_placements(dice):
                assert value.choose_placement(g, dice, rng) == search.choose_placement(g, dice, rng)


# ------------------------------------------------------------------ the agent


def test_search_plays_whole_games_against_strategic() -> None:
    for players, variant in ((3, "max-n"), (4, "best-reply")):
        config = GameConfig(players=players, rules=Rules(happy_hour=True))
        g = Game.new(config=config, seed=players)
        agents = [
            make_agent(f"search(variant={variant})"),
            *[make_agent("strategic")] * (players - 1),
        ]
        rng = np.random.default_rng(0)
        for _ in range(400):
            if g.is_over:
                break
            play_turn(g, agents[g.to_move], rng)
        assert g.is_over


def test_search_is_registered_and_named() -> None:
    assert "search" in agent_names()
    assert make_agent("search").name == "search"
    assert make_agent("search(depth=1,variant=paranoid)").name == "search(depth=1,variant=paranoid)"
    agent = make_agent("search(variant=Best-Reply)")
    assert isinstance(agent, SearchAgent)
    assert agent.variant == "best-reply"
    copy = pickle.loads(pickle.dumps(agent))
    assert (copy.depth, copy.variant) == (agent.depth, agent.variant)


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("search(depth=0)", "depth must be a whole number from 1 to 3, got 0"),
        ("search(depth=4)", "from 1 to 3, got 4"),
        ("search(depth=two)", "depth must be a whole number from 1 to 3, got 'two'"),
        ("search(variant=paranoia)", "did you mean 'paranoid'?"),
        ("search(width=3)", "unknown parameter 'width'"),
    ],
)
def test_bad_settings_are_named(spec: str, words: str) -> None:
    with pytest.raises(AgentError, match=words.replace("?", r"\?").replace("(", r"\(")):
        make_agent(spec)


def test_the_network_is_a_parameter() -> None:
    g = mid_game(3, 13, 9, agent="strategic")
    shipped = load_networks().for_players(3)
    default, given = SearchAgent(), SearchAgent(network=shipped)
    assert default.turn_win_probability(g) == given.turn_win_probability(g)
    (w, b), *rest = reversed(shipped.layers)
    tilted = b.copy()
    tilted[0] += 1.0  # relative seat 0's logit: a network that favours the seat to move
    other = replace(shipped, layers=(*reversed(rest), (w, tilted)))
    searched = Searcher(g.config, 2, "max-n", other).position(g.state, 2, g.to_move)
    np.testing.assert_allclose(searched, oracle(g.config, g.state, 2, network=other), atol=1e-9)
    assert searched[g.to_move] != pytest.approx(given.turn_win_probability(g), abs=1e-3)
    with pytest.raises(SearchError, match="network must be a PlayerNetwork"):
        SearchAgent(network="value-net.npz")  # type: ignore[arg-type]
    two = Game.new(2, seed=1)
    assert "for 3 players" in str(SearchAgent(network=shipped).refuses(two.config))
    with pytest.raises(SearchError, match="for 3 players"):
        SearchAgent(network=shipped).start_turn(two)
