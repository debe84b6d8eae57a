"""A game of Piña Coladice played by people and agents, one decision at a time.

:class:`PlaySession` is the state machine behind the JupyterLab widget and the
served page (:mod:`pinastats.tabletop.widget`, :mod:`pinastats.tabletop.server`). The
game itself is played by the one implementation of a turn there is:
:func:`~pinastats.records.record.record_game` runs in a thread of its own,
every seat an agent; a person's seat is an agent whose decisions wait for the
person's clicks. So the rules, the draws and the record are exactly those of
``simulate --record``: the same seed deals the same board and rolls the same
dice, and the finished game is a :class:`~pinastats.records.GameRecord` that
``pinastats review`` reads.

A person's turn, as at the table: *roll* (the first roll), then with re-rolls
left *hold* or *release* dice and *roll* again, or *stop*; then *place* a token
on a legal coaster (none is legal: the turn passes, or the Happy Hour die is
rolled and its *choice* asked when it has options). :meth:`PlaySession.undo`
takes back the person's last decision: the game is played again from the deal
with the decisions before it (same seed, same dice, same agents' moves).

``position`` starts the game from a position instead of a deal: a line of the
position notation (``docs/notation.md``) or a :class:`~pinastats.game.game.Game`;
the record keeps it (``GameRecord.start``).
"""

from __future__ import annotations

import contextlib
import copy
import queue
import secrets
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pinastats.agents.loading import resolve_agent
from pinastats.agents.protocol import AgentProtocol
from pinastats.dice.errors import at_least_or_none
from pinastats.errors import PinastatsError
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.game.rules import HappyHourEffect, Rules
from pinastats.records.format import GameRecord
from pinastats.tabletop.words import seat_labels, turn_text

HUMAN = "human"
"""The seat name of a person (``human`` or ``human:NAME``)."""
WAIT = 900.0
"""Seconds a command waits for the game's thread to reach the next decision (the first game on
a machine compiles the engine's kernels on that thread: about a minute on two cores)."""


class PlayError(PinastatsError):
    """A click that the game refuses (names what was asked and what is allowed)."""


class _StopError(Exception):
    """Ends the game's thread (the session is closed or played again for an undo)."""


@dataclass(frozen=True)
class Pending:
    """The decision a person is asked for.

    ``kind``: ``roll`` (start the turn), ``keep`` (hold dice and roll again, or stop),
    ``place`` (a legal coaster), ``happy_hour`` (one of ``options`` for ``effect``).
    """

    kind: str
    seat: int
    dice: tuple[int, ...] = ()
    rolls_left: int = 0
    legal: tuple[int, ...] = ()
    effect: str = ""
    options: tuple[int, ...] = ()


def _person_name(spec: str) -> str:
    """``you``, or the name after ``human:``."""
    return spec.split(":", 1)[1] if ":" in spec and spec.split(":", 1)[1] else "you"


def _is_human(spec: object) -> bool:
    return isinstance(spec, str) and (spec == HUMAN or spec.startswith(HUMAN + ":"))


class _Person:
    """An agent whose decisions are a person's, asked through the session."""

    def __init__(self, session: PlaySession, name: str) -> None:
        self.session, self.name = session, name

    def start_turn(self, game: Game) -> None:
        self.session._turn_started(game)
        self.session._ask(Pending("roll", game.to_move), game)

    def choose_keep(self, game: Game, dice: Sequence[int], rolls_left: int,
                    rng: np.random.Generator) -> Sequence[int]:  # fmt: skip
        keep: Sequence[int] = self.session._ask(
            Pending("keep", game.to_move, tuple(dice), rolls_left), game
        )
        decided: Sequence[int] = self.session._decided(keep)
        return decided

    def choose_placement(self, game: Game, dice: Sequence[int], rng: np.random.Generator) -> int:
        legal = tuple(game.legal_cells(dice))
        cell = int(self.session._ask(Pending("place", game.to_move, tuple(dice), 0, legal), game))
        return int(self.session._decided(cell))

    def choose_happy_hour(self, game: Game, effect: HappyHourEffect, options: list[int],
                          rng: np.random.Generator) -> int:  # fmt: skip
        dice = self.session._final_dice()
        pending = Pending("happy_hour", game.to_move, dice, effect=HappyHourEffect(effect).name,
                          options=tuple(int(o) for o in options))  # fmt: skip
        return int(self.session._decided(int(self.session._ask(pending, game))))


