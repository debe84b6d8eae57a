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
               played out ``rollouts`` times to the end (1 to 10,000, 48 by
               default; every seat played by ``policy``); it takes the
               placement that wins most often.
``value``      plays for the chance to win by the learned evaluator: the
               network values every way the turn can end (a token on each
               open cell, a pass, each Happy Hour face), the exact turn DP
               keeps for the best of them, and the token goes where the
               network says the chance is highest (:mod:`pinastats.value`).
``coach``      plays every keep and placement for the chance to win (play-outs
               from each outcome position of the turn and the turn DP on
               them, :mod:`pinastats.coach`); a Python agent, not a kernel.
``perfect``    plays every decision by the exact solution of the game's board
               (two players, no Happy Hour; :mod:`pinastats.solve`), solving
               the board on first use; a Python agent, not a kernel.
``search``     ``value``'s turn with each outcome valued by the next seats'
               whole turns (``depth`` plies, max-n, paranoid or best-reply;
               :mod:`pinastats.agents.search`); a Python agent over kernels.
=============  ==============================================================

The kernel agents are the :class:`AgentKind` values; the Python agents
(:data:`AGENT_GROUP`) play through the simulation's Python path.
"""

from __future__ import annotations

import difflib
import functools
import importlib
import importlib.metadata
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar, cast, overload

import numpy as np

from pinastats import _engine as E
from pinastats._engine import (
    K_EV,
    K_GREEDY,
    K_RANDOM,
    K_STRATEGIC,
    Workspace,
    turn_tables,
)
from pinastats.agents.network import ValueNetworks, fits, network_for
from pinastats.agents.protocol import AgentProtocol, is_agent
from pinastats.agents.tables import workspace
from pinastats.dice.errors import is_finite_number, is_number
from pinastats.dice.hands import check_dice, dice_tables
from pinastats.errors import PinastatsError, expect_instance
from pinastats.game.game import Game, IllegalMoveError
from pinastats.game.rules import HappyHourEffect
from pinastats.game.turn import check_rerolls_left


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
    VALUE = "value"
    """The learned evaluator's win probabilities, with the exact turn DP on them."""


if {k.value for k in AgentKind} != set(E.KINDS):  # the engine's list is the one list
    raise ImportError(
        f"AgentKind ({', '.join(k.value for k in AgentKind)}) and the engine's kernel agents "
        f"(_engine/kinds.py KINDS: {', '.join(E.KINDS)}) differ: give each agent both"
    )
_KIND_CODE = {kind: E.KINDS[kind.value] for kind in AgentKind}

STRATEGIC_DEFAULTS: dict[str, float] = {"line": 6.0, "block": 3.0, "race": 0.5, "win": 100.0}
"""Weights of ``strategic``: line progress, blocking, end-game points, a winning line."""

ROLLOUT_DEFAULTS: dict[str, float] = {
    **STRATEGIC_DEFAULTS,
    "rollouts": 48.0,
    "policy": float(K_STRATEGIC),
}
"""``rollout``: the ``strategic`` weights, play-outs per placement, the play-out agent."""

PARAMETER_NAMES = ("line", "block", "race", "win", "rollouts", "policy")
"""The parameters in the order of the kernels' ``PARAM_*`` slots."""

MAX_PLAYOUTS = 10_000
"""Most play-outs any setting takes: per placement (``rollout``), per outcome position
(``coach``, win advice, reviews, reports)."""

MAX_WEIGHT = 1e9
"""Largest size of a ``strategic`` weight (values stay far from overflow in the turn DP)."""

_PARAMETERS = {AgentKind.STRATEGIC: STRATEGIC_DEFAULTS, AgentKind.ROLLOUT: ROLLOUT_DEFAULTS}
_POLICIES = {
    "random": K_RANDOM,
    "greedy": K_GREEDY,
    "ev": K_EV,
    "strategic": K_STRATEGIC,
}


def _check_parameter(agent: str, key: str, value: object, shown: str | None = None) -> float:
    """``value`` of parameter ``key`` as a float, if allowed; ``shown``: the text given.

    A weight is a finite number of size at most :data:`MAX_WEIGHT`, ``rollouts``
    a whole number from 1 to :data:`MAX_PLAYOUTS` (with none, every placement
    would tie and the agent would compare nothing), ``policy`` the code of one
    of the play-out agents.
    """
    given = repr(value if shown is None else shown)
    number = cast("float", value)  # compared only once known to be a finite number
    if key == "rollouts":
        if not (is_finite_number(value) and 1 <= number <= MAX_PLAYOUTS and number == int(number)):
            raise AgentError(
                f"agent {agent!r}: rollouts must be a whole number from 1 to {MAX_PLAYOUTS:,} "
                f"(play-outs per placement), got {given}"
            )
    elif key == "policy":
        if not (is_number(value) and number in _POLICIES.values()):
            raise AgentError(
                f"agent {agent!r}: policy must be one of {', '.join(_POLICIES)}, got {given}"
            )
    elif not (is_finite_number(value) and abs(number) <= MAX_WEIGHT):
        raise AgentError(
            f"agent {agent!r}: {key} must be a finite number from {-MAX_WEIGHT:g} to "
            f"{MAX_WEIGHT:g}, got {given}"
        )
    return float(number)


