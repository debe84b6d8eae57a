r"""Game analysis: the luck of every roll and the error of every decision, per seat.

Each turn of a recorded game is valued from the position before it. Its
outcome positions ``o`` (a token on each open cell, a pass, each Happy Hour
face: :mod:`pinastats.coach.outcomes`) get the mover's win probability
``W(o)`` from the *evaluator*: the solved game's exact chance (``"exact"``, for
two players without Happy Hour: :mod:`pinastats.solve`; the default where the
board's table is kept), the learned network (``"network"``, the default
elsewhere) or play-outs to the end by ``strategic`` (``"playouts"``). With
``"exact"`` every luck and loss is exact and nothing is checked: over a game
the start + luck - errors = result identity holds to rounding. The exact
turn DP on ``W`` (:mod:`pinastats.coach.solve`) then gives the value of every
hand and keep: ``V_r(h)``, the chance to win holding hand ``h`` with ``r`` rolls
left and playing on at best, and ``K_r(k)``, the chance after keeping ``k``.

* **Luck of a roll**: the value after it minus its expectation over every
  outcome of the roll. Before roll ``i`` the mover holds keep ``k`` (none for
  the first roll) with ``r`` rolls to come, worth ``K_r(k) = sum_h P(h | k)
  V_{r-1}(h)``; the roll shows ``h``: ``luck = V_{r-1}(h) - K_r(k)``. A Happy
  Hour die: ``W(face) - mean over the six faces``. Luck has mean 0 over the
  roll's outcomes by construction.
* **Error of a decision** (a keep, the stop included, or a placement): the
  best option's value minus the played option's, ``V_r(h) - K_r(k_played)`` or
  ``max_c W(c) - W(c_played)``. So over a turn, exactly,
  ``K_R(none) + sum luck - sum errors = W(outcome played)``.
* A decision is **forced** when one option is sensible: every other is worse
  by at least :data:`FORCED` (or there is no other). Forced decisions do not
  count in the error rate.
* **Checked losses.** The evaluator's loss is an estimate. A decision whose
  loss is at least :data:`MARK_FLOOR` is checked: its best and played options
  are measured again on fresh ``strategic`` play-outs of the turn's outcome
  positions (a seed of their own, common random numbers; the options' choices
  of the rest of the turn fixed as the evaluator's DP plays them), batches of
  :data:`CHECK_BATCH` up to ``playouts``, until the 95% interval of the loss
  ``d . W`` (``d = q_best - q_played``, standard error ``sqrt(d' Sigma d)``)
  lies inside one band of the marks. Unchecked decisions keep the evaluator's
  loss, with the network's measured error on differences
  (:data:`NETWORK_DIFFERENCE_SD`) or the screening play-outs' standard error
  as their interval.
* **Marks**: ``?!`` from 20, ``?`` from 50, ``??`` from 100 thousandths of a win
  (:data:`MARKS`), shown only on a *clear* decision: checked, and its
  interval inside one band. The same game reviewed with another seed gives
  the same mark to every decision clear in both reviews, up to the 5% of
  intervals that miss.
* **Per seat**: decisions, unforced decisions, the error rate (mean loss per
  unforced decision, thousandths of a win, 95% normal interval), marks,
  luck, result (1 win, 1/2 no winner, 0 loss) and the luck-adjusted result
  ``result - luck``. With two players a seat's luck is its own rolls' luck
  minus its opponent's (a chance won by one is lost by the other); with more,
  each roll's luck is charged to the mover and ``-luck / (players - 1)`` to
  each other seat (an approximation: the others do not share a swing
  equally).
* **Rating**: the error rate placed on :data:`LADDER`, the built-in agents'
  own error rates measured by ``benchmarks/bench_review.py``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field

import numpy as np
import pandas as pd

from pinastats._arrays import FloatArray
from pinastats._engine import turn_tables
from pinastats._stats import Z95, half_width
from pinastats.agents.network import ValueNetworks
from pinastats.coach.outcomes import (
    OutcomeSet,
    Playouts,
    check_playouts,
    check_workers,
    outcome_positions,
)
from pinastats.coach.solve import TurnWin, hand_values, solve_win_turn, standard_error
from pinastats.dice.errors import at_least
from pinastats.dice.hands import dice_tables
from pinastats.errors import PinastatsError, expect_instance
from pinastats.evaluation import (
    EvaluationError,
    Evaluator,
    PlayoutEvaluator,
    choose,
    evaluator_names,
)
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.game.notation import notation_of
from pinastats.game.rules import game_points
from pinastats.records.format import GameRecord, RecordedTurn
from pinastats.records.replay import replay

EVALUATORS = evaluator_names()
"""What may grade (:data:`pinastats.evaluation.EVALUATORS`); by default the review policy of
:mod:`pinastats.evaluation.policy` chooses."""
MARKS = ((0.100, "??"), (0.050, "?"), (0.020, "?!"))
"""``(least loss, mark)``, worst first: a very bad, bad and doubtful decision."""
MARK_FLOOR = MARKS[-1][0]
"""Losses from here on are checked by play-outs (and may be marked)."""
FORCED = 0.100
"""A decision is forced when every other option is worse than the best by at least this."""
CHECK_BATCH = 100
"""Checking play-outs per outcome added between two looks at the intervals."""
DEFAULT_PLAYOUTS = 400
"""Most checking play-outs per outcome position (and the screening ones with ``"playouts"``)."""
SD_PER_MAE = math.sqrt(math.pi / 2)
"""A normal error's standard deviation per unit of mean absolute error: an evaluator's
measured error on a difference (a mean absolute error) times this is the SD of its loss."""
TIE = 1e-9
"""Losses below this are ties: the played option was (one of) the best."""
LADDER = (
    ("random", 84.6),
    ("greedy", 30.9),
    ("ev", 16.9),
    ("strategic", 8.1),
    ("coach", 2.7),
)
"""The built-in agents' error rates (thousandths of a win per unforced decision), each over its
own decisions in games against ``strategic``, reviewed by the network with checks (60 games
each, 30 for the coach): ``python benchmarks/bench_review.py --ladder network``. ``value`` is
not on it: it plays by the network that reviews."""

Progress = Callable[[int, int], None]
"""Called with (turns reviewed, turns in all) after each turn."""


class ReviewError(PinastatsError):
    """A review that cannot be made as asked (a bad setting, a game the network does not fit)."""


@dataclass(frozen=True)
class Decision:
    """One reviewed decision.

    Attributes:
        turn: the turn number (1-based); seat: who decided.
        decision: ``"keep"`` (before a re-roll, or the stop) or ``"place"``.
        roll: the roll the decision follows (1-based); dice: the dice showing.
        rolls_left: re-rolls left (0 for a placement); options: how many there were.
        played, best: the option played and the evaluator's best, as text (``keep 1 1 3``,
            ``stop``, ``cell 5 (pair-1)``).
        played_win, best_win: the mover's chance to win after each, by the evaluator.
        evaluator_loss: ``best_win - played_win`` (0 on a tie).
        loss: the loss reported: the checking play-outs' where checked, else the evaluator's.
        low, high: the 95% interval of ``loss``.
        checked: play-outs per outcome behind a checked loss (0: not checked).
        forced: one sensible option only (not counted in the error rate).
        clear: the interval lies inside one band of :data:`MARKS` (or below the first).
        mark: ``??``, ``?``, ``?!`` on a clear decision with such a loss, else empty.
        advised: the option played was the advisor's best (the coach's starred move); its
            loss is then at most the two evaluators' measured disagreement, and unmarked.
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
    evaluator_loss: float
    loss: float
    low: float
    high: float
    checked: int
    forced: bool
    clear: bool
    mark: str
    advised: bool = False


