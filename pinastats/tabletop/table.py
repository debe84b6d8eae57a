"""My table: the board as a companion to a game played with real dice and coasters.

:class:`TableSession` starts in *setup*: the 16 coasters (picked by name or short
code, or a pasted line of the position notation, ``docs/notation.md``), each seat's
tokens already on them, the seats' names, who played first (the starting scores 1, 2,
3, 4 follow the order of play from the first player, and so does the last round) and
who moves now, and whether Happy Hour is played. Then, turn after turn, the dice
rolled at the table are entered (every roll of the turn, up to the rules' rolls, with
the dice kept before a re-roll when they are given), the coach advises on the dice
showing, and what was done is recorded: a placement, a pass, or the Happy Hour die and
its choice. Every step can be undone. The turns go in the log in words, and the review
grades each placement, and each keep that was entered, with an evaluator independent
of the advice (:mod:`pinastats.tabletop.review`).

A session is its setup and the steps after it (:attr:`TableSession.actions`): that is
what :func:`save` writes (whole, through a temporary file renamed over the old one)
and :func:`resume` plays again, so a game at the table survives a closed page and a
restarted server. :meth:`TableSession.record` writes the game as a game record
(``docs/records.md``) that ``pinastats review`` reads.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from pinastats._engine import TurnEnding
from pinastats.errors import PinastatsError
from pinastats.game.catalogue import load_catalogue
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.game.layout import load_layout
from pinastats.game.notation import coaster_codes, notation_of, parse_position
from pinastats.game.rules import HappyHourEffect
from pinastats.game.turn import part_of
from pinastats.records.format import GameRecord
from pinastats.tabletop.session import PlayError
from pinastats.tabletop.words import DEFAULT, dice_text, language, plural, turn_text

MAX_NAME = 24
"""The longest seat name kept (characters)."""
SAVE_FORMAT = "pinastats-table"
"""The ``format`` field of a saved table game."""
SAVE_NAME = "table.json"
"""The saved table game's file, in :func:`save_folder`."""
SAVE_ENV = "PINASTATS_TABLE_DIR"
"""An environment variable naming another folder for the saved game (tests, several tables)."""


@dataclass
class Turn:
    """One turn played at the table: the game before and after it and what was entered.

    ``keeps[i]``: the dice kept before roll ``i + 2`` (None where they were not entered).
    """

    before: Game
    after: Game
    rolls: list[tuple[int, ...]]
    keeps: list[tuple[int, ...] | None]
    cell: int | None
    points: int
    happy: HappyHourEffect | None
    option: int | None


@dataclass
class _State:
    """What changes with each step (undo goes back to the one before)."""

    game: Game
    rolls: list[tuple[int, ...]] = field(default_factory=list)
    keeps: list[tuple[int, ...] | None] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)
    starts: list[tuple[int, int, str]] = field(default_factory=list)
    placements: list[tuple[str, tuple[int, ...], int]] = field(default_factory=list)


def setup_line(coasters: Sequence[str], tokens: Sequence[Sequence[int]], to_move: int,
               players: int, happy_hour: bool = False, first: int = 0) -> str:  # fmt: skip
    """The position line of a setup: coasters by name, id or code, tokens by seat (from 0).

    ``first``: the seat that played first (from 0); the starting scores and the last
    round follow from it. With Happy Hour the scores are written out: those the tokens
    give (a Happy Hour die may have changed them since: paste a line with ``scores=``).
    """
    catalogue = load_catalogue()
    layout = load_layout("standard")
    codes = coaster_codes(catalogue)
    if len(coasters) != layout.n_cells or len(tokens) != layout.n_cells:
        raise PlayError(f"a table has {layout.n_cells} coasters, got {len(coasters)}")
    by_code = {code.upper(): cid for cid, code in codes.items()}
    words = []
    for i, (name, seats) in enumerate(zip(coasters, tokens, strict=True)):
        if not str(name).strip():
            raise PlayError(f"coaster {i + 1} (row {i // 4 + 1}, column {i % 4 + 1}) is not "
                            "chosen yet: type its name")  # fmt: skip
        try:
            cid = by_code.get(str(name).strip().upper()) or catalogue.find(str(name)).id
        except PinastatsError as exc:
            raise PlayError(f"coaster {i + 1}: {exc}") from None
        words.append(codes[cid] + "".join(f"+{int(s) + 1}" for s in seats))
    rows = "/".join(",".join(words[r * 4 : (r + 1) * 4]) for r in range(4))
    extra = [f"players={players}"] if players != 2 else []
    extra += [f"first={first + 1}"] if first else []
    line = " ".join(["pc1", rows, str(to_move + 1), *extra])
    if happy_hour:  # Happy Hour moves points: the scores are those the tokens give, said
        try:
            scores = parse_position(line).scores
        except PinastatsError as exc:
            raise PlayError(f"that table cannot be set: {exc}") from None
        line += f" hh scores={','.join(map(str, scores))}"
    return line


