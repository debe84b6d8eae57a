"""Perfect play as the yardstick: each agent's errors graded exactly, and its games against it.

Everything here is measured on solved boards dealt from one seed
(:func:`pinastats.solve.survey.survey`), each board solved once and studied
while its solution is at hand (:func:`study_board`):

* **errors**: games of each agent against itself from the board's start, every
  decision (keep, stop, placement) of both seats graded by the exact solution
  (:func:`~pinastats.records.review.review_game` with ``evaluator="exact"``):
  the loss of chance to win against the best move, in thousandths of a win;
* **duels**: ``perfect`` against each opponent, seats swapped every other game;
* **reviewers**: the first games of each agent reviewed again by the network,
  as a player sees it without a solved table, each decision's mark and loss
  beside the exact one;
* **labels** (:func:`label_board`): the turn starts of games between agents
  drawn from :data:`LABEL_AGENTS`, each with the mover's exact chance, written
  to a file per board for the learned evaluator
  (:func:`pinastats.value.exact.exact_positions`).

:func:`error_table`, :func:`duel_table` and :func:`reviewer_table` turn the
surveyed rows into tables; :func:`perfect_survey` runs it all (resumable with a
log, on any executor); :func:`error_rates` and :func:`head_to_head` are the
one-table shortcuts. Game ``g`` of agent ``a`` on board ``b`` is seeded by
``SeedSequence([seed, b, a, g])``: the same seed plays the same games, whatever
runs them.
"""

from __future__ import annotations

import gzip
import json
import math
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from pinastats._files import written_whole
from pinastats._stats import mean_interval, wilson_interval
from pinastats.agents import make_agent
from pinastats.dice.errors import at_least
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.game.notation import notation_of
from pinastats.game.rules import game_points
from pinastats.records.format import RecordedTurn
from pinastats.records.record import record_game
from pinastats.records.replay import replay
from pinastats.records.review import GameReview, error_rate, review_game
from pinastats.solve.solution import Solution
from pinastats.solve.study import (
    STUDY_VERSION,
    Duel,
    GradedGame,
    GradedPosition,
    Reviewed,
    ReviewedDecision,
    ReviewerPair,
    Study,
    read_study,
)
from pinastats.solve.survey import survey

DUEL_SEED = 1 << 20
"""Added to an opponent's number in the seeds of the duels (apart from the agents' games)."""


def _rng(seed: int, board: int, who: int, game: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence([seed, board, who, game]))


def _seat_loss(review: GameReview, seat: int) -> float:
    """A seat's mean loss per unforced decision in ``review`` (thousandths; NaN without)."""
    losses = [d.loss for d in review.decisions if d.seat == seat and not d.forced]
    return 1000 * float(np.mean(losses)) if losses else math.nan