@dataclass(frozen=True)
class Luck:
    """The luck of one roll (or Happy Hour die) of a turn.

    ``roll``: 1-based, or 0 for the Happy Hour die; ``dice``: the dice it showed (the
    face for the Happy Hour die); ``expected``: the mover's chance before it,
    ``value`` after it; ``luck = value - expected``.
    """

    turn: int
    seat: int
    roll: int
    dice: tuple[int, ...]
    expected: float
    value: float
    luck: float


@dataclass(frozen=True)
class SeatSummary:
    """One seat's figures (see the module docstring); rates in thousandths of a win."""

    seat: int
    agent: str
    decisions: int
    unforced: int
    error_rate: float
    error_low: float
    error_high: float
    doubtful: int
    bad: int
    very_bad: int
    luck: float
    result: float
    luck_adjusted: float
    rating: str

    def text(self) -> str:
        """The figures in one sentence, the agent first."""
        return (
            f"{self.agent}: error rate {self.error_rate:.1f} milli-wins per unforced decision "
            f"[{self.error_low:.1f}, {self.error_high:.1f}] over {self.unforced}, marks "
            f"?! {self.doubtful} ? {self.bad} ?? {self.very_bad}, luck {_signed(self.luck)} "
            f"points, result {self.result:g}, luck-adjusted {self.luck_adjusted:.2f}, "
            f"plays {self.rating}"
        )