PythonAgentFactory = Callable[[str, list[tuple[str, str]]], AgentProtocol]
"""Makes a Python agent from its spec text and its ``(name, value)`` parameter texts."""

AGENT_GROUP = "pinastats.agents"
"""The entry-point group of named agents written in Python: pinastats' own (``coach``,
``perfect``, declared in its ``pyproject.toml``) and any installed package's, each
``name = "module:factory"`` with a :data:`PythonAgentFactory`. No module of pinastats names
them: the installed metadata does, so the agents' package imports no higher one."""


@functools.cache
def python_agents() -> dict[str, importlib.metadata.EntryPoint]:
    """The named Python agents of :data:`AGENT_GROUP`: name -> entry point (loaded on use).

    A name of a kernel agent (:class:`AgentKind`) stays the kernel agent's.
    """
    kernel = {k.value for k in AgentKind}
    found = importlib.metadata.entry_points(group=AGENT_GROUP)
    return {ep.name: ep for ep in sorted(found, key=lambda e: e.name) if ep.name not in kernel}


def _python_factory(name: str) -> PythonAgentFactory:
    """The factory of the Python agent ``name`` (its module is imported now)."""
    try:
        factory: PythonAgentFactory = python_agents()[name].load()
    except Exception as exc:  # an installed plugin that cannot load: say which
        raise AgentError(f"agent {name!r} ({python_agents()[name].value}) cannot be loaded: "
                         f"{exc}") from None  # fmt: skip
    return factory