class TableSession:
    """A game at a real table: setup, then the dice entered and what was done (module docstring)."""

    def __init__(self, names: Sequence[str] = ("Seat 1", "Seat 2"), *,
                 back: Callable[[], Any] | None = None, happy_hour: bool = False,
                 autosave: Path | None = None, lang: str = DEFAULT) -> None:  # fmt: skip
        self.names: tuple[str, ...] = tuple(names)
        self.back = back
        """Makes a new game against the agents (the board's Play button), if there was one."""
        self.happy_hour = bool(happy_hour)
        """Happy Hour offered in the setup (``play --serve --table --happy-hour``)."""
        self.autosave = autosave
        """The file each step is saved to (:func:`save`); None: not saved."""
        self.lang = language(lang)
        """The language of the board's words (:mod:`pinastats.tabletop.words`)."""
        self.state: _State | None = None
        self.history: list[_State] = []
        self.actions: list[dict[str, Any]] = []
        """The setup and every step since, as messages: what is saved and replayed."""
        self.seed = 0

    # ---------------------------------------------------------------- reading

    @property
    def mode(self) -> str:
        """``setup`` until the table is set, then ``table``."""
        return "setup" if self.state is None else "table"

    @property
    def config(self) -> GameConfig:
        """The game's config (the standard two-player one during setup)."""
        return GameConfig() if self.state is None else self.state.game.config

    @property
    def game(self) -> Game:
        """The game as it stands."""
        if self.state is None:
            raise PlayError("the table is not set up yet: choose the coasters first")
        return self.state.game

    @property
    def labels(self) -> tuple[str, ...]:
        """The seats' names."""
        return self.names

    @property
    def turns(self) -> list[Turn]:
        """Every turn played since the setup."""
        return [] if self.state is None else list(self.state.turns)

    def log_lines(self, lang: str | None = None) -> list[str]:
        """Every turn in words, in ``lang`` (default: the session's language)."""
        lang = self.lang if lang is None else lang
        return [turn_text(t.before, t.after, t.rolls, t.keeps, t.cell, t.points, t.happy,
                          t.option, self.names, lang) for t in self.turns]  # fmt: skip

    @property
    def log(self) -> list[str]:
        """Every turn in words."""
        return self.log_lines()

    @property
    def dice(self) -> tuple[int, ...]:
        """The dice showing this turn (none yet: empty)."""
        return () if self.state is None or not self.state.rolls else self.state.rolls[-1]

    @property
    def roll(self) -> int:
        """The rolls entered this turn."""
        return 0 if self.state is None else len(self.state.rolls)

    @property
    def can_undo(self) -> bool:
        """A step can be taken back."""
        return bool(self.history)

    @property
    def is_over(self) -> bool:
        """The game has ended."""
        return self.state is not None and self.state.game.is_over

    def close(self) -> None:
        """Nothing runs in the background."""

    # ---------------------------------------------------------------- acting

    def _step(self, action: dict[str, Any]) -> _State:
        state = self.state
        if state is None:
            raise PlayError("the table is not set up yet: choose the coasters first")
        if state.game.is_over:
            raise PlayError("the game is over: New game starts another, Undo goes back")
        self.history.append(copy.deepcopy(state))
        self.actions.append(action)
        return state

    def setup(self, *, position: str | None = None, coasters: Sequence[str] | None = None,
              tokens: Sequence[Sequence[int]] | None = None, to_move: int | None = None,
              names: Sequence[str] | None = None, happy_hour: bool = False,
              first: int | None = None) -> TableSession:  # fmt: skip
        """Set the table: a position line, or the coasters, tokens and first player; the names.

        With the coasters, ``first`` (the seat that played first, from 0) must be given:
        the starting scores and the last round follow from it. ``to_move`` defaults to
        it (an empty table: the first player moves).
        """
        if names is not None:
            names = [" ".join(str(n).split())[:MAX_NAME] for n in names]
        players = len(names) if names else 2
        action: dict[str, Any] = {"cmd": "setup", "names": list(names or [])}
        if position is None:
            if coasters is None:
                raise PlayError("setup needs a position line or the 16 coasters")
            if first is None:
                raise PlayError("say who played first: the starting scores (1 point for the "
                                "first player, 2 for the second, ...) and the last round "
                                "follow from it")  # fmt: skip
            if not 0 <= first < players:
                raise PlayError(f"the first player is seat 1 to {players}, got {first + 1}")
            to_move = first if to_move is None else to_move
            spaces = tokens if tokens is not None else [[] for _ in coasters]
            if not 0 <= to_move < players:
                raise PlayError(f"the seat to move is 1 to {players}, got {to_move + 1}")
            position = setup_line(coasters, spaces, to_move, players, happy_hour, first)
        try:
            game = parse_position(position)
        except PinastatsError as exc:
            raise PlayError(f"that table cannot be set: {exc}") from None
        if game.is_over:
            raise PlayError(f"that position is over already ({game.end_reason})")
        given = list(names or [])
        self.names = tuple(
            given[i] if i < len(given) and given[i] else f"Seat {i + 1}"
            for i in range(game.players)
        )
        action["position"] = notation_of(game)
        action["names"] = list(self.names)
        self.history = []
        self.actions = [action]
        self.state = _State(game)
        self.state.starts.append((game.turn, game.to_move, notation_of(game)))
        return self

    def enter_dice(self, dice: Sequence[int], kept: Sequence[int] | None = None) -> TableSession:
        """The five dice showing after a roll (the kept ones included).

        ``kept``: the dice kept from the roll before (a re-roll only; None: not said),
        part of both rolls and not all five.
        """
        state = self.state
        if state is None:
            raise PlayError("the table is not set up yet: choose the coasters first")
        rolls = int(state.game.config.rules.rolls)
        if len(state.rolls) >= rolls:
            raise PlayError(f"that was roll {rolls} of {rolls}: place a token, pass or roll the "
                            "Happy Hour die")  # fmt: skip
        if len(dice) != 5 or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
            raise PlayError(f"five dice, each 1 to 6, got {list(dice)}")
        hand = tuple(sorted(int(d) for d in dice))
        keep: tuple[int, ...] | None = None
        if kept is not None:
            keep = tuple(sorted(int(d) for d in kept))
            if not state.rolls:
                raise PlayError(f"the first roll of a turn keeps nothing, got kept {list(keep)}")
            last = state.rolls[-1]
            if len(keep) >= 5 or not part_of(keep, last) or not part_of(keep, hand):
                raise PlayError(f"kept {list(keep)}: the kept dice are part of the roll before "
                                f"({dice_text(last)}) and of this one ({dice_text(hand)}), "
                                "not all five")  # fmt: skip
        state = self._step({"cmd": "dice", "dice": list(hand),
                            **({} if keep is None else {"kept": list(keep)})})  # fmt: skip
        if state.rolls:
            state.keeps.append(keep)
        state.rolls.append(hand)
        return self

    def _final(self) -> tuple[int, ...]:
        state = self.state
        if state is None or not state.rolls:
            raise PlayError("enter the dice rolled first (tap the five faces)")
        return state.rolls[-1]

    def _end_turn(self, state: _State, before: Game, cell: int | None, points: int,
                  happy: HappyHourEffect | None, option: int | None) -> None:  # fmt: skip
        state.turns.append(Turn(before, state.game.copy(), list(state.rolls), list(state.keeps),
                                cell, points, happy, option))  # fmt: skip
        state.rolls, state.keeps = [], []
        if not state.game.is_over:
            g = state.game
            state.starts.append((g.turn, g.to_move, notation_of(g)))

    def place(self, cell: int) -> TableSession:
        """The token placed on ``cell`` with the dice showing."""
        dice = self._final()
        game = self.game
        if cell not in game.legal_cells(dice):
            why = game.why_illegal(cell, dice) or "it cannot take them"
            raise PlayError(f"{game.coaster(cell).name} cannot take {dice_text(dice)}: {why}; "
                            f"{_legal_text(game, dice)}")  # fmt: skip
        state = self._step({"cmd": "place", "cell": int(cell)})
        before = state.game.copy()
        state.placements.append((notation_of(before), dice, cell))
        points = state.game.place(cell, dice)
        self._end_turn(state, before, cell, points, None, None)
        return self

    def pass_turn(self) -> TableSession:
        """The turn ends without a token (nothing the dice show is open)."""
        dice = self._final()
        ending = self.game.turn_ending(dice, self.roll)
        if ending is TurnEnding.PLACE:
            raise PlayError(f"placing is compulsory: {_legal_text(self.game, dice)}")
        if ending is TurnEnding.HAPPY_HOUR:
            raise PlayError("nothing can be placed after the last roll: roll the Happy Hour die "
                            "and tap its face")  # fmt: skip
        state = self._step({"cmd": "pass"})
        before = state.game.copy()
        state.game.end_turn_without_placement(dice, rolls_used=len(state.rolls))
        self._end_turn(state, before, None, 0, None, None)
        return self

    def happy_options(self, face: int) -> list[int]:
        """The options of the Happy Hour die showing ``face``."""
        return list(self.game.happy_hour_options(HappyHourEffect(face)))

    def happy(self, face: int, option: int | None = None) -> TableSession:
        """The Happy Hour die showed ``face``; ``option``: the choice where it asks one."""
        dice = self._final()
        if self.game.turn_ending(dice, self.roll) is not TurnEnding.HAPPY_HOUR:
            raise PlayError("no Happy Hour die this turn: it is rolled with the variant on, after "
                            "the last roll, when nothing can be placed")  # fmt: skip
        if not 1 <= face <= 6:
            raise PlayError(f"the Happy Hour die shows 1 to 6, got {face}")
        options = self.happy_options(face)
        if len(options) == 1 and option is None:
            option = options[0]  # no choice to make
        if options and option not in options:
            raise PlayError(f"choose one of the {len(options)} options for this face")
        if not options:
            option = None
        state = self._step({"cmd": "happy", "face": int(face), "option": option})
        before = state.game.copy()
        effect = HappyHourEffect(face)
        state.game.end_turn_without_placement(dice, face, option, rolls_used=len(state.rolls))
        self._end_turn(state, before, None, 0, effect, option)
        return self

    def undo(self) -> TableSession:
        """Take back the last step: dice, placement, pass or Happy Hour."""
        if not self.history:
            raise PlayError("nothing to undo")
        self.state = self.history.pop()
        self.actions.pop()
        return self

    def summary(self) -> dict[str, Any]:
        """Who is to move and the turn's dice, as the view shows them."""
        game = self.game
        dice = self.dice
        out: dict[str, Any] = {"roll": self.roll, "rolls": int(game.config.rules.rolls),
                               "dice": list(dice), "legal": [], "ending": None}  # fmt: skip
        if dice:
            out["legal"] = list(game.legal_cells(dice))
            out["ending"] = self.game.turn_ending(dice, self.roll).name.lower()
        return out

    # ---------------------------------------------------------------- keeping

    def to_data(self) -> dict[str, Any]:
        """The session as JSON-ready data: its setup and steps (:func:`from_data` reads it)."""
        return {"format": SAVE_FORMAT, "version": 1, "lang": self.lang,
                "happy_hour": self.happy_hour, "actions": copy.deepcopy(self.actions)}  # fmt: skip

    def replay(self, actions: Sequence[dict[str, Any]]) -> TableSession:
        """Carry out saved steps (the setup first) on this session; a bad one raises PlayError."""
        for a in actions:
            cmd = a.get("cmd") if isinstance(a, dict) else None
            try:
                if cmd == "setup":
                    self.setup(position=str(a["position"]), names=list(a.get("names") or []))
                elif cmd == "dice":
                    kept = a.get("kept")
                    self.enter_dice([int(d) for d in a["dice"]],
                                    None if kept is None else [int(d) for d in kept])  # fmt: skip
                elif cmd == "place":
                    self.place(int(a["cell"]))
                elif cmd == "pass":
                    self.pass_turn()
                elif cmd == "happy":
                    option = a.get("option")
                    self.happy(int(a["face"]), None if option is None else int(option))
                else:
                    raise PlayError(f"a saved step {cmd!r} is not one of setup, dice, place, "
                                    "pass, happy")  # fmt: skip
            except (KeyError, TypeError, ValueError) as exc:
                raise PlayError(f"a saved step is malformed: {a!r:.80} ({exc})") from None
        return self

    def record(self) -> GameRecord:
        """The game so far as a game record that ``pinastats review`` reads (module docstring).

        The record starts from the position set up (``start``). A real table's dice come
        from no generator: each roll's ``draws`` is a generator state found to draw exactly
        the dice entered (and the Happy Hour face), so the record replays like any other.
        Keeps not entered are the dice the two rolls have in common.
        """
        from pinastats.records.draws import state_text, stream_text
        from pinastats.records.record import setup_fields

        state = self.state
        if state is None:
            raise PlayError("nothing to export yet: set the table up first")
        first = parse_position(state.starts[0][2])
        rng = np.random.default_rng(0)
        stream = stream_text(rng)
        turns = [_recorded_turn(t, stream) for t in state.turns]
        game = state.game
        from pinastats.game.rules import EndReason, Trigger
        from pinastats.records.format import RecordedTurn

        recorded: list[RecordedTurn] = turns
        ids = first.config.catalogue.ids
        return GameRecord(
            seed=None, game=0, agents=tuple(self.names),
            **setup_fields(first.config),
            coasters=tuple(ids[int(c)] for c in first.state.cell_coaster),
            sides="".join(first.side(c) for c in range(first.config.layout.n_cells)),
            start_scores=tuple(int(x) for x in first.config.start_scores),
            first=int(first.first_player),
            rng={"stream": stream, "deal": state_text(rng), "first": "fixed"},
            turns=tuple(recorded), winner=None if game.winner is None else int(game.winner),
            reason=EndReason(game.end_reason).name, trigger=Trigger(game.trigger).name,
            scores=tuple(int(x) for x in game.scores), start=state.starts[0][2],
        )  # fmt: skip


