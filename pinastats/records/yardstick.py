"""Perfect play as the yardstick: each agent's errors graded exactly, and its games against it.

On solved boards (dealt from one seed: :func:`pinastats.solve.survey.board_seeds`),
:func:`error_rates` plays games of each agent against itself from the board's
start and grades every decision (keep, stop, placement) of both seats by the
exact solution (:func:`~pinastats.records.review.review_game` with
``evaluator="exact"``): the loss of chance to win against the best move, in
thousandths of a win. Each game gives its mean loss per decision; the table
gives their mean over games with a 95% interval (normal, over games), and the
pooled figures of :func:`~pinastats.records.review.agent_table` beside it.

:func:`head_to_head` plays ``perfect`` against an agent on the same boards, the
seats swapped every other game, and gives ``perfect``'s score with its Wilson
interval.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from pinastats.agents import make_agent
from pinastats.errors import PinastatsError
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.records.record import record_game
from pinastats.records.review import GameReview, agent_table, review_game
from pinastats.simulation.stats import Z95, wilson_interval
from pinastats.solve import SolveError, solve, uncovered
from pinastats.solve.survey import board_seeds
from pinastats.solve.table import remember


def _boards(boards: int, seed: int, config: GameConfig) -> Iterator[Game]:
    """The dealt boards, one at a time, each solved as it comes.

    A solution is kept in this process only (nothing written): a board's games are
    played before the next board is solved.
    """
    why = uncovered(config)
    if why is not None:
        raise SolveError(why)
    for s in board_seeds(seed, boards):
        game = Game.new(config=config, seed=s)
        remember(solve(game, store=False))
        yield game


def _check_counts(boards: int, games: int) -> None:
    for name, value in (("boards", boards), ("games", games)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise PinastatsError(f"{name} must be a whole number of at least 1, got {value!r}")


def error_rates(
    agents: Sequence[str],
    *,
    boards: int = 20,
    games: int = 10,
    seed: int = 0,
    config: GameConfig | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> pd.DataFrame:
    """Each agent's loss per decision against perfect play, ``games`` self-play games a board.

    Columns: ``agent``, ``games``, ``decisions``, ``loss`` (mean over games of the
    loss per decision, thousandths of a win) with ``loss_low``/``loss_high`` (95%),
    then the pooled ``error_rate`` (per unforced decision) with its interval.
    """
    _check_counts(boards, games)
    config = config or GameConfig(players=2)
    made = [make_agent(name) for name in agents]
    reviews: list[list[GameReview]] = [[] for _ in made]
    per_game: list[list[float]] = [[] for _ in made]
    roots = [np.random.SeedSequence([seed, a]) for a in range(len(made))]
    total, done = len(made) * boards * games, 0
    for b, start in enumerate(_boards(boards, seed, config)):
        for a, agent in enumerate(made):
            for g in range(games):
                rng = np.random.default_rng(roots[a].spawn(1)[0])
                record = record_game(config, [agent, agent], rng, start=start,
                                     game_index=b * games + g)  # fmt: skip
                review = review_game(record, evaluator="exact")
                reviews[a].append(review)
                losses = [d.loss for d in review.decisions]
                per_game[a].append(1000 * float(np.mean(losses)) if losses else 0.0)
                done += 1
                if progress is not None:
                    progress(done, total)
    rows = []
    for a, agent in enumerate(made):
        x = np.array(per_game[a])
        half = Z95 * float(x.std(ddof=1)) / math.sqrt(x.size) if x.size > 1 else math.nan
        pooled = agent_table(reviews[a]).iloc[0]
        rows.append({
            "agent": agent.name, "games": x.size,
            "decisions": int(sum(len(r.decisions) for r in reviews[a])),
            "loss": float(x.mean()), "loss_low": float(x.mean() - half),
            "loss_high": float(x.mean() + half),
            "error_rate": float(pooled["error_rate"]),
            "error_low": float(pooled["error_low"]),
            "error_high": float(pooled["error_high"]),
        })  # fmt: skip
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class HeadToHead:
    """``perfect`` against one agent.

    Attributes:
        opponent: the agent's name.
        games: games played.
        score: ``perfect``'s wins, plus half of the games without a winner, a game.
        low, high: the 95% Wilson interval of ``score``.
        perfect_vs_perfect: ``perfect``'s exact chance from the same seats (the mean
            over the games): what it would score against perfect play.
    """

    opponent: str
    games: int
    score: float
    low: float
    high: float
    perfect_vs_perfect: float


def head_to_head(
    opponent: str,
    *,
    boards: int = 20,
    games: int = 20,
    seed: int = 0,
    config: GameConfig | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> HeadToHead:
    """``perfect`` against ``opponent``, ``games`` a board, seats swapped every other game.

    Returns ``perfect``'s score (wins, plus half of the games without a winner)
    over the games, its 95% Wilson interval, and the exact chance ``perfect`` had
    at the start of those games (the mean over them: what perfect play against
    perfect play would score from the same seats).
    """
    _check_counts(boards, games)
    config = config or GameConfig(players=2)
    perfect, other = make_agent("perfect"), make_agent(opponent)
    root = np.random.SeedSequence([seed, 1 << 20])
    score, expected, n = 0.0, 0.0, 0
    for b, start in enumerate(_boards(boards, seed, config)):
        solution = solve(start)
        chances = solution.chances(start)
        for g in range(games):
            seat = g % 2  # perfect's seat
            agents = [perfect, other] if seat == 0 else [other, perfect]
            rng = np.random.default_rng(root.spawn(1)[0])
            record = record_game(config, agents, rng, start=start, game_index=b * games + g)
            score += 0.5 if record.winner is None else float(record.winner == seat)
            expected += chances[seat]
            n += 1
            if progress is not None:
                progress(n, boards * games)
    low, high = wilson_interval(score, n)
    return HeadToHead(other.name, n, score / n, low, high, expected / n)