@dataclass(frozen=True)
class Agent:
    """A built-in agent: a kind and its parameters (see :data:`STRATEGIC_DEFAULTS`).

    ``networks``: the networks its ``value`` decisions read (loaded
    :class:`~pinastats.agents.network.ValueNetworks`; default: the default networks,
    :func:`~pinastats.agents.network.default_networks`). Two agents with other
    networks play side by side in one game.
    """

    kind: AgentKind
    params: Mapping[str, float] = field(default_factory=dict)
    networks: ValueNetworks | None = field(default=None, repr=False, compare=False, hash=False)
    _scratch: dict[Any, Any] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        if not isinstance(self.kind, AgentKind):
            kinds = ", ".join(k.value for k in AgentKind)
            raise AgentError(
                f"agent kind must be an AgentKind ({kinds}; make_agent takes names), "
                f"got {self.kind!r}"
            )
        allowed = _PARAMETERS.get(self.kind, {})
        for key, value in self.params.items():
            if key not in allowed:
                raise AgentError(f"agent {self.kind.value!r}: unknown parameter {key!r} "
                                 f"(parameters: {', '.join(allowed) or 'none'})")  # fmt: skip
            _check_parameter(self.kind.value, key, value)

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
        return K_STRATEGIC if self.kind is AgentKind.ROLLOUT else self.code

    def param_vector(self) -> np.ndarray:
        """Parameters as the float vector the kernels read (``W_*`` slots)."""
        merged = {**ROLLOUT_DEFAULTS, **self.params}
        return np.array([merged[k] for k in PARAMETER_NAMES])

    # -------------------------------------------------- decisions (Python path)

    def __getstate__(self) -> dict[str, Any]:
        return {"kind": self.kind, "params": dict(self.params), "networks": self.networks}

    def __setstate__(self, state: dict[str, Any]) -> None:
        object.__setattr__(self, "kind", state["kind"])
        object.__setattr__(self, "params", state["params"])
        object.__setattr__(self, "networks", state.get("networks"))
        object.__setattr__(self, "_scratch", {})

    def _work(self, game: Game) -> Workspace:
        """The workspace of this agent for games like ``game`` (one per thread and config)."""
        key = (threading.get_ident(), id(game.config))
        entry = self._scratch.get(key)
        if entry is None or entry[0] is not game.config:
            check_plays(self, game.config)
            net = None if self.networks is None else network_for(game.config, self.networks)
            entry = (
                game.config,
                workspace(game.config, memo=self.kind is AgentKind.ROLLOUT, net=net),
                [b""],
            )
            self._scratch[key] = entry
        return entry[1]

    def _prepared(self, game: Game) -> list[bytes]:
        prepared: list[bytes] = self._scratch[(threading.get_ident(), id(game.config))][2]
        return prepared

    def start_turn(self, game: Game) -> None:
        """Solve what this turn's decisions need (the DP stages for ``ev``/``strategic``)."""
        _check_playing(game)
        work = self._work(game)
        E.prepare_turn(
            self._decision_code,
            self.param_vector(),
            game.config.board,
            game.state,
            turn_tables(game.config.rules.rolls),
            work,
            game.to_move,
        )
        self._prepared(game)[0] = _position_key(game)

    def choose_keep(
        self, game: Game, dice: Sequence[int], rolls_left: int, rng: np.random.Generator
    ) -> tuple[int, ...]:
        """The dice to keep (all five = stop) with ``rolls_left`` re-rolls still allowed.

        The turn is prepared for the position asked about (:meth:`start_turn` is
        called when it was not, or was for another position).
        """
        _check_playing(game)
        hand = dice_tables().hand_index(check_dice(dice))
        rolls_left = check_rerolls_left(game, rolls_left)
        work = self._work(game)
        if self._prepared(game)[0] != _position_key(game):
            self.start_turn(game)
        k = E.choose_keep(
            self._decision_code,
            self.param_vector(),
            game.config.board,
            game.state,
            turn_tables(game.config.rules.rolls),
            work,
            game.to_move,
            hand,
            int(rolls_left),
        )
        counts = dice_tables().keep_counts[k]
        return tuple(f + 1 for f in range(6) for _ in range(int(counts[f])))

    def choose_placement(self, game: Game, dice: Sequence[int], rng: np.random.Generator) -> int:
        """The legal cell to place on; raises if these final dice can place nothing."""
        _check_playing(game)
        placements = game.legal_placements(dice)
        if not placements:
            raise IllegalMoveError(
                f"the dice {sorted(dice)} match no coaster open to seat {game.to_move}: "
                "there is no placement to choose"
            )
        work = self._work(game)
        legal = work.candidates
        legal[:] = False
        for p in placements:
            legal[p.cell] = True
        board = game.config.board
        if self.kind is AgentKind.ROLLOUT:
            self._prepared(game)[0] = b""  # the play-outs overwrite the workspace
            return int(
                E.rollout_cell(
                    self.param_vector(),
                    board,
                    game.state,
                    turn_tables(game.config.rules.rolls),
                    work,
                    E.generator_rng(rng),
                    legal,
                )
            )
        prepared = self.kind is AgentKind.VALUE  # its cell values are its prepared turn's
        if prepared and self._prepared(game)[0] != _position_key(game):
            self.start_turn(game)
        values = work.cell_value  # read when prepared, else each legal cell is valued here
        return int(E.pick_cell(self.code, self.param_vector(), board, game.state, game.to_move,
                                 legal, rng, values, prepared))  # fmt: skip

    def choose_happy_hour(
        self, game: Game, effect: HappyHourEffect, options: list[int], rng: np.random.Generator
    ) -> int:
        """One of the Happy Hour ``options`` (non-empty, from ``game.happy_hour_options``)."""
        _check_playing(game)
        allowed = game.happy_hour_options(effect)
        if not options or any(o not in allowed for o in options):
            raise PinastatsError(
                f"Happy Hour '{HappyHourEffect(effect)}': options must be a non-empty "
                f"subset of {allowed}, got {options!r}"
            )
        arr = np.array(options, dtype=np.int64)
        return int(
            E.choose_happy_hour(
                self._decision_code,
                self.param_vector(),
                game.config.board,
                game.state,
                game.to_move,
                int(effect),
                arr,
                len(options),
                rng,
            )
        )


class AgentError(PinastatsError):
    """An unknown agent name or a bad agent parameter."""


def check_plays(agent: object, config: object) -> None:
    """Raise :class:`AgentError` when ``agent`` cannot play games of ``config``.

    ``value`` needs a network for the config's player count and layout
    (:func:`pinastats.agents.network.fits`); an agent with a ``refuses(config)``
    method (``perfect``: the games the exact solution covers) says itself why not.
    """
    if isinstance(agent, Agent) and agent.kind is AgentKind.VALUE:
        why = fits(config)  # type: ignore[arg-type]
        if why is not None:
            raise AgentError(f"agent 'value' cannot play this game: {why}")
    refuses = getattr(agent, "refuses", None)
    if callable(refuses):
        reason = refuses(config)
        if reason is not None:
            name = getattr(agent, "name", type(agent).__name__)
            raise AgentError(f"agent {name!r} cannot play this game: {reason}")


