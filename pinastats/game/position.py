"""Game positions as plain data (the JSON state files of ``pinastats advise``).

A position is a mapping: ``players``, ``board``, ``tokens`` (the seat on each
space of each coaster, ``None`` for a free one), ``to_move`` and the optional
``scores`` (worked out from the tokens where the rules fix them), ``sides``,
``layout``, ``first_player``, ``last_placed`` (recency, for ties),
``end_trigger``, ``turns`` (turns played), ``rules`` and ``starting_scores``;
``docs/state-format.md`` documents each field. The same position as one line of
text is :mod:`pinastats.game.notation`.

Reserves are the rule's tokens per player minus the tokens on the board. A
position is judged as at the end of a turn: a player with a full line has won;
a score at the target or an empty reserve has triggered the end, and when the
round is complete (``to_move`` is the first player) the game is over. A position
the rules cannot reach is refused with the reason: scores past what the turns of
the round allow, scores the tokens do not explain without Happy Hour, a seat yet
to play in the round with an empty reserve, and (without Happy Hour) flipped
coasters or tokens gone from the board.

Loading writes the seat on each space into the game's arrays (``state.spaces``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import numpy as np

from pinastats import _engine as E
from pinastats.errors import PinastatsError, expect_instance
from pinastats.game.catalogue import Catalogue, load_catalogue
from pinastats.game.config import VALUE_LIMIT, GameConfig
from pinastats.game.game import Game
from pinastats.game.layout import load_layout
from pinastats.game.rules import EndReason, Rules, Trigger, check_players

REQUIRED = ("players", "board", "tokens", "to_move")
OPTIONAL = (
    "scores",
    "sides",
    "layout",
    "first_player",
    "last_placed",
    "end_trigger",
    "turns",
    "rules",
    "starting_scores",
)
RULE_FIELDS = tuple(f.name for f in dataclasses.fields(Rules))
"""The keys of the ``rules`` field: the options of :class:`~pinastats.game.rules.Rules`."""
TRIGGER_NAMES = {None: Trigger.NONE, "score": Trigger.SCORE, "tokens": Trigger.TOKENS}
DEPTH = 4
"""The deepest nesting of a position: the object, a field's rows, a row's cells, a cell's spaces."""
ROLLER_GAIN, OTHERS_GAIN = 4, 1
"""The most points a Happy Hour die gives in one turn: "gain 4" to the roller, and
"others gain 1" to each other seat (``docs/rules.md``)."""


class PositionError(PinastatsError):
    """A position that breaks the format or the rules; the message names the field."""


class CatalogueTooSmallError(PinastatsError):
    """The catalogue has fewer coasters than the layout has cells (the catalogue's fault)."""


def _int(data: Mapping[str, Any], key: str) -> int:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(f"{key} must be a whole number, got {value!r}")
    return value


