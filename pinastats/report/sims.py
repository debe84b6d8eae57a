"""The report's game simulations: strategic self-play and every mixed table.

Two kinds of run, each of ``games`` games with a random first player:

* *self-play*: ``strategic`` in every seat, for the first-player advantage, how
  games end and how long they last;
* *match-ups*: every table of distinct agents from :data:`AGENTS` that the
  player count allows (6 pairs for 2 players, 4 trios for 3, one table of all
  four for 4), for who beats whom. Pooled over the match-ups, each agent sits at
  the same number of tables: the pooled win rate is its ladder score.

A third kind is optional: *guests*, one's own agents (or ``coach``), each
played in seat 0 against every agent of :data:`AGENTS` in the other seats,
``guest_games`` games a table.

Run ``i`` (0 = self-play, then the match-ups in order; guest ``g`` against
``AGENTS[b]`` is run ``8 + 4 g + b``) uses seed ``16 * seed + i``, so each run
can be replayed with ``pinastats simulate``. The results keep
counts, not only rates, so runs can be pooled; every rate has a 95% Wilson
interval.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from pinastats.agents.loading import resolve_agent
from pinastats.agents.protocol import AgentProtocol
from pinastats.dice.errors import at_least
from pinastats.errors import PinastatsError
from pinastats.game import GameConfig
from pinastats.game.rules import EndReason
from pinastats.simulation import SimulationResult, simulate, wilson_interval
from pinastats.simulation.plan import DEFAULT_CHUNK

AGENTS: tuple[str, ...] = ("random", "greedy", "ev", "strategic")
"""The agents of the match-ups, weakest first (the slow ``rollout`` agent is left out)."""

MAX_GUESTS = 2
"""Guest agents a report can hold (their runs' seeds are 8-15 of the report's 16)."""

SELF_PLAY_AGENT = "strategic"
"""The agent in every seat of the self-play run."""

END_REASONS: tuple[str, ...] = tuple(
    r.name.lower() for r in EndReason if r not in (EndReason.ONGOING,)
)
"""How a game can end, in the order of :class:`~pinastats.game.rules.EndReason`."""


def run_seed(seed: int, index: int) -> int:
    """The seed of run ``index`` of a report seeded with ``seed``.

    >>> run_seed(0, 0), run_seed(0, 3), run_seed(2, 1)
    (0, 3, 33)
    """
    return 16 * seed + index


@dataclass(frozen=True)
class Rate:
    """``count`` successes in ``trials``, with a 95% Wilson interval."""

    count: int
    trials: int

    @property
    def value(self) -> float:
        """The observed rate."""
        return self.count / self.trials if self.trials else float("nan")

    @property
    def low(self) -> float:
        """Lower end of the 95% interval (never above the rate, despite rounding)."""
        return min(wilson_interval(self.count, self.trials)[0], self.value)

    @property
    def high(self) -> float:
        """Upper end of the 95% interval (never below the rate: at 100% it can round below)."""
        return max(wilson_interval(self.count, self.trials)[1], self.value)

    def __add__(self, other: Rate) -> Rate:
        return Rate(self.count + other.count, self.trials + other.trials)


@dataclass(frozen=True)
class RunStats:
    """What one simulation run (or several, pooled) found.

    Attributes:
        label: "strategic self-play", "random vs greedy", ...
        agents: the agents at the table, seat order (pooled runs: every agent met).
        games: games played.
        seeds: the seed of each run pooled here.
        wins: per agent, its wins over the seat-games it played.
        no_winner: games nobody won (draws).
        positions: win rate by position in turn order (1st, 2nd, ...).
        end_reasons: per way of ending (:data:`END_REASONS`), its share of games.
        rounds: ``(rounds, games)`` pairs: the distribution of game length.
    """

    label: str
    agents: tuple[str, ...]
    games: int
    seeds: tuple[int, ...]
    wins: tuple[tuple[str, Rate], ...]
    no_winner: Rate
    positions: tuple[Rate, ...]
    end_reasons: tuple[tuple[str, Rate], ...]
    rounds: tuple[tuple[int, int], ...]

    def win_rate(self, agent: str) -> Rate | None:
        """The agent's wins, or None if it did not play."""
        return dict(self.wins).get(agent)

    def end_share(self, reason: str | EndReason) -> Rate:
        """The share of games that ended ``reason``: an :class:`EndReason` or its name."""
        name = reason.name.lower() if isinstance(reason, EndReason) else reason
        return dict(self.end_reasons)[name]

    @property
    def mean_rounds(self) -> float:
        """Average game length in rounds (a round: every player plays once)."""
        return sum(r * n for r, n in self.rounds) / self.games

    def rounds_quantile(self, q: float) -> int:
        """The smallest length such that at least ``q`` of the games are no longer."""
        seen = 0
        for r, n in self.rounds:
            seen += n
            if seen >= q * self.games - 1e-9:
                return r
        return self.rounds[-1][0]


