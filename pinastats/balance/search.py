"""The fairest starting scores: a sequential search over small integer vectors.

Every candidate vector (see :func:`~pinastats.balance.seats.candidate_vectors`)
plays a first round of few games; each later round doubles the games per
candidate and is played only by the candidates still in contention. A candidate
leaves when the lower end of its interval for ``D`` (largest |seat win rate −
1/n|, jointly 95%) exceeds the upper end of the best candidate's: if every
interval holds, the truly fairest vector is never dropped. Every vector plays
round ``k`` with the same seed (common random numbers: the same deals and, as
long as the games agree, the same dice), which sharpens the comparisons. The
rulebook's vector plays every round, as the reference. The search stops when
the budget of games is spent, or when one candidate is left and has played
``max_games``.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TextIO

import numpy as np
import pandas as pd

from pinastats.balance.seats import (
    Play,
    Scores,
    SeatCounts,
    SelfPlay,
    candidate_vectors,
    check_players,
    round_seed,
    rulebook_scores,
)
from pinastats.dice.errors import at_least, is_finite_number
from pinastats.errors import PinastatsError
from pinastats.game.config import GameConfig
from pinastats.simulation.limits import check_memory

MAX_CANDIDATES = 5_000
"""Most starting-score vectors a search tries: a spread of at most 29 for 4 players, 98 for 3."""
PROGRESS_EVERY = 5.0
"""Seconds between two progress lines within a round of many vectors."""


@dataclass(frozen=True)
class Candidate:
    """One vector's games: its counts, and the round after which it left (None: stayed)."""

    counts: SeatCounts
    dropped_after: int | None = None

    @property
    def starting_scores(self) -> Scores:
        """The vector, in turn order."""
        return self.counts.starting_scores

    def record(self, role: str = "") -> dict[str, Any]:
        """The candidate as plain data: scores, games, seat rates, their intervals, ``D``."""
        c = self.counts
        lo, hi = c.deviation_interval()
        return {
            "role": role,
            "starting_scores": list(c.starting_scores),
            "games": c.games,
            "seat_wins": list(c.wins),
            "seat_win_rates": list(c.rates),
            "seat_win_rate_intervals": [list(i) for i in c.intervals()],
            "max_deviation": c.deviation,
            "max_deviation_interval": [lo, hi],
            "dropped_after_round": self.dropped_after,
        }


@dataclass(frozen=True)
class SearchResult:
    """What a search found.

    Attributes:
        players, agent, seed: the search's table, its self-play agent and its seed.
        candidates: every vector tried, fairest first (survivors by ``D``, then the
            dropped ones by the round they left and ``D``).
        rulebook: the rulebook's 1, 2, ..., n (played in every round).
        rounds: rounds played; games: games played in all.
    """

    players: int
    agent: str
    seed: int
    candidates: tuple[Candidate, ...]
    rulebook: Candidate
    rounds: int
    games: int

    @property
    def fairest(self) -> Candidate:
        """The survivor with the smallest ``D``."""
        return self.candidates[0]

    def runners_up(self, k: int = 4) -> tuple[Candidate, ...]:
        """The next ``k`` vectors after the fairest (the rulebook's is reported on its own)."""
        k = at_least(k, "runners-up", 0)
        rest = [
            c for c in self.candidates[1:] if c.starting_scores != self.rulebook.starting_scores
        ]
        return tuple(rest[:k])

    @property
    def within_precision(self) -> bool:
        """Whether every seat's 95% interval under the fairest vector holds 1/n."""
        fair = 1 / self.players
        return all(lo <= fair <= hi for lo, hi in self.fairest.counts.intervals())

    def frame(self, runners_up: int = 4) -> pd.DataFrame:
        """One row per vector shown (rulebook, fairest, runners-up): games, rates, ``D``.

        Columns: ``role``, ``starting_scores``, ``games``, ``seat_<k>_win_rate`` and
        ``seat_<k>_ci_low``/``_ci_high`` per seat ``k`` in turn order (1 = first),
        ``max_deviation`` and its interval, ``dropped_after_round``.
        """
        rows = []
        for role, cand in self._shown(runners_up):
            rec = cand.record(role)
            row: dict[str, Any] = {
                "role": role,
                "starting_scores": tuple(rec["starting_scores"]),
                "games": rec["games"],
            }
            for k, (rate, (lo, hi)) in enumerate(
                zip(rec["seat_win_rates"], rec["seat_win_rate_intervals"], strict=True), 1
            ):
                row[f"seat_{k}_win_rate"] = rate
                row[f"seat_{k}_ci_low"] = lo
                row[f"seat_{k}_ci_high"] = hi
            row["max_deviation"] = rec["max_deviation"]
            row["max_deviation_low"], row["max_deviation_high"] = rec["max_deviation_interval"]
            row["dropped_after_round"] = rec["dropped_after_round"]
            rows.append(row)
        return pd.DataFrame(rows)

    def _shown(self, runners_up: int) -> list[tuple[str, Candidate]]:
        shown = [("rulebook", self.rulebook), ("fairest", self.fairest)]
        shown += [("runner-up", c) for c in self.runners_up(runners_up)]
        return shown

    def to_dict(self, runners_up: int = 4) -> dict[str, Any]:
        """JSON-ready: ``rulebook``, ``fairest`` and ``candidates`` (the runners-up)."""
        return {
            "players": self.players,
            "agent": self.agent,
            "seed": self.seed,
            "rounds": self.rounds,
            "games": self.games,
            "fair_share": 1 / self.players,
            "within_precision": self.within_precision,
            "rulebook": self.rulebook.record("rulebook"),
            "fairest": self.fairest.record("fairest"),
            "candidates": [c.record("runner-up") for c in self.runners_up(runners_up)],
        }


