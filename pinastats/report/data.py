"""The report as data: everything the pages show, computed once, laid out elsewhere.

:func:`build_report` solves the coasters, builds the hold cheat-sheets and plays
the simulations; :class:`Report` holds the results and nothing about pages or
fonts. The same arguments give the same report (the simulations are seeded
per chunk, so the number of workers does not matter).
"""

from __future__ import annotations

import hashlib
import platform
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from pinastats.agents.protocol import AgentProtocol
from pinastats.balance.perfect import PerfectPlay, perfect_play
from pinastats.balance.strong import StrongPlay, strong_play
from pinastats.dice.errors import at_least, at_least_or_none
from pinastats.errors import PinastatsError
from pinastats.game import Catalogue, GameConfig, Rules, load_catalogue
from pinastats.game.catalogue import default_catalogue_path
from pinastats.game.layout import Layout
from pinastats.game.rules import check_players, players_text
from pinastats.report.coasters import CoasterRow, coaster_rows
from pinastats.report.designer_data import (
    DEFAULT_DESIGNER_GAMES,
    Designer,
    check_designer_games,
    run_designer,
)
from pinastats.report.holds import HoldSheet, ValueKind, hold_sheets, value_sheet
from pinastats.report.ladder_data import Ladder, shipped_ladder
from pinastats.report.sims import Simulations, run_simulations
from pinastats.report.win_data import (
    DEFAULT_WIN_PLAYOUTS,
    DEFAULT_WIN_POSITIONS,
    PlayingToWin,
    check_win_playouts,
    check_win_positions,
    run_playing_to_win,
)

DEFAULT_GAMES = 20_000
"""Games per simulation run (self-play and each match-up)."""

VERSIONED = ("pinastats", "numpy", "numba", "pandas", "matplotlib")
"""Packages whose versions the methodology page lists (after Python's)."""


@dataclass(frozen=True)
class Report:
    """A strategy report for one player count.

    Attributes:
        players: one of :data:`~pinastats.game.rules.PLAYER_COUNTS`.
        happy_hour: whether the simulations play the Happy Hour variant.
        catalogue_name: "the shipped default (coasters.csv)" or the file's name.
        catalogue_provenance: the catalogue file's own account of where its points come from.
        catalogue_digest: first 12 hex digits of the SHA-256 of the catalogue as CSV.
        rules: the rule options the games are played with.
        layout: the board layout (``standard``: the 4×4 grid) and its sides per player count.
        coasters: every coaster of the catalogue, with chances and tier.
        holds: a cheat-sheet per coaster that is not of one value.
        value_kinds: the coasters of one value (pairs, threes, ...), by kind.
        simulations: the simulation runs.
        versions: ``(package, version)`` pairs, Python first.
        designer: the designer's notes (fair starting scores, what-if rules, coaster
            points), or None (``designer_games=0``).
        playing_to_win: the win-probability coach against the points advice, or None
            (``win_positions=0``).
        strong_play: the shipped strong-play measurements (``value`` self-play beside
            ``strategic``), or None when the report's game is not the shipped one.
        ladder: the shipped strength ladder (two-player games of the shipped game), or
            None when the report's game is not the shipped one.
        perfect_play: the shipped measurements on solved boards (the two-player base
            game played perfectly), or None unless the report plays the shipped game
            with two players and without Happy Hour (see :func:`solved_game`).
    """

    players: int
    happy_hour: bool
    catalogue_name: str
    catalogue_provenance: str
    catalogue_digest: str
    rules: Rules
    layout: Layout
    coasters: tuple[CoasterRow, ...]
    holds: tuple[HoldSheet, ...]
    value_kinds: tuple[ValueKind, ...]
    simulations: Simulations
    versions: tuple[tuple[str, str], ...]
    designer: Designer | None = None
    playing_to_win: PlayingToWin | None = None
    strong_play: StrongPlay | None = None
    ladder: Ladder | None = None
    perfect_play: PerfectPlay | None = None

    @property
    def games(self) -> int:
        """Games per simulation run."""
        return self.simulations.games

    @property
    def seed(self) -> int:
        """The report's seed."""
        return self.simulations.seed

    @property
    def layout_name(self) -> str:
        """The board layout's name."""
        return self.layout.name

    @property
    def layout_diagram(self) -> tuple[str, ...]:
        """The sides of the cells at setup for this player count, one text line per row."""
        return tuple(self.layout.diagram(players=self.players).splitlines())

    @property
    def b_share(self) -> float:
        """Share of the board's cells showing side B at setup for this player count."""
        return float(self.layout.side_indices(self.players).mean())

    @property
    def sides_text(self) -> str:
        """Which sides the coasters show for this player count, in words."""
        if self.b_share == 0:
            return "every coaster on side A (1 space)"
        if self.b_share == 1:
            return "every coaster on side B (2 spaces)"
        return f"{self.b_share:.0%} of the coasters on side B, the rest on side A"


