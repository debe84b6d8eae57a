"""The training data of the shipped networks: which games, how many, which seeds.

A *round* is a list of parts per player count; each part is one
:func:`~pinastats.value.data.make_positions` run (its agents, Happy Hour on or
off, games and seed), written to its own Parquet file. ``pinastats value-data
--players N --round R`` makes them (``docs/value.md``).

* Round 1: ``strategic`` self-play, and fields mixing ``strategic`` with
  weaker agents (so the network also sees the positions weak play leads to),
  each with Happy Hour off and on.
* Round 2: round 1 plus ``strategic`` and ``value`` self-play where half
  the kept positions are replaced by a random way the mover's turn can end
  (:func:`~pinastats.value.data.make_positions`' ``outcomes``): the
  positions the ``value`` agent weighs, bad moves included, and those the
  network's own play leads to.

Every position is labelled by :data:`PLAYOUTS` ``strategic`` play-outs.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pinastats.game.config import GameConfig
from pinastats.game.rules import Rules, check_players
from pinastats.value.data import DataError, Positions, make_positions, write_positions

PLAYOUTS = 64
"""Play-outs labelling each training position."""
SAMPLE = 0.5
"""The chance that a turn's starting position is kept."""
OUTCOMES = 0.5
"""Round 2: the share of kept positions replaced by a random end of the turn."""
ROUNDS = (1, 2)
"""The rounds of data there are."""

_MIXED = ("strategic", "ev", "greedy", "strategic")
_MIXED_2 = ("ev", "strategic", "random", "greedy")
_GAMES = {2: (9000, 3500), 3: (7000, 2500), 4: (5500, 2000)}  # (self-play, mixed) per Happy Hour


@dataclass(frozen=True)
class Part:
    """One run of a round: its agents, Happy Hour setting, games and seed."""

    name: str
    agents: tuple[str, ...]
    happy_hour: bool
    games: int
    seed: int
    outcomes: float = 0.0

    def config(self) -> GameConfig:
        """The game of this part."""
        return GameConfig(players=len(self.agents), rules=Rules(happy_hour=self.happy_hour))


def parts(players: int, round_: int) -> list[Part]:
    """The parts of round ``round_`` for ``players`` players."""
    if players not in _GAMES:
        check_players(players, DataError)
        raise DataError(f"no training data for {players!r} players")
    if round_ not in ROUNDS:
        raise DataError(f"round must be one of {', '.join(map(str, ROUNDS))}, got {round_!r}")
    self_play, mixed = _GAMES[players]
    base = 1000 * players
    out = []
    for hh in (False, True):
        tag = "hh" if hh else "plain"
        out.append(Part(f"strategic-{tag}", ("strategic",) * players, hh, self_play, base + 1 + hh))
        field = _MIXED if not hh else _MIXED_2
        out.append(Part(f"mixed-{tag}", field[:players], hh, mixed, base + 3 + hh))
        if round_ >= 2:
            out.append(Part(f"outcomes-{tag}", ("strategic",) * players, hh, self_play // 2,
                            base + 5 + hh, OUTCOMES))  # fmt: skip
            out.append(Part(f"value-{tag}", ("value",) * players, hh, self_play // 2,
                            base + 7 + hh, OUTCOMES))  # fmt: skip
    return out


def file_name(players: int, part: Part) -> str:
    """The Parquet file of a part."""
    return f"positions-{players}p-{part.name}.parquet"


def make_round(
    players: int, round_: int, folder: str | Path, *, workers: int | None = None,
    progress: bool | Literal["bar", "lines", "off"] = False, executor: Any = None,
) -> list[Path]:  # fmt: skip
    """Make (or keep, when its file is there) every part of a round; the files."""
    folder = Path(folder)
    written = []
    for part in parts(players, round_):
        path = folder / file_name(players, part)
        written.append(path)
        if path.is_file():
            continue
        command = f"pinastats value-data --players {players} --round {round_} --out {folder}"
        positions: Positions = make_positions(
            part.agents, part.games, seed=part.seed, config=part.config(), sample=SAMPLE,
            playouts=PLAYOUTS, workers=workers, executor=executor, progress=progress,
            command=command, outcomes=part.outcomes,
        )  # fmt: skip
        write_positions(path, positions)
    return written