def study_board(
    number: int,
    start: Game,
    solution: Solution,
    *,
    agents: Sequence[str] = (),
    games: int = 0,
    opponents: Sequence[str] = (),
    duels: int = 0,
    reviewed: int = 0,
    seed: int = 0,
) -> dict[str, Any]:
    """One solved board's games, graded exactly (the ``study`` of :func:`survey`).

    Returns the stored form (JSON, with its version) of a
    :class:`~pinastats.solve.study.Study`, read back by
    :func:`~pinastats.solve.study.read_study`: per self-play game of each agent a
    :class:`~pinastats.solve.study.GradedGame` (each turn's start as a position
    line, :func:`~pinastats.game.notation_of`, with the mover's exact chance); per
    duel a :class:`~pinastats.solve.study.Duel`; for the first ``reviewed`` games
    of each agent a :class:`~pinastats.solve.study.Reviewed`: per decision a
    :class:`~pinastats.solve.study.ReviewedDecision`, per seat and per turn start
    the exact and network figures side by side.
    """
    config = start.config
    errors: dict[str, list[GradedGame]] = {}
    reviewers: dict[str, dict[str, list[Any]]] = {}
    for a, name in enumerate(agents):
        agent = make_agent(name)
        rows = errors.setdefault(agent.name, [])
        for g in range(games):
            record = record_game(config, [agent, agent], _rng(seed, number, a, g), start=start,
                                 game_index=number * games + g)  # fmt: skip
            exact = review_game(record, evaluator="exact")
            losses = [d.loss for d in exact.decisions]
            rows.append(GradedGame(
                len(losses),
                1000 * float(np.mean(losses)) if losses else 0.0,
                tuple(round(d.loss, 12) for d in exact.decisions if not d.forced),
                tuple(GradedPosition(line, round(turn[2], 9))
                      for (_, line), turn in zip(exact.positions, exact.starts, strict=True)),
            ))  # fmt: skip
            if g < reviewed:
                network = review_game(record, evaluator="network", seed=g)
                pair = reviewers.setdefault(
                    agent.name, {"decisions": [], "seats": [], "starts": []}
                )
                for e, n in zip(exact.decisions, network.decisions, strict=True):
                    pair["decisions"].append(
                        ReviewedDecision(round(e.loss, 12), e.mark, round(n.loss, 12), n.mark)
                    )
                for seat in exact.seats:
                    pair["seats"].append(
                        ReviewerPair(_seat_loss(exact, seat), _seat_loss(network, seat))
                    )
                for e_start, n_start in zip(exact.starts, network.starts, strict=True):
                    pair["starts"].append(ReviewerPair(round(e_start[2], 9), round(n_start[2], 9)))
    duel_rows: dict[str, list[Duel]] = {}
    if opponents:
        perfect = make_agent("perfect")
        chances = solution.chances(start)
        for o, name in enumerate(opponents):
            other = make_agent(name)
            rows_o = duel_rows.setdefault(other.name, [])
            for g in range(duels):
                seat = g % 2  # perfect's seat
                players = [perfect, other] if seat == 0 else [other, perfect]
                rng = _rng(seed, number, DUEL_SEED + o, g)
                record = record_game(config, players, rng, start=start,
                                     game_index=number * duels + g)  # fmt: skip
                score = game_points(record.winner, seat)
                rows_o.append(Duel(seat, score, round(float(chances[seat]), 12)))
    study = Study(
        {a: tuple(games) for a, games in errors.items()},
        {a: tuple(games) for a, games in duel_rows.items()},
        {a: Reviewed(tuple(p["decisions"]), tuple(p["seats"]), tuple(p["starts"]))
         for a, p in reviewers.items()},
    )  # fmt: skip
    return study.to_json()


LABEL_AGENTS = ("random", "greedy", "ev", "strategic", "value", "perfect")
"""The agents whose games give the labelled positions: each seat's drawn among them."""

LABEL_SEED = 7_000
"""The ``who`` word of a labelling game's seed (apart from the agents' and the duels')."""


def label_file(folder: str | Path, board: int) -> Path:
    """The file of one board's labelled positions: ``folder/board-007.json.gz``."""
    return Path(folder) / f"board-{board:03d}.json.gz"