def _is_seat(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _per_seat(value: Any, key: str, n: int, least: int | None = None) -> list[int]:
    """A list of ``n`` whole numbers (``least`` to :data:`VALUE_LIMIT`), one per seat."""
    if (
        not isinstance(value, list)
        or len(value) != n
        or not all(_is_seat(x) and (least is None or least <= x <= VALUE_LIMIT) for x in value)
    ):
        bound = "" if least is None else f" from {least} to {VALUE_LIMIT:,}"
        raise PositionError(
            f"{key} must list {n} whole numbers{bound} (one per seat), got {value!r}"
        )
    return [int(x) for x in value]


def _check_depth(data: Mapping[str, Any]) -> None:
    """Refuse lists and objects nested deeper than a position's :data:`DEPTH` levels."""
    pending: list[tuple[Any, int, str]] = [(data, 1, "")]
    while pending:
        value, depth, where = pending.pop()
        items: list[tuple[str, Any]]
        if isinstance(value, Mapping):
            items = [(f"{where}.{k}" if where else str(k), v) for k, v in value.items()]
        elif isinstance(value, list | tuple):
            items = [(f"{where}[{i}]", v) for i, v in enumerate(value)]
        else:
            continue
        if depth > DEPTH:
            raise PositionError(
                f"{where} nests too deeply: a position nests lists at most {DEPTH} levels "
                "deep (the object, a field's rows, a row's cells, a cell's spaces)"
            )
        pending.extend((v, depth + 1, w) for w, v in items)


def _rows(data: Mapping[str, Any], key: str, shape: tuple[int, int] | None, n: int) -> list[Any]:
    value = data[key]
    if not isinstance(value, list):
        raise PositionError(f"{key} must be a list of rows, got {type(value).__name__}")
    flat: list[Any] = []
    for r, row in enumerate(value):
        if isinstance(row, str) and key == "sides":
            row = list(row)
        if not isinstance(row, list):
            raise PositionError(f"{key}[{r}] must be a list, got {row!r}")
        flat.extend(row)
    if len(flat) != n:
        where = f" ({shape[0]} rows of {shape[1]})" if shape else ""
        raise PositionError(f"{key} must describe {n} cells{where}, got {len(flat)}")
    return flat


def _config(
    data: Mapping[str, Any],
    catalogue: Catalogue | None,
    rules: Rules | None,
    config: GameConfig | None,
) -> GameConfig:
    """The config of the position: ``config`` if given (it must agree), else built here."""
    players = _int(data, "players")
    check_players(players, PositionError)
    name = data.get("layout", "standard")
    own_rules = _rules(data.get("rules"))
    starting = _starting_scores(data.get("starting_scores"), players)
    if config is not None:
        if catalogue is not None or rules is not None:
            raise TypeError("give either a config or a catalogue and rules, not both")
        if players != config.players or name != config.layout.name:
            raise PositionError(
                f"the position ({players} players, layout {name!r}) disagrees with the "
                f"config ({config.players} players, layout {config.layout.name!r})"
            )
        _agree("rules", own_rules, config.rules)
        if "starting_scores" in data:
            _agree("starting_scores", starting, tuple(int(x) for x in config.start_scores))
        return config
    if own_rules is not None and rules is not None:
        _agree("rules", own_rules, rules)
    rules = own_rules or rules
    layout = load_layout(name)
    catalogue = catalogue or load_catalogue()
    if not isinstance(catalogue, Catalogue):
        raise PositionError(
            f"catalogue must be a Catalogue (load_catalogue(path) makes one), got {catalogue!r}"
        )
    if len(catalogue) < layout.n_cells:  # GameConfig's own message would blame the state file
        source = f" ({catalogue.source})" if catalogue.source else ""
        raise CatalogueTooSmallError(
            f"the coaster catalogue{source} has {len(catalogue)} coasters, fewer than the "
            f"{layout.n_cells} cells of the layout {layout.name!r}; give a catalogue "
            f"with at least {layout.n_cells} coasters"
        )
    try:
        return GameConfig(
            players=players,
            catalogue=catalogue,
            layout=layout,
            rules=rules or Rules(),
            starting_scores=starting,
        )
    except PinastatsError as exc:
        raise PositionError(f"starting_scores: {exc}") from None


def _agree(key: str, given: object, used: object) -> None:
    """Refuse a position whose ``key`` differs from the one the game is set up with."""
    if given is not None and given != used:
        raise PositionError(
            f"{key}: the position gives {_rules_text(given)}, but the game in use has "
            f"{_rules_text(used)}"
        )


def _rules_text(value: object) -> str:
    if isinstance(value, Rules):
        return f"rules {rules_record(value) or 'at their defaults'}"
    return repr(value)


def rules_record(rules: Rules) -> dict[str, Any]:
    """The options of ``rules`` that differ from the defaults (the ``rules`` field)."""
    default = Rules()
    return {k: getattr(rules, k) for k in RULE_FIELDS if getattr(rules, k) != getattr(default, k)}


def _rules(value: Any) -> Rules | None:
    """The ``rules`` field: an object of rule options, the defaults for those left out."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise PositionError(
            f"rules must be an object of rule options ({', '.join(RULE_FIELDS)}), got {value!r}"
        )
    unknown = sorted(set(value) - set(RULE_FIELDS))
    if unknown:
        raise PositionError(
            f"rules: unknown option(s) {', '.join(map(str, unknown))} "
            f"(allowed: {', '.join(RULE_FIELDS)})"
        )
    try:
        return Rules(**value)
    except PinastatsError as exc:
        raise PositionError(str(exc)) from None


def _starting_scores(value: Any, players: int) -> tuple[int, ...] | None:
    """The ``starting_scores`` field: the scores at setup in turn order (None: 1, 2, ...)."""
    if value is None:
        return None
    return tuple(_per_seat(value, "starting_scores", players, least=0))


def game_from_position(
    data: Mapping[str, Any],
    *,
    catalogue: Catalogue | None = None,
    rules: Rules | None = None,
    config: GameConfig | None = None,
) -> Game:
    """Build the game a position describes, checking every field against the rules.

    ``config`` (whose players and layout must be the position's) replaces
    ``catalogue`` and ``rules`` and saves reading the layout again.
    """
    if not isinstance(data, Mapping):
        raise PositionError(f"a position is a JSON object, got {type(data).__name__}")
    _check_depth(data)
    missing = [k for k in REQUIRED if k not in data]
    if missing:
        raise PositionError(
            f"missing field(s): {', '.join(missing)} (required: {', '.join(REQUIRED)})"
        )
    unknown = sorted(set(data) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        raise PositionError(
            f"unknown field(s): {', '.join(unknown)} (allowed: {', '.join(REQUIRED + OPTIONAL)})"
        )
    config = _config(data, catalogue, rules, config)
    players, layout = config.players, config.layout
    n, shape = layout.n_cells, layout.shape
    grid = shape if n == shape[0] * shape[1] else None
    board = _rows(data, "board", grid, n)
    for i, name in enumerate(board):
        if not isinstance(name, str):
            raise PositionError(f"board cell {i} must be a coaster name, got {name!r}")
    sides = _rows(data, "sides", grid, n) if "sides" in data else None
    first = _int(data, "first_player") if "first_player" in data else 0
    if not 0 <= first < players:
        raise PositionError(f"first_player must be 0 to {players - 1}, got {first}")
    try:
        game = Game.from_board(board, config=config, sides=sides, first_player=first)
    except (ValueError, KeyError) as exc:  # an unknown coaster is a KeyError
        raise PositionError(f"board: {exc}") from None
    _check_sides(game)
    held = _place_tokens(game, _rows(data, "tokens", grid, n))
    to_move = _int(data, "to_move")
    if not 0 <= to_move < players:
        raise PositionError(f"to_move must be a seat from 0 to {players - 1}, got {to_move}")
    status = game.state.status[0]
    status["to_move"] = to_move
    status["turn"] = (to_move - first) % players  # the round so far; all the turns below
    game.state.players["score"] = _scores(game, data.get("scores"), "first_player" in data)
    game.state.players["reserve"] = [config.rules.tokens - h for h in held]
    _check_reserves(game)
    status["trigger"] = _end_trigger(game, data)
    last = _recency(game, data.get("last_placed"), held)
    game.state.players["last_placed"] = last
    status["placements"] = max(sum(held), *last)
    status["turn"] = _turns(game, data.get("turns"), held)
    _judge(game)
    if data.get("last_placed") is None:
        _check_tie_needs_no_recency(game, held)
    return game


def _where(game: Game, cell: int) -> str:
    return f"tokens of cell {cell} ({game.coaster(cell).id}, side {game.side(cell)})"


def _check_sides(game: Game) -> None:
    """Without Happy Hour every coaster shows the side of the setup (only Happy Hour flips)."""
    if game.config.rules.happy_hour:
        return
    setup, shown = game.config.sides.tolist(), game.state.cell_side.tolist()
    for cell, (was, side) in enumerate(zip(setup, shown, strict=True)):
        if side != was:
            raise PositionError(
                f"sides: cell {cell} ({game.coaster(cell).id}) shows side {'AB'[side]}, but "
                f"{game.players} players set it up on side {'AB'[was]}; only Happy Hour "
                "flips a coaster, and it is off"
            )


def _unplayed(game: Game) -> list[int]:
    """The seats yet to play in the current round, in turn order.

    ``to_move`` and the seats after it up to the last of the turn order; none
    when ``to_move`` is the first player (the round is complete).
    """
    n, first = game.players, game.first_player
    done = (game.to_move - first) % n
    return [(first + i) % n for i in range(done, n)] if done else []


def _check_reserves(game: Game) -> None:
    """Refuse an empty reserve for a seat yet to play in the round.

    A reserve empties only by its owner's placement; that placement triggered
    the end in an earlier round, whose end would have ended the game.
    """
    reserves = game.reserves
    for seat in _unplayed(game):
        if reserves[seat] == 0:
            raise PositionError(
                f"tokens: seat {seat} has all its {game.config.rules.tokens} tokens on the "
                f"board but has yet to play in this round (seat {game.to_move} to move, seat "
                f"{game.first_player} plays first); its last token, placed in an earlier "
                "round, triggered the end, and the game would be over"
            )


def _place_tokens(game: Game, cells: list[Any]) -> list[int]:
    """Put the seat of each space into ``game.state.spaces``; return the tokens each seat holds.

    A list gives the spaces in order (``None`` = free); a shorter one leaves the last free.
    """
    players, happy_hour = game.players, game.config.rules.happy_hour
    held = [0] * players
    sides, owners = game.state.cell_side.tolist(), game.state.spaces.tolist()
    for cell, entry in enumerate(cells):
        if isinstance(entry, list) and not entry:  # a free coaster
            continue
        if not isinstance(entry, list) or not all(s is None or _is_seat(s) for s in entry):
            raise PositionError(
                f"{_where(game, cell)} must be a list of seats (null for a free space), "
                f"got {entry!r}"
            )
        spaces = 1 + sides[cell]
        seats = [s for s in entry if s is not None]
        if len(entry) > spaces:
            raise PositionError(
                f"{_where(game, cell)}: the coaster has {spaces} space"
                f"{'s' if spaces > 1 else ''} but the list {entry} has {len(entry)} entries"
            )
        if len(set(seats)) != len(seats):
            raise PositionError(f"{_where(game, cell)}: a player has two tokens on one coaster")
        bad = [s for s in seats if not 0 <= s < players]
        if bad:
            raise PositionError(f"{_where(game, cell)}: no seat {bad[0]} among {players} players")
        if spaces == 2 and len(entry) == 1 and seats and happy_hour:
            s = seats[0]
            raise PositionError(
                f"{_where(game, cell)}: [{s}] does not say which space the token is on, and "
                "with Happy Hour a token may have left the first space; write "
                f"[{s}, null] for the first space or [null, {s}] for the second"
            )
        if spaces == 2 and seats and entry[0] is None and not happy_hour:
            raise PositionError(
                f"{_where(game, cell)}: the first space is free but seat {seats[0]} is on "
                "the second; only Happy Hour takes a token off a coaster, and it is off"
            )
        for space, seat in enumerate(entry):
            if seat is not None:
                owners[cell][space] = seat
                held[seat] += 1
    game.state.spaces[:] = owners
    tokens = game.config.rules.tokens
    for seat in range(players):
        if held[seat] > tokens:
            raise PositionError(
                f"tokens: seat {seat} has {held[seat]} tokens on the board; "
                f"each player has {tokens}"
            )
    return held


def fixed_scores(game: Game) -> list[int] | None:
    """The scores the tokens fix (the default of ``scores``), or None where they are free.

    Without Happy Hour a score is its starting score plus what its tokens scored
    (:func:`_explained`); with it, or on a layout whose neighbours are not all
    mutual, the tokens do not fix it.
    """
    if game.config.rules.happy_hour:
        return None
    n, first = game.players, game.first_player
    out = []
    for seat in range(n):
        least, most = _explained(game, seat)
        if least != most:
            return None
        out.append(int(game.config.start_scores[(seat - first) % n]) + least)
    return out


def _scores(game: Game, scores: Any, first_given: bool = True) -> list[int]:
    """The ``scores`` field, refusing scores the rules cannot reach.

    Without Happy Hour scores only grow from the starting scores (1, 2, ... in
    turn order from the first player), by what the tokens explain (see
    :func:`_explained`); with it, "lose 3" stops at 0 unless negative scores are
    allowed. Either way a score is at most :func:`_reach` allows. Left out
    (``None``), the scores are those the tokens fix (:func:`fixed_scores`).
    """
    rules, n, first = game.config.rules, game.players, game.first_player
    hint = (
        ""
        if first_given
        else "; first_player is not given, so seat 0 is taken to have played first: give "
        "first_player if another seat did"
    )
    if scores is None:
        scores = fixed_scores(game)
        if scores is None:
            why = (
                "with Happy Hour the tokens do not fix the scores"
                if rules.happy_hour
                else "the layout has neighbours that are not mutual, so the order of "
                "placement changes the scores"
            )
            raise PositionError(f"scores is needed: {why}; give one score per seat")
    values = _per_seat(scores, "scores", n)
    negative_ok = rules.happy_hour and rules.negative_scores
    for seat, score in enumerate(values):
        start = int(game.config.start_scores[(seat - first) % n])
        if score < 0 and not negative_ok:
            raise PositionError(
                f"scores: seat {seat} has {score}; a score goes below 0 only with Happy Hour "
                "and negative scores allowed"
            )
        if score < start and not rules.happy_hour:
            raise PositionError(
                f"scores: seat {seat} has {score}, below its starting score {start} (turn "
                f"order from first_player {first}); only Happy Hour lowers a score, and it is off"
                f"{hint}"
            )
        reach, why = _reach(game, seat)
        if score > reach:
            raise PositionError(
                f"scores: seat {seat} has {score}, more than this position allows ({reach} at "
                f"most): {why}"
            )
        if score < -VALUE_LIMIT:
            raise PositionError(
                f"scores: seat {seat} has {score}; pinastats takes scores from "
                f"{-VALUE_LIMIT:,} to {VALUE_LIMIT:,}"
            )
    for seat, score in enumerate([] if rules.happy_hour else values):
        start = int(game.config.start_scores[(seat - first) % n])
        least, most = _explained(game, seat)
        low, high = start + least, start + most
        if not low <= score <= high:
            explain = f"exactly {low}" if low == high else f"{low} to {high}"
            raise PositionError(
                f"scores: seat {seat} has {score}, but its tokens explain {explain} (its "
                f"starting score {start}, the value of each token's space and 1 for each "
                "two of its tokens on neighbouring coasters); without Happy Hour only "
                f"placements score and no token leaves the board{hint}; scores may be left "
                "out: the tokens fix them"
            )
    return values


def _explained(game: Game, seat: int) -> tuple[int, int]:
    """The least and the most points the tokens of ``seat`` on the board scored when placed.

    A token scored its space's value, plus 1 for each own token then on a
    neighbouring cell: of two neighbouring tokens the later one counted the other,
    so each pair of them gave exactly 1 whatever the order. Only with neighbours
    that are not mutual (a layout built by hand) does the order matter: such a
    pair gave 0 or 1.
    """
    board, state = game.config.board, game.state
    owned = [(int(c), int(s)) for c, s in zip(*(state.spaces == seat).nonzero(), strict=True)]
    points = sum(
        int(board.coaster_points[state.cell_coaster[c], state.cell_side[c], s]) for c, s in owned
    )
    cells = [c for c, _ in owned]
    around = {c: set(board.neighbours[c].tolist()) for c in cells}
    mutual = one_way = 0
    for i, a in enumerate(cells):
        for b in cells[i + 1 :]:
            ways = (b in around[a]) + (a in around[b])
            mutual += ways == 2
            one_way += ways == 1
    return points + mutual, points + mutual + one_way


def _reach(game: Game, seat: int) -> tuple[int, str]:
    """The highest score ``seat`` can have in the position, and why.

    A score at the target triggers the end, which comes when the round is
    complete: when the current round began every score was below the target (or
    at most the highest starting score, in the first round). Since then each
    turn of the round added at most the most points of a turn: a placement (the
    best space of a coaster on the board, either side with Happy Hour, plus 1
    per neighbour, up to the tokens a player has besides) or, with Happy Hour,
    "gain 4"; and to each other seat at most 1 ("others gain 1").
    """
    config, board, state = game.config, game.config.board, game.state
    rules, n = config.rules, game.players
    points = board.coaster_points[state.cell_coaster]  # (cell, side, space)
    if not rules.happy_hour:  # no coaster is flipped
        points = points[np.arange(len(points)), state.cell_side]
    best = points.reshape(len(points), -1).max(axis=1)
    neighbours = (board.neighbours >= 0).sum(axis=1)
    placement = int((best + np.minimum(neighbours, rules.tokens - 1)).max())
    own = max(placement, ROLLER_GAIN) if rules.happy_hour else placement
    other = OTHERS_GAIN if rules.happy_hour else 0
    unplayed = _unplayed(game)
    played = seat not in unplayed
    others = n - len(unplayed) - played
    begun = max(rules.target_score - 1, int(config.start_scores.max()))
    why = (
        f"every score was at most {begun} when this round began (a score of "
        f"{rules.target_score} triggers the end, and the game ends with the round); since "
        f"then seat {seat} has "
        + (f"played once (a turn adds at most {own})" if played else "not played")
    )
    if other:
        why += f" and the other seats {others} time(s) (each gives it at most {other})"
    return begun + played * own + others * other, why


def fewest_turns(game: Game, held: list[int] | None = None) -> int:
    """The fewest turns that reach the position: every turn a placement (the ``turns`` default).

    The round so far is ``to_move - first_player``; before it, as many whole rounds
    as the seat with the most tokens on the board needs to have placed them.
    """
    n = game.players
    if held is None:
        held = [int((game.state.spaces == s).sum()) for s in range(n)]
    done = (game.to_move - game.first_player) % n
    rounds = max(0, *(held[s] - _played_in_round(game, s, done) for s in range(n)))
    return rounds * n + done


def _played_in_round(game: Game, seat: int, done: int) -> int:
    """1 if ``seat`` is among the first ``done`` seats of the turn order, else 0."""
    return int((seat - game.first_player) % game.players < done)


def _turns(game: Game, value: Any, held: list[int]) -> int:
    """The ``turns`` field (turns played by all seats together), checked; default the fewest."""
    if value is None:
        return fewest_turns(game, held)
    n, first, to_move = game.players, game.first_player, game.to_move
    limit = game.config.rules.max_turns
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= limit:
        raise PositionError(
            f"turns must be a whole number from 0 to {limit} (the rules' limit of turns), "
            f"got {value!r}"
        )
    if value % n != (to_move - first) % n:
        raise PositionError(
            f"turns: after {value} turns seat {(first + value) % n} is to move (seat {first} "
            f"plays first), but to_move is seat {to_move}"
        )
    for seat in range(n):
        played = value // n + _played_in_round(game, seat, value % n)
        if held[seat] > played:
            raise PositionError(
                f"turns: seat {seat} has {held[seat]} tokens on the board but has played "
                f"only {played} of the {value} turns (one placement a turn)"
            )
    return int(value)


def _end_trigger(game: Game, data: Mapping[str, Any]) -> Trigger:
    """The ``end_trigger`` field, checked against the board (``NONE`` if absent).

    The end check after every turn triggers the end once a score reaches the
    target or a reserve is empty; without Happy Hour the cause stays on the board.
    """
    if "end_trigger" not in data:
        return Trigger.NONE
    value = data["end_trigger"]
    if not isinstance(value, str | None) or value not in TRIGGER_NAMES:
        raise PositionError(f'end_trigger must be "score", "tokens" or null, got {value!r}')
    trigger = TRIGGER_NAMES[value]
    rules, scores, reserves = game.config.rules, game.scores, game.reserves
    board = game.config.board
    if any(E.has_line(board, game.state, p) for p in range(game.players)):
        return trigger  # a line has won: the trigger no longer counts
    high = [s for s in range(game.players) if scores[s] >= rules.target_score]
    empty = [s for s in range(game.players) if reserves[s] == 0]
    if trigger is Trigger.NONE and (high or empty):
        p = (high or empty)[0]
        why = f"seat {p} has " + (f"{scores[p]} points" if high else "no token in reserve")
        why += f" (target {rules.target_score})" if high else ""
        raise PositionError(
            f"end_trigger is null, but {why}: the end check after every turn has triggered the end"
        )
    if not rules.happy_hour and trigger is Trigger.SCORE and not high:
        raise PositionError(
            f'end_trigger is "score" but no score reaches {rules.target_score}; only Happy '
            "Hour lowers a score, and it is off"
        )
    if not rules.happy_hour and trigger is Trigger.TOKENS and not empty:
        raise PositionError(
            'end_trigger is "tokens" but every seat has a token in reserve; only Happy Hour '
            "returns tokens to the reserve, and it is off"
        )
    return trigger


def _recency(game: Game, last: Any, held: list[int]) -> list[int]:
    """The ``last_placed`` field checked, or derived when it is ``None``.

    A seat with tokens on the board has placed. Derived: of those, the one that played
    last before ``to_move`` most recently, then backwards in turn order; the others 0.
    The most recent gets the tokens on the board as its clock, the one before it one
    less, and so on: the clocks of a game whose last round placed a token every turn.
    """
    n, to_move = game.players, game.to_move
    if last is None:
        placed = sorted((s for s in range(n) if held[s]), key=lambda s: (s - to_move) % n)
        base = sum(held) - len(placed)
        return [base + placed.index(s) + 1 if s in placed else 0 for s in range(n)]
    values = _per_seat(last, "last_placed", n, least=0)
    happy_hour = game.config.rules.happy_hour
    for a in range(n):
        if held[a] and values[a] == 0:
            raise PositionError(
                f"last_placed: seat {a} has tokens on the board, so it has placed, "
                "but its last_placed is 0 (never placed)"
            )
        if not held[a] and values[a] and not happy_hour:
            raise PositionError(
                f"last_placed: seat {a} gives {values[a]} but has no token on the board; "
                "without Happy Hour no token leaves the board, so it has never placed (0)"
            )
        for b in range(a + 1, n):
            if values[a] == values[b] > 0:
                raise PositionError(
                    f"last_placed: seats {a} and {b} both give {values[a]}; no two placements "
                    "are equally recent (higher = more recent)"
                )
    return values


def default_last_placed(game: Game) -> list[int]:
    """The recency a position without ``last_placed`` gets (see :func:`_recency`)."""
    held = [int((game.state.spaces == s).sum()) for s in range(game.players)]
    return _recency(game, None, held)


def _check_tie_needs_no_recency(game: Game, held: list[int]) -> None:
    """Refuse a tie at the end that only the missing ``last_placed`` could decide.

    Without Happy Hour a leader has placed iff it has tokens on the board; with it, unknown.
    """
    if game.end_reason not in (EndReason.TIE_BREAK, EndReason.DRAW):
        return
    scores = game.scores
    leaders = [s for s in range(game.players) if scores[s] == max(scores)]
    happy_hour = game.config.rules.happy_hour
    unknown = leaders if happy_hour else [s for s in leaders if held[s]]
    if len(unknown) > 1:
        why = "Happy Hour takes tokens off" if happy_hour else f"seats {unknown} have tokens"
        raise PositionError(
            f"last_placed is needed: seats {leaders} tie at {max(scores)} points at the end "
            f"and the most recent placer among them wins, but the position does not say who "
            f"placed last ({why}); give last_placed, per seat (higher = more recent, 0 = never)"
        )


def _judge(game: Game) -> None:
    """Apply the engine's end check to a loaded position (as after the previous turn)."""
    board, state = game.config.board, game.state
    lines = [p for p in range(game.players) if E.has_line(board, state, p)]
    if len(lines) > 1:
        raise PositionError(f"seats {lines} each hold a full line; only one can have won")
    Game.from_state(game.config, state, judge=True)
    status = state.status[0]
    if status["reason"] == EndReason.ONGOING and status["turn"] >= game.config.rules.max_turns:
        status["reason"] = EndReason.TURN_LIMIT  # the engine's safety limit, after the end check
        status["winner"] = E.NO_SEAT


def position_of(game: Game) -> dict[str, Any]:
    """The position of a game as plain data (inverse of :func:`game_from_position`).

    A side-B coaster with tokens lists both spaces (``None`` for a free one).
    """
    expect_instance(game, Game, "game", "Game.new() or game_from_position()")
    layout = game.config.layout
    rows, cols = layout.shape
    full_grid = layout.n_cells == rows * cols

    def shaped(values: list[Any]) -> list[Any]:
        return [values[r * cols : (r + 1) * cols] for r in range(rows)] if full_grid else [values]

    def spaces(side: int, seats: list[int]) -> list[int | None]:
        seats = seats[: 1 + side]
        return [] if max(seats) < 0 else [s if s >= 0 else None for s in seats]

    coasters = game.config.catalogue.coasters
    cells, sides, owners = (
        a.tolist() for a in (game.state.cell_coaster, game.state.cell_side, game.state.spaces)
    )
    names = {t: name for name, t in TRIGGER_NAMES.items()}
    return {
        "players": game.players,
        "layout": layout.name,
        "board": shaped([coasters[i].id for i in cells]),
        "sides": ["".join(row) for row in shaped(["AB"[s] for s in sides])],
        "tokens": shaped([spaces(s, o) for s, o in zip(sides, owners, strict=True)]),
        "scores": list(game.scores),
        "to_move": game.to_move,
        "first_player": game.first_player,
        "last_placed": list(game.last_placed),
        "end_trigger": names[game.trigger],
        "turns": game.turn,
        "rules": rules_record(game.config.rules),
        "starting_scores": [int(x) for x in game.config.start_scores],
    }
