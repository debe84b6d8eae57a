"""``pinastats table``: play at a real table from the terminal, the advice after every roll.

The command keeps the position and reads one line per action from the standard
input (with a prompt when it is a terminal): the dice rolled (``dice 1 3 4 4 6``,
``dice 2 5 roll 2`` after a keep), the dice kept, the coaster taken
(``place pair of 4s``), a pass, the Happy Hour die, ``undo``. After each roll it
prints the advice for the player to move (the code of ``pinastats advise``: by
the chance to win with the learned evaluator, or by this turn's points), after
each placement or pass the new position as a line of the position notation
(``docs/notation.md``). It starts from ``--position``, ``--state`` or a new game
dealt at random (``--players``, ``--seed``).
"""

from __future__ import annotations

import argparse
import difflib
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TextIO

from pinastats.cli._common import (
    add_position_options,
    dice_text,
    fail,
    load_position,
    non_negative_int,
    positive_int,
    surface_networks,
)
from pinastats.errors import PLAYER_COUNTS, PinastatsError

if TYPE_CHECKING:
    from pinastats.game.game import Game

OBJECTIVES = ("win", "points")
PROMPT = "> "
MAX_LINE = 1000
"""The longest line read as a command."""
_EXAMPLE = 'printf "dice 4 4 1 2 6\\nkeep 4 4\\ndice 4 3 1\\nplace three 4s\\n" | pinastats table'

HELP = """\
Commands (one a line; players are counted from 1, as in position lines):
  dice D D D D D [roll N]   the dice showing after roll N of the turn (default: the next roll;
                            a later roll may be named, never an earlier one);
                            after 'keep', the re-rolled dice alone will do
  keep D ...                the dice kept before the next roll ('keep' alone: re-roll all five)
  place NAME                place on a coaster: its name, code or id (e.g. 'pair of 4s', 'P4'),
                            or 'place ROW COL'
  pass                      end the turn without a token (the dice match no open coaster)
  happy F [K]               the Happy Hour die shows F (1-6); K picks one of its choices
  undo                      take back the last dice, keep, placement or pass
  show                      the board, the scores and the position line
  position                  the position line (docs/notation.md)
  help                      this list
  quit                      stop (so does the end of the input)"""


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``table`` subcommand."""
    parser = subparsers.add_parser(
        "table",
        help="play at a real table: type the dice, get the advice, keep the position",
        description=(
            "Keep the position of a game played at a real table: type the dice rolled, "
            "the dice kept and the coaster taken, one line each, and read the advice for "
            "the player to move after every roll and the new position after every turn. "
            "Starts from --position, --state or a new game (--players, --seed). Type 'help' "
            "for the commands."
        ),
        epilog=f"example: {_EXAMPLE}   (position lines: docs/notation.md)",
    )
    add_position_options(parser, required=False)
    parser.add_argument(
        "--players",
        type=int,
        choices=PLAYER_COUNTS,
        metavar="N",
        help="a new game of N players (2)",
    )
    parser.add_argument(
        "--seed", type=non_negative_int, metavar="S", help="seed of the new game's deal"
    )
    parser.add_argument("--happy-hour", action="store_true", help="play the Happy Hour variant")
    parser.add_argument(
        "--coasters", metavar="FILE", help="coaster catalogue CSV (default: the shipped one)"
    )
    parser.add_argument(
        "--objective",
        choices=OBJECTIVES,
        default="win",
        help="advise by the chance to win (default; the learned evaluator where it fits the "
        "game, else this turn's points) or by this turn's expected points",
    )
    parser.add_argument(
        "--top", type=positive_int, default=3, metavar="N", help="keeps shown (default 3)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Set the game up, then read the lines of the standard input until its end or ``quit``."""
    from pinastats._warmup import ensure_warm
    from pinastats.cli._advice import catalogue_option

    catalogue = catalogue_option(args.coasters)
    if args.state is not None or args.position is not None:
        for option in ("players", "seed"):
            if getattr(args, option) is not None:
                fail(f"--{option} sets up a new game; the position comes from --state/--position")
        game = load_position(args, catalogue=catalogue, happy_hour=args.happy_hour)
    else:
        game = _new_game(args.players or 2, args.seed, args.happy_hour, catalogue)
    points = ["dice", "agents", "rules"]
    if args.objective == "win":
        surface_networks()  # a weights file that cannot be used is refused before the game
    ensure_warm([*points, "turn", "coach", "value"] if args.objective == "win" else points)
    loop = TableLoop(game, objective=args.objective, top=args.top, out=sys.stdout)
    if sys.stdin.isatty():  # typed: line editing and history, the prompt by input()
        return loop.run(_typed(), strict=False)
    return loop.run(sys.stdin)


