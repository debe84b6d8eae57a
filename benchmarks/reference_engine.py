"""A small pure-Python engine with the ``random`` agent: the yardstick of the kernel engine.

Same rules as :mod:`pinastats._engine.rules` (deal, roll, legal cells, points,
lines, the end check and the tie-break), on plain Python lists, and the same
random draws in the same order: with the seed of a chunk it plays the very games
the kernel engine plays (:func:`check_same_games`). The board's numbers (the
catalogue's combinations and points, the layout's neighbours and lines, which
hands show which combination) are read once from a :class:`GameConfig` and
turned into lists; nothing of the engine runs while the games are played.

    python benchmarks/reference_engine.py --games 2000
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from pinastats.agents.tables import turn_tables
from pinastats.game.config import GameConfig

PINA, BY_SCORE, BY_TOKENS, TIE_BREAK, DRAW, TURN_LIMIT = 1, 2, 3, 4, 5, 6
NO_TRIGGER, TRIGGER_SCORE, TRIGGER_TOKENS = 0, 1, 2


@dataclass
class Table:
    """The fixed numbers of a config as lists."""

    combination: list[int]  # per coaster
    points: list[list[list[int]]]  # [coaster][side][space]
    neighbours: list[list[int]]  # per cell, no padding
    lines: list[list[int]]  # per line, no padding
    shows: list[list[bool]]  # [combination][hand]
    key_to_hand: list[int]  # base-6 face-count key -> hand index
    sides: list[int]
    start_scores: list[int]
    tokens: int
    target: int
    max_turns: int
    players: int

    @classmethod
    def of(cls, config: GameConfig) -> Table:
        b = config.board
        return cls(
            combination=b.coaster_combination.tolist(),
            points=b.coaster_points.tolist(),
            neighbours=[[n for n in row if n >= 0] for row in b.neighbours.tolist()],
            lines=[[c for c in row if c >= 0] for row in b.lines.tolist()],
            shows=b.shows.tolist(),
            key_to_hand=turn_tables(config.rules.rolls).key_to_hand.tolist(),
            sides=config.sides.tolist(),
            start_scores=config.start_scores.tolist(),
            tokens=config.rules.tokens,
            target=config.rules.target_score,
            max_turns=config.rules.max_turns,
            players=config.players,
        )


@dataclass
class Result:
    """One game's end: winner (-1 none), reason, turns and scores by seat."""

    winner: int
    reason: int
    turns: int
    scores: list[int]


def play_random_game(t: Table, draw: Callable[[], float]) -> Result:
    """One game of ``random`` agents; ``draw()`` gives a float in [0, 1) (numpy's order)."""
    n_cells, n = len(t.sides), t.players
    pool = list(range(len(t.combination)))
    coaster = []
    for c in range(n_cells):  # partial Fisher-Yates
        j = c + int(draw() * (len(pool) - c))
        pool[c], pool[j] = pool[j], pool[c]
        coaster.append(pool[c])
    side = list(t.sides)
    spaces = [[-1, -1] for _ in range(n_cells)]
    first = int(draw() * n)
    score, reserve, last = [0] * n, [t.tokens] * n, [0] * n
    for i in range(n):
        score[(first + i) % n] = t.start_scores[i]
    mover, turn, trigger, placements = first, 0, NO_TRIGGER, 0

    def owns(cell: int, seat: int) -> bool:
        return spaces[cell][0] == seat or spaces[cell][1] == seat

    while True:
        key = [0] * 6  # one roll of five dice; random keeps them all
        for _ in range(5):
            key[int(draw() * 6.0)] += 1
        k = 0
        for f in range(6):
            k = k * 6 + key[f]
        hand = t.key_to_hand[k]
        legal = []
        if reserve[mover] > 0:
            for c in range(n_cells):
                free = [s for s in range(1 + side[c]) if spaces[c][s] < 0]
                if free and not owns(c, mover) and t.shows[t.combination[coaster[c]]][hand]:
                    legal.append((c, free[0]))
        if legal:
            cell, space = legal[int(draw() * len(legal))]
            gained = t.points[coaster[cell]][side[cell]][space]
            gained += sum(owns(m, mover) for m in t.neighbours[cell])
            spaces[cell][space] = mover
            score[mover] += gained
            reserve[mover] -= 1
            placements += 1
            last[mover] = placements
        turn += 1
        seat, mover = mover, (mover + 1) % n
        for i in range(n):  # a line wins at once, the mover's first
            p = (seat + i) % n
            if any(all(owns(c, p) for c in line) for line in t.lines):
                return Result(p, PINA, turn, score)
        if trigger == NO_TRIGGER:
            order = [(seat + i) % n for i in range(n)]
            if any(score[p] >= t.target for p in order):
                trigger = TRIGGER_SCORE
            elif any(reserve[p] == 0 for p in order):
                trigger = TRIGGER_TOKENS
        if trigger != NO_TRIGGER and turn % n == 0:
            best = max(score)
            leaders = [p for p in range(n) if score[p] == best]
            if len(leaders) == 1:
                reason = BY_SCORE if trigger == TRIGGER_SCORE else BY_TOKENS
                return Result(leaders[0], reason, turn, score)
            latest = max(last[p] for p in leaders)
            if latest > 0:
                return Result(last.index(latest), TIE_BREAK, turn, score)
            return Result(-1, DRAW, turn, score)
        if turn >= t.max_turns:
            return Result(-1, TURN_LIMIT, turn, score)


def play_random_games(config: GameConfig, games: int, seed: np.random.SeedSequence) -> list[Result]:
    """``games`` games in a row from one generator (as one chunk of the kernel engine)."""
    table = Table.of(config)
    rand = np.random.default_rng(seed).random
    return [play_random_game(table, rand) for _ in range(games)]


def check_same_games(config: GameConfig, games: int, seed: int = 7) -> bool:
    """Whether the reference plays the games of the kernel engine's chunk with this seed."""
    from pinastats.agents.builtin import make_agent
    from pinastats.simulation.chunk import ChunkSpec, run_chunk

    agents = tuple(make_agent("random") for _ in range(config.players))
    out = run_chunk(ChunkSpec(0, games, np.random.SeedSequence(seed), config, agents, -1))
    ref = play_random_games(config, games, np.random.SeedSequence(seed))
    return bool(
        out["winner"].tolist() == [r.winner for r in ref]
        and out["reason"].tolist() == [r.reason for r in ref]
        and out["turns"].tolist() == [r.turns for r in ref]
        and out["scores"].tolist() == [r.scores for r in ref]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    config = GameConfig(players=args.players)
    cpu = time.process_time()
    play_random_games(config, args.games, np.random.SeedSequence(1))
    cpu = time.process_time() - cpu
    print(f"pure Python, random agent: {args.games / cpu:,.0f} games/s on one core (CPU time)")
    print(f"same games as the kernel engine: {check_same_games(config, 500)}")


if __name__ == "__main__":
    main()