@dataclass(frozen=True)
class GameReview:
    """The review of one recorded game.

    Attributes:
        game, agents, winner, reason: from the record.
        seats: the seats whose decisions were reviewed.
        evaluator, playouts, seed: the settings (``evaluator``: the grader's name).
        decisions: every decision of the reviewed seats, in order.
        rolls: the luck of every roll of every seat, in order.
        starts: per turn, ``(turn, seat, chance to win before the first roll)``.
        positions: per turn, ``(turn, the position before it)`` as a line of the position
            notation (``docs/notation.md``): ``pinastats advise --position`` on it gives the
            turn's figures again.
    """

    game: int
    agents: tuple[str, ...]
    seats: tuple[int, ...]
    evaluator: str
    playouts: int
    seed: int
    winner: int | None
    reason: str
    decisions: tuple[Decision, ...]
    rolls: tuple[Luck, ...]
    starts: tuple[tuple[int, int, float], ...] = field(default=())
    positions: tuple[tuple[int, str], ...] = field(default=())
    graded_by: str = ""
    advisor: str = ""

    @property
    def how_graded(self) -> str:
        """In words: who graded, and against which advisor (empty parts left out)."""
        text = f"Graded by {self.graded_by or self.evaluator}"
        if self.advisor and self.advisor != self.graded_by:
            text += (f"; moves that followed the coach's advice ({self.advisor}) count no "
                     "loss beyond the two evaluators' measured disagreement")  # fmt: skip
        return text + "."

    @property
    def players(self) -> int:
        """Number of seats."""
        return len(self.agents)

    def result(self, seat: int) -> float:
        """1 if ``seat`` won, 1/2 without a winner, else 0."""
        return game_points(self.winner, seat)

    def luck(self, seat: int) -> float:
        """The seat's luck: its rolls' luck, less its share of the others' (module docstring)."""
        others = max(self.players - 1, 1)
        return sum(r.luck if r.seat == seat else -r.luck / others for r in self.rolls)

    @property
    def given_away(self) -> dict[int, float]:
        """Total win chance each reviewed seat gave away: the sum of its unforced losses."""
        return {
            s: sum(d.loss for d in self.decisions if d.seat == s and not d.forced)
            for s in self.seats
        }

    def summary(self, seat: int) -> SeatSummary:
        """The figures of one reviewed seat."""
        mine = [d for d in self.decisions if d.seat == seat]
        losses = np.array([d.loss for d in mine if not d.forced])
        rate, low, high = error_rate(losses)
        luck = self.luck(seat)
        result = self.result(seat)
        doubtful, bad, very_bad = (sum(d.mark == m for d in mine) for m in ("?!", "?", "??"))
        return SeatSummary(seat, self.agents[seat], len(mine), len(losses), rate, low, high,
                           doubtful, bad, very_bad, luck, result, result - luck,
                           rating(rate))  # fmt: skip

    def seat_table(self) -> pd.DataFrame:
        """One row per reviewed seat: the fields of :class:`SeatSummary`."""
        return pd.DataFrame([asdict(self.summary(s)) for s in self.seats])

    def frame(self) -> pd.DataFrame:
        """One row per decision, the fields of :class:`Decision` (``dice`` as text)."""
        frame = pd.DataFrame([asdict(d) for d in self.decisions], columns=list(COLUMNS))
        frame["dice"] = [" ".join(map(str, d.dice)) for d in self.decisions]
        return frame

    def luck_frame(self) -> pd.DataFrame:
        """One row per roll: the fields of :class:`Luck` (``dice`` as text)."""
        frame = pd.DataFrame([asdict(r) for r in self.rolls], columns=list(LUCK_COLUMNS))
        frame["dice"] = [" ".join(map(str, r.dice)) for r in self.rolls]
        return frame

    def to_dict(self) -> dict[str, object]:
        """The review as plain data (the JSON of ``pinastats review``)."""
        return {
            "game": self.game,
            "agents": list(self.agents),
            "seats": list(self.seats),
            "evaluator": self.evaluator,
            "graded_by": self.graded_by,
            "advisor": self.advisor,
            "playouts": self.playouts,
            "seed": self.seed,
            "winner": self.winner,
            "reason": self.reason,
            "summary": [asdict(self.summary(s)) for s in self.seats],
            "given_away": {str(s): v for s, v in self.given_away.items()},
            "decisions": [asdict(d) | {"dice": list(d.dice)} for d in self.decisions],
            "rolls": [asdict(r) | {"dice": list(r.dice)} for r in self.rolls],
            "starts": [{"turn": t, "seat": s, "win": w} for t, s, w in self.starts],
            "positions": [{"turn": t, "position": p} for t, p in self.positions],
        }