def _typed() -> Iterator[str]:
    """The lines typed at the terminal, each after the prompt, until end of input."""
    import readline  # noqa: F401  (input() edits lines and keeps their history)

    while True:
        try:
            yield input(PROMPT)
        except EOFError:
            print()
            return


def _new_game(players: int, seed: int | None, happy_hour: bool, catalogue: Any) -> Game:
    from pinastats.game.config import GameConfig
    from pinastats.game.game import Game
    from pinastats.game.rules import Rules

    rules = Rules(happy_hour=happy_hour)
    config = (
        GameConfig(players=players, rules=rules)
        if catalogue is None
        else GameConfig(players=players, rules=rules, catalogue=catalogue)
    )
    return Game.new(seed=seed, config=config)


class TableError(Exception):
    """A line the loop refuses; the message says why and what it takes."""


@dataclass
class _Turn:
    """What the player to move has done so far this turn."""

    dice: tuple[int, ...] | None = None
    roll: int = 0
    kept: tuple[int, ...] | None = None


@dataclass
class TableLoop:
    """The position, the turn in progress and the history that ``undo`` goes back through."""

    game: Game
    objective: str = "win"
    top: int = 3
    out: TextIO = field(default_factory=lambda: sys.stdout)
    turn: _Turn = field(default_factory=_Turn)
    history: list[tuple[Game, _Turn]] = field(default_factory=list)

    # ------------------------------------------------------------ the loop

    def run(
        self, lines: Iterable[str], prompt: str | None = None, *, strict: bool | None = None
    ) -> int:
        """Handle every line until ``quit`` or the end.

        ``prompt`` is written before each line is read. Returns 2 if a line was
        refused and ``strict`` (default: without a prompt, the input a script), else 0.
        """
        strict = prompt is None if strict is None else strict
        self.say(self.status_line())
        self.say(f"Position: {self.notation()}")
        refused = False
        stream = iter(lines)
        while True:
            if prompt is not None:
                self.out.write(prompt)
                self.out.flush()
            line = next(stream, None)
            if line is None:
                break
            line = line.rstrip("\n")
            if len(line) > MAX_LINE:  # garbage: said in a line, never echoed back
                refused = True
                self.say(f"error: a line of {len(line):,} characters; a command takes at most "
                         f"{MAX_LINE} (type 'help')")  # fmt: skip
                continue
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            if words[0].lower() in ("quit", "exit", "q"):
                break
            try:
                self.handle(words)
            except (TableError, PinastatsError) as exc:
                refused = True
                self.say(f"error: {' '.join(str(exc).split())}")
        return 2 if refused and strict else 0

    def say(self, text: str) -> None:
        """Print ``text`` on the loop's output."""
        print(text, file=self.out, flush=True)

    def handle(self, words: Sequence[str]) -> None:
        """Carry out one line (split into words)."""
        commands: dict[str, Callable[[list[str]], None]] = {
            "dice": self.dice,
            "keep": self.keep,
            "place": self.place,
            "pass": self.pass_turn,
            "happy": self.happy,
            "undo": self.undo,
            "show": self.show,
            "position": lambda _: self.say(f"Position: {self.notation()}"),
            "help": lambda _: self.say(HELP),
        }
        name, rest = words[0].lower(), list(words[1:])
        if name not in commands:
            close = difflib.get_close_matches(name, list(commands), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            shown = words[0] if len(words[0]) <= 40 else words[0][:40] + "…"
            raise TableError(
                f"unknown command {shown!r}{hint} (commands: {', '.join(commands)}, quit)"
            )
        commands[name](rest)

    # ------------------------------------------------------------ reading the game

    def notation(self) -> str:
        """The position line of the game."""
        from pinastats.game.notation import notation_of

        return notation_of(self.game)

    def status_line(self) -> str:
        """Who is to move, or how the game ended; the scores."""
        game = self.game
        scores = "; ".join(
            f"player {p + 1} {s} ({r} in reserve)"
            for p, (s, r) in enumerate(zip(game.scores, game.reserves, strict=True))
        )
        if game.is_over:
            winner = game.winner
            who = "nobody wins" if winner is None else f"player {winner + 1} wins"
            return f"The game is over ({game.end_reason}): {who}. Scores: {scores}."
        return f"Turn {game.turn + 1}: player {game.to_move + 1} to move. Scores: {scores}."

    def _rolls(self) -> int:
        return int(self.game.config.rules.rolls)

    def _ongoing(self) -> None:
        if self.game.is_over:
            raise TableError(f"the game is over ({self.game.end_reason}); 'undo' goes back")

    def _save(self) -> None:
        self.history.append((self.game.copy(), _Turn(**vars(self.turn))))

    # ------------------------------------------------------------ commands

    def dice(self, words: list[str]) -> None:
        """``dice D D D D D [roll N]``: the dice after a roll; prints the advice."""
        from pinastats.dice.hands import check_dice
        from pinastats.game.turn import part_of

        self._ongoing()
        roll = None
        if len(words) >= 2 and words[-2].lower() == "roll":
            roll = _number(words[-1], "roll")
            words = words[:-2]
        values = [_number(w, "dice") for w in words]
        kept = self.turn.kept or ()
        if self.turn.kept is not None and len(values) == 5 - len(kept):
            values = [*kept, *values]
        elif self.turn.kept is not None and not part_of(kept, values):
            raise TableError(
                f"you kept {dice_text(kept)}: give the {5 - len(kept)} dice re-rolled, or five "
                f"dice that include {dice_text(kept)}"
            )
        dice = tuple(sorted(check_dice(values)))
        roll = self.turn.roll + 1 if roll is None else roll
        rolls = self._rolls()
        if self.turn.roll >= rolls:
            raise TableError(f"that was roll {rolls} of {rolls}: place, pass or roll the Happy "
                             "Hour die ('undo' takes the roll back)")  # fmt: skip
        if not self.turn.roll < roll <= rolls:
            raise TableError(
                f"roll {roll}: this turn's next roll is {self.turn.roll + 1} (up to {rolls}; "
                "'undo' takes a roll back)"
            )
        self._save()
        self.turn = _Turn(dice=dice, roll=roll)
        self.advise()

    def keep(self, words: list[str]) -> None:
        """``keep D ...``: the dice kept before the next roll."""
        self._ongoing()
        dice = self.turn.dice
        if dice is None:
            raise TableError("no dice yet this turn: type the roll first ('dice 1 3 4 4 6')")
        if self.turn.roll >= self._rolls():
            raise TableError(
                f"that was the last of the {self._rolls()} rolls: place or pass, no re-roll"
            )
        from pinastats.game.turn import part_of

        kept = tuple(sorted(_number(w, "keep") for w in words))
        if not part_of(kept, dice):
            raise TableError(f"keep {dice_text(kept)}: the dice showing are {dice_text(dice)}")
        if len(kept) == 5:
            raise TableError("keeping all five dice is stopping: place or pass")
        self._save()
        self.turn = _Turn(dice=dice, roll=self.turn.roll, kept=kept)
        n = 5 - len(kept)
        self.say(
            f"Kept {dice_text(kept) or 'nothing'}; re-roll {n} di{'c' if n > 1 else ''}e "
            f"(roll {self.turn.roll + 1} of {self._rolls()}), then type 'dice'."
        )

    def place(self, words: list[str]) -> None:
        """``place NAME`` or ``place ROW COL``: the token on a coaster; prints the new position."""
        self._ongoing()
        dice = self._final_dice("place")
        cell = self._cell(words, dice)
        self._save()
        points = self.game.place(cell, dice)
        coaster = self.game.coaster(cell)
        unit = "point" if points == 1 else "points"
        self.say(f"Placed on {coaster.name} (row/col {self._where(cell)}) for {points} {unit}.")
        self._next_turn()

    def pass_turn(self, words: list[str]) -> None:
        """``pass``: the turn ends without a token."""
        from pinastats._engine import TurnEnding

        self._ongoing()
        if words:
            raise TableError("'pass' takes nothing after it")
        dice = self._final_dice("pass")
        ending = self.game.turn_ending(dice, self.turn.roll)
        if ending is TurnEnding.PLACE:
            raise TableError(
                f"placing is compulsory: {dice_text(dice)} matches {self._legal_text(dice)}"
            )
        if ending is TurnEnding.HAPPY_HOUR:
            raise TableError(
                "all rolls are used and nothing can be placed: roll the Happy Hour die and "
                "type 'happy F' (F = 1-6)"
            )
        self._save()
        self.game.end_turn_without_placement(dice, rolls_used=self.turn.roll)
        self.say("Passed.")
        self._next_turn()

    def happy(self, words: list[str]) -> None:
        """``happy F [K]``: the Happy Hour die and, where the effect asks, the choice ``K``."""
        from pinastats._engine import TurnEnding
        from pinastats.game.rules import HappyHourEffect

        self._ongoing()
        dice = self._final_dice("happy")
        if self.game.turn_ending(dice, self.turn.roll) is not TurnEnding.HAPPY_HOUR:
            raise TableError(
                "no Happy Hour die this turn: it is rolled only with the variant on, after "
                "the last roll, when nothing can be placed"
            )
        if not 1 <= len(words) <= 2:
            raise TableError("happy F [K]: the face of the Happy Hour die, 1-6, and a choice")
        face = _number(words[0], "happy")
        effect = HappyHourEffect(face) if 1 <= face <= 6 else None
        if effect is None:
            raise TableError(f"the Happy Hour die shows 1 to 6, got {face}")
        options = self.game.happy_hour_options(effect)
        option = None
        if len(options) > 1:
            if len(words) < 2:
                choices = "; ".join(
                    f"{k}: {self._option_text(effect, o)}" for k, o in enumerate(options, 1)
                )
                raise TableError(f"'{effect}' needs a choice, 'happy {face} K' with K = {choices}")
            k = _number(words[1], "choice")
            if not 1 <= k <= len(options):
                raise TableError(f"choice {k}: choose 1 to {len(options)}")
            option = options[k - 1]
        elif len(words) == 2:
            raise TableError(f"'{effect}' has no choice to make here")
        self._save()
        self.game.end_turn_without_placement(dice, face, option, rolls_used=self.turn.roll)
        done = "" if option is None else f": {self._option_text(effect, option)}"
        self.say(f"Happy Hour: {effect}{done}.")
        self._next_turn()

    def undo(self, words: list[str]) -> None:
        """``undo``: back to before the last dice, keep, placement, pass or Happy Hour."""
        if not self.history:
            raise TableError("nothing to undo")
        self.game, self.turn = self.history.pop()
        self.say("Undone.")
        self.say(self.status_line())
        if self.turn.dice is not None:
            kept = "" if self.turn.kept is None else f", keeping {dice_text(self.turn.kept)}"
            self.say(f"Dice {dice_text(self.turn.dice)} after roll {self.turn.roll}{kept}.")

    def show(self, words: list[str]) -> None:
        """``show``: the board, the scores and the position line."""
        self.say(self.game.draw())
        self.say(self.status_line())
        self.say(f"Position: {self.notation()}")

    # ------------------------------------------------------------ helpers

    def advise(self) -> None:
        """Print the advice for the dice showing, by the policy's evaluator for ``table``.

        Exact once the board is solved: it is solved in the background meanwhile.
        """
        from pinastats.agents.advice import advise
        from pinastats.cli._advice import points_text, win_text
        from pinastats.evaluation import choose, solve_in_background

        dice = self.turn.dice
        assert dice is not None
        left = self._rolls() - self.turn.roll
        if left > 2:  # the advice plays turns of up to three rolls
            self.say(f"Dice {dice_text(dice)}, {left} rolls left: no advice before roll "
                     f"{self._rolls() - 2} of a turn of {self._rolls()} rolls.")  # fmt: skip
            return
        if self.objective != "win":
            self.say(points_text(advise(self.game, list(dice), left), self.game, self.top))
            return
        choice = choose(self.game, "table", networks=surface_networks())
        if choice.solve == "background":
            status = solve_in_background(self.game)
            if status.state == "solving":
                done = f"{100 * status.share:.0f}%"
                self.say(f"(Solving this board exactly in the background: {done} done; the "
                         "advice switches to exact when it is ready.)")  # fmt: skip
        win = choice.evaluator.advise(self.game, tuple(dice), left)
        self.say(win_text(win, self.game, self.top, choice, hints=False))

    def _final_dice(self, command: str) -> tuple[int, ...]:
        if self.turn.dice is None:
            raise TableError(f"no dice yet this turn: type the roll first, then '{command}'")
        if self.turn.kept is not None:
            raise TableError(f"you kept {dice_text(self.turn.kept)}: type the new roll ('dice')")
        return self.turn.dice

    def _next_turn(self) -> None:
        self.turn = _Turn()
        self.say(self.status_line())
        self.say(f"Position: {self.notation()}")

    def _where(self, cell: int) -> str:
        row, col = self.game.config.layout.cells[cell]
        return f"{row}/{col}"

    def _names(self, cell: int) -> list[str]:
        from pinastats.dice.combinations import normalize_name
        from pinastats.game.notation import coaster_codes

        coaster = self.game.coaster(cell)
        code = coaster_codes(self.game.config.catalogue)[coaster.id]
        return [normalize_name(n) for n in (coaster.name, coaster.id, code)]

    def _legal_text(self, dice: tuple[int, ...]) -> str:
        from pinastats.game.notation import coaster_codes

        codes = coaster_codes(self.game.config.catalogue)
        legal = [
            f"{p.combination} ({codes[p.coaster]}, row/col {p.row}/{p.col}, {p.points} points)"
            for p in self.game.legal_placements(dice)
        ]
        return ", ".join(legal) if legal else "no open coaster"

    def _cell(self, words: list[str], dice: tuple[int, ...]) -> int:
        """The legal cell ``words`` name: a coaster's name, code or id, or a row and column."""
        from pinastats.dice.combinations import normalize_name

        game = self.game
        legal = game.legal_cells(dice)
        if not words:
            raise TableError(f"place what? With {dice_text(dice)}: {self._legal_text(dice)}")
        if len(words) == 2 and all(w.isdigit() for w in words):
            try:
                cell = game.config.layout.cell_index(int(words[0]), int(words[1]))
            except (PinastatsError, KeyError, ValueError):
                raise TableError(f"no cell at row {words[0]}, column {words[1]}") from None
            candidates = [cell]
        else:
            text = normalize_name(" ".join(words))
            cells = range(game.config.layout.n_cells)
            candidates = [c for c in cells if text in self._names(c)]
            if not candidates:
                try:
                    found = game.config.catalogue.find(" ".join(words)).id
                except PinastatsError:
                    found = None
                candidates = [c for c in cells if game.coaster(c).id == found]
            if not candidates:
                names = {n: c for c in legal for n in self._names(c)}
                close = difflib.get_close_matches(text, list(names), n=1, cutoff=0.6)
                candidates = [names[close[0]]] if close else []
        if not candidates:
            raise TableError(
                f"no coaster on the board is called {' '.join(words)!r}; with "
                f"{dice_text(dice)} the legal ones are: {self._legal_text(dice)}"
            )
        cell = candidates[0]
        if cell not in legal:
            why = game.why_illegal(cell, dice)
            raise TableError(f"{why}; with {dice_text(dice)}: {self._legal_text(dice)}")
        return cell

    def _option_text(self, effect: Any, option: int) -> str:
        """A Happy Hour choice in words."""
        info = self.game.decode_happy_hour(effect, option)
        name = {c: self.game.coaster(c).name for c in range(self.game.config.layout.n_cells)}
        if "from_cell" in info:
            return (
                f"player {info['owner']}'s token from {name[info['from_cell']]} to "
                f"{name[info['to_cell']]}"
            )
        if "cell" in info:
            return name[info["cell"]]
        return str(effect)


def _number(text: str, what: str) -> int:
    """A whole number written in the digits 0-9 (no other script's digits, no sign)."""
    if not (text.isascii() and text.isdigit() and len(text) <= 12):
        shown = text if len(text) <= 20 else text[:20] + "…"
        raise TableError(f"{what}: expected whole numbers written 0-9, got {shown!r}")
    return int(text)
