"""The built-in agents: named strategies whose decisions run in numba kernels.

=============  ==============================================================
``random``     rolls once, places on a random legal coaster.
``greedy``     keeps toward the open coaster it is most likely to reach,
               places on the legal coaster that scores most.
``ev``         solves the turn DP for this turn's points (space + neighbours
               of the best legal coaster for each final hand) and plays it.
``strategic``  ``ev`` plus position: progress on its own lines, blocking the
               opponents' lines, a bonus for points near the end, and a
               PIÑA COLADICE valued as a win.
=============  ==============================================================
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import numpy as np

from pinastats.agents import _kernels as AK
from pinastats.agents.tables import DEFAULT_ROLLS, turn_tables, workspace
from pinastats.dice.hands import dice_tables
from pinastats.game.game import Game
from pinastats.game.rules import HappyHourEffect


class AgentKind(StrEnum):
    """The built-in strategies."""

    RANDOM = "random"
    """Rolls once and places at random."""
    GREEDY = "greedy"
    """Chases the most reachable open coaster; takes the best-scoring placement."""
    EV = "ev"
    """Maximises this turn's expected points with the exact turn DP."""
    STRATEGIC = "strategic"
    """``ev`` plus lines, blocking and the end-game race (tunable weights)."""


_KIND_CODE = {AgentKind.RANDOM: AK.K_RANDOM, AgentKind.GREEDY: AK.K_GREEDY,
              AgentKind.EV: AK.K_EV, AgentKind.STRATEGIC: AK.K_STRATEGIC}  # fmt: skip

STRATEGIC_DEFAULTS: dict[str, float] = {"line": 6.0, "block": 3.0, "race": 0.5, "win": 100.0}
"""Weights of ``strategic``: line progress, blocking, end-game points, a winning line."""


@dataclass(frozen=True)
class Agent:
    """A built-in agent: a kind and its parameters (see :data:`STRATEGIC_DEFAULTS`)."""

    kind: AgentKind
    params: Mapping[str, float] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """Short name, with the parameters that differ from the defaults."""
        custom = {k: v for k, v in self.params.items() if STRATEGIC_DEFAULTS.get(k) != v}
        if not custom:
            return self.kind.value
        return f"{self.kind.value}({','.join(f'{k}={v:g}' for k, v in custom.items())})"

    @property
    def code(self) -> int:
        """The kind's number in the kernels."""
        return _KIND_CODE[self.kind]

    def param_vector(self) -> np.ndarray:
        """Parameters as the float vector the kernels read."""
        merged = {**STRATEGIC_DEFAULTS, **self.params}
        return np.array([merged["line"], merged["block"], merged["race"], merged["win"]])

    # -------------------------------------------------- decisions (Python path)

    def _scratch(self, game: Game) -> tuple[Any, ...]:
        cache = game.__dict__.setdefault("_agent_scratch", {})
        key = (self.kind, tuple(sorted(self.params.items())))
        if key not in cache:
            cache[key] = workspace(game.config.layout.n_cells)
        return cache[key]  # type: ignore[no-any-return]

    def start_turn(self, game: Game) -> None:
        """Solve what this turn's decisions need (the DP stages for ``ev``/``strategic``)."""
        AK._prepare_turn(self.code, self.param_vector(), game._board, game.state,
                         turn_tables(), self._scratch(game), game.to_move, DEFAULT_ROLLS)  # fmt: skip

    def choose_keep(self, game: Game, dice: Sequence[int], rolls_left: int,
                    rng: np.random.Generator) -> tuple[int, ...]:  # fmt: skip
        """The dice to keep (all five = stop) after :meth:`start_turn`."""
        t = dice_tables()
        hand = t.hand_index(dice)
        k = AK._choose_keep(self.code, self.param_vector(), game._board, game.state,
                            turn_tables(), self._scratch(game), game.to_move, hand, rolls_left,
                            DEFAULT_ROLLS, rng)  # fmt: skip
        counts = t.keep_counts[k]
        return tuple(f + 1 for f in range(6) for _ in range(int(counts[f])))

    def choose_placement(self, game: Game, dice: Sequence[int],
                         rng: np.random.Generator) -> int:  # fmt: skip
        """The legal cell to place on (there must be one)."""
        legal = np.zeros(game.config.layout.n_cells, dtype=np.bool_)
        for p in game.legal_placements(dice):
            legal[p.cell] = True
        return int(AK._choose_cell(self.code, self.param_vector(), game._board, game.state,
                                   self._scratch(game), game.to_move, legal, rng))  # fmt: skip

    def choose_happy_hour(self, game: Game, effect: HappyHourEffect, options: list[int],
                          rng: np.random.Generator) -> int:  # fmt: skip
        """One of the Happy Hour ``options`` (non-empty)."""
        arr = np.array(options, dtype=np.int64)
        return int(AK._choose_happy_hour(self.code, self.param_vector(), game._board, game.state,
                                         game.to_move, int(effect), arr, len(options), rng))  # fmt: skip


def agent_names() -> list[str]:
    """Names accepted by :func:`make_agent`."""
    return [k.value for k in AgentKind]


def make_agent(spec: str | Agent, **params: float) -> Agent:
    """An agent from its name, e.g. ``"ev"`` or ``"strategic(line=4,block=2)"``.

    >>> make_agent("strategic(line=4)").name
    'strategic(line=4)'
    """
    if isinstance(spec, Agent):
        return spec
    text = spec.strip().lower()
    name, _, rest = text.partition("(")
    name = name.strip()
    if name not in agent_names():
        close = difflib.get_close_matches(name, agent_names(), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise ValueError(f"unknown agent {spec!r}{hint} (agents: {', '.join(agent_names())})")
    values = dict(params)
    if rest:
        if not rest.endswith(")"):
            raise ValueError(f"agent {spec!r}: parameters go in parentheses, e.g. strategic(line=4)")
        for item in filter(None, (x.strip() for x in rest[:-1].split(","))):
            key, eq, val = item.partition("=")
            key = key.strip()
            if not eq or key not in STRATEGIC_DEFAULTS:
                raise ValueError(f"agent {spec!r}: unknown parameter {key!r} "
                                 f"(parameters: {', '.join(STRATEGIC_DEFAULTS)})")  # fmt: skip
            try:
                values[key] = float(val)
            except ValueError:
                raise ValueError(f"agent {spec!r}: {key} must be a number, got {val!r}") from None
    kind = AgentKind(name)
    if values and kind is not AgentKind.STRATEGIC:
        raise ValueError(f"agent {kind.value!r} takes no parameters")
    return Agent(kind, values)
