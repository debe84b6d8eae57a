"""Piña Coladice in OpenSpiel: the registered game, its chance nodes, bots both ways."""

from __future__ import annotations

import math
import pickle
import subprocess
import sys
from functools import partial
from typing import Any

import numpy as np
import pandas as pd
import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install 'pinastats[openspiel]')"
)

from pinastats.agents import make_agent  # noqa: E402
from pinastats.dice.hands import dice_tables  # noqa: E402
from pinastats.game.turn import distinct_keeps, keep_outcomes  # noqa: E402
from pinastats.integrations.openspiel import (  # noqa: E402
    PLACE_BASE,
    SHORT_NAME,
    Phase,
    PinaColadiceState,
)
from pinastats.integrations.openspiel_bots import (  # noqa: E402
    OpenSpielAgent,
    PinastatsBot,
    mcts_bot,
)
from pinastats.simulation import simulate  # noqa: E402
from tests.integrations.playthrough import HERE, PLAYTHROUGHS, playthrough  # noqa: E402

GAMES = [SHORT_NAME, f"{SHORT_NAME}(players=3,happy_hour=True)", f"{SHORT_NAME}(players=4)"]


def test_random_sim_test_in_a_subprocess() -> None:
    """OpenSpiel's own checks of every game string, with and without serialization.

    One fresh interpreter runs them all (it loads the engine once); it names the
    first game that fails.
    """
    code = (
        "import pyspiel, pinastats.integrations.openspiel\n"
        f"for game_string in {GAMES!r}:\n"
        "    for serialize in (False, True):\n"
        "        print(game_string, serialize, flush=True)\n"
        "        game = pyspiel.load_game(game_string)\n"
        "        pyspiel.random_sim_test(game, num_sims=3, serialize=serialize, verbose=False)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-300:] + done.stderr[-3000:]
    assert done.stdout.splitlines() == [f"{g} {s}" for g in GAMES for s in (False, True)]


@pytest.mark.parametrize("name", sorted(PLAYTHROUGHS))
def test_playthrough_regression(name: str) -> None:
    game_string, seed = PLAYTHROUGHS[name]
    assert playthrough(game_string, seed) == (HERE / name).read_text(encoding="utf-8")


def random_states(game_string: str, seed: int) -> list[Any]:
    """Every state of one game of random play."""
    game = pyspiel.load_game(game_string)
    rng = np.random.default_rng(seed)
    state, states = game.new_initial_state(), []
    while not state.is_terminal():
        states.append(state.clone())
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(actions[rng.choice(len(actions), p=probs)]))
        else:
            legal = state.legal_actions()
            state.apply_action(int(legal[rng.integers(len(legal))]))
    return [*states, state]


@pytest.mark.parametrize("game_string", GAMES[:2])
def test_chance_nodes_are_exact_and_decisions_are_the_rules(game_string: str) -> None:
    t = dice_tables()
    for state in random_states(game_string, 3):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert math.isclose(sum(p for _, p in outcomes), 1.0)
            if state.phase is Phase.ROLL:
                keep = t.keep_of(state.pending_keep) if state.turn is not None else ()
                exact = {t.hand_index(h): float(p) for h, p in keep_outcomes(keep)}
                assert dict(outcomes) == pytest.approx(exact)
        elif state.phase is Phase.KEEP:
            keeps = [t.keep_of(a) for a in state.legal_actions()]
            assert keeps == sorted(distinct_keeps(state.turn.dice), key=t.keep_index)
        elif state.phase is Phase.PLACE:
            cells = [a - PLACE_BASE for a in state.legal_actions()]
            assert tuple(cells) == state.game.legal_cells(state.turn.dice)
        obs = np.asarray(state.observation_tensor(0))
        assert obs.shape == (state.get_game().observation_tensor_size(),)
        assert state.observation_string(0) == str(state)