COLUMNS = tuple(Decision.__dataclass_fields__)
"""The columns of :meth:`GameReview.frame`, in order."""
LUCK_COLUMNS = tuple(Luck.__dataclass_fields__)
"""The columns of :meth:`GameReview.luck_frame`, in order."""


def error_rate(losses: FloatArray) -> tuple[float, float, float]:
    """Mean loss in thousandths of a win and its 95% normal interval (NaN without decisions).

    The interval's low end is not below 0: the losses are never negative.
    """
    n = len(losses)
    if not n:
        return math.nan, math.nan, math.nan
    mean = 1000 * float(np.mean(losses))
    half = 1000 * half_width(losses) if n > 1 else math.inf
    return mean, max(mean - half, 0.0), mean + half


def rating(rate: float) -> str:
    """Where an error rate sits on :data:`LADDER`: ``"like ev"`` or ``"between ev and strategic"``.

    Like a rung when within a third of the gap to each neighbour, else between two.
    """
    if math.isnan(rate):
        return "no unforced decision"
    names, rates = [n for n, _ in LADDER], [r for _, r in LADDER]
    if rate >= rates[0]:
        return f"like {names[0]}" if rate <= rates[0] * 1.2 else f"worse than {names[0]}"
    if rate <= rates[-1]:
        return f"like {names[-1]}" if rate >= rates[-1] * 0.8 else f"better than {names[-1]}"
    for i in range(len(rates) - 1):
        hi, lo = rates[i], rates[i + 1]
        if lo <= rate <= hi:
            gap = hi - lo
            if rate >= hi - gap / 3:
                return f"like {names[i]}"
            if rate <= lo + gap / 3:
                return f"like {names[i + 1]}"
            return f"between {names[i]} and {names[i + 1]}"
    raise AssertionError("unreachable")  # pragma: no cover


def mark_of(loss: float) -> str:
    """The mark of a loss (:data:`MARKS`), empty below the first."""
    return next((m for least, m in MARKS if loss >= least), "")


def _clear(low: float, high: float) -> bool:
    """The interval ``[low, high]`` lies inside one band of the marks."""
    return mark_of(max(low, 0.0)) == mark_of(high)


def _keep_text(keep: tuple[int, ...]) -> str:
    return "stop" if len(keep) == 5 else "keep " + (" ".join(map(str, keep)) or "none")


def _seed(seed: int, turn: int, what: int) -> int:
    """The play-outs' seed of one turn: a 63-bit word of ``SeedSequence([seed, turn, what])``."""
    return int(np.random.SeedSequence([seed, turn, what]).generate_state(1, np.uint64)[0] >> 1)


@dataclass
class _Pending:
    """A decision being reviewed: its options' outcome weights and the evaluator's figures."""

    head: tuple[int, int, str, int, tuple[int, ...], int, int, str, str]
    played: FloatArray
    best: FloatArray
    w: FloatArray
    screen_se: float
    forced: bool
    advised: bool = False

    def evaluator_loss(self) -> float:
        loss = float((self.best - self.played) @ self.w)
        return 0.0 if loss < TIE else loss


@dataclass
class _Turn:
    """The evaluator's view of one turn: outcome positions, ``W``, its covariance and the DP."""

    outcomes: OutcomeSet
    w: FloatArray
    cov: FloatArray
    dp: TurnWin
    rolls: int
    _hands: dict[int, FloatArray] = field(default_factory=dict)

    def hands(self, rolls_left: int) -> FloatArray:
        if rolls_left not in self._hands:
            self._hands[rolls_left] = hand_values(self.dp, self.w, rolls_left)
        return self._hands[rolls_left]

    def keep_weights(self, rolls_left: int, keep: int) -> FloatArray:
        return np.asarray(self.dp.keep_weights[rolls_left - 1, keep])