def _inferred_keep(before: tuple[int, ...], after: tuple[int, ...]) -> tuple[int, ...]:
    """The dice two rolls have in common (at most four: a re-roll moves one die at least)."""
    rest, keep = list(after), []
    for d in before:
        if d in rest:
            rest.remove(d)
            keep.append(d)
    return tuple(sorted(keep))[:4]


SEARCH = 2_000_000
"""The most generator states tried for one roll of a record (at most about 6**6 are needed)."""
_PCG_MULT = 0x2360ED051FC65DA44385DF649FCCF645
"""PCG64's multiplier (numpy's ``PCG64``): ``state = state * mult + inc`` (mod 2**128)."""


def _faces(state: int, inc: int, n: int) -> list[int]:
    """The faces of ``n`` dice drawn by numpy's PCG64 from ``state``: ``floor(6 u) + 1`` each.

    Each draw steps the state, outputs ``rotr64(high ^ low, high >> 58)`` and
    ``u = (output >> 11) / 2**53`` (the engine's ``_uniform``, one per die).
    """
    faces = []
    for _ in range(n):
        state = (state * _PCG_MULT + inc) & ((1 << 128) - 1)
        hi, lo = state >> 64, state & ((1 << 64) - 1)
        rot, x = hi >> 58, hi ^ lo
        out = ((x >> rot) | (x << (64 - rot))) & ((1 << 64) - 1)
        faces.append(int((out >> 11) * 2.0**-53 * 6.0) + 1)
    return faces


