"""Playing single games turn by turn: the readable Python path and the kernel path.

Both paths call the same rule kernels and draw from the generator in the same
order, so with the same seed they play the very same game.
"""

from __future__ import annotations

import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pinastats import _engine as E
from pinastats._engine import TurnEnding, turn_tables
from pinastats.agents.builtin import Agent, AgentKind, is_built_in
from pinastats.agents.loading import resolve_agent
from pinastats.agents.protocol import AgentProtocol
from pinastats.errors import AgentFailedError, PinastatsError, expect_instance
from pinastats.game.game import Game, IllegalMoveError, Seed, as_generator
from pinastats.game.rules import HappyHourEffect
from pinastats.game.turn import Dice, Turn, checked_keep


@dataclass
class TurnRecord:
    """What happened in one turn played by :func:`play_turn`.

    ``rolls`` holds the dice after each roll (so ``rolls_used`` is its length),
    ``keeps`` the dice kept before each re-roll. ``happy_hour`` is the die rolled
    (only after a turn that used all its rolls and could place nothing) and
    ``happy_hour_option`` the choice made (``None``: the effect could not apply).
    """

    player: int
    rolls: list[tuple[int, ...]] = field(default_factory=list)
    keeps: list[tuple[int, ...]] = field(default_factory=list)
    cell: int | None = None
    points: int = 0
    happy_hour: HappyHourEffect | None = None
    happy_hour_option: int | None = None

    @property
    def rolls_used(self) -> int:
        """How many times the dice were rolled this turn."""
        return len(self.rolls)


def _ask(agent: AgentProtocol, at: tuple[int, int] | None, decision: str, *args: Any) -> Any:
    """``agent.<decision>(*args)``; what one's own agent raises comes back as AgentFailedError.

    ``at`` is the turn (0-based) and the seat of the decision, read before the
    agent runs; ``None`` for a built-in agent, whose exceptions pass unchanged
    (they are pinastats' own). The error keeps the agent's frames of the traceback.
    """
    method = getattr(agent, decision)
    if at is None:
        return method(*args)
    try:
        return method(*args)
    except Exception as error:
        frames = error.__traceback__.tb_next if error.__traceback__ is not None else None
        details = "".join(traceback.format_exception(type(error), error, frames))
        raised = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
        where = f"turn {at[0] + 1}, seat {at[1]}"
        raise AgentFailedError(agent.name, decision, where, raised, details) from error


def _agent_keep(
    agent: AgentProtocol,
    at: tuple[int, int] | None,
    game: Game,
    turn: Turn,
    rng: np.random.Generator,
) -> Dice:
    keep = _ask(agent, at, "choose_keep", game, turn.dice, turn.rolls_left, rng)
    try:
        return checked_keep(keep, turn.dice)
    except PinastatsError as error:
        raise IllegalMoveError(f"agent {agent.name!r} chose a bad keep: {error}") from None


def play_turn(game: Game, agent: AgentProtocol | str, rng: np.random.Generator) -> TurnRecord:
    """Play the mover's turn step by step in Python, with the agent's decisions.

    The phases and the random draws are those of the kernel turn
    (:mod:`pinastats._engine.turn`): the same seed plays the same turn. The
    agent's choices are checked (a keep must be part of the dice, a cell legal,
    a Happy Hour choice one of the options). ``agent`` may be a name (``"ev"``).
    An exception raised by one's own agent is raised as
    :class:`~pinastats.errors.AgentFailedError`, naming the decision.
    """
    expect_instance(game, Game, "game", "Game.new()")
    if game.is_over:
        raise IllegalMoveError(f"the game is over: {game.end_reason}")
    if not isinstance(rng, np.random.Generator):
        raise PinastatsError(
            "rng must be a numpy.random.Generator, the same one for every turn "
            f"(e.g. rng = numpy.random.default_rng(1)), got {rng!r}"
        )
    if isinstance(agent, str):
        agent = resolve_agent(agent)
    at = None if is_built_in(agent) else (game.turn, game.to_move)
    record = TurnRecord(player=game.to_move)
    _ask(agent, at, "start_turn", game)
    turn = Turn.start(game, rng)
    while not turn.is_done:
        turn.keep(_agent_keep(agent, at, game, turn, rng), rng)
    record.rolls, record.keeps = list(turn.rolls), list(turn.keeps)
    dice = turn.dice
    ending = game.turn_ending(dice, record.rolls_used)
    if ending is TurnEnding.PLACE:
        legal = game.legal_cells(dice)
        cell = _ask(agent, at, "choose_placement", game, dice, rng)
        if cell not in legal:
            raise IllegalMoveError(
                f"agent {agent.name!r} chose cell {cell!r}; the legal cells with the dice "
                f"{list(dice)} are {list(legal)}"
            )
        record.cell = int(cell)
        record.points = game.place(record.cell, dice)
        return record
    effect = option = None
    if ending is TurnEnding.HAPPY_HOUR:
        effect = HappyHourEffect(int(E.draw_happy_hour(rng)))
        options = game.happy_hour_options(effect)
        if options:
            option = _ask(agent, at, "choose_happy_hour", game, effect, options, rng)
            if option not in options:
                raise IllegalMoveError(
                    f"agent {agent.name!r} chose Happy Hour option {option!r} for "
                    f"{effect.name}; the options are {options}"
                )
        record.happy_hour, record.happy_hour_option = effect, option
    game.end_turn_without_placement(
        dice, None if effect is None else int(effect), option, rolls_used=record.rolls_used
    )
    return record


def play_turn_fast(game: Game, agent: Agent, rng: np.random.Generator) -> bool:
    """Play the mover's turn in one kernel call; return True when the game is over.

    The turn is the game loop's (:func:`pinastats._engine.turn._play_turn`):
    the same draws, the same game. The ``rollout`` agent, whose turn is mostly
    its play-outs (kernel calls either way), plays on the readable path.
    """
    if game.is_over:
        raise IllegalMoveError(f"the game is over: {game.end_reason}")
    if agent.kind is AgentKind.ROLLOUT:
        play_turn(game, agent, rng)
        return game.is_over
    board, state = game.config.board, game.state
    params, tables = agent.param_vector(), turn_tables(game.config.rules.rolls)
    work = agent._work(game)
    return bool(E.policy_turn(agent.code, params, board, state, tables, work, E.generator_rng(rng)))


def play_game(
    game: Game, agents: Sequence[AgentProtocol | str], seed: Seed = None, *, fast: bool = True
) -> Game:
    """Play ``game`` to its end; ``agents[p]`` plays seat ``p``. Returns the game.

    ``fast`` plays built-in agents' turns in one kernel call; other agents always
    play on the readable path.
    """
    expect_instance(game, Game, "game", "Game.new()")
    if len(agents) != game.players:
        raise PinastatsError(f"{len(agents)} agents for {game.players} players: name one per seat")
    seats = [resolve_agent(a) for a in agents]
    rng = as_generator(seed)
    while not game.is_over:
        agent = seats[game.to_move]
        if fast and isinstance(agent, Agent):
            play_turn_fast(game, agent, rng)
        else:
            play_turn(game, agent, rng)
    return game
