"""A game position as one short line of text: the position notation ``pc1``.

>>> text = "pc1 OD,T3,T4,T5/5K,S21+1,S26,T6+1/SS+2,P3,P2,FH+2/T1,P5+2,AD+1,P4+2 1 turns=10"
>>> game = parse_position(text)
>>> game.scores, game.to_move, game.turn
((7, 11), 0, 10)
>>> notation_of(game) == text
True

The line is the state file of :mod:`pinastats.game.position` written short: the
same fields, checked by the same code (:func:`position_data` turns the line into
the state file's mapping), with every field the rules fix left out.
``docs/notation.md`` documents it:

* ``pc1``, the version;
* the board: rows separated by ``/``, cells by ``,``; a cell is the coaster's
  short code (:func:`coaster_codes`: ``P1``-``P6`` for the pairs, ``T1``-``T6``
  for the threes, ``FH`` for the Full House, ...), ``:A`` or ``:B`` when its side
  is not the setup's, and ``+`` the seat on each space in space order (seats
  from 1, ``.`` for a free space, free spaces at the end left out);
* the seat to move, from 1;
* then, in any order, ``key=value`` fields where the default does not hold:
  ``players``, ``layout``, ``first``, ``turns``, ``last``, ``end``, ``scores``,
  ``start``, and the rules ``hh``, ``neg``, ``target``, ``tokens``, ``rolls``,
  ``limit`` (:data:`FIELDS`).
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Mapping
from typing import Any

from pinastats import _engine as E
from pinastats.dice.combinations import Combination, CombinationKind
from pinastats.errors import PinastatsError, expect_instance
from pinastats.game.catalogue import Catalogue, load_catalogue
from pinastats.game.config import MAX_PLAYERS, MIN_PLAYERS, GameConfig
from pinastats.game.game import Game
from pinastats.game.layout import Layout, load_layout
from pinastats.game.position import (
    PositionError,
    default_last_placed,
    fewest_turns,
    fixed_scores,
    game_from_position,
    rules_record,
)
from pinastats.game.rules import VALUE_LIMIT, EndReason, Rules, Trigger, players_text

VERSION = "pc1"
"""The first word of every position in this notation."""

FREE = "."
"""A free token space in a cell's list of spaces."""

FIELDS: dict[str, str] = {
    "players": "the number of players, 2 to 4 (default 2)",
    "layout": "the layout's name (default standard)",
    "first": "the seat that played first, from 1 (default 1)",
    "turns": "the turns played by all seats together (default: the fewest that reach the board)",
    "last": "each seat's placement clock, seat 1 first: higher = placed more recently, "
    "0 = never placed (default: by the turn order)",
    "end": "what triggered the end: score or tokens (default: as the board shows)",
    "scores": "each seat's score, seat 1 first (default: as the tokens fix them; "
    "needed with Happy Hour)",
    "start": "the starting scores in turn order (default 1,2,3,4)",
    "hh": "the Happy Hour variant is played (no value)",
    "neg": "Happy Hour's 'lose 3' may go below 0 (no value)",
    "target": "the score that triggers the end (default 20)",
    "tokens": "the tokens each player places (default 6)",
    "rolls": "the rolls of a turn (default 3)",
    "limit": "the safety limit of turns (default 1000)",
}
"""The optional ``key=value`` fields (``hh`` and ``neg`` are flags) and what each holds."""

_RULE_KEYS = {
    "target": "target_score",
    "tokens": "tokens",
    "rolls": "rolls",
    "limit": "max_turns",
}
_FLAGS = {"hh": "happy_hour", "neg": "negative_scores"}
_TRIGGERS = {"score": "score", "tokens": "tokens", "none": None}
_SEATS = "1234"


class NotationError(PositionError):
    """A position line that breaks the notation; the message names the field and what is allowed."""


# ---------------------------------------------------------------- coaster codes


@functools.cache
def combination_code(combination: Combination) -> str:
    """The short code of a combination, from what the combination is.

    >>> [combination_code(c) for c in (Combination.PAIR_4, Combination.THREE_6,
    ...  Combination.SUM_LE_9, Combination.SUM_12_14, Combination.FULL_HOUSE,
    ...  Combination.FOUR_OF_A_KIND, Combination.ODDS)]
    ['P4', 'T6', 'S9', 'S12', 'FH', '4K', 'OD']
    """
    kind, face = combination.kind, combination.face
    per_face = {
        CombinationKind.PAIR_OF_N: "P",
        CombinationKind.THREE_OF_N: "T",
        CombinationKind.FOUR_OF_N: "F",
        CombinationKind.FIVE_OF_N: "V",
    }
    if kind in per_face:
        return f"{per_face[kind]}{face}"
    if kind is CombinationKind.N_OF_A_KIND:
        return f"{combination.needed}K"
    label = combination.label
    if kind is CombinationKind.SUM:
        number = re.search(r"\d+", label)
        assert number is not None  # every sum names its bound
        return f"S{number.group()}"
    words = re.findall(r"[A-Za-z]+", label)
    code = "".join(w[0] for w in words) if len(words) > 1 else words[0][:2]
    return code.upper()


