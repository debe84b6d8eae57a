"""The shipped strength ladder (``data/strength-ladder.json``) as the report reads it.

The ladder is a round-robin of two-player games between the built-in agents, the coach,
the learned evaluator and OpenSpiel's MCTS, rated on one Bradley–Terry (Elo) scale by
:mod:`pinastats.ratings`; this module only reads the shipped result.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pinastats.errors import PinastatsError
from pinastats.ratings.document import strength_ladder


@dataclass(frozen=True)
class LadderRow:
    """One agent: its Elo rating, 95% interval, and the games it played."""

    agent: str
    elo: float
    low: float
    high: float
    games: int


@dataclass(frozen=True)
class Ladder:
    """The ladder, strongest first, with how it was measured."""

    rows: tuple[LadderRow, ...]
    anchor: str
    seed: int
    games: int
    command: str
    players: int


def shipped_ladder(path: str | Path | None = None) -> Ladder:
    """The ladder of ``path`` (default: the shipped file).

    Read by :func:`pinastats.ratings.document.strength_ladder`.
    """
    doc = strength_ladder(path)
    try:
        rows = tuple(
            LadderRow(str(r["agent"]), float(r["elo"]), float(r["elo_low"]),
                      float(r["elo_high"]), int(r["games"]))
            for r in doc["ratings"]
        )  # fmt: skip
        return Ladder(
            rows=tuple(sorted(rows, key=lambda r: -r.elo)),
            anchor=str(doc["model"]["anchor"]),
            seed=int(doc["seed"]),
            games=sum(int(p["games"]) for p in doc["pairs"]),
            command=str(doc["command"]),
            players=int(doc["config"]["players"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise PinastatsError(f"{path}: not a strength-ladder file (missing or bad {exc})") from None