def _draws(turn: Turn, keeps: Sequence[tuple[int, ...]], stream: str) -> list[str]:
    """For each roll, a generator state that draws its re-rolled dice (and the Happy Hour face)."""
    inc = int(stream, 16)
    seeker = np.random.default_rng([*turn.rolls[0], len(turn.rolls), turn.before.turn])
    draws = []
    for i, dice in enumerate(turn.rolls):
        rest = list(dice)
        for d in () if i == 0 else keeps[i - 1]:
            rest.remove(d)
        want = sorted(rest)
        happy = [int(turn.happy)] if i == len(turn.rolls) - 1 and turn.happy is not None else []
        for _ in range(SEARCH):
            state = int(seeker.integers(2**62)) << 66 | int(seeker.integers(2**62)) << 4
            faces = _faces(state, inc, len(want) + len(happy))
            if sorted(faces[: len(want)]) == want and faces[len(want) :] == happy:
                draws.append(f"{state:032x}")
                break
        else:  # pragma: no cover - a chance below e**-40
            raise PlayError(f"no generator state draws {dice_text(dice)}: the record is not "
                            "written")  # fmt: skip
    return draws


def _recorded_turn(turn: Turn, stream: str) -> Any:
    """A turn of a record: the dice entered, with generator states that draw them."""
    from pinastats.records.format import HappyHour, RecordedTurn

    keeps = [k if k is not None else _inferred_keep(turn.rolls[i], turn.rolls[i + 1])
             for i, k in enumerate(turn.keeps)]  # fmt: skip
    before, cell = turn.before, turn.cell
    return RecordedTurn(
        seat=int(before.to_move), rolls=tuple(turn.rolls), keeps=tuple(keeps),
        draws=tuple(_draws(turn, keeps, stream)),
        cell=cell, coaster=None if cell is None else before.coaster(cell).id,
        side=None if cell is None else before.side(cell), points=int(turn.points),
        happy_hour=None if turn.happy is None else HappyHour(
            int(turn.happy), turn.happy.name, turn.option),
        scores=tuple(int(x) for x in turn.after.scores),
    )  # fmt: skip