class _Logged:
    """An agent seat whose decisions are noted for the session's log of turns."""

    def __init__(self, session: PlaySession, agent: AgentProtocol) -> None:
        self.session, self.agent = session, agent
        self.name = agent.name

    def start_turn(self, game: Game) -> None:
        self.session._turn_started(game)
        self.agent.start_turn(game)

    def choose_keep(self, game: Game, dice: Sequence[int], rolls_left: int,
                    rng: np.random.Generator) -> Sequence[int]:  # fmt: skip
        keep: Sequence[int] = self.session._decided(
            self.agent.choose_keep(game, dice, rolls_left, rng)
        )
        return keep

    def choose_placement(self, game: Game, dice: Sequence[int], rng: np.random.Generator) -> int:
        return int(self.session._decided(int(self.agent.choose_placement(game, dice, rng))))

    def choose_happy_hour(self, game: Game, effect: HappyHourEffect, options: list[int],
                          rng: np.random.Generator) -> int:  # fmt: skip
        option = int(self.agent.choose_happy_hour(game, effect, options, rng))
        return int(self.session._decided(option))


class _Replay:
    """The decisions of one turn, given again in order (to play the turn again and tell it)."""

    name = "replay"

    def __init__(self, decisions: list[Any]) -> None:
        self.decisions = list(decisions)

    def start_turn(self, game: Game) -> None:
        """Nothing to do."""

    def _next(self) -> Any:
        return self.decisions.pop(0)

    def choose_keep(self, game: Game, dice: Sequence[int], rolls_left: int,
                    rng: np.random.Generator) -> Sequence[int]:  # fmt: skip
        keep: Sequence[int] = self._next()
        return keep

    def choose_placement(self, game: Game, dice: Sequence[int], rng: np.random.Generator) -> int:
        return int(self._next())

    def choose_happy_hour(self, game: Game, effect: HappyHourEffect, options: list[int],
                          rng: np.random.Generator) -> int:  # fmt: skip
        return int(self._next())


@dataclass
class _Run:
    """One run of the game's thread: its inbox and what it reached."""

    answers: list[Any]
    inbox: queue.Queue[Any] = field(default_factory=queue.Queue)
    ready: threading.Event = field(default_factory=threading.Event)
    pending: Pending | None = None
    game: Game | None = None
    record: GameRecord | None = None
    error: BaseException | None = None
    replayed: int = 0
    stopped: bool = False
    log: list[Any] = field(default_factory=list)
    """Each turn told: a line, or what :func:`turn_text` tells in the session's language."""
    rng: np.random.Generator | None = None
    turn_start: tuple[Game, np.random.Generator] | None = None
    decisions: list[Any] = field(default_factory=list)


def _start_position(
    position: str | Game | None, config: GameConfig | None, happy_hour: bool
) -> Game | None:
    """The game a session starts from: None for a deal, else the position's game, checked."""
    from pinastats.game.notation import parse_position

    if position is None:
        return None
    if isinstance(position, str):
        game = parse_position(position, config=config)
    elif isinstance(position, Game):
        game = position.copy()
    else:
        raise PlayError(f"position must be a position line or a Game, got {position!r}")
    if happy_hour and not game.config.rules.happy_hour:
        raise PlayError("happy_hour: the position's rules say whether Happy Hour is played")
    if game.is_over:
        raise PlayError(f"the position is over ({game.end_reason}): nothing to play")
    return game


