"""Bots both ways: a pinastats agent as an OpenSpiel bot, an OpenSpiel bot as a pinastats agent.

* :class:`PinastatsBot` (a ``pyspiel.Bot``) plays a seat of
  ``python_pina_coladice`` with any agent of the
  :class:`~pinastats.agents.protocol.AgentProtocol` (``"ev"``, one's own, ...);
* :class:`OpenSpielAgent` plays a seat of a pinastats game (in
  :func:`~pinastats.simulation.simulate` too) with an OpenSpiel bot, made
  afresh for each decision by ``make_bot(game, seed)`` from a seed drawn from the
  game's generator: the same seed plays the same games. It pickles when
  ``make_bot`` does (a module-level function or a ``functools.partial`` of one,
  like :func:`mcts_bot`).

>>> from functools import partial
>>> agent = OpenSpielAgent(partial(mcts_bot, simulations=100), name="mcts100")
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

from pinastats.agents.builtin import make_agent
from pinastats.agents.protocol import AgentProtocol
from pinastats.dice.errors import whole_number
from pinastats.dice.hands import keep_index_by_dice
from pinastats.errors import PinastatsError
from pinastats.game.config import MAX_PLAYERS, GameConfig
from pinastats.game.game import Game
from pinastats.game.rules import HappyHourEffect
from pinastats.game.turn import Turn
from pinastats.integrations.openspiel import (
    PLACE_BASE,
    Phase,
    PinaColadiceGame,
    PinaColadiceState,
    _keep_dice,
    happy_hour_base,
)

BotFactory = Callable[[Any, int], Any]
"""``make_bot(pyspiel_game, seed) -> pyspiel.Bot``."""


def mcts_bot(game: Any, seed: int, simulations: int = 100, uct_c: float = 2.0) -> Any:
    """OpenSpiel's ``MCTSBot`` with one random roll-out per leaf, seeded by ``seed``."""
    from open_spiel.python.algorithms import mcts  # type: ignore[import-not-found, import-untyped, unused-ignore]

    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    return mcts.MCTSBot(
        game,
        uct_c,
        simulations,
        evaluator,
        solve=False,
        random_state=np.random.RandomState(seed + 1),
    )


class PinastatsBot(pyspiel.Bot):  # type: ignore[misc]
    """A pinastats agent (a name or an :class:`AgentProtocol` object) as an OpenSpiel bot.

    ``player_id`` is the seat it plays: 0 to 3 here, and below the players of the
    game whose states it is asked about (checked at each :meth:`step`).
    """

    def __init__(self, player_id: int, agent: AgentProtocol | str, seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        self._player_id = whole_number(player_id, "player id", 0, MAX_PLAYERS - 1, PinastatsError)
        self.agent = make_agent(agent)
        self._rng = np.random.default_rng(seed)
        self._turn_started: tuple[int, int] | None = None

    def player_id(self) -> int:
        """The seat this bot plays."""
        return self._player_id

    def restart_at(self, state: PinaColadiceState) -> None:
        """Forget the turn in progress (a new game, or a jump to another state)."""
        self._turn_started = None

    def provides_policy(self) -> bool:
        """No policy: the agent picks one action."""
        return False

    def step(self, state: PinaColadiceState) -> int:
        """The agent's action at ``state`` (a keep, a cell, or a Happy Hour option)."""
        game = state.game
        if game is None or state.is_chance_node() or state.is_terminal():
            raise PinastatsError(f"no decision for a bot at the {state.phase.name} phase")
        if self._player_id >= game.players:
            raise PinastatsError(
                f"player id {self._player_id} is no seat of this {game.players}-player game "
                f"(seats 0 to {game.players - 1})"
            )
        game = game.copy()
        key = (game.turn, game.state.status[0]["placements"])
        if self._turn_started != key:
            self.agent.start_turn(game)
            self._turn_started = key
        if state.phase is Phase.KEEP:
            turn = state.turn
            assert turn is not None
            keep = self.agent.choose_keep(game, turn.dice, turn.rolls_left, self._rng)
            return keep_index_by_dice()[tuple(sorted(keep))]
        if state.phase is Phase.PLACE:
            assert state.turn is not None
            return PLACE_BASE + self.agent.choose_placement(game, state.turn.dice, self._rng)
        assert state.effect is not None
        options = game.happy_hour_options(state.effect)
        option = self.agent.choose_happy_hour(game, state.effect, options, self._rng)
        return happy_hour_base(game.config.layout.n_cells) + option


class OpenSpielAgent:
    """An OpenSpiel bot as a pinastats agent (meets :class:`AgentProtocol`).

    Each decision builds the ``python_pina_coladice`` state of the position
    (the game's own config) and asks a bot made by ``make_bot(game, seed)``.
    """

    def __init__(self, make_bot: BotFactory, name: str = "openspiel") -> None:
        self.make_bot = make_bot
        self._name = name
        self._games: dict[int, tuple[GameConfig, PinaColadiceGame]] = {}

    @property
    def name(self) -> str:
        """The name given."""
        return self._name

    def __getstate__(self) -> dict[str, Any]:
        return {"make_bot": self.make_bot, "_name": self._name}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._games = {}

    def _spiel_game(self, config: GameConfig) -> PinaColadiceGame:
        entry = self._games.get(id(config))
        if entry is None or entry[0] is not config:
            entry = (config, PinaColadiceGame.for_config(config))
            self._games[id(config)] = entry
        return entry[1]

    def _ask(self, state: PinaColadiceState, rng: np.random.Generator) -> int:
        bot = self.make_bot(state.get_game(), int(rng.integers(2**31 - 1)))
        return int(bot.step(state))

    def start_turn(self, game: Game) -> None:
        """Nothing to prepare: the bot searches at each decision."""

    def choose_keep(
        self, game: Game, dice: Sequence[int], rolls_left: int, rng: np.random.Generator
    ) -> tuple[int, ...]:
        """The bot's keep (its action is a keep index)."""
        rolls = game.config.rules.rolls
        used = rolls - int(rolls_left)
        turn = Turn(game.to_move, rolls, [tuple(sorted(dice))] * used)
        state = PinaColadiceState.at(self._spiel_game(game.config), game, turn, Phase.KEEP)
        return _keep_dice()[self._ask(state, rng)]

    def choose_placement(self, game: Game, dice: Sequence[int], rng: np.random.Generator) -> int:
        """The bot's cell."""
        rolls = game.config.rules.rolls
        turn = Turn(game.to_move, rolls, [tuple(sorted(dice))] * rolls)
        state = PinaColadiceState.at(self._spiel_game(game.config), game, turn, Phase.PLACE)
        return self._ask(state, rng) - PLACE_BASE

    def choose_happy_hour(
        self, game: Game, effect: HappyHourEffect, options: list[int], rng: np.random.Generator
    ) -> int:
        """The bot's Happy Hour option (the only one when there is one)."""
        if len(options) == 1:
            return options[0]
        rolls = game.config.rules.rolls
        turn = Turn(game.to_move, rolls, [(1, 1, 1, 1, 1)] * rolls)
        state = PinaColadiceState.at(
            self._spiel_game(game.config), game, turn, Phase.HAPPY_HOUR_CHOICE, effect
        )
        return self._ask(state, rng) - happy_hour_base(game.config.layout.n_cells)

    def __repr__(self) -> str:
        return f"<OpenSpiel agent {self._name}>"
