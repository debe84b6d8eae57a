"""What a game is played with: catalogue, layout, player count and rule options."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import Any

import numpy as np

from pinastats._arrays import IntArray
from pinastats._engine import Board
from pinastats.dice.combinations import combination_masks
from pinastats.dice.errors import is_whole
from pinastats.errors import PinastatsError
from pinastats.game.catalogue import Catalogue, load_catalogue
from pinastats.game.layout import Layout, load_layout
from pinastats.game.rules import PLAYER_COUNTS, Rules, check_players, players_text
from pinastats.game.rules import VALUE_LIMIT as VALUE_LIMIT  # the bound, for setup and positions

MIN_PLAYERS, MAX_PLAYERS = PLAYER_COUNTS[0], PLAYER_COUNTS[-1]


def check_tokens_fit(rules: Rules, layout: Layout) -> None:
    """Refuse more tokens per player than ``layout`` has cells.

    A player places at most one token per coaster, so tokens beyond the cells
    can never be placed and the last-token end could never be triggered.
    """
    if rules.tokens > layout.n_cells:
        raise PinastatsError(
            f"rules: tokens {rules.tokens} per player, but the layout {layout.name!r} has "
            f"{layout.n_cells} cells and a player places at most one token per coaster: "
            f"tokens must be at most {layout.n_cells}"
        )


@dataclass(frozen=True)
class GameConfig:
    """Catalogue, layout, player count and rules: everything fixed before a game starts.

    The layout decides which side each cell shows for the player count
    (``Layout.sides_for``); the catalogue must hold at least as many coasters as
    the layout has cells, and each player at most as many tokens as the layout
    has cells (:func:`check_tokens_fit`: more could never all be placed).

    A starting score at or above the target score is taken (a position file
    sets up the end of a game that way), but it triggers the end at the first
    turn: every game of such a config lasts one round (``simulate`` and
    ``pinastats simulate`` refuse such a config).
    """

    players: int = 2
    catalogue: Catalogue = field(default_factory=load_catalogue)
    layout: Layout = field(default_factory=load_layout)
    rules: Rules = field(default_factory=Rules)
    starting_scores: tuple[int, ...] | None = None
    """Scores at setup in turn order; ``None`` is the rulebook's 1, 2, ..., n (one at or above
    the target score ends every game in its first round)."""

    def __post_init__(self) -> None:
        if not isinstance(self.players, int):  # a whole float is not a player count here
            raise PinastatsError(f"players must be {players_text()}, got {self.players!r}")
        check_players(self.players)
        parts = (("catalogue", Catalogue, "load_catalogue"), ("layout", Layout, "load_layout"),
                 ("rules", Rules, ""))  # fmt: skip
        for name, kind, loader in parts:
            value = getattr(self, name)
            if not isinstance(value, kind):
                how = f" ({loader}(name_or_path) makes one)" if loader else ""
                raise PinastatsError(f"{name} must be a {kind.__name__}{how}, got {value!r}")
        if len(self.catalogue) < self.layout.n_cells:
            source = f" ({self.catalogue.source})" if self.catalogue.source else ""
            raise PinastatsError(
                f"the layout {self.layout.name!r} has {self.layout.n_cells} cells but the "
                f"catalogue{source} only {len(self.catalogue)} coasters"
            )
        self.layout.sides_for(self.players)  # raises if the layout has no sides for them
        scores = self.starting_scores
        if scores is not None and (
            not isinstance(scores, tuple)
            or len(scores) != self.players
            or not all(is_whole(x) and 0 <= x <= VALUE_LIMIT for x in scores)
        ):
            raise PinastatsError(
                f"starting scores must be a tuple of {self.players} whole numbers from 0 to "
                f"{VALUE_LIMIT:,} in turn order, got {scores!r}"
            )
        check_tokens_fit(self.rules, self.layout)

    def __getstate__(self) -> dict[str, Any]:
        """Pickle the settings only: the arrays built from them are built again on use.

        (An unpickled copy of :attr:`board` would be writeable, a type the
        kernels were not compiled for.)
        """
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @cached_property
    def sides(self) -> IntArray:
        """``(n_cells,)`` side index of each cell at setup (0 = A, 1 = B)."""
        return np.asarray(self.layout.side_indices(self.players), dtype=np.int64)

    @cached_property
    def start_scores(self) -> IntArray:
        """Scores at setup in turn order: 1, 2, 3, 4 unless ``starting_scores`` says otherwise."""
        if self.starting_scores is not None:
            return np.array(self.starting_scores, dtype=np.int64)
        return np.arange(1, self.players + 1, dtype=np.int64)

    @cached_property
    def board(self) -> Board:
        """The fixed part of the engine's state (see :mod:`pinastats._engine.state`)."""
        masks = combination_masks()
        rules = self.rules
        line_cells = self.layout.line_cells()
        on_line = np.zeros((self.layout.n_cells, len(line_cells)), dtype=np.bool_)
        for i, cells in enumerate(line_cells):
            for c in cells:
                on_line[c, i] = True
        return Board(
            coaster_combination=self.catalogue.combination_codes(),
            coaster_points=self.catalogue.points_table(),
            neighbours=np.ascontiguousarray(self.layout.neighbours, dtype=np.int64),
            lines=np.ascontiguousarray(self.layout.lines, dtype=np.int64),
            line_length=np.array([len(cells) for cells in line_cells], dtype=np.int64),
            on_line=on_line,
            shows=masks,
            comb_ptr=np.concatenate([[0], np.cumsum(masks.sum(axis=1))]).astype(np.int64),
            comb_hands=np.nonzero(masks)[1].astype(np.int64),
            target_score=rules.target_score,
            happy_hour=rules.happy_hour,
            negative_scores=rules.negative_scores,
            max_turns=rules.max_turns,
            rolls=rules.rolls,
        )