def _check_playing(game: Game) -> None:
    expect_instance(game, Game, "game", "Game.new()")
    if game.is_over:
        raise IllegalMoveError(f"the game is over: {game.end_reason}; no decision to make")


def _position_key(game: Game) -> bytes:
    """The bytes of everything a turn's decisions read, to tell positions apart."""
    return b"".join(a.tobytes() for a in game.state)


def agent_names() -> list[str]:
    """Names accepted by :func:`make_agent`: the kernel agents, then the Python agents."""
    return [k.value for k in AgentKind] + list(python_agents())


def is_built_in(agent: object) -> bool:
    """Whether ``agent`` is pinastats' own.

    An :class:`Agent`, or a named Python agent pinastats itself declares (:data:`AGENT_GROUP`).
    """
    modules = {ep.module for ep in python_agents().values()
               if ep.dist is not None and ep.dist.name == "pinastats"}  # fmt: skip
    return isinstance(agent, Agent) or type(agent).__module__ in modules


AnyAgent = TypeVar("AnyAgent", bound=AgentProtocol)


@overload
def make_agent(spec: str | Agent, **params: float | str) -> Agent: ...


@overload
def make_agent(spec: AnyAgent, **params: float | str) -> AnyAgent: ...


def make_agent(spec: str | AgentProtocol, **params: float | str) -> AgentProtocol:
    """An agent from its name, e.g. ``"ev"`` or ``"strategic(line=4,block=2)"``.

    An object meeting :class:`~pinastats.agents.protocol.AgentProtocol` (a built-in
    :class:`Agent` or one's own) is returned unchanged.

    >>> make_agent("strategic(line=4)").name
    'strategic(line=4)'
    """
    if not isinstance(spec, str):
        if is_agent(spec):
            if params:
                raise AgentError(
                    f"agent {spec.name!r} is already made: parameters {sorted(params)} "
                    "go with an agent name"
                )
            return spec
        raise AgentError(
            f"an agent is a name ({', '.join(agent_names())}) or an object with "
            "start_turn, choose_keep, choose_placement, choose_happy_hour and name; "
            f"got {spec!r}"
        )
    text = spec.strip().lower()
    name, _, rest = text.partition("(")
    name = name.strip()
    if name not in agent_names():
        close = difflib.get_close_matches(name, agent_names(), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise AgentError(f"unknown agent {spec!r}{hint} (agents: {', '.join(agent_names())})")
    items = [(k, str(v)) for k, v in params.items()] + _parameter_items(spec, rest)
    keys = [key for key, _ in items]
    twice = next((key for key in keys if keys.count(key) > 1), None)
    if twice is not None:
        raise AgentError(f"agent {spec!r}: parameter {twice!r} is given twice; give it once")
    if name in python_agents():
        return _python_factory(name)(spec, items)
    kind = AgentKind(name)
    allowed = _PARAMETERS.get(kind, {})
    values: dict[str, float] = {}
    for key, val in items:
        if not allowed:
            raise AgentError(f"agent {kind.value!r} takes no parameters, got {key!r}")
        if key not in allowed:
            raise AgentError(
                f"agent {spec!r}: unknown parameter {key!r} "
                f"(parameters of {kind.value}: {', '.join(allowed)})"
            )
        if key == "policy":
            if val not in _POLICIES:
                raise AgentError(
                    f"agent {spec!r}: policy must be one of {', '.join(_POLICIES)}, got {val!r}"
                )
            values[key] = float(_POLICIES[val])
            continue
        try:
            number = float(val)
        except ValueError:
            raise AgentError(f"agent {spec!r}: {key} must be a number, got {val!r}") from None
        values[key] = _check_parameter(spec, key, number, shown=val)
    return Agent(kind, values)


def _parameter_items(spec: str, rest: str) -> list[tuple[str, str]]:
    """The ``(name, value)`` texts of ``name(a=1,b=2)`` after its ``(`` (``rest``)."""
    if not rest:
        return []
    if not rest.endswith(")"):
        raise AgentError(f"agent {spec!r}: parameters go in parentheses, e.g. strategic(line=4)")
    items = []
    for item in filter(None, (x.strip() for x in rest[:-1].split(","))):
        key, eq, val = item.partition("=")
        if not eq:
            raise AgentError(f"agent {spec!r}: write parameters as name=value, got {item!r}")
        items.append((key.strip(), val.strip()))
    return items