def label_board(
    number: int,
    start: Game,
    solution: Solution,
    *,
    games: int,
    folder: str | Path,
    agents: Sequence[str] = LABEL_AGENTS,
    seed: int = 0,
) -> dict[str, Any]:
    """Label the turn starts of ``games`` games on a solved board with their exact chances.

    Each seat of game ``g`` is drawn from ``agents`` (seeded by
    ``SeedSequence([seed, number, LABEL_SEED, g])``), so the positions are
    those good and bad play reach, in every phase. Every turn start of a game
    not yet over is kept with the mover's exact chance to win and the agent
    to move, and the board's file (:func:`label_file`) is written whole:
    ``{"board", "seed", "digest", "games", "agents", "positions": [[line,
    chance, agent, game], ...]}``. Returns ``{}`` (a ``study`` of
    :func:`~pinastats.solve.survey.survey` that adds nothing to its rows).
    """
    at_least(games, "games", 1)
    players = [make_agent(name) for name in agents]
    config = start.config
    positions: list[list[Any]] = []
    for g in range(games):
        rng = _rng(seed, number, LABEL_SEED, g)
        seats = [players[int(k)] for k in rng.integers(len(players), size=2)]
        record = record_game(config, seats, rng, start=start, game_index=number * games + g)

        def visit(
            _k: int, game: Game, turn: RecordedTurn, seats: list[Any] = seats, g: int = g
        ) -> None:
            if game.is_over:
                return
            mover = int(turn.seat)
            chance = solution.chances(game)[mover]
            positions.append([notation_of(game), round(float(chance), 9), seats[mover].name, g])

        replay(record, config, visit=visit)
    data = {"version": STUDY_VERSION, "board": number, "seed": seed, "digest": solution.digest,
            "games": games, "agents": [a.name for a in players],
            "positions": positions}  # fmt: skip
    with written_whole(label_file(folder, number)) as f:
        f.write(gzip.compress(json.dumps(data).encode("utf-8"), mtime=0))
    return {}