def _values(outcomes: OutcomeSet, grader: Evaluator, seed: int,
            workers: int | None) -> tuple[FloatArray, FloatArray]:  # fmt: skip
    """``W`` and its covariance by the grader (zero covariance without sampling)."""
    m = outcomes.size
    if not outcomes.undecided.size:
        return outcomes.exact.copy(), np.zeros((m, m))
    if isinstance(grader, PlayoutEvaluator):  # seeded per turn, on the review's threads
        runner = Playouts(outcomes, policy=grader.policy, seed=seed, workers=workers,
                          networks=grader.networks)  # fmt: skip
        runner.extend(grader.playouts)
        return runner.mean(), runner.covariance()
    valued = grader.values(outcomes)
    return valued.w, valued.covariance


def _turn_view(game: Game, grader: Evaluator, seed: int, workers: int | None) -> _Turn:
    outcomes = outcome_positions(game)
    rolls = game.config.rules.rolls
    w, cov = _values(outcomes, grader, seed, workers)
    dp = solve_win_turn(w, outcomes.shows, outcomes.pass_column, outcomes.happy_columns, rolls,
                        rolls)  # fmt: skip
    return _Turn(outcomes, w, cov, dp, rolls)


def _forced(values: FloatArray) -> bool:
    """One sensible option: no other, or every other at least :data:`FORCED` below the best."""
    if len(values) < 2:
        return True
    second, top = np.sort(values)[-2:]
    return bool(top - second >= FORCED)


def _walk(number: int, turn: RecordedTurn, view: _Turn, review: bool,
          advice: _Turn | None = None) -> tuple[list[Luck], list[_Pending], float]:  # fmt: skip
    """The luck of each roll of the turn and, if ``review``, its pending decisions.

    ``advice``: the advisor's view of the turn, which tells which decisions followed its
    best option (``_Pending.advised``).
    """
    tables, t = dice_tables(), turn_tables(view.rolls)
    seat, rolls, w = turn.seat, view.rolls, view.w
    lucks: list[Luck] = []
    pending: list[_Pending] = []
    start = float(view.dp.keep_value[rolls - 1, tables.keep_index(())])
    expected = start
    for i, dice in enumerate(turn.rolls):
        left = rolls - 1 - i
        hand = tables.hand_index(dice)
        value = float(view.hands(left)[hand])
        lucks.append(Luck(number, seat, i + 1, tuple(dice), expected, value, value - expected))
        if left == 0:
            break
        stopped = i >= len(turn.keeps)
        played = tuple(dice) if stopped else tuple(sorted(turn.keeps[i]))
        k = tables.keep_index(played)
        if review:
            keeps = t.hand_keep[t.hand_keep_ptr[hand] : t.hand_keep_ptr[hand + 1]]
            best = view.dp.keep_of(hand, left)
            q_best, q_played = view.keep_weights(left, best), view.keep_weights(left, k)
            head = (number, seat, "keep", i + 1, tuple(dice), left, len(keeps),
                    _keep_text(played), _keep_text(tables.keep_of(best)))  # fmt: skip
            se = standard_error(q_best - q_played, view.cov)
            forced = _forced(view.dp.keep_value[left - 1, keeps])
            advised = advice is not None and bool(
                advice.dp.keep_value[left - 1, k]
                >= advice.dp.keep_value[left - 1, keeps].max() - TIE)  # fmt: skip
            pending.append(_Pending(head, q_played, q_best, w, se, forced, advised))
        expected = float(view.dp.keep_value[left - 1, k])
        if stopped:
            break
    hand = tables.hand_index(turn.rolls[-1])
    o = view.outcomes
    if turn.cell is not None and review:
        shown = np.flatnonzero(o.shows[hand])
        cells = o.cells[shown]
        best_j = int(shown[np.argmax(w[shown])])
        played_j = int(np.flatnonzero(o.cells == turn.cell)[0])
        m = o.size
        q_best, q_played = np.eye(m)[best_j], np.eye(m)[played_j]
        names = {c.cell: c.coaster for c in o.game.cells}
        head = (number, seat, "place", len(turn.rolls), tuple(turn.rolls[-1]), 0, len(cells),
                f"cell {turn.cell} ({names[turn.cell]})",
                f"cell {int(o.cells[best_j])} ({names[int(o.cells[best_j])]})")  # fmt: skip
        forced = _forced(w[shown])
        se = standard_error(q_best - q_played, view.cov)
        advised = advice is not None and bool(advice.w[played_j] >= advice.w[shown].max() - TIE)
        pending.append(_Pending(head, q_played, q_best, w, se, forced, advised))
    if turn.happy_hour is not None and o.happy_columns.size:
        faces = w[o.happy_columns]
        value = float(faces[turn.happy_hour.die - 1])
        expected = float(faces.mean())
        lucks.append(Luck(number, seat, 0, (turn.happy_hour.die,), expected, value,
                          value - expected))  # fmt: skip
    return lucks, pending, start