def run_stats(result: SimulationResult, label: str) -> RunStats:
    """Counts of one simulation run, ready to print or to pool."""
    n = result.n_games
    agents = tuple(a.name for a in result.agents)
    table = result.agent_win_rates()
    wins = tuple(
        (str(agent), Rate(int(w), int(g)))
        for agent, w, g in zip(
            table["agent"], table["wins"].to_numpy(), table["seat_games"].to_numpy(), strict=True
        )
    )
    positions = tuple(Rate(int(w), n) for w in result.position_win_rates()["wins"])
    reasons = result.end_reasons().set_index("end_reason")["games"]
    end = tuple((name, Rate(int(reasons.get(name, 0)), n)) for name in END_REASONS)
    length = result.game_length()
    rounds = tuple((int(r), int(g)) for r, g in zip(length["rounds"], length["games"], strict=True))
    draws = int((result.games["winner"] < 0).sum())
    return RunStats(label, agents, n, (result.seed,), wins, Rate(draws, n), positions, end, rounds)


def pool(runs: Iterable[RunStats], label: str) -> RunStats:
    """Add up runs of the same player count (counts are summed, rates recomputed)."""
    runs = list(runs)
    agents = tuple(dict.fromkeys(a for r in runs for a in r.agents))
    wins: dict[str, Rate] = {}
    for r in runs:
        for agent, rate in r.wins:
            wins[agent] = wins.get(agent, Rate(0, 0)) + rate
    games = sum(r.games for r in runs)
    positions = tuple(
        sum((r.positions[i] for r in runs), Rate(0, 0)) for i in range(len(runs[0].positions))
    )
    end = tuple((name, sum((r.end_share(name) for r in runs), Rate(0, 0))) for name in END_REASONS)
    rounds: dict[int, int] = {}
    for r in runs:
        for length, n in r.rounds:
            rounds[length] = rounds.get(length, 0) + n
    return RunStats(
        label, agents, games, tuple(s for r in runs for s in r.seeds),
        tuple((a, wins[a]) for a in agents), sum((r.no_winner for r in runs), Rate(0, 0)),
        positions, end, tuple(sorted(rounds.items())),
    )  # fmt: skip


@dataclass(frozen=True)
class CoasterPlay:
    """How one coaster fared in the self-play games where it was dealt."""

    id: str
    name: str
    dealt: int
    taken: int
    held_by_winner: int


@dataclass(frozen=True)
class Simulations:
    """Every run of a report.

    Attributes:
        games: games per run; seed: the report's seed; chunk_size: games per
            seeded chunk (with the seed, what fixes the games).
        self_play: ``strategic`` in every seat.
        matchups: one run per table of distinct agents.
        mixed: the match-ups pooled (the ladder).
        coasters: per catalogue coaster, how it fared in self-play.
        guests: per guest agent, its runs against each agent of :data:`AGENTS`
            (the guest in seat 0, that agent in every other seat).
        guest_games: games per guest run (0 without guests).
    """

    games: int
    seed: int
    chunk_size: int
    self_play: RunStats
    matchups: tuple[RunStats, ...]
    mixed: RunStats
    coasters: tuple[CoasterPlay, ...]
    guests: tuple[tuple[RunStats, ...], ...] = ()
    guest_games: int = 0


def matchups(players: int) -> list[tuple[str, ...]]:
    """The tables of distinct agents for a player count, weakest agents first.

    >>> len(matchups(2)), len(matchups(3)), matchups(4)
    (6, 4, [('random', 'greedy', 'ev', 'strategic')])
    """
    return list(itertools.combinations(AGENTS, players))