def coaster_codes(catalogue: Catalogue) -> dict[str, str]:
    """The short code of each coaster of ``catalogue``, by coaster id.

    A catalogue holds each combination once, so the codes are distinct.
    """
    return {c.id: combination_code(c.combination) for c in catalogue}


def _coaster_by_word(catalogue: Catalogue) -> dict[str, str]:
    """The coaster id of each code and id, upper-cased."""
    out = {code.upper(): cid for cid, code in coaster_codes(catalogue).items()}
    out.update({c.id.upper(): c.id for c in catalogue})
    return out


# ---------------------------------------------------------------- reading


def _fail(field: str, message: str) -> NotationError:
    return NotationError(f"position notation, {field}: {message}")


def _whole(text: str, field: str, least: int = 0, most: int | None = None) -> int:
    """``text`` as a whole number from ``least`` to ``most`` (ASCII digits, at most 40)."""
    allowed = f"from {least}" + ("" if most is None else f" to {most:,}")
    if re.fullmatch(r"-?[0-9]{41,}", text):  # far beyond any bound, and slow to convert
        raise _fail(field, f"expected a whole number {allowed}, got one of {len(text)} digits")
    number = int(text) if re.fullmatch(r"-?[0-9]+", text) else None
    if number is None or number < least or (most is not None and number > most):
        shown = text if len(text) <= 60 else text[:60] + "…"
        raise _fail(field, f"expected a whole number {allowed}, got {shown!r}")
    return number


def _numbers(text: str, field: str, count: int, least: int | None) -> list[int]:
    parts = text.split(",")
    if len(parts) != count:
        raise _fail(
            field, f"expected {count} numbers separated by commas (one per seat), got {text!r}"
        )
    low = -(10**18) if least is None else least
    return [_whole(p, field, low) for p in parts]


def _seat(text: str, field: str, players: int) -> int:
    if len(text) != 1 or text not in _SEATS[:players]:
        raise _fail(field, f"expected a seat from 1 to {players}, got {text!r}")
    return _SEATS.index(text)


