"""Where a ``rollout`` game's time goes: play-out turns, and what one of them costs.

    python benchmarks/profile_rollout.py            # about two minutes
    python benchmarks/profile_rollout.py --quick    # under a minute

One thread, 2 players. It measures, in one run:

* the ``rollout`` agent's placement decision (``_rollout_cell``, 48 play-outs per
  legal cell) on positions of ``strategic`` games, timed call by call, and the
  number of turns its play-outs play (the same play-outs, replayed turn by turn
  from the same seed: the same draws, so the same games);
* the CPU time of one ``strategic`` self-play turn in the game loop, and of one
  ``random`` and one ``ev`` turn beside it (no DP; the DP without ``strategic``'s
  line values);
* the same decisions with the memo of prepared turns that a ``rollout`` game
  keeps (:mod:`pinastats._engine.memo`): CPU per decision, and the share of
  prepared turns read back instead of solved;
* ``rollout`` self-play games per second, and their decisions per game.

Then ``CPU per play-out turn`` / ``CPU per strategic turn`` says how much of a
decision is anything but play-out turns, and games/s x turns per game says what
a turn would have to cost for 60 games/s on two cores. Each figure is printed
with the 1-minute load average. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

ROLLOUTS = 48


def load() -> float:
    """The 1-minute load average now."""
    return os.getloadavg()[0]


def turn_cpu(agent: str, games: int) -> tuple[float, float]:
    """CPU seconds per turn and turns per game of ``agent`` self-play on one thread."""
    from pinastats.simulation import simulate

    simulate([agent, agent], 20, seed=2, workers=1)  # loads the kernels
    start = time.process_time()
    result = simulate([agent, agent], games, seed=1, workers=1)
    cpu = time.process_time() - start
    turns = float(result.games["turns"].sum())
    return cpu / turns, turns / games


def decisions(positions: int) -> dict[str, float]:
    """Time ``_rollout_cell`` on positions of strategic games; count its play-out turns.

    Each decision is timed twice, on the same play-outs: with a workspace that
    solves every play-out turn (no memo) and with the memo of prepared turns a
    ``rollout`` game keeps (one workspace for the whole game, as in a chunk).
    """
    from pinastats._engine import turn_tables
    from pinastats._engine.kinds import PARAM_POLICY
    from pinastats._engine.playout import _policy_turn, _rollout_cell
    from pinastats._engine.rules import _copy_game, _end_turn, _legal_cells, _place
    from pinastats._engine.stream import generator_rng
    from pinastats.agents import make_agent
    from pinastats.agents.tables import workspace
    from pinastats.game import Game, GameConfig
    from pinastats.simulation.play import play_turn_fast

    config = GameConfig(players=2)
    board, tables = config.board, turn_tables(config.rules.rolls)
    agent = make_agent(f"rollout(rollouts={ROLLOUTS})")
    params = agent.param_vector()
    policy = int(params[PARAM_POLICY])
    strategic = make_agent("strategic")
    rng = np.random.default_rng(3)
    cpu = {False: 0.0, True: 0.0}
    turns = 0.0
    done = 0
    seed = 0
    plain = workspace(config)
    counts = np.zeros(2, dtype=np.int64)  # prepared turns read back, solved
    while done < positions:
        seed += 1
        game = Game.new(seed=seed, config=config)
        memo = workspace(config, memo=True)  # one per game, as the chunk's
        while not game.is_over and done < positions:
            state, seat = game.state, game.to_move
            legal = np.zeros(config.layout.n_cells, dtype=np.bool_)
            hand = int(rng.integers(252))
            if _legal_cells(board, state, seat, hand, legal) > 1:
                word = int(rng.integers(2**63))
                if done == 0:  # load (or compile) the kernel, untimed
                    first = generator_rng(np.random.default_rng(word))
                    _rollout_cell(params, board, state, tables, workspace(config), first,
                                  legal.copy())  # fmt: skip
                chosen = []
                for with_memo, work in ((False, plain), (True, memo)):
                    start = time.process_time()
                    chosen.append(_rollout_cell(params, board, state, tables, work, generator_rng(
                        np.random.default_rng(word)), legal))  # fmt: skip
                    cpu[with_memo] += time.process_time() - start
                assert chosen[0] == chosen[1], "the memo changed a decision"
                # the same play-outs again, turn by turn, counting the turns
                replay = generator_rng(np.random.default_rng(word))
                playout = plain.playout
                for cell in np.flatnonzero(legal):
                    for _ in range(ROLLOUTS):
                        _copy_game(state, playout)
                        _place(board, playout, seat, int(cell))
                        over = bool(_end_turn(board, playout))
                        while not over:
                            over = bool(_policy_turn(policy, params, board, playout, tables,
                                                     plain, replay))  # fmt: skip
                            turns += 1
                done += 1
            play_turn_fast(game, strategic, rng)
        counts += memo.memo.counts
    return {"decisions": done, "cpu_per_decision": cpu[False] / done,
            "memo_cpu_per_decision": cpu[True] / done, "turns_per_decision": turns / done,
            "cpu_per_playout_turn": cpu[False] / turns,
            "memo_cpu_per_playout_turn": cpu[True] / turns,
            "hit_rate": counts[0] / max(counts.sum(), 1)}  # fmt: skip


def rollout_games(games: int) -> tuple[float, float]:
    """``rollout`` self-play on one thread: CPU seconds per game and wall games/s."""
    from pinastats.simulation import simulate

    agents = [f"rollout(rollouts={ROLLOUTS})"] * 2
    simulate(agents, 1, seed=2, workers=1)  # loads (or compiles) the kernels
    start, wall = time.process_time(), time.perf_counter()
    simulate(agents, games, seed=1, workers=1)
    return (time.process_time() - start) / games, games / (time.perf_counter() - wall)


def main(argv: list[str] | None = None) -> None:
    """Measure and print the profile."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer positions and games")
    opts = parser.parse_args(argv)
    positions, games = (20, 4) if opts.quick else (60, 12)
    per_turn = {}
    for agent, n in (("random", 40_000), ("ev", 8_000), ("strategic", 8_000)):
        per_turn[agent], turns_per_game = turn_cpu(agent, n)
        print(f"{agent:>9} self-play: {per_turn[agent] * 1e6:6.2f} µs CPU per turn, "
              f"{turns_per_game:.1f} turns per game (load {load():.2f})")  # fmt: skip
    d = decisions(positions)
    print(f"rollout decision ({ROLLOUTS} play-outs per legal cell, {d['decisions']:.0f} positions):"
          f" {d['cpu_per_decision'] * 1e3:.1f} ms CPU, {d['turns_per_decision']:,.0f} play-out "
          f"turns (load {load():.2f})")  # fmt: skip
    share = d["cpu_per_playout_turn"] / per_turn["strategic"]
    print(f"  CPU per play-out turn {d['cpu_per_playout_turn'] * 1e6:.2f} µs = {share:.2f} x the "
          f"strategic self-play turn")  # fmt: skip
    gain = d["cpu_per_decision"] / d["memo_cpu_per_decision"]
    print(f"  with the memo of prepared turns: {d['memo_cpu_per_decision'] * 1e3:.1f} ms CPU per "
          f"decision, {d['memo_cpu_per_playout_turn'] * 1e6:.2f} µs per play-out turn "
          f"({gain:.2f}x faster, the same decisions; {d['hit_rate']:.1%} of the prepared turns "
          f"read back)")  # fmt: skip
    cpu_game, rate = rollout_games(games)
    turns_game = cpu_game / d["memo_cpu_per_playout_turn"]
    print(f"rollout self-play: {cpu_game:.3f} s CPU per game, {rate:.1f} games/s on one thread, "
          f"about {turns_game:,.0f} play-out turns per game (load {load():.2f})")  # fmt: skip
    need = 2.0 / (60.0 * turns_game)  # turns_game: at the memo's cost per turn
    print(f"60 games/s on two cores needs {need * 1e6:.2f} µs per play-out turn; a strategic turn "
          f"costs {per_turn['strategic'] * 1e6:.2f} µs, of which what it adds to a random turn "
          f"(DP, values, keeps) is {(per_turn['strategic'] - per_turn['random']) * 1e6:.2f} µs and "
          f"the line values alone {(per_turn['strategic'] - per_turn['ev']) * 1e6:.2f} µs "
          f"(strategic - ev)")  # fmt: skip


if __name__ == "__main__":
    main()
