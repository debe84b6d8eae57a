"""The designer's notes as data: fair starting scores, what-if rules, coaster points.

:func:`run_designer` plays the three measurements of :mod:`pinastats.balance`
for one player count with the report's catalogue, and keeps what the pages
show as plain numbers, each with its 95% interval and the agent that played it.
``designer_games`` sets every size: the what-if plays ``designer_games`` games
per run (self-play and each heads-up pair, per variant), the coaster points
trace ``designer_games`` self-play games, and the starting-score search has a
budget of :data:`SEARCH_BUDGET_FACTOR` × ``designer_games`` games in all, in
rounds of ``designer_games / 10`` (at least 50) games per vector at first.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from pinastats.balance import coaster_effects, play_traced, search_starting_scores, variants
from pinastats.balance.search import Candidate
from pinastats.balance.whatif import SKILL_PAIRS, Variant, measure_variant
from pinastats.dice.errors import at_least
from pinastats.game import GameConfig
from pinastats.game.layout import load_layout

DESIGNER_AGENT = "strategic"
"""The agent of the self-play measurements (starting scores, what-if, coaster points)."""

DEFAULT_DESIGNER_GAMES = 10_000
"""Default ``designer_games`` of a report: 2 players took 13.7 s of CPU at 1,000
(``benchmarks/bench_balance.py`` times the search alone), so about 140 s of CPU,
near 70-100 s on two quiet cores, at 10,000."""

SEARCH_BUDGET_FACTOR = 10
"""The starting-score search may play this many times ``designer_games`` games."""

DESIGNER_RUNS = ("starting scores", "what-if", "coaster points")
"""The designer's runs, in the order of their seeds."""


def designer_seed(seed: int, index: int) -> int:
    """The seed of designer run ``index`` (see :data:`DESIGNER_RUNS`) of a report seeded ``seed``.

    A 31-bit word of ``SeedSequence([seed, 0xDE51, index])``: apart from the
    simulation runs' seeds ``16 × seed + i``.
    """
    words = np.random.SeedSequence([seed, 0xDE51, index]).generate_state(1, np.uint32)
    return int(words[0]) >> 1


@dataclass(frozen=True)
class Estimate:
    """A measured number and its 95% interval."""

    value: float
    low: float
    high: float


@dataclass(frozen=True)
class SeatVector:
    """One starting-score vector of the search: its games, each seat's win rate, ``D``."""

    scores: tuple[int, ...]
    games: int
    seats: tuple[Estimate, ...]
    deviation: Estimate

    @classmethod
    def of(cls, cand: Candidate) -> SeatVector:
        """The vector ``cand`` of a search as plain numbers (Wilson 95% per seat)."""
        c = cand.counts
        seats = tuple(
            Estimate(r, lo, hi) for r, (lo, hi) in zip(c.rates, c.intervals(), strict=True)
        )
        lo, hi = c.deviation_interval()
        return cls(c.starting_scores, c.games, seats, Estimate(c.deviation, lo, hi))


@dataclass(frozen=True)
class VariantRow:
    """One what-if variant: length, first-player edge and skill, each with its interval."""

    name: str
    games: int
    mean_rounds: Estimate
    first_player_edge: Estimate
    skill: tuple[tuple[str, str, Estimate], ...]  # (stronger, weaker, stronger's win rate)


@dataclass(frozen=True)
class CoasterPoints:
    """One coaster: printed points, the measured effect of its token, the suggested points."""

    coaster: str
    printed: tuple[int, int, int]  # side A, side B first, side B second
    taken: int
    effect: Estimate
    suggested: tuple[int, int, int]