def _versions() -> tuple[tuple[str, str], ...]:
    out = [("Python", platform.python_version())]
    for name in VERSIONED:
        try:
            out.append((name, version(name)))
        except PackageNotFoundError:  # pragma: no cover - depends on the environment
            out.append((name, "not installed"))
    return tuple(out)


def _catalogue_name(catalogue: Catalogue) -> str:
    source = catalogue.source
    if source is not None and Path(source) == default_catalogue_path():
        return f"the shipped default ({source.name})"
    return "built in code" if source is None else Path(source).name


def _digest(catalogue: Catalogue) -> str:
    text = catalogue.to_frame().to_csv(index=False, lineterminator="\n")
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def _check(players: int, games: int, seed: int, workers: int | None) -> tuple[int, int, int | None]:
    """Refuse bad settings of a report; ``(games, seed, workers)`` as Python ints."""

    def whole(value: object) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    if not whole(players):
        raise PinastatsError(f"players must be {players_text()}, got {players!r}")
    check_players(players)
    return (
        at_least(games, "games", 1),
        at_least(seed, "seed", 0),
        at_least_or_none(workers, "workers", 1),
    )


def solved_game(players: int, happy_hour: bool, shipped: bool) -> PerfectPlay | None:
    """The shipped perfect-play measurements when a report's game is the solved one, else None.

    The solved game is the shipped one with two players and without Happy Hour.
    """
    return perfect_play() if shipped and players == 2 and not happy_hour else None


def build_report(
    players: int,
    *,
    happy_hour: bool = False,
    games: int = DEFAULT_GAMES,
    seed: int = 0,
    catalogue: Catalogue | str | Path | None = None,
    workers: int | None = None,
    progress: bool = False,
    guests: Sequence[AgentProtocol | str] = (),
    guest_games: int | None = None,
    designer_games: int = DEFAULT_DESIGNER_GAMES,
    win_positions: int = DEFAULT_WIN_POSITIONS,
    win_playouts: int = DEFAULT_WIN_PLAYOUTS,
) -> Report:
    """Compute a strategy report for ``players`` players.

    ``games`` is the number of games of each simulation run (one self-play run,
    then one per match-up: 6 for 2 players, 4 for 3, 1 for 4); ``catalogue`` a
    :class:`~pinastats.game.Catalogue`, a catalogue file, or None for the
    shipped one. ``workers`` (default: every core) changes the speed, never
    the result. ``progress`` reports the simulations on stderr. ``guests``: up
    to two agents of one's own (objects, ``FILE.py:Class``, or ``"coach"``), each
    played against every built-in agent for ``guest_games`` games a table
    (default ``min(games, 2000)``); the report gains a page on them.
    ``designer_games``: the size of the designer's notes (see
    :mod:`~pinastats.report.designer_data`), seeded from ``seed``; 0 leaves them out.
    ``win_positions``: placement decisions the win-probability coach compares with
    the points advice, ``win_playouts`` play-outs per outcome position each (see
    :mod:`~pinastats.report.win_data`), seeded from ``seed``; 0 positions leaves it out.
    """
    games, seed, workers = _check(players, games, seed, workers)
    designer_games = check_designer_games(designer_games)
    check_win_positions(win_positions)
    check_win_playouts(win_playouts)
    if not isinstance(catalogue, Catalogue):
        catalogue = load_catalogue(catalogue)
    config = GameConfig(players=players, catalogue=catalogue, rules=Rules(happy_hour=happy_hour))
    b_share = float(config.sides.mean())
    simulations = run_simulations(
        config, games, seed, workers=workers, progress=progress, guests=guests,
        guest_games=guest_games,
    )  # fmt: skip
    designer = (
        run_designer(config, designer_games, seed, workers=workers, progress=progress)
        if designer_games else None
    )  # fmt: skip
    playing_to_win = (
        run_playing_to_win(config, win_positions, win_playouts, seed, workers=workers,
                           progress=progress)
        if win_positions else None
    )  # fmt: skip
    digest = _digest(catalogue)
    # the shipped measurements of strong play and the ladder belong to the shipped coasters
    shipped = digest == _digest(load_catalogue(None))
    if progress:
        print(f"{players} players: solving the coasters and the hold cheat-sheets",
              file=sys.stderr, flush=True)  # fmt: skip
    return Report(
        players=players,
        happy_hour=happy_hour,
        catalogue_name=_catalogue_name(catalogue),
        catalogue_provenance=catalogue.provenance,
        catalogue_digest=digest,
        rules=config.rules,
        layout=config.layout,
        coasters=coaster_rows(catalogue, b_share),
        holds=hold_sheets(catalogue),
        value_kinds=value_sheet(catalogue),
        simulations=simulations,
        versions=_versions(),
        designer=designer,
        playing_to_win=playing_to_win,
        strong_play=strong_play() if shipped else None,
        ladder=shipped_ladder() if shipped else None,
        perfect_play=solved_game(players, happy_hour, shipped),
    )
