"""Replaying a record through the public :class:`~pinastats.game.game.Game` API, checked.

:func:`replay` sets the recorded board up again, then for every turn draws
each roll again from the recorded generator state (the dice kept plus the
re-rolled ones must be the recorded roll), re-applies the placement or the
pass (and the Happy Hour die, drawn again after the last roll) and compares
the points and every seat's score with the record; at the end, the result.
The first difference raises :class:`~pinastats.records.format.RecordError`
naming the game, the turn and the field.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from pinastats import _engine as E
from pinastats._engine import TurnEnding, empty_state
from pinastats.errors import PinastatsError, expect_instance
from pinastats.game.catalogue import load_catalogue
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.game.layout import load_layout
from pinastats.game.notation import parse_position
from pinastats.game.rules import EndReason, Rules, Trigger
from pinastats.game.turn import part_of, roll_dice
from pinastats.records.draws import generator_at
from pinastats.records.format import (
    GameRecord,
    RecordedTurn,
    RecordError,
    catalogue_digest,
    layout_digest,
)

Visit = Callable[[int, Game, RecordedTurn], None]
"""Called with the turn number (1-based), the game before the turn (a copy) and the turn."""


def record_config(record: GameRecord, config: GameConfig | None = None) -> GameConfig:
    """The config a record was played with: its rules on the layout and catalogue in use.

    Without ``config`` the shipped layout of the record's name and the shipped
    catalogue are used; either must have the record's digest (a record from
    another layout or catalogue is refused).
    """
    expect_instance(record, GameRecord, "record", "read_records() or record_games()")
    if config is not None:
        expect_instance(config, GameConfig, "config", "GameConfig(...)")
    where = f"game {record.game}"
    try:
        layout = load_layout(record.layout) if config is None else config.layout
        catalogue = load_catalogue() if config is None else config.catalogue
        rules = Rules(**record.rules)
    except (PinastatsError, TypeError) as exc:
        raise RecordError(f"{where}: cannot set the game up again: {exc}") from None
    if layout_digest(layout) != record.layout_digest:
        raise RecordError(
            f"{where} was played on the layout {record.layout!r} (digest "
            f"{record.layout_digest}); the layout in use, {layout.name!r}, has digest "
            f"{layout_digest(layout)}: give the record's layout (--layout)"
        )
    if catalogue_digest(catalogue) != record.catalogue_digest:
        raise RecordError(
            f"{where} was played with another coaster catalogue (digest "
            f"{record.catalogue_digest}; the one in use has {catalogue_digest(catalogue)}): "
            "give the record's catalogue (--coasters)"
        )
    try:
        return GameConfig(
            players=record.players,
            catalogue=catalogue,
            layout=layout,
            rules=rules,
            starting_scores=record.start_scores,
        )
    except PinastatsError as exc:
        raise RecordError(f"{where}: cannot set the game up again: {exc}") from None


def _check(ok: bool, where: str, field: str, recorded: object, replayed: object) -> None:
    if not ok:
        raise RecordError(
            f"{where}: the record does not replay: {field} is {recorded!r} in the record, "
            f"{replayed!r} when replayed"
        )


def _setup(record: GameRecord, config: GameConfig) -> Game:
    """The recorded board, checked against the deal drawn from the recorded generator state.

    A game recorded from a position (``start``) begins from that position's line.
    """
    where = f"game {record.game}, setup"
    if record.start is not None:
        return _setup_from(record, config, where)
    try:
        game = Game.from_board(
            list(record.coasters),
            config=config,
            sides=list(record.sides),
            first_player=record.first,
        )
        rng = generator_at(record.rng["deal"], record.rng["stream"])
    except (PinastatsError, KeyError) as exc:
        raise RecordError(f"{where}: {exc}") from None
    dealt = empty_state(config.layout.n_cells, config.players)
    E.deal(
        rng, dealt, len(config.catalogue), config.sides, config.start_scores, config.rules.tokens
    )
    ids = config.catalogue.ids
    _check(
        list(record.coasters) == [ids[int(c)] for c in dealt.cell_coaster],
        where,
        "the coasters dealt",
        list(record.coasters),
        [ids[int(c)] for c in dealt.cell_coaster],
    )
    _check(
        record.sides == "".join("AB"[int(s)] for s in dealt.cell_side),
        where,
        "sides",
        record.sides,
        "".join("AB"[int(s)] for s in dealt.cell_side),
    )
    if record.rng.get("first") != "fixed":
        first = int(dealt.status[0]["first"])
        _check(record.first == first, where, "the first seat", record.first, first)
    return game


def _rolls(turn: RecordedTurn, stream: str, rolls_allowed: int, where: str) -> np.random.Generator:
    """Check the rolls, keeps and draws of a turn; the generator after its last roll."""
    n = len(turn.rolls)
    if not 1 <= n <= rolls_allowed:
        raise RecordError(f"{where}: {n} rolls; a turn rolls 1 to {rolls_allowed} times")
    if len(turn.keeps) != n - 1 or len(turn.draws) != n:
        raise RecordError(
            f"{where}: {n} rolls need {n - 1} keeps and {n} draws, got {len(turn.keeps)} "
            f"keeps and {len(turn.draws)} draws"
        )
    rng = None
    for i, dice in enumerate(turn.rolls):
        kept = () if i == 0 else turn.keeps[i - 1]
        if i and (kept == turn.rolls[i - 1] or not part_of(kept, turn.rolls[i - 1])):
            raise RecordError(
                f"{where}: keep {i} {list(kept)} is not a re-roll of the dice "
                f"{list(turn.rolls[i - 1])} (part of them, not all five)"
            )
        try:
            rng = generator_at(turn.draws[i], stream)
        except PinastatsError as exc:
            raise RecordError(f"{where}, roll {i + 1}: {exc}") from None
        drawn = roll_dice(rng, kept)
        _check(tuple(dice) == drawn, f"{where}, roll {i + 1}", "the dice", list(dice), list(drawn))
    assert rng is not None
    return rng


def _play(game: Game, turn: RecordedTurn, rng: np.random.Generator, where: str) -> None:
    """Re-apply the placement or the pass of a turn and check its points and Happy Hour."""
    dice = turn.rolls[-1]
    if turn.cell is not None:
        try:
            points = game.place(turn.cell, dice)
        except PinastatsError as exc:
            raise RecordError(
                f"{where}: the placement on cell {turn.cell} is refused: {exc}"
            ) from None
        _check(turn.points == points, where, "points", turn.points, points)
        coaster = game.coaster(turn.cell).id
        _check(turn.coaster == coaster, where, "coaster", turn.coaster, coaster)
        _check(turn.side == game.side(turn.cell), where, "side", turn.side, game.side(turn.cell))
        return
    die = option = None
    if game.turn_ending(dice, len(turn.rolls)) is TurnEnding.HAPPY_HOUR:
        die = int(E.draw_happy_hour(rng))
        hh = turn.happy_hour
        _check(
            hh is not None and hh.die == die,
            where,
            "the Happy Hour die",
            None if hh is None else hh.die,
            die,
        )
        assert hh is not None
        option = hh.option
    elif turn.happy_hour is not None:
        raise RecordError(f"{where}: a Happy Hour die in a turn that rolls none")
    _check(turn.points == 0, where, "points", turn.points, 0)
    try:
        game.end_turn_without_placement(dice, die, option, rolls_used=len(turn.rolls))
    except PinastatsError as exc:
        raise RecordError(f"{where}: the turn without placement is refused: {exc}") from None


def _setup_from(record: GameRecord, config: GameConfig, where: str) -> Game:
    """The position a record began from, checked against its board, sides and first seat."""
    assert record.start is not None
    try:
        game = parse_position(record.start, config=config)
    except PinastatsError as exc:
        raise RecordError(f"{where}: the starting position is refused: {exc}") from None
    ids = config.catalogue.ids
    coasters = [ids[int(c)] for c in game.state.cell_coaster]
    sides = "".join(game.side(c) for c in range(config.layout.n_cells))
    recorded = list(record.coasters)
    _check(recorded == coasters, where, "the coasters", recorded, coasters)
    _check(record.sides == sides, where, "sides", record.sides, sides)
    _check(record.first == game.first_player, where, "the first seat", record.first,
           game.first_player)  # fmt: skip
    return game


def replay(
    record: GameRecord, config: GameConfig | None = None, visit: Visit | None = None
) -> Game:
    """Play the recorded game again, checking every roll, placement and score; the final game.

    ``visit`` (if given) sees each turn with a copy of the game before it.
    Raises :class:`RecordError` at the first difference (game, turn, field).
    """
    expect_instance(record, GameRecord, "record", "read_records() or record_games()")
    config = record_config(record, config)
    game = _setup(record, config)
    for number, turn in enumerate(record.turns, start=1):
        where = f"game {record.game}, turn {number}"
        if game.is_over:
            raise RecordError(
                f"{where}: the game ended after turn {number - 1}; the record goes on"
            )
        _check(turn.seat == game.to_move, where, "the seat", turn.seat, game.to_move)
        if visit is not None:
            visit(number, game.copy(), turn)
        rng = _rolls(turn, record.rng["stream"], config.rules.rolls, where)
        _play(game, turn, rng, where)
        _check(
            turn.scores == game.scores, where, "the scores", list(turn.scores), list(game.scores)
        )
    where = f"game {record.game}, result"
    if not game.is_over and record.reason == EndReason.ONGOING.name:  # a game still in play
        _check(record.scores == game.scores, where, "the scores", list(record.scores),
               list(game.scores))  # fmt: skip
        return game
    if not game.is_over:
        raise RecordError(
            f"{where}: the record stops after turn {len(record.turns)}, before the end of the game"
        )
    _check(record.winner == game.winner, where, "the winner", record.winner, game.winner)
    _check(
        record.reason == EndReason(game.end_reason).name,
        where,
        "the end reason",
        record.reason,
        game.end_reason.name,
    )
    _check(
        record.trigger == Trigger(game.trigger).name,
        where,
        "the trigger",
        record.trigger,
        game.trigger.name,
    )
    _check(
        record.scores == game.scores,
        where,
        "the final scores",
        list(record.scores),
        list(game.scores),
    )
    return game