class PlaySession:
    """A game of 2-4 seats, people (``"human"``) and agents (any agent name), one seed.

    >>> s = PlaySession(["human", "strategic"], seed=7)
    >>> s.pending.kind
    'roll'
    >>> s.roll().pending.kind in {"keep", "place", "happy_hour", "roll"}
    True
    >>> s.close()
    """

    def __init__(self, seats: Sequence[str | AgentProtocol], *, seed: int | None = None,
                 happy_hour: bool = False, config: GameConfig | None = None,
                 position: str | Game | None = None) -> None:  # fmt: skip
        seats = list(seats)
        self._spec = (list(seats), happy_hour, config, position)
        if not 2 <= len(seats) <= 4:
            raise PlayError(f"a game has 2 to 4 seats, got {len(seats)}: {seats!r}")
        self.start = _start_position(position, config, happy_hour)
        if self.start is not None:
            config = self.start.config
        if config is None:
            if not isinstance(happy_hour, bool):
                raise PlayError(f"happy_hour must be True or False, got {happy_hour!r}")
            config = GameConfig(players=len(seats), rules=Rules(happy_hour=happy_hour))
        elif config.players != len(seats):
            raise PlayError(f"the config is for {config.players} players, got {len(seats)} seats")
        seed = at_least_or_none(seed, "seed", 0)
        self.seed: int = secrets.randbelow(2**31) if seed is None else int(seed)
        """The seed of the deal and the dice (drawn at random when none is given)."""
        self.config = config
        self.lang = "en"
        """The language of the board's words (set by the page: ``{"cmd": "lang"}``)."""
        # each agent resolved once (a bad name fails here, before any thread); None: a person
        self._seated = [None if _is_human(s) else resolve_agent(s) for s in seats]
        self.names = tuple(
            _person_name(str(s)) if a is None else a.name
            for s, a in zip(seats, self._seated, strict=True)
        )
        self.humans = tuple(i for i, a in enumerate(self._seated) if a is None)
        named = [a is None and ":" in str(s) and bool(str(s).split(":", 1)[1])
                 for s, a in zip(seats, self._seated, strict=True)]  # fmt: skip
        self.labels = seat_labels(self.names, named)
        if sum(self.names[i] == "you" for i in self.humans) > 1:  # people sharing the screen
            self.labels = tuple(f"Seat {i + 1}" if self.names[i] == "you" and i in self.humans
                                else label for i, label in enumerate(self.labels))  # fmt: skip
        """Each seat as the board says it: ``Seat 1 (you)``, or the name a person was given."""
        self._answers: list[Any] = []
        self._kinds: list[str] = []
        self._run: _Run | None = None
        self._start(self._answers)

    # the game's thread --------------------------------------------------------------------

    def _agents(self) -> list[AgentProtocol]:
        """The seats of one run: people, and fresh copies of the resolved agents."""
        return [
            _Person(self, self.names[i]) if a is None else _Logged(self, copy.deepcopy(a))
            for i, a in enumerate(self._seated)
        ]

    def _note(self, line: str) -> None:
        if self._run is not None:
            self._run.log.append(line)

    def _decided(self, decision: Any) -> Any:
        """Called on the game's thread: a decision of the turn in play, noted to tell it."""
        if self._run is not None:
            self._run.decisions.append(decision)
        return decision

    def _turn_started(self, game: Game) -> None:
        """Called on the game's thread as a turn starts: the turn before it goes in the log."""
        run = self._run
        if run is None or run.rng is None:
            return
        self._turn_ended(run)
        run.turn_start = (game.copy(), copy.deepcopy(run.rng))

    def _final_dice(self) -> tuple[int, ...]:
        """Called on the game's thread: the last dice of the turn in play (its rolls again)."""
        from pinastats.game.turn import Turn

        run = self._run
        if run is None or run.turn_start is None:
            return ()
        before, rng = run.turn_start
        rng = copy.deepcopy(rng)
        turn = Turn.start(before.copy(), rng)
        for keep in run.decisions:
            if turn.is_done:
                break
            turn.keep(keep, rng)
        return tuple(int(d) for d in turn.dice)

    def _turn_ended(self, run: _Run) -> None:
        """Tell the turn in play: play it again from its start with the same decisions."""
        from pinastats.simulation.play import play_turn

        if run.turn_start is None:
            return
        before, rng = run.turn_start
        after = before.copy()
        turn = play_turn(after, _Replay(run.decisions), rng)
        run.turn_start, run.decisions = None, []
        run.log.append((before, after, turn.rolls, turn.keeps, turn.cell, turn.points,
                        turn.happy_hour, turn.happy_hour_option))  # fmt: skip

    def _start(self, answers: list[Any]) -> None:
        from pinastats.records.record import record_game

        run = _Run(list(answers))
        self._run = run
        agents = self._agents()
        rng = np.random.default_rng(self.seed)
        run.rng = rng

        def main() -> None:
            try:
                record = record_game(self.config, agents, rng, seed=self.seed, start=self.start)
                self._turn_ended(run)
                run.record = record
            except _StopError:
                pass
            except BaseException as exc:
                if not run.stopped:
                    run.error = exc
            run.pending = None
            run.ready.set()

        self._thread = threading.Thread(target=main, daemon=True, name="pinastats-play")
        self._thread.start()
        self._wait(run)

    def _ask(self, pending: Pending, game: Game) -> Any:
        """Called on the game's thread: the answer to ``pending`` (logged, or the person's)."""
        run = self._run
        assert run is not None
        if run.stopped:
            raise _StopError
        if run.replayed < len(run.answers):
            answer = run.answers[run.replayed]
            run.replayed += 1
            return answer
        run.pending, run.game = pending, game
        run.ready.set()
        answer = run.inbox.get()
        if answer is _StopError or run.stopped:
            raise _StopError
        return answer

    def _wait(self, run: _Run) -> None:
        if not run.ready.wait(WAIT):
            raise PlayError(f"the game did not reach its next decision within {WAIT:g} s")
        if run.error is not None:
            raise run.error

    def _answer(self, kind: str, answer: Any) -> PlaySession:
        run = self._run
        assert run is not None
        self._answers.append(answer)
        self._kinds.append(kind)
        run.ready.clear()
        run.pending = None
        run.inbox.put(answer)
        self._wait(run)
        return self

    # what a person sees and does ----------------------------------------------------------

    @property
    def pending(self) -> Pending | None:
        """The decision a person is asked for; None when the game is over."""
        return None if self._run is None else self._run.pending

    @property
    def game(self) -> Game:
        """A copy of the game as it stands (before the pending decision)."""
        run = self._run
        assert run is not None
        if run.pending is None or run.game is None:
            raise PlayError("the game is over: its record is session.record")
        return run.game.copy()

    @property
    def log(self) -> list[str]:
        """What has happened, a line per turn: its rolls and keeps, and what was done."""
        if self._run is None:
            return []
        return [line if isinstance(line, str) else self._told(line) for line in self._run.log]

    def _told(self, turn: tuple[Any, ...]) -> str:
        """A turn of the log in words, in the session's language."""
        before, after, rolls, keeps, cell, points, happy, option = turn
        return turn_text(before, after, rolls, keeps, cell, points, happy, option, self.labels,
                         self.lang)  # fmt: skip

    @property
    def can_undo(self) -> bool:
        """A person has made a decision that can be taken back."""
        return any(k != "roll" for k in self._kinds)

    @property
    def is_over(self) -> bool:
        """The game has ended (its record is :attr:`record`)."""
        return self._run is not None and self._run.record is not None

    @property
    def record(self) -> GameRecord:
        """The finished game's record (JSON Lines with ``write_records``)."""
        if self._run is None or self._run.record is None:
            raise PlayError("the game is not over yet: its record is written at its end")
        return self._run.record

    def _expect(self, *kinds: str) -> Pending:
        p = self.pending
        if p is None:
            raise PlayError("the game is over")
        if p.kind not in kinds:
            asked = {
                "roll": "roll the dice",
                "keep": "hold dice and roll, or stop",
                "place": "place a token",
                "happy_hour": "choose for the Happy Hour die",
            }
            raise PlayError(f"{self.labels[p.seat]} is asked to {asked[p.kind]}, not to "
                            f"{' or '.join(kinds).replace('_', ' ')}")  # fmt: skip
        return p

    def roll(self, hold: Sequence[int] = ()) -> PlaySession:
        """Roll: the first roll of the turn, or re-roll every die not held (dice positions 0-4)."""
        p = self._expect("roll", "keep")
        if p.kind == "roll":
            if hold:
                raise PlayError(f"nothing to hold before the first roll, got {list(hold)}")
            return self._answer("roll", None)
        if p.rolls_left < 1:
            raise PlayError("no re-roll left: place a token")
        held = sorted(set(int(i) for i in hold))
        bad = [i for i in held if not 0 <= i < len(p.dice)]
        if bad:
            raise PlayError(f"dice are numbered 0 to {len(p.dice) - 1}, got {bad}")
        if len(held) == len(p.dice):
            raise PlayError("every die is held: stop instead of rolling")
        return self._answer("keep", tuple(sorted(p.dice[i] for i in held)))

    def stop(self) -> PlaySession:
        """Stop rolling and keep the dice showing."""
        p = self._expect("keep")
        return self._answer("keep", p.dice)

    def place(self, cell: int) -> PlaySession:
        """Place a token on ``cell`` (one of the legal cells)."""
        p = self._expect("place")
        if cell not in p.legal:
            game = self.game
            why = game.why_illegal(int(cell), p.dice) if isinstance(cell, int) else None
            named = (f"{game.coaster(int(cell)).name} (cell {cell!r})" if isinstance(cell, int)
                     and 0 <= cell < game.config.layout.n_cells else f"cell {cell!r}")  # fmt: skip
            legal = ", ".join(game.coaster(c).name for c in p.legal)
            raise PlayError(f"{named} cannot take the dice {list(p.dice)}"
                            f"{f' ({why})' if why else ''}; the legal cells are "
                            f"{list(p.legal)}: {legal}")  # fmt: skip
        return self._answer("place", int(cell))

    def choose(self, option: int) -> PlaySession:
        """Choose one of the Happy Hour die's options."""
        p = self._expect("happy_hour")
        if option not in p.options:
            raise PlayError(f"option {option!r} is not one of {list(p.options)} for {p.effect}")
        return self._answer("happy_hour", int(option))

    def undo(self) -> PlaySession:
        """Take back the person's last decision (and the roll presses after it)."""
        while self._kinds and self._kinds[-1] == "roll":
            self._kinds.pop()
            self._answers.pop()
        if not self._kinds:
            raise PlayError("nothing to undo: no decision has been made yet")
        self._kinds.pop()
        self._answers.pop()
        self._restart()
        return self

    def _restart(self) -> None:
        self._close_run()
        self._start(self._answers)

    def _close_run(self) -> None:
        run = self._run
        if run is not None and run.record is None:
            run.stopped = True
            run.inbox.put(_StopError)
            self._thread.join(WAIT)

    def again(self) -> PlaySession:
        """A new game of the same seats and rules, with a new random seed.

        A new deal, or the same starting position.
        """
        seats, happy_hour, config, position = self._spec
        fresh = PlaySession(seats, seed=None, happy_hour=happy_hour, config=config,
                            position=position)  # fmt: skip
        fresh.lang = self.lang
        return fresh

    def close(self) -> None:
        """End the game's thread (an unfinished game is dropped)."""
        self._close_run()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()