def save_folder() -> Path:
    """Where the table game is kept: ``$PINASTATS_TABLE_DIR``, else the user's data folder."""
    given = os.environ.get(SAVE_ENV)
    if given:
        return Path(given)
    import platformdirs

    return Path(platformdirs.user_data_dir("pinastats", appauthor=False))


def save(session: TableSession) -> Path | None:
    """Write the session to its :attr:`~TableSession.autosave` file, whole; None: not kept."""
    path = session.autosave
    if path is None:
        return None
    from pinastats._files import written_whole

    with written_whole(path, encoding="utf-8") as f:
        f.write(json.dumps(session.to_data()) + "\n")
    return path


def from_data(data: object, **kwargs: Any) -> TableSession:
    """A session from :meth:`TableSession.to_data`'s data (PlayError for anything else)."""
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise PlayError(f"not a saved table game (format {SAVE_FORMAT!r} expected)")
    if data.get("version") != 1:
        raise PlayError(f"a saved table game of version {data.get('version')!r}; this reads 1")
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise PlayError("a saved table game lists its steps in 'actions'")
    try:
        lang = language(data.get("lang", DEFAULT))
    except PinastatsError:
        lang = DEFAULT
    session = TableSession(happy_hour=bool(data.get("happy_hour")), lang=lang, **kwargs)
    return session.replay(actions)


