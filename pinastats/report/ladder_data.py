"""The shipped strength ladder (``data/strength-ladder.json``) as the report reads it.

The ladder is a round-robin of two-player games between the built-in agents, the coach,
the learned evaluator and OpenSpiel's MCTS, rated on one Bradley–Terry (Elo) scale by
:mod:`pinastats.ratings`; this module only reads the shipped result.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from pinastats.errors import MissingFileError, PinastatsError


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


def ladder_path() -> Path:
    """The shipped ``strength-ladder.json``."""
    return Path(str(files("pinastats.data") / "strength-ladder.json"))


def shipped_ladder(path: str | Path | None = None) -> Ladder:
    """The ladder of ``path`` (default: the shipped file)."""
    source = ladder_path() if path is None else Path(path)
    try:
        doc = json.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MissingFileError(f"{source}: no ladder file", str(source)) from None
    except json.JSONDecodeError as exc:
        raise PinastatsError(f"{source}: not a ladder file ({exc})") from None
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
        raise PinastatsError(f"{source}: not a ladder file (missing or bad {exc})") from None