@dataclass(frozen=True)
class Designer:
    """The designer's notes of a report.

    Attributes:
        games: ``designer_games``; agent: the self-play agent; seeds: one per
            :data:`DESIGNER_RUNS`.
        rulebook, fairest: the search's vectors; search_games, search_rounds: what
            it played; search_budget: the games it could play; within_precision:
            every seat's interval of the fairest holds 1/n.
        variants: the what-if rows (rulebook first); skill_pairs: its heads-up pairs.
        coasters: per catalogue coaster; point_slope: ``b``, the win-rate worth of a point.
    """

    games: int
    agent: str
    seeds: tuple[int, int, int]
    rulebook: SeatVector
    fairest: SeatVector
    search_games: int
    search_rounds: int
    search_budget: int
    within_precision: bool
    variants: tuple[VariantRow, ...]
    skill_pairs: tuple[tuple[str, str], ...]
    coasters: tuple[CoasterPoints, ...]
    point_slope: float


@dataclass(frozen=True)
class _CatalogueVariant(Variant):
    """A what-if variant played with the report's catalogue."""

    base: GameConfig | None = None

    def config(self, players: int) -> GameConfig:
        """The game of this variant at ``players`` seats, with the base's catalogue."""
        assert self.base is not None
        return GameConfig(players=players, catalogue=self.base.catalogue, rules=self.rules,
                          layout=load_layout(self.layout))  # fmt: skip


def check_designer_games(value: object) -> int:
    """``value`` if it is a whole number >= 0 (0: no designer's notes), else an error."""
    return at_least(value, "designer games", 0)


def _estimate(row: Mapping[Any, Any], key: str) -> Estimate:
    return Estimate(*(float(row[k]) for k in (key, f"{key}_low", f"{key}_high")))


def run_designer(
    config: GameConfig, games: int, seed: int, *, workers: int | None = None,
    progress: bool = False,
) -> Designer:  # fmt: skip
    """Play the designer's three measurements for ``config`` (``games``: see the module)."""
    players = config.players
    seeds = (designer_seed(seed, 0), designer_seed(seed, 1), designer_seed(seed, 2))
    base = GameConfig(players=players, catalogue=config.catalogue, layout=config.layout,
                      rules=config.rules)  # fmt: skip
    budget = SEARCH_BUDGET_FACTOR * games
    search = search_starting_scores(
        players, agent=DESIGNER_AGENT, budget=budget, first_round=max(50, games // 10),
        seed=seeds[0], config=base, workers=workers, progress=progress,
    )  # fmt: skip
    rows = []
    for v in variants():
        if progress:
            print(f"pinastats: {players} players, what-if: {v.name}", file=sys.stderr, flush=True)
        variant = _CatalogueVariant(v.name, v.rules, v.layout, base=base)
        rows.append(measure_variant(variant, players=players, games=games, agent=DESIGNER_AGENT,
                                    seed=seeds[1], workers=workers))  # fmt: skip
    if progress:
        print(f"pinastats: {players} players, coaster points", file=sys.stderr, flush=True)
    traced = play_traced([DESIGNER_AGENT] * players, games, seed=seeds[2], config=base)
    frame = coaster_effects(traced)
    coasters = tuple(
        CoasterPoints(
            str(r["coaster"]), (int(r["side_a"]), int(r["side_b_1"]), int(r["side_b_2"])),
            int(r["taken"]), _estimate(r, "effect"),
            (int(r["new_side_a"]), int(r["new_side_b_1"]), int(r["new_side_b_2"])),
        )
        for r in frame.to_dict("records")
    )  # fmt: skip
    return Designer(
        games=games, agent=DESIGNER_AGENT, seeds=seeds,
        rulebook=SeatVector.of(search.rulebook), fairest=SeatVector.of(search.fairest),
        search_games=search.games, search_rounds=search.rounds, search_budget=budget,
        within_precision=search.within_precision,
        variants=tuple(
            VariantRow(
                str(r["variant"]), int(r["games"]), _estimate(r, "mean_rounds"),
                _estimate(r, "first_player_edge"),
                tuple((s, w, _estimate(r, f"skill_{s}_vs_{w}")) for s, w in SKILL_PAIRS),
            )
            for r in rows
        ),
        skill_pairs=SKILL_PAIRS, coasters=coasters,
        point_slope=float(frame.attrs["point_slope"]),
    )  # fmt: skip