def _check(view: _Turn, pending: list[_Pending], grader: Evaluator, playouts: int, seed: int,
           workers: int | None) -> list[tuple[float, float, float, int]]:  # fmt: skip
    """Per pending decision: ``(loss, low, high, checked play-outs)``.

    Unchecked: the grader's loss, with its measured difference error or the screening
    play-outs' paired standard error (0 where every outcome is exact). Checks are
    play-outs by the grader's policy (``strategic`` for a grader that plays none).
    """
    out: list[tuple[float, float, float, int]] = []
    if grader.name == "exact":  # every loss is exact: nothing to check
        return [(p.evaluator_loss(),) * 3 + (0,) for p in pending]
    todo = [
        j for j, p in enumerate(pending)
        if not p.forced and p.evaluator_loss() >= MARK_FLOOR and view.outcomes.undecided.size
    ]  # fmt: skip
    for p in pending:
        loss = p.evaluator_loss()
        sd = grader.difference_error * SD_PER_MAE if grader.difference_error else p.screen_se
        if not view.outcomes.undecided.size:
            sd = 0.0
        out.append((loss, max(loss - Z95 * sd, 0.0), loss + Z95 * sd, 0))
    if not todo:
        return out
    policy = grader.policy if isinstance(grader, PlayoutEvaluator) else "strategic"
    networks = grader.networks if isinstance(grader, PlayoutEvaluator) else None
    runner = Playouts(view.outcomes, policy=policy, seed=seed, workers=workers, networks=networks)
    while True:
        runner.extend(min(playouts, runner.n + CHECK_BATCH))
        mean, cov = runner.mean(), runner.covariance()
        open_ = []
        for j in todo:
            d = pending[j].best - pending[j].played
            loss = max(float(d @ mean), 0.0)
            half = Z95 * standard_error(d, cov)
            out[j] = (loss, max(loss - half, 0.0), loss + half, runner.n)
            if not _clear(loss - half, loss + half):
                open_.append(j)
        if not open_ or runner.n >= playouts:
            return out


def _decision(p: _Pending, figures: tuple[float, float, float, int],
              disagreement: float) -> Decision:  # fmt: skip
    """The reviewed decision.

    One that followed the advisor's best counts no loss beyond the evaluators'
    ``disagreement`` and is not marked.
    """
    loss, low, high, checked = figures
    played_win, best_win = float(p.played @ p.w), float(p.best @ p.w)
    clear = (checked > 0 and _clear(low, high)) or high <= TIE or low == high  # exact
    mark = mark_of(loss) if clear else ""
    if p.advised:
        loss, low, high = (min(x, disagreement) for x in (loss, low, high))
        mark = ""
    return Decision(*p.head, played_win, best_win, p.evaluator_loss(), float(loss), float(low),
                    float(high), int(checked), bool(p.forced), bool(clear), mark,
                    bool(p.advised))  # fmt: skip


def default_evaluator(game: Game) -> str:
    """The evaluator a review of ``game``'s record grades with unless told otherwise.

    The review policy of :mod:`pinastats.evaluation.policy`: ``exact`` where the solver
    covers the game (the board is solved first unless its table is kept), else
    play-outs by ``value`` where a network fits, else ``strategic`` play-outs.
    """
    return choose(game, "review").evaluator.name


