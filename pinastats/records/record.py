"""Recording games: the readable turn of :func:`~pinastats.simulation.play.play_turn`, kept.

:func:`record_chunk` plays a chunk of :func:`~pinastats.simulation.simulate`
on the Python path (the same deal and draws as the kernel chunk, see
:func:`pinastats.simulation.chunk.run_python_chunk`) and keeps every game as a
:class:`~pinastats.records.format.GameRecord`; :func:`record_games` records a
whole run, and :func:`record_run` plays a run with ``simulate`` and writes the
record of each of its games to a file. The same seed and chunk size give the
games ``simulate`` reports.

Speed: every decision is made through Python, about 60-90 games a second of
simple agents on one core, against thousands for the kernel chunk.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from pinastats import _engine as E
from pinastats._engine import empty_state
from pinastats._files import check_output
from pinastats.agents.loading import resolve_agent
from pinastats.agents.protocol import AgentProtocol
from pinastats.dice.errors import at_least_or_none, is_whole
from pinastats.errors import PinastatsError
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.game.notation import notation_of
from pinastats.game.rules import EndReason, HappyHourEffect, Trigger
from pinastats.records.draws import state_text, stream_text
from pinastats.records.format import (
    GameRecord,
    HappyHour,
    RecordedTurn,
    catalogue_digest,
    dice_list,
    layout_digest,
    write_lines,
)
from pinastats.simulation.chunk import ChunkSink, ChunkSpec, check_stop, run_chunk
from pinastats.simulation.limits import check_memory
from pinastats.simulation.plan import plan_run
from pinastats.simulation.play import TurnRecord, play_turn
from pinastats.simulation.result import SimulationResult
from pinastats.simulation.runner import simulate


class _Watched:
    """An agent whose generator state is noted before each roll of its turns.

    The turn rolls right after ``start_turn`` and after each ``choose_keep``
    (unless the keep stops the turn), so the state after those calls is the
    state each roll draws from.
    """

    def __init__(self, agent: AgentProtocol, rng: np.random.Generator) -> None:
        self.agent, self.rng = agent, rng
        self.draws: list[str] = []

    @property
    def name(self) -> str:
        return self.agent.name

    def start_turn(self, game: Game) -> None:
        self.agent.start_turn(game)
        self.draws = [state_text(self.rng)]

    def choose_keep(
        self, game: Game, dice: Sequence[int], rolls_left: int, rng: np.random.Generator
    ) -> Sequence[int]:
        keep = self.agent.choose_keep(game, dice, rolls_left, rng)
        self.draws.append(state_text(rng))
        return keep

    def choose_placement(self, game: Game, dice: Sequence[int], rng: np.random.Generator) -> int:
        return self.agent.choose_placement(game, dice, rng)

    def choose_happy_hour(
        self, game: Game, effect: HappyHourEffect, options: list[int], rng: np.random.Generator
    ) -> int:
        return self.agent.choose_happy_hour(game, effect, options, rng)


def _turn_entry(game: Game, turn: TurnRecord, draws: list[str]) -> RecordedTurn:
    happy = None
    if turn.happy_hour is not None:
        happy = HappyHour(int(turn.happy_hour), turn.happy_hour.name, turn.happy_hour_option)
    cell = turn.cell
    return RecordedTurn(
        seat=turn.player,
        rolls=dice_list(turn.rolls),
        keeps=dice_list(turn.keeps),
        draws=tuple(draws[: turn.rolls_used]),
        cell=cell,
        coaster=None if cell is None else game.coaster(cell).id,
        side=None if cell is None else game.side(cell),
        points=turn.points,
        happy_hour=happy,
        scores=game.scores,
    )


def setup_fields(config: GameConfig) -> dict[str, Any]:
    """The fields of a record fixed by the config: rules, layout, catalogue."""
    r = config.rules
    rules = {
        "happy_hour": r.happy_hour,
        "negative_scores": r.negative_scores,
        "target_score": r.target_score,
        "tokens": r.tokens,
        "rolls": r.rolls,
        "max_turns": r.max_turns,
    }
    return {
        "rules": rules,
        "layout": config.layout.name,
        "layout_digest": layout_digest(config.layout),
        "catalogue_digest": catalogue_digest(config.catalogue),
    }


def record_game(
    config: GameConfig,
    agents: Sequence[AgentProtocol],
    rng: np.random.Generator,
    *,
    first_seat: int = -1,
    game_index: int = 0,
    seed: int | None = None,
    chunk_size: int | None = None,
    start: Game | None = None,
) -> GameRecord:
    """Deal a game from ``rng`` (first seat drawn, or ``first_seat``), play and record it.

    ``start`` (a game of ``config``) is played on from its position instead of a
    deal; the record keeps that position's line (``start``).
    """
    if len(agents) != config.players:
        raise PinastatsError(
            f"{len(agents)} agents for {config.players} players: name one per seat"
        )
    if not is_whole(first_seat) or not -1 <= first_seat < config.players:
        raise PinastatsError(
            f"first seat must be -1 (drawn) or 0 to {config.players - 1}, got {first_seat!r}"
        )
    seed = at_least_or_none(seed, "seed", 0)
    chunk_size = at_least_or_none(chunk_size, "chunk size", 1)
    agents = [resolve_agent(a) for a in agents]
    deal = state_text(rng)
    if start is not None:
        if start.config != config:
            raise PinastatsError("the starting position must be a game of the config given")
        if start.is_over:
            raise PinastatsError(f"the starting position is over: {start.end_reason}")
        game = start.copy()
        state = game.state
    else:
        state = empty_state(config.layout.n_cells, config.players)
        E.deal(
            rng,
            state,
            len(config.catalogue),
            config.sides,
            config.start_scores,
            config.rules.tokens,
        )
        if first_seat >= 0:
            E.start_game(state, first_seat, config.start_scores, config.rules.tokens)
        game = Game(config, state)
    opening = None if start is None else notation_of(start)
    watched = [_Watched(a, rng) for a in agents]
    ids = config.catalogue.ids
    coasters = tuple(ids[int(c)] for c in state.cell_coaster)
    sides = "".join("AB"[int(s)] for s in state.cell_side)
    start_scores = tuple(int(x) for x in config.start_scores)
    turns = []
    while not game.is_over:
        check_stop()  # a stopped run does not wait for its chunks' games to end
        seat = watched[game.to_move]
        turn = play_turn(game, seat, rng)
        turns.append(_turn_entry(game, turn, seat.draws))
    rng_fields = {
        "stream": stream_text(rng),
        "deal": deal,
        "first": "fixed" if first_seat >= 0 or start is not None else "drawn",
    }
    return GameRecord(
        seed=seed,
        game=game_index,
        agents=tuple(a.name for a in agents),
        **setup_fields(config),
        coasters=coasters,
        sides=sides,
        start_scores=start_scores,
        first=game.first_player,
        rng=rng_fields,
        turns=tuple(turns),
        winner=game.winner,
        reason=EndReason(game.end_reason).name,
        trigger=Trigger(game.trigger).name,
        scores=game.scores,
        chunk_size=chunk_size,
        start=opening,
    )


def record_chunk(spec: ChunkSpec, *, seed: int | None, chunk_size: int) -> list[GameRecord]:
    """Play and record the games of a chunk of a run: the games the run's table reports.

    One generator per chunk from its ``SeedSequence``, agents deep-copied per
    chunk, as :func:`pinastats.simulation.chunk.run_python_chunk` does.
    """
    rng = np.random.default_rng(spec.seed)
    agents = copy.deepcopy(spec.agents)
    first = spec.index * chunk_size
    return [
        record_game(
            spec.config,
            agents,
            rng,
            first_seat=spec.first_seat,
            game_index=first + g,
            seed=seed,
            chunk_size=chunk_size,
        )
        for g in range(spec.games)
    ]


def recorded_chunk(spec: ChunkSpec, seed: int, chunk_size: int) -> dict[str, Any]:
    """A chunk's arrays (as :func:`~pinastats.simulation.chunk.run_chunk`) and its JSON records.

    Each game's winner, turns and scores in the records are checked against the
    arrays (the two paths play the same games; a difference is a bug).
    """
    part: dict[str, Any] = dict(run_chunk(spec))
    records = record_chunk(spec, seed=seed, chunk_size=chunk_size)
    for g, r in enumerate(records):
        winner = -1 if r.winner is None else r.winner
        same = (
            winner == part["winner"][g]
            and len(r.turns) == part["turns"][g]
            and list(r.scores) == list(part["scores"][g])
        )
        if not same:
            raise AssertionError(f"game {r.game}: the record and the per-game table differ")
    part["records"] = [r.to_json() for r in records]
    return part


def record_games(
    agents: Sequence[AgentProtocol | str],
    games: int,
    *,
    seed: int = 0,
    config: GameConfig | None = None,
    first_seat: int | None = None,
    chunk_size: int | None = None,
) -> list[GameRecord]:
    """Play and record ``games`` games: the games ``simulate`` plays with the same arguments.

    ``agents[p]`` sits in seat ``p`` (built-in names or any
    :class:`~pinastats.agents.protocol.AgentProtocol`); ``first_seat=None``
    draws the first player of each game.
    """
    plan = plan_run(
        agents, games, seed=seed, config=config, first_seat=first_seat, chunk_size=chunk_size
    )
    out: list[GameRecord] = []
    for spec in plan.chunks():
        out.extend(record_chunk(spec, seed=plan.seed, chunk_size=plan.chunk_size))
    return out


def record_run(
    agents: Sequence[AgentProtocol | str],
    games: int,
    path: str | Path,
    *,
    seed: int = 0,
    config: GameConfig | None = None,
    players: int | None = None,
    first_seat: int | None = None,
    chunk_size: int | None = None,
    chunk_sink: ChunkSink | None = None,
    **settings: Any,
) -> SimulationResult:
    """Play a run as :func:`~pinastats.simulation.simulate` does, writing each game's record.

    The arguments are ``simulate``'s (``settings``: ``workers``, ``engine``,
    ``scheduler``, ``executor``, ``progress``, ...), and so are the games and
    the result. Each chunk is also played on the readable Python path
    (:func:`record_chunk`, much slower), each game checked against the
    per-game table; once every chunk is in, the records are written in game
    order to ``path``, one JSON line a game (``docs/records.md``): a stopped
    run writes none. ``chunk_sink`` gets each chunk's arrays, as in ``simulate``.
    """
    plan = plan_run(
        agents,
        games,
        seed=seed,
        config=config,
        players=players,
        first_seat=first_seat,
        chunk_size=chunk_size,
    )
    target = Path(path)
    if target.is_dir():
        raise PinastatsError(f"record file {str(path)!r} is a directory: give a file name")
    if not target.parent.is_dir():
        raise PinastatsError(f"record file {str(path)!r}: its folder does not exist")
    check_output(target)  # e.g. a read-only folder: refused before the games
    if chunk_sink is None:  # the run keeps every game, as simulate does without a sink
        check_memory(plan.games, plan.config)
    records: dict[int, list[str]] = {}

    def keep_records(index: int, part: dict[str, Any]) -> dict[str, Any]:
        records[index] = part.pop("records")
        return part if chunk_sink is None else chunk_sink(index, part)

    result = simulate(
        plan.agents,
        plan.games,
        seed=plan.seed,
        config=plan.config,
        first_seat=plan.first_seat,
        chunk_size=plan.chunk_size,
        chunk_sink=keep_records,
        play_chunk=functools.partial(recorded_chunk, seed=plan.seed, chunk_size=plan.chunk_size),
        **settings,
    )
    write_lines(target, (line for i in range(len(records)) for line in records[i]))
    return result
