"""Piña Coladice as an OpenSpiel game: ``pyspiel.load_game("python_pina_coladice")``.

Needs the extra: ``pip install 'pinastats[openspiel]'`` (OpenSpiel's ``open-spiel``
wheel). Importing this module registers the game; its states play on the
engine's own :class:`~pinastats.game.game.Game` and
:class:`~pinastats.game.turn.Turn`, so the rules are the engine's.

Parameters: ``players`` (2 to 4, default 2), ``happy_hour`` (default False),
``layout`` (a layout name, default ``"standard"``).

**Chance nodes** (exact outcomes, ids as listed):

* the deal, cell by cell: the coaster of each cell, uniform over the coasters
  not yet dealt (id: the catalogue index); then the first seat, uniform (id: the seat);
* each roll: the sorted hand reached, id = hand index (0 to 251, the dice layer's
  order); the first roll of a turn reaches hand ``h`` with probability
  ``w(h) / 6**5``, a re-roll after keep ``k`` reaches ``k + r`` with ``w_n(r) / 6**n``
  (``n = 5 - |k|``, :func:`pinastats.game.turn.keep_outcomes`);
* the Happy Hour die (after a turn that used all its rolls and can place
  nothing, when the variant is played): id = face - 1, probability 1/6 each (one per face).

**Actions** (stable; ``C`` = cells of the layout):

* ``0 .. 461``: keep index ``k`` (the dice layer's keep order); keeping the
  whole hand stops rolling. Legal: the distinct keeps of the dice, while re-rolls are left;
* ``462 + c``: place the token on cell ``c`` (legal: ``Game.legal_cells``);
* ``462 + C + o``: Happy Hour option ``o`` in the engine's encoding
  (``Game.happy_hour_options``), asked only when the effect has two or more options
  (a single option is applied at once).

**Returns**: +1 to the winner; the others share -1 (``-1 / (n - 1)`` each, so
the returns sum to 0); 0 to everyone for a draw or the turn limit.

The observation (perfect information, the same for every player) is a string
(the board as :meth:`pinastats.game.Game.draw` shows it, the phase and the dice)
and a tensor described in :class:`PinaColadiceObserver`.
"""

from __future__ import annotations

import copy
from enum import IntEnum
from functools import cache
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

from pinastats import _engine as E
from pinastats._engine import TurnEnding, empty_state, option_capacity
from pinastats.dice.combinations import Combination
from pinastats.dice.hands import N_HANDS, N_KEEPS, dice_tables, hand_tuples
from pinastats.errors import PinastatsError
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.game.layout import load_layout
from pinastats.game.rules import HappyHourEffect, Rules
from pinastats.game.turn import Turn, hand_index

KEEP_BASE = 0
"""Action of keep index 0 (the empty keep); keep ``k`` is ``KEEP_BASE + k``."""
PLACE_BASE = N_KEEPS
"""Action of placing on cell 0; cell ``c`` is ``PLACE_BASE + c``."""


class Phase(IntEnum):
    """Where a state stands: a chance node, a decision, or the end."""

    DEAL = 0
    FIRST_SEAT = 1
    ROLL = 2
    KEEP = 3
    PLACE = 4
    HAPPY_HOUR = 5
    HAPPY_HOUR_CHOICE = 6
    TERMINAL = 7


_CHANCE = (Phase.DEAL, Phase.FIRST_SEAT, Phase.ROLL, Phase.HAPPY_HOUR)


class IllegalActionError(PinastatsError, pyspiel.SpielError):  # type: ignore[misc]
    """An action not legal at a state: OpenSpiel's ``SpielError`` and a :class:`PinastatsError`."""


def _actions_text(actions: list[int]) -> str:
    """The legal actions, listed in full up to 12, else their count and range."""
    if len(actions) <= 12:
        return str(actions)
    return f"{len(actions)} actions from {min(actions)} to {max(actions)} (see legal_actions())"


def happy_hour_base(n_cells: int) -> int:
    """Action of Happy Hour option 0 on a layout of ``n_cells`` cells."""
    return PLACE_BASE + n_cells


@cache
def _keep_dice() -> tuple[tuple[int, ...], ...]:
    """The sorted dice of every keep, by keep index."""
    t = dice_tables()
    return tuple(t.keep_of(k) for k in range(N_KEEPS))


@cache
def _hand_keeps(hand: int) -> tuple[int, ...]:
    t = dice_tables()
    return tuple(int(k) for k in t.hand_keep[t.hand_keep_ptr[hand] : t.hand_keep_ptr[hand + 1]])


