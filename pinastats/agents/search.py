"""The ``search`` agent: the ``value`` agent's turn, its outcomes valued by the next seats' turns.

``search(depth=2,variant=max-n)`` plays every keep and placement of its turn by
the exact turn DP, as ``value`` does, but values each outcome position of the
turn (a token on an open cell, a pass, a Happy Hour face) by ``depth - 1``
further plies: the next seats' whole turns, each solved exactly for its own
criterion, down to the learned evaluator (:mod:`pinastats._engine.search`
states the recursion, the variants and the tie rules). ``depth=1`` is ``value``.

=============  ============================================================
``depth``      plies searched, 1 to 3 (default 2: the mover's turn and the
               next seat's reply, every roll of both enumerated).
``variant``    ``max-n`` (default; each mover maximises its own chance),
               ``paranoid`` (the others minimise the mover's chance) or
               ``best-reply`` (only the opponent whose reply is worst for
               the mover replies; the ones before it pass).
=============  ============================================================

The network is a parameter (``network=``, a
:class:`~pinastats.agents.network.PlayerNetwork`); the default is the shipped
one for the game's player count. Happy Hour choices are ``strategic``'s, as in
``value``'s outcome positions.
"""

from __future__ import annotations

import difflib
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pinastats import _engine as E
from pinastats._arrays import FloatArray
from pinastats._engine import K_VALUE, SearchSpace, Workspace, feature_count, turn_tables
from pinastats.agents.builtin import AgentError, make_agent
from pinastats.agents.network import PlayerNetwork, fits, kernel_net
from pinastats.agents.tables import workspace
from pinastats.dice.hands import check_dice, dice_tables
from pinastats.errors import PinastatsError
from pinastats.game.config import GameConfig
from pinastats.game.game import Game, IllegalMoveError
from pinastats.game.rules import HappyHourEffect
from pinastats.game.turn import check_rerolls_left

SEARCH_DEPTH = 2
"""Default plies of the ``search`` agent and evaluator."""
MAX_SEARCH_DEPTH = E.SEARCH_MAX_DEPTH
"""Deepest search allowed (depth 3 costs about ``M`` times depth 2: analysis, not play)."""
VARIANTS: tuple[str, ...] = tuple(E.SEARCH_VARIANTS)
"""The variants, in the order of their kernel codes."""

_STRATEGIC = make_agent("strategic")
_PARAMS = _STRATEGIC.param_vector()  # the Happy Hour choices in the outcome positions


class SearchError(PinastatsError):
    """A bad setting of the search (depth, variant, network); the message names it."""


def check_depth(depth: object) -> int:
    """A search depth, checked: a whole number from 1 to :data:`MAX_SEARCH_DEPTH`."""
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)):
        raise SearchError(f"search depth must be a whole number from 1 to {MAX_SEARCH_DEPTH}, "
                          f"got {depth!r}")  # fmt: skip
    if not 1 <= int(depth) <= MAX_SEARCH_DEPTH:
        raise SearchError(f"search depth must be a whole number from 1 to {MAX_SEARCH_DEPTH}, "
                          f"got {depth!r}")  # fmt: skip
    return int(depth)


