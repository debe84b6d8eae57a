"""The outcome of a simulation: one row per game, and the summaries built on it."""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from pinastats.agents.builtin import Agent
from pinastats.game.config import GameConfig
from pinastats.game.rules import EndReason, Trigger
from pinastats.simulation.stats import wilson_interval


@dataclass(frozen=True)
class SimulationResult:
    """Simulated games.

    Attributes:
        games: one row per game: ``game`` (index in the run), ``first_seat``,
            ``agent_<s>`` per seat, ``winner`` (seat, -1 for none),
            ``winner_agent``, ``winner_position`` (1 = first in turn order, 0 none),
            ``end_reason``, ``trigger``, ``turns``, ``rounds``, ``line`` (winning
            line index, -1), ``score_<s>`` and ``placed_<s>`` (tokens placed) per seat.
        owners: ``(games, n_coasters)`` bitmask of the seats holding each catalogue
            coaster at the end (-1: not dealt).
        config, agents, seed, elapsed (seconds), workers, engine: how it was run.
    """

    games: pd.DataFrame
    owners: npt.NDArray[np.int64]
    config: GameConfig
    agents: tuple[Agent, ...]
    seed: int
    elapsed: float
    workers: int
    engine: str

    @classmethod
    def from_arrays(cls, a: dict[str, npt.NDArray[np.int64]], *, config: GameConfig,
                    agents: tuple[Agent, ...], seed: int, elapsed: float, workers: int,
                    engine: str) -> SimulationResult:  # fmt: skip
        """Assemble the per-game table from the chunk arrays."""
        n, p = a["scores"].shape
        names = [ag.name for ag in agents]
        cols: dict[str, Any] = {"game": np.arange(n), "first_seat": a["first"]}
        for s in range(p):
            cols[f"agent_{s}"] = names[s]
        cols["winner"] = a["winner"]
        cols["winner_agent"] = [names[w] if w >= 0 else "" for w in a["winner"]]
        cols["winner_position"] = np.where(a["winner"] >= 0, (a["winner"] - a["first"]) % p + 1, 0)
        cols["end_reason"] = [EndReason(int(r)).name.lower() for r in a["reason"]]
        cols["trigger"] = [Trigger(int(t)).name.lower() for t in a["trigger"]]
        cols["turns"] = a["turns"]
        cols["rounds"] = -(-a["turns"] // p)
        cols["line"] = a["line"]
        for s in range(p):
            cols[f"score_{s}"] = a["scores"][:, s]
        for s in range(p):
            cols[f"placed_{s}"] = a["placed"][:, s]
        return cls(pd.DataFrame(cols), a["owners"], config, agents, seed, elapsed, workers, engine)

    @property
    def n_games(self) -> int:
        """Number of games played."""
        return len(self.games)

    @property
    def games_per_second(self) -> float:
        """Throughput of the run."""
        return self.n_games / self.elapsed if self.elapsed > 0 else float("inf")

    def seat_win_rates(self) -> pd.DataFrame:
        """Win rate of each seat with a 95% Wilson interval."""
        rows = []
        for s, agent in enumerate(self.agents):
            wins = int((self.games["winner"] == s).sum())
            lo, hi = wilson_interval(wins, self.n_games)
            rows.append({"seat": s, "agent": agent.name, "wins": wins, "games": self.n_games,
                         "win_rate": wins / self.n_games, "ci_low": lo, "ci_high": hi})  # fmt: skip
        return pd.DataFrame(rows)

    def agent_win_rates(self) -> pd.DataFrame:
        """Win rate per agent (over the seats it occupies) with a 95% interval."""
        rows = []
        for name in dict.fromkeys(a.name for a in self.agents):
            seats = [s for s, a in enumerate(self.agents) if a.name == name]
            wins = int(self.games["winner"].isin(seats).sum())
            chances = self.n_games * len(seats)
            lo, hi = wilson_interval(wins, chances)
            rows.append({"agent": name, "seats": len(seats), "wins": wins, "seat_games": chances,
                         "win_rate": wins / chances, "ci_low": lo, "ci_high": hi})  # fmt: skip
        return pd.DataFrame(rows)

    def position_win_rates(self) -> pd.DataFrame:
        """Win rate by position in turn order (1 = first player) with 95% intervals."""
        rows = []
        for pos in range(1, self.config.players + 1):
            wins = int((self.games["winner_position"] == pos).sum())
            lo, hi = wilson_interval(wins, self.n_games)
            rows.append({"position": pos, "wins": wins, "games": self.n_games,
                         "win_rate": wins / self.n_games, "ci_low": lo, "ci_high": hi})  # fmt: skip
        return pd.DataFrame(rows)

    def end_reasons(self) -> pd.DataFrame:
        """Share of games ending each way, with 95% intervals."""
        counts = self.games["end_reason"].value_counts()
        rows = []
        for reason in EndReason:
            name = reason.name.lower()
            k = int(counts.get(name, 0))
            if reason is EndReason.ONGOING:
                continue
            lo, hi = wilson_interval(k, self.n_games)
            rows.append({"end_reason": name, "games": k, "share": k / self.n_games,
                         "ci_low": lo, "ci_high": hi})  # fmt: skip
        return pd.DataFrame(rows)

    def game_length(self) -> pd.DataFrame:
        """Distribution of the number of rounds per game."""
        counts = self.games["rounds"].value_counts().sort_index()
        return pd.DataFrame({"rounds": counts.index, "games": counts.to_numpy(),
                             "share": counts.to_numpy() / self.n_games})  # fmt: skip

    def coaster_stats(self) -> pd.DataFrame:
        """Per catalogue coaster: how often dealt, taken, and held by the winner."""
        dealt = self.owners >= 0
        taken = self.owners > 0
        winners = self.games["winner"].to_numpy()
        by_winner = np.zeros_like(taken)
        has_w = winners >= 0
        by_winner[has_w] = (self.owners[has_w] >> winners[has_w, None]) & 1 == 1
        rows = []
        for i, coaster in enumerate(self.config.catalogue):
            d = int(dealt[:, i].sum())
            rows.append({
                "coaster": coaster.id, "combination": coaster.combination.value,
                "dealt": d, "taken_share": taken[:, i].sum() / d if d else np.nan,
                "winner_holds_share": by_winner[:, i].sum() / d if d else np.nan,
            })  # fmt: skip
        return pd.DataFrame(rows)

    def summary(self) -> dict[str, Any]:
        """The headline numbers as plain Python data (what ``--format json`` prints)."""
        seats = self.seat_win_rates()
        return {
            "games": self.n_games,
            "seed": self.seed,
            "players": self.config.players,
            "happy_hour": self.config.rules.happy_hour,
            "agents": [a.name for a in self.agents],
            "wins": [int(w) for w in seats["wins"]],
            "draws": int((self.games["winner"] < 0).sum()),
            "win_rate": [
                {"seat": int(r.seat), "agent": r.agent, "win_rate": float(r.win_rate),
                 "ci_low": float(r.ci_low), "ci_high": float(r.ci_high)}
                for r in seats.itertuples()
            ],  # fmt: skip
            "first_player_win_rate": float(self.position_win_rates()["win_rate"].iloc[0]),
            "end_reasons": {r.end_reason: float(r.share) for r in self.end_reasons().itertuples()},
            "mean_rounds": float(self.games["rounds"].mean()),
            "games_per_second": self.games_per_second,
            "workers": self.workers,
            "engine": self.engine,
        }

    def save(self, path: str | Path) -> Path:
        """Write the per-game table as Parquet (``.parquet``) or CSV, atomically."""
        path = Path(path)
        suffix = path.suffix.lower()
        if suffix not in (".parquet", ".csv"):
            raise ValueError(f"output must end in .parquet or .csv, got {str(path)!r}")
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        os.close(fd)
        try:
            if suffix == ".parquet":
                self.games.to_parquet(tmp, index=False)
            else:
                self.games.to_csv(tmp, index=False)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return path