def _options(words: list[str]) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for word in words:
        key, eq, value = word.partition("=")
        key = key.lower()
        if key not in FIELDS:
            close = difflib.get_close_matches(key, list(FIELDS), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            fields = ", ".join(FIELDS)
            raise _fail(repr(word), f"unknown field{hint} (fields: {fields}; see docs/notation.md)")
        if key in out:
            raise _fail(key, "given twice")
        if (key in _FLAGS) == bool(eq):
            what = "takes no value" if key in _FLAGS else "needs a value: " + key + "=..."
            raise _fail(key, what)
        out[key] = value if eq else None
    return out


def _layout_rows(layout: Layout) -> list[int]:
    """The number of cells in each row of the layout, top row first."""
    counts: dict[int, int] = {}
    for r, _ in layout.cells:
        counts[r] = counts.get(r, 0) + 1
    return list(counts.values())


def position_data(
    text: str, *, catalogue: Catalogue | None = None, layout: Layout | None = None
) -> dict[str, Any]:
    """The state file's mapping (:mod:`pinastats.game.position`) of a position line.

    ``catalogue`` names the coasters (default: the shipped one); ``layout``
    replaces the one the line names (a layout of one's own).
    """
    if not isinstance(text, str):
        raise NotationError(f"a position is a line of text, got {type(text).__name__}")
    words = text.split()
    if not words or words[0].lower() != VERSION:
        first = words[0] if words else ""
        why = (
            f"this pinastats reads {VERSION}"
            if re.fullmatch(r"pc\d+", first.lower())
            else f"a position starts with {VERSION!r}"
        )
        raise _fail("version", f"{why}, got {first!r} (see docs/notation.md)")
    if len(words) < 3:
        form = f"{VERSION} BOARD SEAT-TO-MOVE [key=value ...]"
        raise _fail("fields", f"expected '{form}', got {text.strip()!r}")
    options = _options(words[3:])
    players = MIN_PLAYERS
    if options.get("players") is not None:
        players = _whole(str(options["players"]), "players", MIN_PLAYERS)
        if players > MAX_PLAYERS:
            raise _fail("players", f"expected {players_text()}, got {players}")
    name = options.get("layout") or "standard"
    catalogue = catalogue or load_catalogue()
    try:
        layout = layout or load_layout(name)
        setup = [str(s) for s in layout.sides_for(players)]
    except PinastatsError as exc:
        raise _fail("layout", str(exc)) from None
    data: dict[str, Any] = {"players": players, "layout": name}
    data.update(_board(words[1], catalogue, layout, setup, players))
    data["to_move"] = _seat(words[2], "seat to move (the third word)", players)
    _read_options(options, data, players)
    return data


def _board(
    text: str, catalogue: Catalogue, layout: Layout, setup: list[str], players: int
) -> dict[str, Any]:
    """The board word: the coasters, their sides (``setup`` unless given) and the tokens."""
    rows = text.split("/")
    cells = [c for row in rows for c in row.split(",")]
    expected = _layout_rows(layout)
    n = layout.n_cells
    if len(rows) > 1 and [len(r.split(",")) for r in rows] != expected:
        got = [len(r.split(",")) for r in rows]
        raise _fail(
            "board",
            f"rows of {got} coasters; the layout {layout.name!r} has rows of {expected} "
            "(rows separated by '/', coasters by ',')",
        )
    if len(cells) != n:
        raise _fail("board", f"{len(cells)} coasters; the layout {layout.name!r} has {n} cells")
    by_word = _coaster_by_word(catalogue)
    ids, sides, tokens = [], [], []
    explicit = False
    for i, cell in enumerate(cells):
        match = re.fullmatch(r"([^:+]+)(?::([^+]*))?(?:\+(.*))?", cell)
        if match is None:
            raise _fail(f"board cell {i + 1}", f"expected CODE[:SIDE][+SEATS], got {cell!r}")
        word, side, seats = match.groups()
        cid = by_word.get(word.upper())
        if cid is None:
            close = difflib.get_close_matches(word.upper(), list(by_word), n=3, cutoff=0.5)
            hint = f"; did you mean {' or '.join(close)}?" if close else ""
            codes = ", ".join(coaster_codes(catalogue).values())
            raise _fail(
                f"board cell {i + 1}",
                f"no coaster has the code {word!r}{hint} (codes: {codes}; ids are accepted too)",
            )
        ids.append(cid)
        if side is not None:
            if side.upper() not in ("A", "B"):
                raise _fail(f"board cell {i + 1} ({word})", f"a side is A or B, got {side!r}")
            explicit = True
            sides.append(side.upper())
        else:
            sides.append(setup[i])
        tokens.append(_spaces(seats, i, word, players, sides[-1] == "B"))
    data: dict[str, Any] = {"board": [ids], "tokens": [tokens]}
    if explicit:
        data["sides"] = ["".join(sides)]
    return data


def _spaces(seats: str | None, i: int, word: str, players: int, two: bool) -> list[int | None]:
    """The seat on each space of a cell (``two``: a side-B coaster, the missing last one free)."""
    if seats is None:
        return []
    if not seats or any(ch != FREE and ch not in _SEATS[:players] for ch in seats):
        raise _fail(
            f"board cell {i + 1} ({word})",
            f"after '+' one character per space: a seat from 1 to {players} or '{FREE}' for a "
            f"free space, got {seats!r}",
        )
    spaces = [None if ch == FREE else _SEATS.index(ch) for ch in seats]
    while spaces and spaces[-1] is None:  # free spaces at the end may be written or not
        spaces.pop()
    if two and len(spaces) == 1:
        spaces.append(None)  # the first space; the second is free
    return spaces


def _read_options(options: Mapping[str, str | None], data: dict[str, Any], players: int) -> None:
    if "first" in options:
        data["first_player"] = _seat(str(options["first"]), "first", players)
    if "turns" in options:
        data["turns"] = _whole(str(options["turns"]), "turns")
    if "last" in options:
        data["last_placed"] = _numbers(str(options["last"]), "last", players, 0)
    if "end" in options:
        value = str(options["end"]).lower()
        if value not in _TRIGGERS:
            raise _fail("end", f"expected score, tokens or none, got {options['end']!r}")
        data["end_trigger"] = _TRIGGERS[value]
    if "scores" in options:
        data["scores"] = _numbers(str(options["scores"]), "scores", players, None)
    data["starting_scores"] = (
        _numbers(str(options["start"]), "start", players, 0)
        if "start" in options
        else list(range(1, players + 1))
    )
    rules: dict[str, Any] = {flag: True for key, flag in _FLAGS.items() if key in options}
    for key, field in _RULE_KEYS.items():
        if key in options:
            rules[field] = _whole(str(options[key]), key, 1, VALUE_LIMIT)
    data["rules"] = rules  # a line gives every rule: those it leaves out are the defaults


def parse_position(
    text: str, *, catalogue: Catalogue | None = None, config: GameConfig | None = None
) -> Game:
    """The game of a position line, checked against the rules like a state file.

    ``config`` (its players, layout and rules must be the line's) sets the game up
    with one's own layout or catalogue; otherwise ``catalogue`` names the coasters.
    """
    if catalogue is not None:
        expect_instance(catalogue, Catalogue, "catalogue", "load_catalogue()")
    if config is not None:
        expect_instance(config, GameConfig, "config", "GameConfig()")
    layout = config.layout if config is not None else None
    if config is not None:
        catalogue = config.catalogue
    data = position_data(text, catalogue=catalogue, layout=layout)
    if config is not None:
        if data.get("layout") == "standard" and config.layout.name != "standard":
            data["layout"] = config.layout.name
        return game_from_position(data, config=config)
    return game_from_position(data, catalogue=catalogue)


# ---------------------------------------------------------------- writing


def _shown_trigger(game: Game) -> Trigger:
    """The trigger the board shows (the default of ``end``)."""
    board, state = game.config.board, game.state
    if any(E.has_line(board, state, p) for p in range(game.players)):
        return Trigger.NONE
    if max(game.scores) >= game.config.rules.target_score:
        return Trigger.SCORE
    return Trigger.TOKENS if min(game.reserves) == 0 else Trigger.NONE


def _cell_text(game: Game, cell: int, code: str) -> str:
    side = game.side(cell)
    text = code
    if side != "AB"[int(game.config.sides[cell])]:
        text += f":{side}"
    spaces = list(game.spaces(cell))
    while spaces and spaces[-1] is None:
        spaces.pop()
    if spaces:
        text += "+" + "".join(FREE if s is None else _SEATS[s] for s in spaces)
    return text


def notation_of(game: Game) -> str:
    """The position of ``game`` as one line (inverse of :func:`parse_position`).

    Every field whose value the rules would work out by themselves is left out.
    """
    if not isinstance(game, Game):
        raise TypeError(f"game must be a Game, got {type(game).__name__}")
    config = game.config
    codes = coaster_codes(config.catalogue)
    rows: dict[int, list[str]] = {}
    for cell, (r, _) in enumerate(config.layout.cells):
        rows.setdefault(r, []).append(_cell_text(game, cell, codes[game.coaster(cell).id]))
    words = [VERSION, "/".join(",".join(row) for row in rows.values()), _SEATS[game.to_move]]
    if game.players != MIN_PLAYERS:
        words.append(f"players={game.players}")
    if config.layout.name != "standard":
        words.append(f"layout={config.layout.name}")
    if game.first_player != 0:
        words.append(f"first={_SEATS[game.first_player]}")
    if game.turn != fewest_turns(game):
        words.append(f"turns={game.turn}")
    tied = game.end_reason in (EndReason.TIE_BREAK, EndReason.DRAW)  # read, so always written
    if tied or list(game.last_placed) != default_last_placed(game):
        words.append("last=" + ",".join(map(str, game.last_placed)))
    if game.trigger != _shown_trigger(game):
        words.append(f"end={_trigger_word(game.trigger)}")
    if fixed_scores(game) != list(game.scores):
        words.append("scores=" + ",".join(map(str, game.scores)))
    if config.starting_scores is not None and list(config.start_scores) != list(
        range(1, game.players + 1)
    ):
        words.append("start=" + ",".join(str(int(x)) for x in config.start_scores))
    words.extend(_rule_words(config.rules))
    return " ".join(words)


def _trigger_word(trigger: Trigger) -> str:
    return {Trigger.SCORE: "score", Trigger.TOKENS: "tokens"}.get(trigger, "none")


def _rule_words(rules: Rules) -> list[str]:
    record = rules_record(rules)
    words = [key for key, field in _FLAGS.items() if record.get(field)]
    words += [f"{key}={record[field]}" for key, field in _RULE_KEYS.items() if field in record]
    return words
