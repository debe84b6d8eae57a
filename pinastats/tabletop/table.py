"""My table: the board as a companion to a game played with real dice and coasters.

:class:`TableSession` starts in *setup*: the 16 coasters (picked by name, or a pasted
line of the position notation, ``docs/notation.md``), each seat's tokens already on
them, the seats' names and who moves (the scores are worked out from the tokens).
Then, turn after turn, the dice rolled at the table are entered (every roll of the
turn, up to the rules' rolls), the coach advises on the dice showing, and what was
done is recorded: a placement, a pass, or the Happy Hour die and its choice. Every
step can be undone. The turns go in the log in words, and at the end the review
grades each placement with an evaluator independent of the advice
(:mod:`pinastats.tabletop.review`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pinastats._engine import TurnEnding
from pinastats.errors import PinastatsError
from pinastats.game.catalogue import load_catalogue
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.game.layout import load_layout
from pinastats.game.notation import coaster_codes, notation_of, parse_position
from pinastats.game.rules import HappyHourEffect
from pinastats.tabletop.session import PlayError
from pinastats.tabletop.words import dice_text, plural, turn_text

MAX_NAME = 24
"""The longest seat name kept (characters)."""


@dataclass
class _State:
    """What changes with each step (undo goes back to the one before)."""

    game: Game
    rolls: list[tuple[int, ...]] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    starts: list[tuple[int, int, str]] = field(default_factory=list)
    placements: list[tuple[str, tuple[int, ...], int]] = field(default_factory=list)


def setup_line(coasters: Sequence[str], tokens: Sequence[Sequence[int]], to_move: int,
               players: int, happy_hour: bool = False) -> str:  # fmt: skip
    """The position line of a setup: coasters by name, id or code, tokens by seat (from 0)."""
    catalogue = load_catalogue()
    layout = load_layout("standard")
    codes = coaster_codes(catalogue)
    if len(coasters) != layout.n_cells or len(tokens) != layout.n_cells:
        raise PlayError(f"a table has {layout.n_cells} coasters, got {len(coasters)}")
    words = []
    for i, (name, seats) in enumerate(zip(coasters, tokens, strict=True)):
        if not str(name).strip():
            raise PlayError(f"coaster {i + 1} (row {i // 4 + 1}, column {i % 4 + 1}) is not "
                            "chosen yet: type its name")  # fmt: skip
        by_code = {code.upper(): cid for cid, code in codes.items()}
        try:
            cid = by_code.get(str(name).strip().upper()) or catalogue.find(str(name)).id
        except PinastatsError as exc:
            raise PlayError(f"coaster {i + 1}: {exc}") from None
        words.append(codes[cid] + "".join(f"+{int(s) + 1}" for s in seats))
    rows = "/".join(",".join(words[r * 4 : (r + 1) * 4]) for r in range(4))
    extra = ([f"players={players}"] if players != 2 else []) + (["hh"] if happy_hour else [])
    return " ".join(["pc1", rows, str(to_move + 1), *extra])


class TableSession:
    """A game at a real table: setup, then the dice entered and what was done (module docstring)."""

    def __init__(self, names: Sequence[str] = ("Seat 1", "Seat 2"), *,
                 back: Callable[[], Any] | None = None) -> None:  # fmt: skip
        self.names: tuple[str, ...] = tuple(names)
        self.back = back
        """Makes a new game against the agents (the board's Play button), if there was one."""
        self.state: _State | None = None
        self.history: list[_State] = []
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
    def log(self) -> list[str]:
        """Every turn in words."""
        return [] if self.state is None else list(self.state.log)

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

    def _step(self) -> _State:
        state = self.state
        if state is None:
            raise PlayError("the table is not set up yet: choose the coasters first")
        if state.game.is_over:
            raise PlayError("the game is over: New game starts another, Undo goes back")
        self.history.append(copy.deepcopy(state))
        return state

    def setup(self, *, position: str | None = None, coasters: Sequence[str] | None = None,
              tokens: Sequence[Sequence[int]] | None = None, to_move: int = 0,
              names: Sequence[str] | None = None,
              happy_hour: bool = False) -> TableSession:  # fmt: skip
        """Set the table: a position line, or the coasters and tokens; the seats' names."""
        if names is not None:
            names = [" ".join(str(n).split())[:MAX_NAME] for n in names]
        players = len(names) if names else 2
        if position is None:
            if coasters is None:
                raise PlayError("setup needs a position line or the 16 coasters")
            spaces = tokens if tokens is not None else [[] for _ in coasters]
            if not 0 <= to_move < players:
                raise PlayError(f"the seat to move is 1 to {players}, got {to_move + 1}")
            position = setup_line(coasters, spaces, to_move, players, happy_hour)
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
        self.history = []
        self.state = _State(game)
        self.state.starts.append((game.turn, game.to_move, notation_of(game)))
        return self

    def enter_dice(self, dice: Sequence[int]) -> TableSession:
        """The five dice showing after a roll (the kept ones included)."""
        state = self.state
        if state is None:
            raise PlayError("the table is not set up yet: choose the coasters first")
        rolls = int(state.game.config.rules.rolls)
        if len(state.rolls) >= rolls:
            raise PlayError(f"that was roll {rolls} of {rolls}: place a token, pass or roll the "
                            "Happy Hour die")  # fmt: skip
        if len(dice) != 5 or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
            raise PlayError(f"five dice, each 1 to 6, got {list(dice)}")
        state = self._step()
        state.rolls.append(tuple(sorted(int(d) for d in dice)))
        return self

    def _final(self) -> tuple[int, ...]:
        state = self.state
        if state is None or not state.rolls:
            raise PlayError("enter the dice rolled first (tap the five faces)")
        return state.rolls[-1]

    def _end_turn(self, state: _State, before: Game, cell: int | None, points: int,
                  happy: HappyHourEffect | None, option: int | None) -> None:  # fmt: skip
        state.log.append(turn_text(before, state.game, state.rolls, [], cell, points, happy,
                                   option, self.names))  # fmt: skip
        state.rolls = []
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
        state = self._step()
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
        state = self._step()
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
        state = self._step()
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


def _legal_text(game: Game, dice: Sequence[int]) -> str:
    legal = game.legal_cells(dice)
    if not legal:
        return f"{dice_text(dice)} makes no open coaster"
    names = [f"{game.coaster(p.cell).name} ({plural(p.points, 'point')})"
             for p in game.legal_placements(dice)]  # fmt: skip
    return f"{dice_text(dice)} makes {', '.join(names)}"