def _coaster_play(result: SimulationResult) -> tuple[CoasterPlay, ...]:
    """Per coaster: games dealt, games taken by someone, games the winner held it."""
    owners = result.owners
    winners = result.games["winner"].to_numpy()
    has_winner = winners >= 0
    held = np.zeros(owners.shape, dtype=bool)
    held[has_winner] = (owners[has_winner] >> winners[has_winner, None]) & 1 == 1
    held &= owners >= 0  # -1 (not dealt) has every bit set
    dealt, taken, kept = (owners >= 0).sum(axis=0), (owners > 0).sum(axis=0), held.sum(axis=0)
    return tuple(
        CoasterPlay(c.id, c.name, int(dealt[i]), int(taken[i]), int(kept[i]))
        for i, c in enumerate(result.config.catalogue)
    )


def check_guests(guests: Sequence[AgentProtocol | str]) -> tuple[AgentProtocol, ...]:
    """The guest agents, made and checked: at most :data:`MAX_GUESTS`, distinct names."""
    if len(guests) > MAX_GUESTS:
        raise PinastatsError(f"a report holds at most {MAX_GUESTS} guest agents, got {len(guests)}")
    made = tuple(resolve_agent(g) for g in guests)
    names = [g.name for g in made]
    clash = [n for n in names if n in AGENTS or names.count(n) > 1]
    if clash:
        raise PinastatsError(
            f"guest agent name {clash[0]!r} is taken (built-ins: {', '.join(AGENTS)}; "
            "guests need names of their own)"
        )
    return made


def guest_tables(guest: AgentProtocol, players: int) -> list[tuple[AgentProtocol | str, ...]]:
    """The guest in seat 0 against each agent of :data:`AGENTS` in every other seat."""
    return [(guest, *(opponent,) * (players - 1)) for opponent in AGENTS]


def run_simulations(
    config: GameConfig,
    games: int,
    seed: int,
    *,
    workers: int | None = None,
    progress: bool = False,
    guests: Sequence[AgentProtocol | str] = (),
    guest_games: int | None = None,
) -> Simulations:
    """Play the self-play run, every match-up of ``config.players`` players, and the guests'.

    ``guest_games`` (default: ``min(games, 2000)``, as guests play on the readable,
    slower path) is the number of games of each guest run.
    """
    made = check_guests(guests)
    n_guest = min(games, 2000) if guest_games is None else guest_games
    n_guest = at_least(n_guest, "guest games", 1)
    players = config.players
    plan: list[tuple[tuple[AgentProtocol | str, ...], str, int, int]] = [
        ((SELF_PLAY_AGENT,) * players, f"{SELF_PLAY_AGENT} self-play", games, 0)
    ]
    plan += [(t, " vs ".join(t), games, i) for i, t in enumerate(matchups(players), start=1)]
    for g, guest in enumerate(made):
        plan += [
            (t, f"{guest.name} vs {AGENTS[b]}", n_guest, 8 + 4 * g + b)
            for b, t in enumerate(guest_tables(guest, players))
        ]
    runs: list[RunStats] = []
    coasters: tuple[CoasterPlay, ...] = ()
    for i, (agents, label, n, index) in enumerate(plan):
        if progress:
            print(f"{players} players, run {i + 1} of {len(plan)}: {label}, {n:,} games",
                  file=sys.stderr, flush=True)  # fmt: skip
        result = simulate(
            list(agents), n, seed=run_seed(seed, index), config=config, workers=workers,
            chunk_size=DEFAULT_CHUNK, progress=progress,
        )  # fmt: skip
        runs.append(run_stats(result, label))
        if i == 0:
            coasters = _coaster_play(result)
    n_tables = 1 + len(matchups(players))
    table_runs, guest_runs = runs[1:n_tables], runs[n_tables:]
    mixed = pool(table_runs, "every match-up")
    per_guest = tuple(
        tuple(guest_runs[len(AGENTS) * g : len(AGENTS) * (g + 1)]) for g in range(len(made))
    )
    return Simulations(
        games, seed, DEFAULT_CHUNK, runs[0], tuple(table_runs), mixed, coasters,
        per_guest, n_guest if made else 0,
    )  # fmt: skip