@pytest.mark.parametrize("game_string", GAMES)
def test_returns_reward_the_winner_and_sum_to_zero(game_string: str) -> None:
    final = random_states(game_string, 5)[-1]
    returns = final.returns()
    assert math.isclose(sum(returns), 0.0, abs_tol=1e-12)
    winner = final.game.winner
    if winner is None:
        assert returns == [0.0] * len(returns)
    else:
        n = len(returns)
        assert returns[winner] == 1.0
        assert all(math.isclose(r, -1 / (n - 1)) for p, r in enumerate(returns) if p != winner)


def test_a_pinastats_agent_plays_as_an_openspiel_bot() -> None:
    game = pyspiel.load_game(SHORT_NAME)
    rng = np.random.default_rng(2)
    bots = [PinastatsBot(0, "ev", seed=1), PinastatsBot(1, "strategic", seed=2)]
    twin = make_agent("ev")
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(actions[rng.choice(len(actions), p=probs)]))
            continue
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        if state.current_player() == 0 and state.phase is Phase.KEEP:
            turn = state.turn
            keep = twin.choose_keep(state.game, turn.dice, turn.rolls_left, rng)
            assert action == dice_tables().keep_index(keep)  # ev's keep is deterministic
            checked += 1
        state.apply_action(action)
    assert checked > 0


def test_an_openspiel_bot_plays_in_simulate_reproducibly() -> None:
    agent = OpenSpielAgent(partial(mcts_bot, simulations=8), name="mcts8")
    copy = pickle.loads(pickle.dumps(agent))
    assert copy.name == "mcts8"
    seats: list[Any] = [agent, "greedy"]
    one = simulate(seats, 2, seed=4, workers=1, chunk_size=1)
    two = simulate([copy, "greedy"], 2, seed=4, workers=2, chunk_size=1)
    pd.testing.assert_frame_equal(one.games, two.games)
    assert len(one.games) == 2


def test_a_state_at_an_engine_position_asks_for_the_right_decision() -> None:
    from pinastats.game.game import Game
    from pinastats.game.turn import Turn
    from pinastats.integrations.openspiel import PinaColadiceGame

    game = Game.new(players=2, seed=8)
    spiel = PinaColadiceGame.for_config(game.config)
    turn = Turn.from_dice(game, [1, 2, 3, 4, 5])
    state = PinaColadiceState.at(spiel, game, turn, Phase.KEEP)
    assert state.current_player() == game.to_move
    assert len(state.legal_actions()) == 32
    state.apply_action(dice_tables().keep_index([1, 2, 3, 4, 5]))  # stop
    assert state.phase in (Phase.PLACE, Phase.ROLL)
    assert game.turn == 0  # the engine's game itself is not played on


def test_an_illegal_action_is_a_spiel_error_naming_it_and_the_legal_ones() -> None:
    from pinastats.errors import PinastatsError
    from pinastats.game.game import Game
    from pinastats.game.turn import Turn
    from pinastats.integrations.openspiel import PinaColadiceGame

    deal = pyspiel.load_game(SHORT_NAME).new_initial_state()
    with pytest.raises(pyspiel.SpielError, match=r"action 1000000 is not legal at the DEAL phase"):
        deal.apply_action(10**6)
    game = Game.new(players=2, seed=8)
    turn = Turn.from_dice(game, [1, 2, 3, 4, 5])
    state = PinaColadiceState.at(PinaColadiceGame.for_config(game.config), game, turn, Phase.KEEP)
    with pytest.raises(PinastatsError) as info:
        state.apply_action(10**6)
    assert isinstance(info.value, pyspiel.SpielError)
    assert str(info.value) == (
        f"action 1000000 is not legal at the KEEP phase (seat {game.to_move}); the legal "
        f"actions are 32 actions from {min(state.legal_actions())} to "
        f"{max(state.legal_actions())} (see legal_actions())"
    )
    assert state.phase is Phase.KEEP  # nothing was applied


def test_a_bot_plays_a_seat_of_the_game_only() -> None:
    from pinastats.errors import PinastatsError

    with pytest.raises(PinastatsError, match="player id must be a whole number from 0 to 3, got 7"):
        PinastatsBot(7, "ev")
    state = pyspiel.load_game(SHORT_NAME).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    with pytest.raises(PinastatsError, match="player id 3 is no seat of this 2-player game"):
        PinastatsBot(3, "ev").step(state)
