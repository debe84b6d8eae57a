"""Reviewing a recorded game with the win-probability coach: what each decision gave away.

For each decision of the reviewed seats (each keep, the stop included, and
each placement) the coach (:func:`pinastats.coach.win_advice`) ranks the
options by the chance to win from the position of the record. The *loss* of a
decision is ``best_win - played_win``: both come from the same estimate (the
same play-outs, common random numbers), so the loss is never negative; it is
0 when the played option is tied for the best (within the coach's tie
tolerance). Noise: ``se`` and ``best_se`` are the standard errors of the two
win probabilities; a loss counts as *clear* when it exceeds
``2 sqrt(se^2 + best_se^2)`` (conservative: the common random numbers make the
paired error smaller). Turns without placement offer no choice (the pass is
compulsory) and Happy Hour choices are not rated by the coach: neither is
reviewed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass

import pandas as pd

from pinastats.coach import win_advice
from pinastats.coach.outcomes import check_playouts
from pinastats.dice.errors import at_least
from pinastats.errors import PinastatsError, expect_instance
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.records.format import GameRecord, RecordedTurn
from pinastats.records.replay import replay

TIE = 1e-9
"""Losses below this are ties: the played option was (one of) the best."""
COSTLY = 0.05
"""A loss of at least this much win chance marks a costly decision."""
COLUMNS = (
    "turn",
    "seat",
    "decision",
    "roll",
    "dice",
    "rolls_left",
    "options",
    "played",
    "best",
    "played_win",
    "best_win",
    "loss",
    "se",
    "best_se",
    "clear",
    "costly",
)
"""The columns of :meth:`GameReview.frame`, in order."""

Progress = Callable[[int, int], None]
"""Called with (decisions reviewed, decisions in all) after each decision."""


@dataclass(frozen=True)
class Decision:
    """One reviewed decision.

    Attributes:
        turn: the turn number (1-based); seat: who decided.
        decision: ``"keep"`` (before a re-roll, or the stop) or ``"place"``.
        roll: the roll the decision follows (1-based).
        dice: the dice showing; rolls_left: re-rolls left (0 for a placement).
        options: how many options there were (1: forced).
        played, best: the option played and the best one, as text (``keep 1 1 3``,
            ``stop``, ``cell 5 (pair-1)``).
        played_win, best_win: the mover's chance to win after each.
        loss: ``best_win - played_win`` (0 on a tie).
        se, best_se: their standard errors (0 when exact).
        clear: the loss exceeds twice its conservative standard error.
        costly: the loss is at least :data:`COSTLY`.
    """

    turn: int
    seat: int
    decision: str
    roll: int
    dice: tuple[int, ...]
    rolls_left: int
    options: int
    played: str
    best: str
    played_win: float
    best_win: float
    loss: float
    se: float
    best_se: float
    clear: bool
    costly: bool


@dataclass(frozen=True)
class GameReview:
    """The review of one recorded game: every decision of the reviewed seats."""

    game: int
    agents: tuple[str, ...]
    seats: tuple[int, ...]
    playouts: int
    seed: int
    winner: int | None
    reason: str
    decisions: tuple[Decision, ...]

    @property
    def given_away(self) -> dict[int, float]:
        """Total win chance each reviewed seat gave away: the sum of its losses."""
        return {s: sum(d.loss for d in self.decisions if d.seat == s) for s in self.seats}

    def frame(self) -> pd.DataFrame:
        """One row per decision, the columns of :data:`COLUMNS`."""
        rows = [asdict(d) for d in self.decisions]
        frame = pd.DataFrame(rows, columns=list(COLUMNS))
        frame["dice"] = [" ".join(map(str, d.dice)) for d in self.decisions]
        return frame

    def to_dict(self) -> dict[str, object]:
        """The review as plain data (the JSON of ``pinastats review``)."""
        return {
            "game": self.game,
            "agents": list(self.agents),
            "seats": list(self.seats),
            "playouts": self.playouts,
            "seed": self.seed,
            "winner": self.winner,
            "reason": self.reason,
            "given_away": {str(s): v for s, v in self.given_away.items()},
            "decisions": [asdict(d) | {"dice": list(d.dice)} for d in self.decisions],
        }


def _keep_text(keep: tuple[int, ...]) -> str:
    return "stop" if len(keep) == 5 else "keep " + (" ".join(map(str, keep)) or "none")


def _decision(
    turn: int,
    seat: int,
    kind: str,
    roll: int,
    dice: tuple[int, ...],
    rolls_left: int,
    options: int,
    played: tuple[str, float, float],
    best: tuple[str, float, float],
) -> Decision:
    loss = max(best[1] - played[1], 0.0)
    if loss < TIE:
        loss = 0.0
    noise = 2 * math.hypot(played[2], best[2])
    return Decision(
        turn,
        seat,
        kind,
        roll,
        dice,
        rolls_left,
        options,
        played[0],
        best[0],
        played[1],
        best[1],
        loss,
        played[2],
        best[2],
        loss > noise,
        loss >= COSTLY,
    )


def _turn_decisions(
    number: int, game: Game, turn: RecordedTurn, playouts: int, seed: int
) -> Iterable[Decision]:
    """The decisions of one turn, from the position before it."""
    rolls = game.config.rules.rolls
    for i, dice in enumerate(turn.rolls):
        rolls_left = rolls - 1 - i
        if rolls_left == 0:
            break
        played = turn.keeps[i] if i < len(turn.keeps) else tuple(dice)
        advice = win_advice(game, dice, rolls_left, playouts=playouts, seed=seed)
        by_keep = {k.keep: k for k in advice.keeps}
        mine, top = by_keep[tuple(sorted(played))], advice.keeps[0]
        yield _decision(
            number,
            turn.seat,
            "keep",
            i + 1,
            tuple(dice),
            rolls_left,
            len(advice.keeps),
            (_keep_text(mine.keep), mine.win_probability, mine.win_probability_se),
            (_keep_text(top.keep), top.win_probability, top.win_probability_se),
        )
    if turn.cell is None:
        return
    dice = turn.rolls[-1]
    advice = win_advice(game, dice, 0, playouts=playouts, seed=seed)
    by_cell = {p.cell: p for p in advice.placements}
    placed, first = by_cell[turn.cell], advice.placements[0]
    yield _decision(
        number,
        turn.seat,
        "place",
        len(turn.rolls),
        tuple(dice),
        0,
        len(advice.placements),
        (
            f"cell {placed.cell} ({placed.coaster})",
            placed.win_probability,
            placed.win_probability_se,
        ),
        (f"cell {first.cell} ({first.coaster})", first.win_probability, first.win_probability_se),
    )


def count_decisions(record: GameRecord, seats: Iterable[int], rolls: int) -> int:
    """How many decisions :func:`review_game` rates for these seats."""
    chosen = set(seats)
    return sum(
        min(len(t.rolls), rolls - 1) + (t.cell is not None)
        for t in record.turns
        if t.seat in chosen
    )


def review_game(
    record: GameRecord,
    *,
    playouts: int = 200,
    seed: int = 0,
    seats: Iterable[int] | None = None,
    config: GameConfig | None = None,
    progress: Progress | None = None,
) -> GameReview:
    """Rate every keep and placement of ``seats`` (default: all) in a recorded game.

    The record is replayed (and checked) first; each decision then costs one
    coach call of up to ``playouts`` play-outs per outcome position, seeded
    by ``seed`` (the same seed gives the same review).
    """
    expect_instance(record, GameRecord, "record", "read_records() or record_games()")
    playouts = check_playouts(playouts)
    seed = at_least(seed, "seed", 0)
    n = record.players
    chosen = tuple(range(n)) if seats is None else tuple(sorted(set(seats)))
    bad = [s for s in chosen if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < n]
    if bad or not chosen:
        raise PinastatsError(f"seats must be among 0 to {n - 1}, got {list(seats or [])!r}")
    positions: list[tuple[int, Game, RecordedTurn]] = []
    final = replay(record, config, visit=lambda k, g, t: positions.append((k, g, t)))
    total = count_decisions(record, chosen, final.config.rules.rolls)
    done: list[Decision] = []
    for number, game, turn in positions:
        if turn.seat not in chosen:
            continue
        for decision in _turn_decisions(number, game, turn, playouts, seed):
            done.append(decision)
            if progress is not None:
                progress(len(done), total)
    return GameReview(
        record.game,
        record.agents,
        chosen,
        playouts,
        seed,
        record.winner,
        record.reason,
        tuple(done),
    )