@cache
def _roll_outcomes(keep: int) -> tuple[tuple[int, float], ...]:
    """The hands a roll after keep ``keep`` reaches, with their probabilities."""
    t = dice_tables()
    lo, hi = t.keep_ptr[keep], t.keep_ptr[keep + 1]
    total = 6.0 ** (5 - int(t.keep_size[keep]))
    return tuple(
        (int(h), int(w) / total)
        for h, w in zip(t.keep_hand[lo:hi], t.keep_weight[lo:hi], strict=True)
    )


class PinaColadiceObserver:
    """The observation tensor, flat in :attr:`tensor` with named views in :attr:`dict`.

    ``cells`` ``(C, K + 1 + 2 P)``: the one-hot combination of each cell's coaster
    (K combinations; zeros before the deal), 1 on side B, and the seat on each of
    the two spaces one-hot; ``scores``, ``reserves`` ``(P,)``; ``to_move`` ``(P,)``
    one-hot (zeros at chance nodes and the end); ``phase`` one-hot over :class:`Phase`;
    ``dice`` ``(6,)`` face counts of the dice showing; ``rolls_left`` ``(1,)``;
    ``happy_hour`` ``(FACES,)`` the effect to choose for, one-hot.
    """

    def __init__(self, config: GameConfig, params: dict[str, Any] | None = None) -> None:
        if params:
            raise PinastatsError(f"the observer takes no parameters, got {params}")
        self.config = config
        n, p, k = config.layout.n_cells, config.players, len(Combination)
        shapes = {
            "cells": (n, k + 1 + 2 * p),
            "scores": (p,),
            "reserves": (p,),
            "to_move": (p,),
            "phase": (len(Phase),),
            "dice": (6,),
            "rolls_left": (1,),
            "happy_hour": (E.FACES,),
        }
        self.tensor = np.zeros(sum(int(np.prod(s)) for s in shapes.values()), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        start = 0
        for name, shape in shapes.items():
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[start : start + size].reshape(shape)
            start += size

    def set_from(self, state: PinaColadiceState, player: int) -> None:
        """Fill the tensor from ``state`` (the same for every ``player``)."""
        self.tensor.fill(0.0)
        d, board, k = self.dict, self.config.board, len(Combination)
        d["phase"][int(state.phase)] = 1.0
        for cell, coaster in enumerate(state.dealt):
            d["cells"][cell, int(board.coaster_combination[coaster])] = 1.0
        if state.game is not None:
            s = state.game.state
            d["cells"][:, k] = s.cell_side
            p = self.config.players
            for cell, space in zip(*np.nonzero(s.spaces >= 0), strict=True):
                d["cells"][cell, k + 1 + space * p + s.spaces[cell, space]] = 1.0
            d["scores"][:] = s.players["score"]
            d["reserves"][:] = s.players["reserve"]
            if state.phase not in _CHANCE and state.phase is not Phase.TERMINAL:
                d["to_move"][state.game.to_move] = 1.0
        if state.turn is not None:
            for face in state.turn.dice:
                d["dice"][face - 1] += 1.0
            d["rolls_left"][0] = state.turn.rolls_left
        if state.effect is not None:
            d["happy_hour"][int(state.effect) - 1] = 1.0

    def string_from(self, state: PinaColadiceState, player: int) -> str:
        """The observation as text (the same for every ``player``)."""
        return state.describe()


SHORT_NAME = "python_pina_coladice"
DEFAULTS: dict[str, Any] = {"players": 2, "happy_hour": False, "layout": "standard"}


_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Pina Coladice",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


def config_of(params: dict[str, Any]) -> GameConfig:
    """The engine's config for the game parameters (missing ones take :data:`DEFAULTS`)."""
    unknown = sorted(set(params) - set(DEFAULTS))
    if unknown:
        raise PinastatsError(f"unknown parameters {unknown} (parameters: {', '.join(DEFAULTS)})")
    p = {**DEFAULTS, **params}
    return GameConfig(
        players=int(p["players"]),
        layout=load_layout(str(p["layout"])),
        rules=Rules(happy_hour=bool(p["happy_hour"])),
    )


class PinaColadiceGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game; ``config`` is the engine's :class:`GameConfig` it plays."""

    def __init__(self, params: dict[str, Any] | None = None, config: GameConfig | None = None):
        params = {**DEFAULTS, **(params or {})}
        self.config = config_of(params) if config is None else config
        cells = self.config.layout.n_cells
        players = self.config.players
        info = pyspiel.GameInfo(
            num_distinct_actions=happy_hour_base(cells) + option_capacity(cells),
            max_chance_outcomes=max(N_HANDS, len(self.config.catalogue), players),
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.config.rules.max_turns * self.config.rules.rolls,
        )
        super().__init__(_GAME_TYPE, info, params)

    @classmethod
    def for_config(cls, config: GameConfig) -> PinaColadiceGame:
        """The game playing ``config`` (its rules, catalogue and layout as they are)."""
        return cls(
            {
                "players": config.players,
                "happy_hour": config.rules.happy_hour,
                "layout": config.layout.name,
            },
            config,
        )

    def new_initial_state(self) -> PinaColadiceState:
        """The state before the deal."""
        return PinaColadiceState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> PinaColadiceObserver:
        """The observer (perfect information: every player sees everything)."""
        return PinaColadiceObserver(self.config, params)


class _Fixed:
    """What every copy of a state shares: the config (a clone copies the rest)."""

    def __init__(self, config: GameConfig) -> None:
        self.config = config

    def __deepcopy__(self, memo: dict[int, object]) -> _Fixed:
        return self


class PinaColadiceState(pyspiel.State):  # type: ignore[misc]
    """A state: the engine's game (after the deal), the turn in progress and the phase."""

    def __init__(self, game: PinaColadiceGame) -> None:
        super().__init__(game)
        self._fixed = _Fixed(game.config)
        self.phase = Phase.DEAL
        self.dealt: list[int] = []
        self.game: Game | None = None
        self.turn: Turn | None = None
        self.pending_keep = 0
        self.effect: HappyHourEffect | None = None

    @classmethod
    def at(
        cls,
        ps_game: PinaColadiceGame,
        game: Game,
        turn: Turn | None,
        phase: Phase,
        effect: HappyHourEffect | None = None,
    ) -> PinaColadiceState:
        """A state at a position of the engine (on a copy of ``game`` and ``turn``).

        ``phase`` is KEEP, PLACE, HAPPY_HOUR_CHOICE (with ``effect``) or ROLL with
        ``turn`` None (a new turn about to roll).
        """
        state = cls(ps_game)
        state.game = game.copy()
        state.dealt = [int(c) for c in game.state.cell_coaster]
        state.turn = None if turn is None else copy.deepcopy(turn)
        state.phase, state.effect = phase, effect
        return state

    # ---------------------------------------------------------------- reading

    def current_player(self) -> int:
        """The seat to decide, CHANCE, or TERMINAL."""
        if self.phase is Phase.TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        if self.phase in _CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return self._game.to_move

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.phase is Phase.TERMINAL

    def returns(self) -> list[float]:
        """+1 to the winner, -1/(n-1) to each other seat; zeros until the end and for no winner."""
        n = self.config.players
        winner = None if self.game is None else self._game.winner
        if self.phase is not Phase.TERMINAL or winner is None:
            return [0.0] * n
        return [1.0 if p == winner else -1.0 / (n - 1) for p in range(n)]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of this chance node with their exact probabilities."""
        if self.phase is Phase.DEAL:
            left = sorted(set(range(len(self.config.catalogue))) - set(self.dealt))
            return [(c, 1.0 / len(left)) for c in left]
        if self.phase is Phase.FIRST_SEAT:
            n = self.config.players
            return [(p, 1.0 / n) for p in range(n)]
        if self.phase is Phase.ROLL:
            # a new list each time: MCTSBot shuffles the list it is given
            return list(_roll_outcomes(self.pending_keep))
        return [(f, 1.0 / E.FACES) for f in range(E.FACES)]

    def _legal_actions(self, player: int) -> list[int]:
        if self.phase is Phase.KEEP:
            return list(_hand_keeps(hand_index(self._turn.dice)))
        if self.phase is Phase.PLACE:
            return [PLACE_BASE + c for c in self._game.legal_cells(self._turn.dice)]
        base = happy_hour_base(self.config.layout.n_cells)
        return [base + o for o in self._game.happy_hour_options(self._effect)]

    # ---------------------------------------------------------------- moves

    @property
    def config(self) -> GameConfig:
        """The engine's config of the game played."""
        return self._fixed.config

    @property
    def _game(self) -> Game:
        if self.game is None:
            raise PinastatsError(f"no game yet: the state is at the {self.phase.name} phase")
        return self.game

    @property
    def _turn(self) -> Turn:
        if self.turn is None:
            raise PinastatsError(f"no turn in progress at the {self.phase.name} phase")
        return self.turn

    @property
    def _effect(self) -> HappyHourEffect:
        if self.effect is None:
            raise PinastatsError(f"no Happy Hour effect at the {self.phase.name} phase")
        return self.effect

    def _check_legal(self, action: int) -> None:
        """Raise :class:`IllegalActionError` unless ``action`` may be applied at this state."""
        if self.phase is Phase.TERMINAL:
            raise IllegalActionError(f"action {action}: the game is over, no action applies")
        if self.phase in _CHANCE:
            who, legal = "chance", [a for a, _ in self.chance_outcomes()]
        else:
            seat = self.current_player()
            who, legal = f"seat {seat}", self._legal_actions(seat)
        if action not in legal:
            raise IllegalActionError(
                f"action {action} is not legal at the {self.phase.name} phase ({who}); "
                f"the legal actions are {_actions_text(legal)}"
            )

    def _apply_action(self, action: int) -> None:
        self._check_legal(int(action))
        phase = self.phase
        if phase is Phase.DEAL:
            self.dealt.append(int(action))
            if len(self.dealt) == self.config.layout.n_cells:
                self.phase = Phase.FIRST_SEAT
        elif phase is Phase.FIRST_SEAT:
            self._start(int(action))
        elif phase is Phase.ROLL:
            self._rolled(int(action))
        elif phase is Phase.KEEP:
            keep = _keep_dice()[int(action)]
            if keep == self._turn.dice:
                self._turn.stopped = True
                self._dice_final()
            else:
                self.pending_keep = int(action)
                self.phase = Phase.ROLL
        elif phase is Phase.PLACE:
            self._game.place(int(action) - PLACE_BASE, self._turn.dice)
            self._next_turn()
        elif phase is Phase.HAPPY_HOUR:
            self._happy_hour(HappyHourEffect(int(action) + 1))
        else:
            self._end_without_placement(
                int(self._effect), int(action) - happy_hour_base(self.config.layout.n_cells)
            )

    def _start(self, first: int) -> None:
        config = self.config
        state = empty_state(config.layout.n_cells, config.players)
        state.cell_coaster[:] = self.dealt
        state.cell_side[:] = config.sides
        E.start_game(state, first, config.start_scores, config.rules.tokens)
        self.game = Game(config, state)
        self._next_turn()

    def _rolled(self, hand: int) -> None:
        dice = hand_tuples()[hand]
        if self.turn is None:
            self.turn = Turn.from_dice(self._game, dice)
        else:
            self._turn.keep_to(_keep_dice()[self.pending_keep], dice)
        if self._turn.is_done:
            self._dice_final()
        else:
            self.phase = Phase.KEEP

    def _dice_final(self) -> None:
        ending = self._game.turn_ending(self._turn.dice, self._turn.rolls_used)
        if ending is TurnEnding.PLACE:
            self.phase = Phase.PLACE
        elif ending is TurnEnding.HAPPY_HOUR:
            self.phase = Phase.HAPPY_HOUR
        else:
            self._end_without_placement(None, None)

    def _happy_hour(self, effect: HappyHourEffect) -> None:
        options = self._game.happy_hour_options(effect)
        if len(options) >= 2:
            self.effect, self.phase = effect, Phase.HAPPY_HOUR_CHOICE
        else:
            self._end_without_placement(int(effect), options[0] if options else None)

    def _end_without_placement(self, effect: int | None, option: int | None) -> None:
        self._game.end_turn_without_placement(
            self._turn.dice, effect, option, rolls_used=self._turn.rolls_used
        )
        self._next_turn()

    def _next_turn(self) -> None:
        self.turn, self.effect, self.pending_keep = None, None, 0
        self.phase = Phase.TERMINAL if self._game.is_over else Phase.ROLL

    # ---------------------------------------------------------------- text

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            phase = self.phase
            if phase is Phase.DEAL:
                cell = len(self.dealt)
                return f"deal {self.config.catalogue.coasters[action].id} to cell {cell}"
            if phase is Phase.FIRST_SEAT:
                return f"seat {action} plays first"
            if phase is Phase.ROLL:
                return f"roll {list(hand_tuples()[action])}"
            return f"Happy Hour die {action + 1}"
        if action < PLACE_BASE:
            return f"keep {list(_keep_dice()[action])}"
        base = happy_hour_base(self.config.layout.n_cells)
        if action < base:
            return f"place on cell {action - PLACE_BASE}"
        return f"Happy Hour option {action - base}"

    def __str__(self) -> str:
        return self.describe()

    def describe(self) -> str:
        """The phase, the dice and the board as text."""
        if self.game is None:
            ids = [self.config.catalogue.coasters[c].id for c in self.dealt]
            return f"{self.phase.name.lower()}: dealt {ids}"
        head = self.phase.name.lower()
        if self.turn is not None:
            head += f", dice {list(self.turn.dice)}, {self.turn.rolls_left} re-rolls left"
        if self.effect is not None:
            head += f", Happy Hour {self.effect.name}"
        return f"{head}\n{self.game}"


pyspiel.register_game(_GAME_TYPE, PinaColadiceGame)

__all__ = [
    "DEFAULTS",
    "KEEP_BASE",
    "PLACE_BASE",
    "SHORT_NAME",
    "Phase",
    "PinaColadiceGame",
    "PinaColadiceObserver",
    "PinaColadiceState",
    "config_of",
    "happy_hour_base",
]