def resume(*, back: Callable[[], Any] | None = None, happy_hour: bool = False,
           folder: Path | None = None) -> tuple[TableSession, str]:  # fmt: skip
    """The table game saved in ``folder`` (default :func:`save_folder`), or a new one.

    Returns the session (kept in that folder from now on) and a line saying which.
    A saved game that cannot be read is set aside as ``table.json.bad`` (never lost),
    and a new table begins.
    """
    path = (save_folder() if folder is None else folder) / SAVE_NAME
    kwargs: dict[str, Any] = {"back": back, "autosave": path}
    if path.is_file():
        try:
            session = from_data(json.loads(path.read_text(encoding="utf-8")), **kwargs)
        except (OSError, ValueError, PinastatsError) as exc:
            bad = path.with_name(SAVE_NAME + ".bad")
            os.replace(path, bad)
            return (
                TableSession(happy_hour=happy_hour, **kwargs),
                f"the saved table game could not be read ({exc}); it is kept as {bad}",
            )
        if happy_hour:
            session.happy_hour = True
        if session.state is not None:
            return session, f"resumed the table game saved in {path}"
        return session, f"a new table (saved in {path})"
    return TableSession(happy_hour=happy_hour, **kwargs), f"a new table (saved in {path})"


def _legal_text(game: Game, dice: Sequence[int]) -> str:
    legal = game.legal_cells(dice)
    if not legal:
        return f"{dice_text(dice)} makes no open coaster"
    names = [f"{game.coaster(p.cell).name} ({plural(p.points, 'point')})"
             for p in game.legal_placements(dice)]  # fmt: skip
    return f"{dice_text(dice)} makes {', '.join(names)}"
