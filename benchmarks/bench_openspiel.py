"""The outside yardstick: pinastats' agents against OpenSpiel's MCTSBot (random roll-outs).

Each game is played in OpenSpiel (``python_pina_coladice``, 2 players): the
pinastats agent sits in seat 0 in even games and seat 1 in odd ones, the
first player is dealt at random, chance outcomes are drawn from a generator
seeded per game. Reports the pinastats agent's win rate with its 95% Wilson
interval and the seconds per move of each side::

    python benchmarks/bench_openspiel.py --games 40 --games-1000 6 --jobs 2

Needs the extra: ``pip install 'pinastats[openspiel]'``.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np

from pinastats.simulation import wilson_interval

AGENTS = ("greedy", "ev", "strategic")


@dataclass(frozen=True)
class GameOutcome:
    """One game: the agent's result (+1 win, -1 loss, 0 draw), moves and seconds per side."""

    result: float
    agent_moves: int
    agent_seconds: float
    mcts_moves: int
    mcts_seconds: float


def play_one(agent: str, simulations: int, seed: int, index: int) -> GameOutcome:
    """Play game ``index`` of a pairing: ``agent`` against MCTSBot with ``simulations``."""
    import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

    from pinastats.integrations.openspiel import SHORT_NAME
    from pinastats.integrations.openspiel_bots import PinastatsBot, mcts_bot

    game = pyspiel.load_game(SHORT_NAME)
    seeds = np.random.SeedSequence([seed, index]).generate_state(3)
    seat = index % 2
    bots = {
        seat: PinastatsBot(seat, agent, seed=int(seeds[0])),
        1 - seat: mcts_bot(game, int(seeds[1]), simulations=simulations),
    }
    chance = np.random.default_rng(int(seeds[2]))
    moves, seconds = [0, 0], [0.0, 0.0]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(actions[chance.choice(len(actions), p=probs)]))
            continue
        player = state.current_player()
        start = time.perf_counter()
        action = bots[player].step(state)
        seconds[player] += time.perf_counter() - start
        moves[player] += 1
        state.apply_action(action)
    result = float(np.sign(state.returns()[seat]))
    return GameOutcome(result, moves[seat], seconds[seat], moves[1 - seat], seconds[1 - seat])


def pairing(agent: str, simulations: int, games: int, seed: int, jobs: int) -> str:
    """A table row for ``games`` games of ``agent`` against MCTSBot(``simulations``)."""
    args = [(agent, simulations, seed, i) for i in range(games)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            outcomes = list(pool.map(play_one, *zip(*args, strict=True)))
    else:
        outcomes = [play_one(*a) for a in args]
    wins = sum(o.result > 0 for o in outcomes)
    draws = sum(o.result == 0 for o in outcomes)
    lo, hi = wilson_interval(wins, games)
    agent_spm = sum(o.agent_seconds for o in outcomes) / max(
        1, sum(o.agent_moves for o in outcomes)
    )
    mcts_spm = sum(o.mcts_seconds for o in outcomes) / max(1, sum(o.mcts_moves for o in outcomes))
    return (
        f"| {agent} | {simulations} | {games} | {wins}/{draws}/{games - wins - draws} "
        f"| {wins / games:.0%} [{lo:.0%}, {hi:.0%}] | {agent_spm:.4f} | {mcts_spm:.3f} |"
    )


def main() -> None:
    """Run the pairings and print a Markdown table, one row as each pairing ends."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per pairing, 100 sims")
    parser.add_argument("--games-1000", type=int, default=6, help="games per pairing, 1000 sims")
    parser.add_argument("--agents", default=",".join(AGENTS))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    args = parser.parse_args()
    print(
        "| agent | MCTS simulations | games | agent W/D/L | agent win rate [95% Wilson] "
        "| agent s/move | MCTS s/move |"
    )
    print("|---|---|---|---|---|---|---|", flush=True)
    for simulations, games in ((100, args.games), (1000, args.games_1000)):
        if games <= 0:
            continue
        for agent in args.agents.split(","):
            print(pairing(agent, simulations, games, args.seed, args.jobs), flush=True)


if __name__ == "__main__":
    main()