def perfect_survey(
    boards: int,
    *,
    agents: Sequence[str] = (),
    games: int = 0,
    opponents: Sequence[str] = (),
    duels: int = 0,
    reviewed: int = 0,
    seed: int = 0,
    config: GameConfig | None = None,
    executor: Executor | Any | None = None,
    log: str | Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> pd.DataFrame:
    """Solve ``boards`` dealt boards and study each (:func:`study_board`); one row a board.

    The rows are :func:`~pinastats.solve.survey.survey`'s, each with its ``study``.
    """
    at_least(boards, "boards", 1)
    for name, value in (("games", games), ("duels", duels), ("reviewed", reviewed)):
        at_least(value, name, 0)
    for name in [*agents, *opponents]:
        make_agent(name)  # refuse a bad name before any board is solved
    study = partial(study_board, agents=tuple(agents), games=games, opponents=tuple(opponents),
                    duels=duels, reviewed=reviewed, seed=seed)  # fmt: skip
    return survey(boards, seed=seed, config=config, executor=executor, log=log,
                  progress=progress, study=study)  # fmt: skip


def _studies(frame: pd.DataFrame) -> list[Study]:
    """The studies of a survey's rows, read as named records (:func:`read_study`)."""
    return [read_study(study or {}, f"board {board}'s study")
            for board, study in zip(frame["board"], frame["study"], strict=True)]  # fmt: skip


def error_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Each agent's loss per decision against perfect play, over the surveyed boards.

    Columns: ``agent``, ``boards``, ``games``, ``decisions``, ``loss`` (mean over
    games of the loss per decision, thousandths of a win) with
    ``loss_low``/``loss_high`` (95%, over games; not below 0: a loss never is),
    then ``unforced`` and the
    pooled ``error_rate`` per unforced decision with its interval
    (:func:`~pinastats.records.review.error_rate`). Best agent first.
    """
    per_game: dict[str, list[float]] = {}
    unforced: dict[str, list[float]] = {}
    decisions: dict[str, int] = {}
    boards: dict[str, int] = {}
    for study in _studies(frame):
        for agent, rows in study.errors.items():
            boards[agent] = boards.get(agent, 0) + 1
            for row in rows:
                per_game.setdefault(agent, []).append(row.loss)
                unforced.setdefault(agent, []).extend(row.unforced)
                decisions[agent] = decisions.get(agent, 0) + row.decisions
    out = []
    for agent, losses in per_game.items():
        x = np.array(losses)
        loss, loss_low, loss_high = mean_interval(x)
        rate, low, high = error_rate(np.array(unforced[agent]))
        out.append({
            "agent": agent, "boards": boards[agent], "games": x.size,
            "decisions": decisions[agent], "loss": loss,
            "loss_low": max(loss_low, 0.0), "loss_high": loss_high,
            "unforced": len(unforced[agent]), "error_rate": rate, "error_low": low,
            "error_high": high,
        })  # fmt: skip
    table = pd.DataFrame(out)
    return table.sort_values("error_rate", kind="stable").reset_index(drop=True) if out else table


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


def duel_table(frame: pd.DataFrame) -> list[HeadToHead]:
    """``perfect`` against each opponent over the surveyed boards (Wilson intervals)."""
    rows: dict[str, list[Duel]] = {}
    for study in _studies(frame):
        for opponent, games in study.duels.items():
            rows.setdefault(opponent, []).extend(games)
    out = []
    for opponent, played in rows.items():
        n = len(played)
        score = sum(g.score for g in played)
        low, high = wilson_interval(score, n)
        expected = sum(g.perfect_chance for g in played) / n
        out.append(HeadToHead(opponent, n, score / n, low, high, expected))
    return out


def reviewer_table(frame: pd.DataFrame) -> pd.DataFrame:
    """The network reviewer against the exact one, on the same games, per graded agent.

    Columns: ``agent``, ``decisions``, ``same_mark`` (share of decisions given the
    same mark, none included), ``marked_exact`` and ``marked_network`` (share of
    decisions marked), ``loss_exact`` and ``loss_network`` (mean loss per
    decision, thousandths), ``seats`` and ``seat_correlation`` (Pearson, of the
    per-seat mean losses), ``starts`` and ``start_error`` (the mean distance
    between the network's chance for the mover at a turn's start and the exact
    one). A last row ``all`` pools the agents.
    """
    pooled: dict[str, dict[str, list[Any]]] = {}
    for study in _studies(frame):
        for agent, pair in study.reviewers.items():
            p = pooled.setdefault(agent, {"decisions": [], "seats": [], "starts": []})
            p["decisions"].extend(pair.decisions)
            p["seats"].extend(pair.seats)
            p["starts"].extend(pair.starts)
    everything = {key: [x for p in pooled.values() for x in p[key]]
                  for key in ("decisions", "seats", "starts")}  # fmt: skip
    out = []
    for agent, p in [*pooled.items(), *([("all", everything)] if pooled else [])]:
        d, seats = p["decisions"], np.array(p["seats"], dtype=float).reshape(-1, 2)
        starts = np.array(p["starts"], dtype=float).reshape(-1, 2)
        seats = seats[~np.isnan(seats).any(axis=1)]
        varied = len(seats) > 2 and bool((seats.std(axis=0) > 0).all())
        corr = float(np.corrcoef(seats[:, 0], seats[:, 1])[0, 1]) if varied else math.nan
        out.append({
            "agent": agent, "decisions": len(d),
            "same_mark": float(np.mean([e.exact_mark == e.network_mark for e in d])) if d
            else math.nan,
            "marked_exact": float(np.mean([bool(e.exact_mark) for e in d])) if d else math.nan,
            "marked_network": float(np.mean([bool(e.network_mark) for e in d])) if d
            else math.nan,
            "loss_exact": 1000 * float(np.mean([e.exact_loss for e in d])) if d else math.nan,
            "loss_network": 1000 * float(np.mean([e.network_loss for e in d])) if d
            else math.nan,
            "seats": len(seats), "seat_correlation": corr, "starts": len(starts),
            "start_error": float(np.abs(starts[:, 0] - starts[:, 1]).mean()) if len(starts)
            else math.nan,
        })  # fmt: skip
    return pd.DataFrame(out)


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

    :func:`error_table` of a :func:`perfect_survey` that plays only those games.
    """
    at_least(games, "games", 1)
    frame = perfect_survey(boards, agents=agents, games=games, seed=seed, config=config,
                           progress=progress)  # fmt: skip
    return error_table(frame)


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
    at_least(games, "games", 1)
    frame = perfect_survey(boards, opponents=[opponent], duels=games, seed=seed, config=config,
                           progress=progress)  # fmt: skip
    return duel_table(frame)[0]