def grader_of(game: Game, evaluator: str | Evaluator | None, playouts: int | None = None,
              networks: ValueNetworks | None = None) -> Evaluator:  # fmt: skip
    """The evaluator that grades ``game``.

    ``evaluator`` (a name or an evaluator), else the review policy's; refused with
    :class:`ReviewError` where it cannot grade the game.
    """
    if evaluator is not None and not isinstance(evaluator, str):
        why = evaluator.covers(game.config)
        if why is not None:
            raise ReviewError(f"the {evaluator.name} evaluator cannot grade this game: {why}")
        return evaluator
    try:
        return choose(game, "review", asked=evaluator, networks=networks,
                      playouts=playouts).evaluator  # fmt: skip
    except EvaluationError as exc:
        raise ReviewError(str(exc)) from None


def review_game(
    record: GameRecord,
    *,
    evaluator: str | Evaluator | None = None,
    playouts: int = DEFAULT_PLAYOUTS,
    seed: int = 0,
    seats: Iterable[int] | None = None,
    config: GameConfig | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
    advisor: str | Evaluator | None = None,
    networks: ValueNetworks | None = None,
) -> GameReview:
    """Review a recorded game: every roll's luck, every decision of ``seats`` (default all).

    The record is replayed (and checked) first; each turn is then valued by the
    grader — ``evaluator`` (a name of :data:`pinastats.evaluation.EVALUATORS` or an
    evaluator), by default the review policy's (:func:`default_evaluator`: ``exact``
    solves the board first unless its table is kept) — and its marked-worthy decisions
    checked by up to ``playouts`` play-outs per outcome position (module docstring),
    seeded by ``seed``: the same seed gives the same review, whatever ``workers``.
    ``advisor``: the evaluator that advised the players, where one did (the board's coach);
    the grader must be at least as strong, and a decision that followed the advisor's best
    option counts no loss beyond the two evaluators' measured disagreement (the sum of
    their difference errors).
    """
    expect_instance(record, GameRecord, "record", "read_records() or record_games()")
    playouts = check_playouts(playouts)
    seed = at_least(seed, "seed", 0)
    workers = check_workers(workers)
    n = record.players
    chosen = tuple(range(n)) if seats is None else tuple(sorted(set(seats)))
    bad = [s for s in chosen if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < n]
    if bad or not chosen:
        raise ReviewError(f"seats must be among 0 to {n - 1}, got {list(seats or [])!r}")
    positions: list[tuple[int, Game, RecordedTurn]] = []
    final = replay(record, config, visit=lambda k, g, t: positions.append((k, g, t)))
    grader = grader_of(final, evaluator, playouts if evaluator == "playouts" else None, networks)
    guide = grader if advisor is None else grader_of(final, advisor, networks=networks)
    if guide.strength > grader.strength:
        raise ReviewError(f"a review grades with an evaluator at least as strong as the one "
                          f"that advised: {grader.name} is weaker than {guide.name}")  # fmt: skip
    disagreement = guide.difference_error + grader.difference_error
    decisions: list[Decision] = []
    lucks: list[Luck] = []
    starts: list[tuple[int, int, float]] = []
    for done, (number, game, turn) in enumerate(positions, 1):
        view = _turn_view(game, grader, _seed(seed, number, 0), workers)
        mine = turn.seat in chosen
        advice = None
        if mine and guide != grader:
            advice = _turn_view(game, guide, _seed(seed, number, 2), workers)
        turn_lucks, pending, start = _walk(number, turn, view, mine, advice)
        lucks.extend(turn_lucks)
        starts.append((number, turn.seat, start))
        if pending:
            figures = _check(view, pending, grader, playouts, _seed(seed, number, 1), workers)
            decisions.extend(_decision(p, f, disagreement)
                             for p, f in zip(pending, figures, strict=True))  # fmt: skip
        if progress is not None:
            progress(done, len(positions))
    lines = tuple((number, notation_of(game)) for number, game, _ in positions)
    return GameReview(record.game, record.agents, chosen, grader.name, playouts, seed,
                      record.winner, record.reason, tuple(decisions), tuple(lucks),
                      tuple(starts), lines, grader.label,
                      "" if guide == grader else guide.label)  # fmt: skip


