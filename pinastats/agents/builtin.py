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
``rollout``    plays to win: ``strategic`` dice, and each legal placement
               played out ``rollouts`` times to the end (every seat played by
               ``policy``); it takes the placement that wins most often.
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
from pinastats.agents._rollout import _rollout_cell
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
    ROLLOUT = "rollout"
    """Monte Carlo one-ply lookahead on the placement: aims at winning, not points."""


_KIND_CODE = {
    AgentKind.RANDOM: AK.K_RANDOM,
    AgentKind.GREEDY: AK.K_GREEDY,
    AgentKind.EV: AK.K_EV,
    AgentKind.STRATEGIC: AK.K_STRATEGIC,
    AgentKind.ROLLOUT: AK.K_ROLLOUT,
}

STRATEGIC_DEFAULTS: dict[str, float] = {"line": 6.0, "block": 3.0, "race": 0.5, "win": 100.0}
"""Weights of ``strategic``: line progress, blocking, end-game points, a winning line."""

ROLLOUT_DEFAULTS: dict[str, float] = {
    **STRATEGIC_DEFAULTS,
    "rollouts": 48.0,
    "policy": float(AK.K_STRATEGIC),
}
"""``rollout``: the ``strategic`` weights, play-outs per placement, the play-out agent."""

_PARAMETERS = {AgentKind.STRATEGIC: STRATEGIC_DEFAULTS, AgentKind.ROLLOUT: ROLLOUT_DEFAULTS}
_POLICIES = {
    "random": AK.K_RANDOM,
    "greedy": AK.K_GREEDY,
    "ev": AK.K_EV,
    "strategic": AK.K_STRATEGIC,
}


@dataclass(frozen=True)
class Agent:
    """A built-in agent: a kind and its parameters (see :data:`STRATEGIC_DEFAULTS`)."""

    kind: AgentKind
    params: Mapping[str, float] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """Short name, with the parameters that differ from the defaults."""
        defaults = _PARAMETERS.get(self.kind, {})
        custom = {k: v for k, v in self.params.items() if defaults.get(k) != v}
        if not custom:
            return self.kind.value
        policy = {v: k for k, v in _POLICIES.items()}
        shown = [
            f"{k}={policy[int(v)]}" if k == "policy" else f"{k}={v:g}" for k, v in custom.items()
        ]
        return f"{self.kind.value}({','.join(shown)})"

    @property
    def code(self) -> int:
        """The kind's number in the kernels."""
        return _KIND_CODE[self.kind]

    @property
    def _decision_code(self) -> int:
        """The one-turn kind whose dice and Happy Hour choices this agent uses."""
        return AK.K_STRATEGIC if self.kind is AgentKind.ROLLOUT else self.code

    def param_vector(self) -> np.ndarray:
        """Parameters as the float vector the kernels read (``W_*`` slots)."""
        merged = {**ROLLOUT_DEFAULTS, **self.params}
        return np.array([merged[k] for k in ("line", "block", "race", "win", "rollouts", "policy")])

    # -------------------------------------------------- decisions (Python path)

    def _scratch(self, game: Game) -> tuple[Any, ...]:
        cache = game.__dict__.setdefault("_agent_scratch", {})
        key = (self.kind, tuple(sorted(self.params.items())))
        if key not in cache:
            cache[key] = workspace(game.config.layout.n_cells)
        return cache[key]  # type: ignore[no-any-return]

    def start_turn(self, game: Game) -> None:
        """Solve what this turn's decisions need (the DP stages for ``ev``/``strategic``)."""
        AK._prepare_turn(
            self._decision_code,
            self.param_vector(),
            game._board,
            game.state,
            turn_tables(),
            self._scratch(game),
            game.to_move,
            DEFAULT_ROLLS,
        )

    def choose_keep(
        self, game: Game, dice: Sequence[int], rolls_left: int, rng: np.random.Generator
    ) -> tuple[int, ...]:
        """The dice to keep (all five = stop) after :meth:`start_turn`."""
        t = dice_tables()
        hand = t.hand_index(dice)
        k = AK._choose_keep(
            self._decision_code,
            self.param_vector(),
            game._board,
            game.state,
            turn_tables(),
            self._scratch(game),
            game.to_move,
            hand,
            rolls_left,
            DEFAULT_ROLLS,
            rng,
        )
        counts = t.keep_counts[k]
        return tuple(f + 1 for f in range(6) for _ in range(int(counts[f])))

    def choose_placement(self, game: Game, dice: Sequence[int], rng: np.random.Generator) -> int:
        """The legal cell to place on (there must be one)."""
        legal = np.zeros(game.config.layout.n_cells, dtype=np.bool_)
        for p in game.legal_placements(dice):
            legal[p.cell] = True
        if self.kind is AgentKind.ROLLOUT:
            return int(
                _rollout_cell(
                    self.param_vector(),
                    game._board,
                    game.state,
                    turn_tables(),
                    self._scratch(game),
                    rng,
                    DEFAULT_ROLLS,
                    legal,
                )
            )
        return int(
            AK._choose_cell(
                self.code,
                self.param_vector(),
                game._board,
                game.state,
                self._scratch(game),
                game.to_move,
                legal,
                rng,
            )
        )

    def choose_happy_hour(
        self, game: Game, effect: HappyHourEffect, options: list[int], rng: np.random.Generator
    ) -> int:
        """One of the Happy Hour ``options`` (non-empty)."""
        arr = np.array(options, dtype=np.int64)
        return int(
            AK._choose_happy_hour(
                self._decision_code,
                self.param_vector(),
                game._board,
                game.state,
                game.to_move,
                int(effect),
                arr,
                len(options),
                rng,
            )
        )


def agent_names() -> list[str]:
    """Names accepted by :func:`make_agent`."""
    return [k.value for k in AgentKind]


def make_agent(spec: str | Agent, **params: float | str) -> Agent:
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
    kind = AgentKind(name)
    allowed = _PARAMETERS.get(kind, {})
    values: dict[str, float] = {}
    items = [(k, str(v)) for k, v in params.items()]
    if rest:
        if not rest.endswith(")"):
            raise ValueError(
                f"agent {spec!r}: parameters go in parentheses, e.g. strategic(line=4)"
            )
        for item in filter(None, (x.strip() for x in rest[:-1].split(","))):
            key, eq, val = item.partition("=")
            if not eq:
                raise ValueError(f"agent {spec!r}: write parameters as name=value, got {item!r}")
            items.append((key.strip(), val.strip()))
    for key, val in items:
        if not allowed:
            raise ValueError(f"agent {kind.value!r} takes no parameters, got {key!r}")
        if key not in allowed:
            raise ValueError(
                f"agent {spec!r}: unknown parameter {key!r} "
                f"(parameters of {kind.value}: {', '.join(allowed)})"
            )
        if key == "policy":
            if val not in _POLICIES:
                raise ValueError(
                    f"agent {spec!r}: policy must be one of {', '.join(_POLICIES)}, got {val!r}"
                )
            values[key] = float(_POLICIES[val])
            continue
        try:
            values[key] = float(val)
        except ValueError:
            raise ValueError(f"agent {spec!r}: {key} must be a number, got {val!r}") from None
        if key == "rollouts" and (values[key] < 0 or values[key] != int(values[key])):
            raise ValueError(f"agent {spec!r}: rollouts must be a whole number >= 0, got {val!r}")
    return Agent(kind, values)