def check_variant(variant: object) -> str:
    """A search variant's name, checked (suggests the closest on a typo)."""
    text = str(variant).strip().lower()
    if not isinstance(variant, str) or text not in VARIANTS:
        close = difflib.get_close_matches(text, VARIANTS, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise SearchError(
            f"unknown search variant {variant!r}{hint} (variants: {', '.join(VARIANTS)})"
        )
    return text


def network_refusal(config: GameConfig, network: PlayerNetwork | None) -> str | None:
    """Why ``network`` (default: the shipped one) cannot value games of ``config``; else None."""
    if network is None:
        return fits(config)
    if not isinstance(network, PlayerNetwork):
        return f"network must be a PlayerNetwork (load_networks().for_players(n)), got {network!r}"
    want = feature_count(config.layout.n_cells, config.players)
    if network.players != config.players or network.sizes[0] != want:
        return (
            f"the network is for {network.players} players and {network.sizes[0]} features; "
            f"this game has {config.players} players and {want} features"
        )
    return None


@dataclass
class Searcher:
    """The kernels' search for games of one config on one thread, and its last result.

    Attributes:
        config: the games searched.
        depth, variant: the search (checked by the caller).
        network: the network (None: the shipped one for the config).
    """

    config: GameConfig
    depth: int
    variant: str
    network: PlayerNetwork | None = None
    work: Workspace = field(init=False, repr=False)
    space: SearchSpace = field(init=False, repr=False)

    def __post_init__(self) -> None:
        why = network_refusal(self.config, self.network)
        if why is not None:
            raise SearchError(f"search cannot play this game: {why}")
        rules = self.config.rules
        net = None if self.network is None else kernel_net(self.network, rules.rolls)
        self.work = workspace(self.config, net=net)
        self.space = E.new_search_space(
            n_cells=self.config.layout.n_cells,
            players=self.config.players,
            rolls=rules.rolls,
            depth=self.depth,
        )

    @property
    def code(self) -> int:
        """The variant's kernel code."""
        return VARIANTS.index(self.variant)

    def _check(self, plies: int, root: int) -> None:
        if not 0 <= plies <= self.depth:
            raise SearchError(f"plies must be 0 to this searcher's depth {self.depth}, got {plies}")
        if not 0 <= root < self.config.players:
            raise SearchError(f"root must be a seat 0 to {self.config.players - 1}, got {root}")

    def position(self, state: E.GameState, plies: int, root: int) -> FloatArray:
        """Each seat's chance from ``state`` by ``plies`` plies guarding ``root`` (0: network)."""
        self._check(plies, root)
        out = np.zeros(self.config.players)
        E.search_position(_PARAMS, self.config.board, state, turn_tables(self.config.rules.rolls),
                          self.work, self.space, plies, self.code, root, out)  # fmt: skip
        return out

    def positions(self, states: E.StateBatch, plies: int, root: int) -> FloatArray:
        """``(N, n)``: :meth:`position` of each state of a batch."""
        self._check(plies, root)
        out = np.zeros((len(states), self.config.players))
        E.search_batch(_PARAMS, self.config.board, states, turn_tables(self.config.rules.rolls),
                       self.work, self.space, plies, self.code, root, out)  # fmt: skip
        return out


@dataclass
class SearchAgent:
    """The search agent (see the module docstring)."""

    depth: int = SEARCH_DEPTH
    variant: str = "max-n"
    network: PlayerNetwork | None = None
    _scratch: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.depth = check_depth(self.depth)
        self.variant = check_variant(self.variant)
        if self.network is not None and not isinstance(self.network, PlayerNetwork):
            raise SearchError(
                f"network must be a PlayerNetwork (load_networks().for_players(n)), "
                f"got {self.network!r}"
            )

    @property
    def name(self) -> str:
        """``search``, with the settings that differ from the defaults."""
        custom = []
        if self.depth != SEARCH_DEPTH:
            custom.append(f"depth={self.depth}")
        if self.variant != "max-n":
            custom.append(f"variant={self.variant}")
        return f"search({','.join(custom)})" if custom else "search"

    def __getstate__(self) -> dict[str, Any]:
        """The settings only: the scratch memory is made again where the agent plays."""
        return {"depth": self.depth, "variant": self.variant, "network": self.network}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(**state)  # type: ignore[misc]

    def refuses(self, config: GameConfig) -> str | None:
        """Why this agent cannot play games of ``config`` (None when it can)."""
        return network_refusal(config, self.network)

    def _searcher(self, game: Game) -> Searcher:
        key = (threading.get_ident(), id(game.config))
        entry = self._scratch.get(key)
        if entry is None or entry[0].config is not game.config:
            entry = [Searcher(game.config, self.depth, self.variant, self.network), b"", 0.0]
            self._scratch[key] = entry
        return entry[0]  # type: ignore[no-any-return]

    def _solve(self, game: Game) -> Searcher:
        """The searcher, its workspace holding this position's turn (solved once per position)."""
        if game.is_over:
            raise IllegalMoveError(f"the game is over ({game.end_reason.name}); no decision")
        searcher = self._searcher(game)
        entry = self._scratch[(threading.get_ident(), id(game.config))]
        key = b"".join(a.tobytes() for a in game.state)
        if entry[1] != key:
            out = searcher.position(game.state, self.depth, game.to_move)
            entry[1], entry[2] = key, float(out[game.to_move])
        return searcher

    def turn_win_probability(self, game: Game) -> float:
        """The mover's chance to win before its first roll, by this search."""
        self._solve(game)
        return float(self._scratch[(threading.get_ident(), id(game.config))][2])

    def start_turn(self, game: Game) -> None:
        """Search the turn's outcome positions and solve the turn DP on them."""
        self._solve(game)

    def choose_keep(
        self, game: Game, dice: Sequence[int], rolls_left: int, rng: np.random.Generator
    ) -> tuple[int, ...]:
        """The dice to keep (all five = stop) with ``rolls_left`` re-rolls still allowed."""
        hand = dice_tables().hand_index(check_dice(dice))
        rolls_left = check_rerolls_left(game, rolls_left)
        s = self._solve(game)
        k = E.choose_keep(K_VALUE, _PARAMS, game.config.board, game.state,
                          turn_tables(game.config.rules.rolls), s.work, game.to_move, hand,
                          int(rolls_left))  # fmt: skip
        return dice_tables().keep_of(int(k))

    def choose_placement(self, game: Game, dice: Sequence[int], rng: np.random.Generator) -> int:
        """The legal cell the search values highest (first of the ties); raises if none."""
        placements = game.legal_placements(dice)
        if not placements:
            raise IllegalMoveError(
                f"the dice {sorted(dice)} match no coaster open to seat {game.to_move}: "
                "there is no placement to choose"
            )
        s = self._solve(game)
        legal = s.work.candidates
        legal[:] = False
        for p in placements:
            legal[p.cell] = True
        return int(E.pick_cell(K_VALUE, _PARAMS, game.config.board, game.state, game.to_move,
                               legal, rng, s.work.cell_value, True))  # fmt: skip

    def choose_happy_hour(
        self, game: Game, effect: HappyHourEffect, options: list[int], rng: np.random.Generator
    ) -> int:
        """One of the Happy Hour ``options``: the ``strategic`` agent's choice."""
        return _STRATEGIC.choose_happy_hour(game, effect, options, rng)


SEARCH_PARAMETERS = ("depth", "variant")
"""The parameters of ``search(...)`` in an agent name."""


def search_agent(spec: str, items: list[tuple[str, str]]) -> SearchAgent:
    """The search agent of an agent name such as ``search(depth=2,variant=paranoid)``.

    An unknown parameter, a depth that is not a whole number from 1 to
    :data:`MAX_SEARCH_DEPTH` or an unknown variant raise
    :class:`~pinastats.agents.builtin.AgentError` naming the value and what is allowed.
    """
    settings: dict[str, Any] = {}
    for key, val in items:
        if key not in SEARCH_PARAMETERS:
            close = difflib.get_close_matches(key, SEARCH_PARAMETERS, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise AgentError(
                f"agent {spec!r}: unknown parameter {key!r}{hint} "
                f"(parameters of search: {', '.join(SEARCH_PARAMETERS)})"
            )
        if key == "depth":
            try:
                settings[key] = int(val)
            except ValueError:
                raise AgentError(
                    f"agent {spec!r}: depth must be a whole number from 1 to "
                    f"{MAX_SEARCH_DEPTH}, got {val!r}"
                ) from None
        else:
            settings[key] = val
    try:
        return SearchAgent(**settings)
    except PinastatsError as exc:
        raise AgentError(f"agent {spec!r}: {exc}") from None
