"""The outcome of a simulation: one row per game, and the summaries built on it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from pinastats._files import written_whole
from pinastats.agents.protocol import AgentProtocol
from pinastats.errors import PinastatsError
from pinastats.game.config import GameConfig
from pinastats.game.rules import EndReason, Trigger
from pinastats.simulation.stats import wilson_interval


def _categorical(
    values: npt.NDArray[np.int64], enum: type[EndReason | Trigger]
) -> pd.Categorical[str]:
    """Enum values as a categorical of their lower-case names (every member a category)."""
    members = list(enum)
    lookup = np.full(max(m.value for m in members) + 1, -1, dtype=np.int64)
    lookup[[m.value for m in members]] = np.arange(len(members))
    names = pd.Index([m.name.lower() for m in members])
    return pd.Categorical.from_codes(lookup[values], categories=names)


OUTPUT_SUFFIXES = (".parquet", ".csv")


def output_suffix(path: str | Path) -> str:
    """The format of an output file from its suffix, ``.parquet`` or ``.csv`` (else ValueError).

    >>> output_suffix("runs/games.CSV")
    '.csv'
    """
    suffix = Path(path).suffix.lower()
    if suffix not in OUTPUT_SUFFIXES:
        raise PinastatsError(f"the output file must end in .parquet or .csv, got {str(path)!r}")
    return suffix


def _records(frame: pd.DataFrame, columns: list[str]) -> list[dict[str, Any]]:
    """Rows of ``frame`` as JSON-ready dicts of plain Python numbers and strings."""
    out = []
    for row in frame[columns].itertuples(index=False):
        out.append(
            {
                c: (v.item() if isinstance(v, np.generic) else v)
                for c, v in zip(columns, row, strict=True)
            }
        )
    return out


def win_rate_row(
    labels: dict[str, Any], wins: int, games: int, games_column: str | None = "games"
) -> dict[str, Any]:
    """A row of a win-rate table: ``labels``, the wins, the games, the rate and its 95% interval.

    The games go under ``games_column`` (None leaves them out); ``win_rate`` is
    wins / games, ``ci_low`` and ``ci_high`` its Wilson interval.

    >>> win_rate_row({"seat": 0}, 5, 10, None)["win_rate"]
    0.5
    """
    low, high = wilson_interval(wins, games)
    counts = {"wins": wins} if games_column is None else {"wins": wins, games_column: games}
    return labels | counts | {"win_rate": wins / games, "ci_low": low, "ci_high": high}


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
        config, agents, seed, elapsed (seconds spent playing, after the warm-up and
            the cluster start), workers, engine (``"local"``, ``"dask"``, or the
            class name of the executor given to ``simulate``), chunk_size: how it was
            run. The games are a function of the seed, the chunk size and the config
            alone.
    """

    games: pd.DataFrame
    owners: npt.NDArray[np.int64]
    config: GameConfig
    agents: tuple[AgentProtocol, ...]
    seed: int
    elapsed: float
    workers: int
    engine: str
    chunk_size: int = 0

    @classmethod
    def from_arrays(
        cls,
        a: dict[str, npt.NDArray[np.int64]],
        *,
        config: GameConfig,
        agents: tuple[AgentProtocol, ...],
        seed: int,
        elapsed: float,
        workers: int,
        engine: str,
        chunk_size: int = 0,
    ) -> SimulationResult:
        """Assemble the per-game table from the chunk arrays (vectorised: no loop over games).

        The text columns are ``pandas.Categorical`` built from integer codes.
        """
        n, p = a["scores"].shape
        names = [ag.name for ag in agents]
        labels = list(dict.fromkeys(names))
        seat_label = np.array([labels.index(name) for name in names], dtype=np.int64)
        agent_type = pd.CategoricalDtype([*labels, ""])  # "": no winner
        winner = a["winner"]
        cols: dict[str, Any] = {"game": np.arange(n), "first_seat": a["first"]}
        for s in range(p):
            cols[f"agent_{s}"] = pd.Categorical.from_codes(
                np.full(n, seat_label[s]), dtype=agent_type
            )
        cols["winner"] = winner
        cols["winner_agent"] = pd.Categorical.from_codes(
            np.where(winner >= 0, seat_label[np.maximum(winner, 0)], len(labels)), dtype=agent_type
        )
        cols["winner_position"] = np.where(winner >= 0, (winner - a["first"]) % p + 1, 0)
        cols["end_reason"] = _categorical(a["reason"], EndReason)
        cols["trigger"] = _categorical(a["trigger"], Trigger)
        cols["turns"] = a["turns"]
        cols["rounds"] = -(-a["turns"] // p)
        cols["line"] = a["line"]
        for s in range(p):
            cols[f"score_{s}"] = a["scores"][:, s]
        for s in range(p):
            cols[f"placed_{s}"] = a["placed"][:, s]
        return cls(
            pd.DataFrame(cols),
            a["owners"],
            config,
            agents,
            seed,
            elapsed,
            workers,
            engine,
            chunk_size,
        )

    def __repr__(self) -> str:
        agents = ", ".join(a.name for a in self.agents)
        return (
            f"<SimulationResult: {self.n_games:,} games, {self.config.players} players "
            f"({agents}), seed {self.seed}, layout {self.config.layout.name!r}>"
        )

    def __str__(self) -> str:
        """A few lines: who won how often, the first player, length and endings."""
        if not self.n_games:
            return repr(self)
        wins = ", ".join(
            f"{r['agent']} (seat {r['seat']}) {100 * r['win_rate']:.1f}% "
            f"[{100 * r['ci_low']:.1f}, {100 * r['ci_high']:.1f}]"
            for r in self.seat_win_rates().to_dict("records")
        )
        first = self.position_win_rates().to_dict("records")[0]
        ends = "; ".join(
            f"{EndReason[str(r['end_reason']).upper()]} {100 * r['share']:.1f}%"
            for r in self.end_reasons().to_dict("records")
            if r["games"]
        )
        return "\n".join([
            repr(self),
            f"  wins (95% CI): {wins}",
            f"  first player wins {100 * first['win_rate']:.1f}% "
            f"[{100 * first['ci_low']:.1f}, {100 * first['ci_high']:.1f}]; "
            f"{self.games['rounds'].mean():.2f} rounds on average",
            f"  endings: {ends}",
            "  .games: one row per game; .summary(), .seat_win_rates(), .end_reasons(), ...",
        ])  # fmt: skip

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
        winner = self.games["winner"]
        return pd.DataFrame(
            [
                win_rate_row({"seat": s, "agent": a.name}, int((winner == s).sum()), self.n_games)
                for s, a in enumerate(self.agents)
            ]
        )

    def agent_win_rates(self) -> pd.DataFrame:
        """Win rate per agent (over the seats it occupies) with a 95% interval."""
        rows = []
        for name in dict.fromkeys(a.name for a in self.agents):
            seats = [s for s, a in enumerate(self.agents) if a.name == name]
            wins = int(self.games["winner"].isin(seats).sum())
            labels = {"agent": name, "seats": len(seats)}
            rows.append(win_rate_row(labels, wins, self.n_games * len(seats), "seat_games"))
        return pd.DataFrame(rows)

    def position_win_rates(self) -> pd.DataFrame:
        """Win rate by position in turn order (1 = first player) with 95% intervals."""
        position = self.games["winner_position"]
        return pd.DataFrame(
            [
                win_rate_row({"position": pos}, int((position == pos).sum()), self.n_games)
                for pos in range(1, self.config.players + 1)
            ]
        )

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
            rows.append(
                {
                    "end_reason": name,
                    "games": k,
                    "share": k / self.n_games,
                    "ci_low": lo,
                    "ci_high": hi,
                }
            )
        return pd.DataFrame(rows)

    def game_length(self) -> pd.DataFrame:
        """Distribution of the number of rounds per game."""
        counts = self.games["rounds"].value_counts().sort_index()
        return pd.DataFrame(
            {
                "rounds": counts.index,
                "games": counts.to_numpy(),
                "share": counts.to_numpy() / self.n_games,
            }
        )

    def coaster_stats(self) -> pd.DataFrame:
        """Per catalogue coaster: how often dealt, taken, and held by the winner."""
        dealt = self.owners >= 0
        taken = self.owners > 0
        winners = self.games["winner"].to_numpy()
        by_winner = np.zeros_like(taken)
        has_w = winners >= 0
        held = self.owners[has_w]
        by_winner[has_w] = (held >= 0) & ((held >> winners[has_w, None]) & 1 == 1)
        rows = []
        for i, coaster in enumerate(self.config.catalogue):
            d = int(dealt[:, i].sum())
            rows.append(
                {
                    "coaster": coaster.id,
                    "combination": coaster.combination.value,
                    "dealt": d,
                    "taken_share": taken[:, i].sum() / d if d else np.nan,
                    "winner_holds_share": by_winner[:, i].sum() / d if d else np.nan,
                }
            )
        return pd.DataFrame(rows)

    def rounds_summary(self) -> dict[str, float]:
        """Mean, median, quartiles, 10%/90% quantiles, min and max of the rounds per game."""
        rounds = self.games["rounds"]
        q = rounds.quantile([0.1, 0.25, 0.5, 0.75, 0.9]).to_numpy(dtype=float)
        return {
            "mean": float(rounds.mean()),
            "median": float(q[2]),
            "q10": float(q[0]),
            "q25": float(q[1]),
            "q75": float(q[3]),
            "q90": float(q[4]),
            "min": float(rounds.min()),
            "max": float(rounds.max()),
        }

    def summary(self) -> dict[str, Any]:
        """The headline numbers as plain Python data (what ``--format json`` prints).

        Rates come with their 95% Wilson interval (``ci_low``/``ci_high``); ``wins``
        lists the games won by each seat, ``draws`` the games nobody won.
        """
        seats = self.seat_win_rates()
        positions = self.position_win_rates()
        reasons = self.end_reasons()
        rate = self.games_per_second
        return {
            "games": self.n_games,
            "seed": self.seed,
            "players": self.config.players,
            "layout": self.config.layout.name,
            "target_score": self.config.rules.target_score,
            "happy_hour": self.config.rules.happy_hour,
            "negative_scores": self.config.rules.negative_scores,
            "starting_scores": [int(x) for x in self.config.start_scores],
            "agents": [a.name for a in self.agents],
            "wins": [int(w) for w in seats["wins"]],
            "draws": int((self.games["winner"] < 0).sum()),
            "win_rate": _records(seats, ["seat", "agent", "wins", "win_rate", "ci_low", "ci_high"]),
            "agent_win_rate": _records(
                self.agent_win_rates(),
                ["agent", "seats", "wins", "seat_games", "win_rate", "ci_low", "ci_high"],
            ),
            "position_win_rate": _records(
                positions, ["position", "wins", "win_rate", "ci_low", "ci_high"]
            ),
            "first_player_win_rate": float(positions["win_rate"].iloc[0]),
            "end_reasons": dict(zip(reasons["end_reason"], reasons["share"].tolist(), strict=True)),
            "end_reason_games": dict(
                zip(reasons["end_reason"], reasons["games"].tolist(), strict=True)
            ),
            "mean_rounds": float(self.games["rounds"].mean()),
            "rounds": self.rounds_summary(),
            "elapsed": self.elapsed,
            "games_per_second": rate if np.isfinite(rate) else None,
            "workers": self.workers,
            "engine": self.engine,
            "chunk_size": self.chunk_size,
        }

    def save(self, path: str | Path) -> Path:
        """Write the per-game table as Parquet (``.parquet``) or CSV; return the path.

        Written whole or not at all (:func:`~pinastats._files.written_whole`): on any
        failure, Ctrl-C or SIGTERM nothing is left at ``path`` or next to it, and a
        failure of the disk is an :class:`~pinastats.errors.OutputError` naming ``path``.
        """
        path = Path(path)
        if output_suffix(path) == ".parquet":
            with written_whole(path) as file:
                self.games.to_parquet(file, index=False)
        else:
            with written_whole(path, encoding="utf-8") as file:
                self.games.to_csv(file, index=False)
        return path