def agent_table(reviews: Sequence[GameReview]) -> pd.DataFrame:
    """Per agent over many reviewed games: games, decisions, error rate, marks, luck, results.

    Columns: ``agent``, ``games``, ``decisions``, ``unforced``, ``error_rate`` with
    ``error_low``/``error_high`` (pooled over every unforced decision), ``doubtful``,
    ``bad``, ``very_bad`` (per 100 unforced decisions), ``luck``, ``result`` and
    ``luck_adjusted`` (means per game), ``rating``.
    """
    rows: dict[str, dict[str, list[float]]] = {}
    for review in reviews:
        for s in review.seats:
            a = review.agents[s]
            r = rows.setdefault(a, {"loss": [], "luck": [], "result": [], "decisions": []})
            mine = [d for d in review.decisions if d.seat == s]
            r["loss"].extend(d.loss for d in mine if not d.forced)
            r["decisions"].append(len(mine))
            r["luck"].append(review.luck(s))
            r["result"].append(review.result(s))
            for m in ("?!", "?", "??"):
                r.setdefault(m, []).append(sum(d.mark == m for d in mine))
    out = []
    for agent, r in rows.items():
        rate, low, high = error_rate(np.array(r["loss"]))
        unforced = len(r["loss"])
        per100 = {k: 100 * sum(r[m]) / unforced if unforced else math.nan
                  for k, m in (("doubtful", "?!"), ("bad", "?"), ("very_bad", "??"))}  # fmt: skip
        luck, result = float(np.mean(r["luck"])), float(np.mean(r["result"]))
        out.append({"agent": agent, "games": len(r["result"]),
                    "decisions": int(sum(r["decisions"])),
                    "unforced": unforced, "error_rate": rate, "error_low": low,
                    "error_high": high, **per100, "luck": luck, "result": result,
                    "luck_adjusted": result - luck, "rating": rating(rate)})  # fmt: skip
    return pd.DataFrame(out)


def _pct(p: float) -> str:
    return f"{100 * p:.1f}%"


def _signed(x: float) -> str:
    return f"{100 * x:+.1f}".replace("-", "−")


def annotated_text(review: GameReview) -> str:
    """The game as annotated text: a header of tags, then one line per roll and decision.

    In the spirit of annotated PGN: each turn opens with the position before it in braces
    (a line of the position notation); a roll line gives the dice and their luck (points of
    the mover's chance to win); a decision line the move played with its mark, the chance
    to win before it (with the best move) and after it, and, in braces, the best alternative
    and the loss with its interval where the move was not the best.
    """
    winner = "no winner" if review.winner is None else f"seat {review.winner} wins"
    checked = (f"network, losses from {1000 * MARK_FLOOR:.0f} milli-wins checked by up to "
               f"{review.playouts} play-outs" if review.evaluator == "network"
               else "exact (the solved game)" if review.evaluator == "exact"
               else review.graded_by or f"{review.playouts} play-outs")  # fmt: skip
    lines = [
        f'[Game "{review.game}"]',
        f'[Seats "{" vs ".join(f"{s}: {a}" for s, a in enumerate(review.agents))}"]',
        f'[Result "{winner} ({review.reason.lower().replace("_", " ")})"]',
        f'[Evaluator "{checked}, seed {review.seed}"]',
    ]
    lines.extend(f'[Seat{s} "{review.summary(s).text()}"]' for s in review.seats)
    lines.append("")
    events: list[tuple[int, int, int, str]] = [
        (turn, 0, 0, f"{turn}. {{{line}}}") for turn, line in review.positions
    ]
    for r in review.rolls:
        dice = " ".join(map(str, r.dice))
        what = f"roll {r.roll}: {dice}" if r.roll else f"Happy Hour die: {dice}"
        events.append((r.turn, r.roll or 99, 0,
                       f"{r.turn}. seat {r.seat} {what}  (luck {_signed(r.luck)})"))  # fmt: skip
    for d in review.decisions:
        text = (f"{d.turn}. seat {d.seat} {d.played}{d.mark}  {_pct(d.best_win)} -> "
                f"{_pct(d.played_win)}")  # fmt: skip
        if d.loss > 0 or d.evaluator_loss > 0:
            how = f", checked by {d.checked} play-outs" if d.checked else ""
            text += (f"  {{best: {d.best} {_pct(d.best_win)}; loss {1000 * d.loss:.1f} "
                     f"[{1000 * d.low:.1f}, {1000 * d.high:.1f}] milli-wins{how}}}")  # fmt: skip
        if d.forced:
            text += "  {forced}"
        events.append((d.turn, d.roll, 1, text))
    lines.extend(e[3] for e in sorted(events, key=lambda e: e[:3]))
    return "\n".join(lines)