def _order(cands: Sequence[Candidate]) -> tuple[Candidate, ...]:
    """Survivors by ``D``, then the dropped, latest-dropped first, each by ``D``."""

    def key(c: Candidate) -> tuple[int, float, Scores]:
        late = -1 if c.dropped_after is None else c.dropped_after
        return (-late if late >= 0 else -(10**9), c.counts.deviation, c.starting_scores)

    return tuple(sorted(cands, key=key))


def _say(stream: TextIO | None, text: str) -> None:
    if stream is not None:
        print(f"pinastats: {text}", file=stream, flush=True)


def _vector_count(players: int, first: object, spread: object) -> int:
    """How many vectors :func:`candidate_vectors` makes: ``C(spread + n - 1, n - 1)``."""
    at_least(first, "first", 0)
    return math.comb(at_least(spread, "spread", 0) + players - 1, players - 1)


def _check_count(players: int, spread: int | None, budget: int, count: int) -> None:
    """Refuse more vectors than a search tries: :data:`MAX_CANDIDATES`, and a game each.

    Checked before any vector is made (a spread of 1,000 for 4 players would be
    167 million vectors). ``spread``: the spread that made them (None: given ones).
    """
    most = min(MAX_CANDIDATES, budget)
    if count <= most:
        return
    why = (
        f"at most {MAX_CANDIDATES:,}"
        if most == MAX_CANDIDATES
        else f"one game each at least, from a budget of {budget:,} games"
    )
    if spread is None:
        raise PinastatsError(
            f"{count:,} candidates given, more than a search tries ({why}): give fewer"
        )
    widest = 0
    while math.comb(widest + players, players - 1) <= most:  # the next spread still fits
        widest += 1
    raise PinastatsError(
        f"spread={spread:,} makes {count:,} starting-score vectors for {players} players, more "
        f"than a search tries ({why}): give a spread of at most {widest:,}"
    )


def _check_memory(budget: int, first_round: int, config: GameConfig) -> None:
    """Refuse a budget whose largest self-play run could not fit in memory (:func:`check_memory`).

    No round gives one vector more than ``(budget + first_round) // 2`` games: a
    round of a lone vector gets at most ``first_round 2**k`` games, and the rounds
    before it have spent ``first_round (2**k - 1)`` of the budget.
    """
    largest = max(1, (budget + first_round) // 2)
    try:
        check_memory(largest, config)
    except PinastatsError as exc:
        raise PinastatsError(
            f"budget={budget:,}: a search of it may play {largest:,} games in one run, and {exc}"
        ) from None


def search_starting_scores(
    players: int,
    *,
    agent: str = "strategic",
    budget: int = 200_000,
    first_round: int = 2_000,
    max_games: int | None = None,
    seed: int = 0,
    first: int = 1,
    spread: int = 4,
    candidates: Sequence[Scores] | None = None,
    config: GameConfig | None = None,
    workers: int | None = None,
    play: Play | None = None,
    progress: bool | TextIO = False,
) -> SearchResult:
    """Search the starting scores that bring every seat's win rate closest to 1/n.

    ``candidates`` defaults to :func:`candidate_vectors` (``first``, ``spread``);
    ``play`` to :class:`SelfPlay` of ``agent`` (``config``, ``workers``). Round 0
    gives every candidate ``first_round`` games, round ``k`` gives ``first_round *
    2**k`` more to each candidate in contention (fewer when the ``budget`` of
    games left is short). ``progress`` (True: stderr) prints a line per round, and
    one every :data:`PROGRESS_EVERY` seconds within a long round.
    Same arguments, same result, whatever ``workers``.

    Refused before any game: more vectors than :data:`MAX_CANDIDATES` or than the
    budget has games (one game each at least), counted before they are made; with
    self-play, a budget whose largest run would not fit in memory (see
    :func:`~pinastats.simulation.limits.check_memory`).
    """
    players = check_players(players)
    budget, first_round = at_least(budget, "budget", 1), at_least(first_round, "first round", 1)
    at_least(seed, "seed", 0)
    if max_games is not None:
        at_least(max_games, "max games", first_round)
    if candidates is None:
        _check_count(players, spread, budget, _vector_count(players, first, spread))
        vectors = candidate_vectors(players, first, spread)
    else:
        vectors = list(candidates)
        _check_count(players, None, budget, len(vectors))
    for v in vectors:
        if len(v) != players or not all(isinstance(x, int) and not isinstance(x, bool) for x in v):
            raise PinastatsError(f"a candidate must be {players} whole numbers, got {v!r}")
    reference = rulebook_scores(players)
    vectors = list(dict.fromkeys(tuple(v) for v in [*vectors, reference]))
    if play is None:
        play = SelfPlay(players, agent, config, workers)
    if isinstance(play, SelfPlay):
        _check_memory(budget, first_round, play.config or GameConfig(players=players))
    stream = sys.stderr if progress is True else (progress or None)
    counts = {v: SeatCounts(v, 0, (0,) * players) for v in vectors}
    dropped: dict[Scores, int] = {}
    alive = list(vectors)
    spent, k = 0, 0
    while True:
        size = first_round * 2**k
        players_in = alive + ([reference] if reference not in alive else [])
        size = min(size, (budget - spent) // len(players_in))
        if k > 0 and size < first_round // 2:
            break
        size = max(size, 1)
        seed_k = round_seed(seed, k)
        said = time.monotonic()
        for i, v in enumerate(players_in):
            counts[v] = counts[v].add(size, play(v, size, seed_k))
            if time.monotonic() - said >= PROGRESS_EVERY and i + 1 < len(players_in):
                said = time.monotonic()
                _say(stream, f"{players} players, round {k}: {i + 1:,} of "
                             f"{len(players_in):,} vectors x {size:,} games played")  # fmt: skip
        spent += size * len(players_in)
        bounds = {v: counts[v].deviation_interval() for v in alive}
        best_high = min(hi for _, hi in bounds.values())
        leaving = [v for v in alive if bounds[v][0] > best_high]
        for v in leaving:
            dropped[v] = k
        alive = [v for v in alive if v not in leaving]
        lead = min(alive, key=lambda v: (counts[v].deviation, v))
        lo, hi = bounds[lead]
        _say(
            stream,
            f"{players} players, round {k}: {len(players_in)} vectors x {size:,} games "
            f"({spent:,} of {budget:,}); {len(alive)} in contention; best so far "
            f"{lead} max |seat rate - 1/n| {counts[lead].deviation:.2%} [{lo:.2%}, {hi:.2%}]",
        )
        k += 1
        if len(alive) == 1 and max_games is not None and counts[lead].games >= max_games:
            break
        if spent >= budget:
            break
    cands = [Candidate(counts[v], dropped.get(v)) for v in vectors]
    ordered = _order(cands)
    rulebook = next(c for c in cands if c.starting_scores == reference)
    return SearchResult(players, agent, seed, ordered, rulebook, k, spent)


def planted_play(planted: Scores, slope: float = 0.03) -> Play:
    """A toy :data:`Play` whose fairest vector is ``planted`` (for tests and examples).

    Seat ``k`` wins with probability ``1/n + slope (d_k - mean(d))`` for ``d = v -
    planted`` (clipped at 0, renormalised): ``planted`` gives every seat ``1/n`` and
    each point above the table's mean is worth ``slope``. Each game's winner comes
    from one uniform number of ``default_rng(seed)``: common random numbers.
    """
    if not (is_finite_number(slope) and -1 <= slope <= 1):
        raise PinastatsError(
            f"slope must be a number from -1 to 1 (win rate per point), got {slope!r}"
        )
    n = len(planted)

    def play(scores: Scores, games: int, seed: int) -> Any:
        d = np.array(scores, dtype=float) - np.array(planted, dtype=float)
        weights = np.clip(1 / n + slope * (d - d.mean()), 0.0, None)
        cum = np.cumsum(weights / weights.sum())
        u = np.random.default_rng(seed).random(games)
        seats = np.minimum(np.searchsorted(cum, u, side="right"), n - 1)
        return np.bincount(seats, minlength=n).astype(np.int64)

    return play
