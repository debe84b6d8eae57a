r"""Luck-adjusted, paired comparisons of agents, for any player count.

The dice are exact, so the part of a game's result that the dice decided can be
estimated and taken out. Fix an evaluator before the games (the exact table of
the solved two-player game, or the frozen learned network) and let ``W_s(o)``
be seat ``s``'s value of each outcome position ``o`` of the mover's turn
(:func:`pinastats.coach.outcomes.outcome_positions`). The turn DP over the
mover's ``W`` (:func:`pinastats.coach.solve.solve_win_turn`, the kernels of the
``value`` agent and of the coach's win advice) fixes the mover's play under the
evaluator, and so gives every seat's value of every keep and hand, linear in
``W``: ``K_{r,s}(k) = q_{r,k} \cdot W_s`` before a roll from keep ``k`` with
``r`` rolls left, ``V_{r,s}(h)`` after the roll shows hand ``h``. The luck of
that roll for seat ``s`` is

.. math::

    L_s = V_{r-1,s}(h) - K_{r,s}(k), \qquad
    \mathbb E[L_s \mid \text{history}] = \sum_h P(h \mid k)\, V_{r-1,s}(h) - K_{r,s}(k) = 0,

the value of the roll that came minus its expectation over every roll (each
weighted by its exact probability); the Happy Hour die's luck is ``W_s(e) -
(1/6) sum_e W_s(e)``. Whatever the agents play and however good the evaluator,
each term has mean zero given the past, so the adjusted result

.. math::

    \tilde R_s = R_s - \sum_{\text{rolls}} L_s

has the mean of the raw result ``R_s`` (1 won, 0 lost, 1/2 nobody won): an
unbiased estimate with a variance that is small when the evaluator is good.

The games are paired: each *deal* (coasters, sides, the first seat) is played
``n`` times with the field rotated one seat each time, and the dice of turn
``t`` of seat ``s`` come from a generator keyed by ``(seed, deal, s, t)``, so
every agent of the field plays every seat with the same deal and the same
first roll of each turn (later rolls re-roll fewer or more dice and part).
The unit of the interval is the deal: ``x_b`` the mean result of a field member
over its ``n`` seats, ``mean ± 1.96 sd(x_b)/sqrt(B)`` over ``B`` deals. The
run stops when the adjusted interval's half-width is at most ``margin``
(checked after every batch of deals) or at ``max_games``.
"""

from __future__ import annotations

import copy
import multiprocessing
import os
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from pinastats import _engine as E
from pinastats._arrays import FloatArray
from pinastats._engine import copy_state, empty_state
from pinastats._stats import mean_interval
from pinastats.agents.loading import resolve_agent
from pinastats.agents.network import evaluate_states
from pinastats.agents.protocol import AgentProtocol
from pinastats.coach.outcomes import OutcomeSet, outcome_positions
from pinastats.coach.solve import TurnWin, solve_win_turn
from pinastats.dice.errors import at_least_or_none, is_whole
from pinastats.dice.hands import dice_tables
from pinastats.errors import PinastatsError
from pinastats.evaluation import make_evaluator
from pinastats.evaluation.exact import exact_values
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.simulation.play import TurnRecord, play_turn

EVALUATORS = ("network", "exact")
"""``network``: the frozen learned evaluator; ``exact``: the solved two-player game's table."""


class LuckError(PinastatsError):
    """A bad setting of a luck-adjusted match; the message names it."""


def check_evaluator(evaluator: str, config: GameConfig) -> str:
    """The evaluator's name, checked against the game (raises :class:`LuckError`)."""
    if evaluator not in EVALUATORS:
        raise LuckError(f"unknown evaluator {evaluator!r} (evaluators: {', '.join(EVALUATORS)})")
    why = make_evaluator(evaluator).covers(config)  # the evaluation package's own test
    if why is not None:
        raise LuckError(f"the {evaluator} evaluator cannot value these games: {why}")
    return evaluator


def seat_values(outcomes: OutcomeSet, evaluator: str) -> FloatArray:
    """``(M, n)``: every seat's value ``W_s(o)`` of each outcome position of the turn.

    Exact where the game is over (:func:`pinastats._engine.seat_result`). Else
    ``network``: the network's chance that the seat wins plus half its chance
    that nobody does; ``exact`` (two players): the mover's exact chance under
    perfect play, the other seat's its complement (a win, a loss or no winner:
    the two values sum to 1).
    """
    game = outcomes.game
    n = game.players
    m = outcomes.size
    w = np.zeros((m, n))
    todo = outcomes.undecided
    for j in range(m):
        if j not in todo:
            w[j] = [E.seat_result(outcomes.states[j], s) for s in range(n)]
    if todo.size == 0:
        return w
    if evaluator == "exact":
        mover = exact_values(outcomes)
        w[todo, outcomes.seat] = mover[todo]
        w[todo, 1 - outcomes.seat] = 1.0 - mover[todo]
        return w
    states = E.stack_states([outcomes.states[j] for j in todo])
    p = evaluate_states(game.config, states)
    for row, j in enumerate(todo):
        to_move = int(outcomes.states[j].status[0]["to_move"])
        for s in range(n):
            w[j, s] = E.seat_value(p[row, (s - to_move) % n], p[row, n])
    return w


@dataclass(frozen=True)
class TurnValues:
    """The turn DP under the evaluator, for every seat (see the module docstring).

    Attributes:
        outcomes: the turn's outcome positions.
        w: ``(M, n)`` every seat's value of each outcome.
        dp: the mover's turn DP on its column of ``w`` over all ``rolls`` rolls.
        rolls: rolls a turn.
    """

    outcomes: OutcomeSet
    w: FloatArray
    dp: TurnWin
    rolls: int

    @classmethod
    def of(cls, game: Game, evaluator: str) -> TurnValues:
        """The turn of the player to move in ``game``, valued by ``evaluator``."""
        outcomes = outcome_positions(game)
        w = seat_values(outcomes, evaluator)
        rolls = game.config.rules.rolls
        mover = w[:, outcomes.seat].copy()
        dp = solve_win_turn(mover, outcomes.shows, outcomes.pass_column, outcomes.happy_columns,
                            rolls, rolls)  # fmt: skip
        return cls(outcomes, w, dp, rolls)

    def before(self, keep: int, rolls_left: int) -> FloatArray:
        """``K_r(k)``, every seat: the value before rolling from ``keep`` with ``r`` rolls left."""
        return np.asarray(self.dp.keep_weights[rolls_left - 1, keep] @ self.w)

    def after(self, hand: int, rolls_left: int) -> FloatArray:
        """``V_r(h)``, every seat: the value of ``hand`` with ``r`` rolls left.

        The mover plays on as the DP does: its best keep; its best cell or the
        lottery at ``r = 0``.
        """
        if rolls_left == 0:
            return np.asarray(self.dp.final_weights[hand] @ self.w)
        return self.before(self.dp.keep_of(hand, rolls_left), rolls_left)

    def start(self) -> FloatArray:
        """Every seat's value of the turn before its first roll."""
        return self.before(dice_tables().keep_index(()), self.rolls)

    def turn_luck(self, turn: TurnRecord) -> FloatArray:
        """``(n,)``: the luck of every roll of ``turn`` (and of its Happy Hour die), summed."""
        t = dice_tables()
        luck = np.zeros(self.w.shape[1])
        keep = t.keep_index(())
        for i, dice in enumerate(turn.rolls):
            left = self.rolls - i
            luck += self.after(t.hand_index(dice), left - 1) - self.before(keep, left)
            if i < len(turn.keeps):
                keep = t.keep_index(turn.keeps[i])
        if turn.happy_hour is not None:
            columns = self.outcomes.happy_columns
            faces = self.w[columns]
            luck += faces[int(turn.happy_hour) - 1] - faces.mean(axis=0)
        return luck


def turn_luck(game: Game, turn: TurnRecord, evaluator: str = "network") -> FloatArray:
    """Every seat's luck in ``turn``, played from ``game`` (the position before it)."""
    return TurnValues.of(game, evaluator).turn_luck(turn)


@dataclass(frozen=True)
class DealResult:
    """The ``n`` games of one deal, the field rotated.

    ``raw[r, i]`` and ``luck[r, i]``: the result of field member ``i`` in
    rotation ``r`` (it sits in seat ``(i + r) % n``) and the luck of its dice.
    """

    raw: FloatArray
    luck: FloatArray


def _deal_game(config: GameConfig, rng: np.random.Generator, start: Game | None) -> Game:
    """The deal's starting position: ``start`` (a copy), else coasters, sides, first seat drawn."""
    if start is not None:
        return start.copy()
    state = empty_state(config.layout.n_cells, config.players)
    E.deal(rng, state, len(config.catalogue), config.sides, config.start_scores,
           config.rules.tokens)  # fmt: skip
    return Game(config, state)


def play_deal(
    config: GameConfig,
    field: Sequence[AgentProtocol],
    seed: int,
    deal: int,
    evaluator: str,
    start: Game | None = None,
) -> DealResult:
    """Play deal ``deal`` of run ``seed`` once per rotation of ``field``, measuring the luck."""
    n = config.players
    dealt = _deal_game(config, np.random.default_rng([seed, deal, 0]), start)
    raw = np.zeros((n, n))
    luck = np.zeros((n, n))
    for r in range(n):
        seats = [copy.deepcopy(field[(s - r) % n]) for s in range(n)]
        game = Game(config, copy_state(dealt.state))
        turns = [0] * n
        seat_luck = np.zeros(n)
        while not game.is_over:
            seat = game.to_move
            values = TurnValues.of(game, evaluator)
            rng = np.random.default_rng([seed, deal, 1, seat, turns[seat]])
            turns[seat] += 1
            turn = play_turn(game, seats[seat], rng)
            seat_luck += values.turn_luck(turn)
        for i in range(n):
            s = (i + r) % n
            raw[r, i] = E.seat_result(game.state, s)
            luck[r, i] = seat_luck[s]
    return DealResult(raw, luck)


@dataclass(frozen=True)
class Share:
    """A field member's mean result with its 95% interval."""

    mean: float
    low: float
    high: float

    @property
    def half_width(self) -> float:
        """Half the interval's width."""
        return (self.high - self.low) / 2

    def as_dict(self) -> dict[str, float]:
        """The share and its interval, rounded for JSON."""
        return {k: round(v, 6) for k, v in (("share", self.mean), ("low", self.low),
                                            ("high", self.high))}  # fmt: skip


def _share(x: FloatArray) -> Share:
    """``mean ± Z95 · sd / sqrt(B)`` of the per-deal means ``x`` (NaN width from one deal)."""
    return Share(*mean_interval(x))


@dataclass(frozen=True)
class LuckResult:
    """A luck-adjusted, paired match (see the module docstring).

    Attributes:
        field: the field members' names (member 0 is the one measured).
        players, deals, games: the table size, deals played and games (``deals * players``).
        seed, evaluator, margin: the run's settings.
        raw: ``(deals, n, n)`` every game's result ``[deal, rotation, member]``.
        luck: the same shape: each member's summed luck.
    """

    field: tuple[str, ...]
    players: int
    seed: int
    evaluator: str
    margin: float | None
    raw: FloatArray
    luck: FloatArray

    @property
    def deals(self) -> int:
        """Deals played (each ``players`` games)."""
        return int(self.raw.shape[0])

    @property
    def games(self) -> int:
        """Games played."""
        return self.deals * self.players

    def raw_share(self, member: int = 0) -> Share:
        """The member's raw result, over its rotated games (the deal as the unit)."""
        return _share(self.raw[:, :, member].mean(axis=1))

    def adjusted_share(self, member: int = 0) -> Share:
        """The member's luck-adjusted result, the deal as the unit."""
        return _share((self.raw - self.luck)[:, :, member].mean(axis=1))

    def variances(self, member: int = 0) -> dict[str, float]:
        """Per-game variances: raw unpaired, raw rotated and adjusted rotated, and their ratios.

        ``raw_game``: the variance of one game's raw result (what a plain run of
        games sees); ``raw_paired`` and ``adjusted``: ``n`` times the variance of a
        deal's mean (a deal's games counted as ``n``). ``variance_ratio =
        raw_game / adjusted`` is how many times fewer games the adjusted, paired
        estimate needs for the same interval.
        """
        n = self.players
        raw_game = float(self.raw[:, :, member].var(ddof=1))
        raw_paired = n * float(self.raw[:, :, member].mean(axis=1).var(ddof=1))
        adjusted = n * float((self.raw - self.luck)[:, :, member].mean(axis=1).var(ddof=1))
        return {
            "var_raw_game": raw_game,
            "var_raw_paired": raw_paired,
            "var_adjusted": adjusted,
            "variance_ratio": raw_game / adjusted if adjusted > 0 else float("inf"),
            "pairing_ratio": raw_game / raw_paired if raw_paired > 0 else float("inf"),
            "luck_ratio": raw_paired / adjusted if adjusted > 0 else float("inf"),
        }

    def as_dict(self) -> dict[str, Any]:
        """The JSON of ``simulate --luck-adjusted``: every member's raw and adjusted share."""
        members = []
        for i, name in enumerate(self.field):
            v = self.variances(i) if self.deals > 1 else {}
            members.append({
                "seat_in_field": i,
                "agent": name,
                "raw": self.raw_share(i).as_dict(),
                "adjusted": self.adjusted_share(i).as_dict(),
                **{k: round(x, 6) for k, x in v.items()},
            })  # fmt: skip
        head = members[0]
        return {
            "field": list(self.field),
            "players": self.players,
            "games": self.games,
            "deals": self.deals,
            "seed": self.seed,
            "evaluator": self.evaluator,
            "margin": self.margin,
            "fair_share": round(1 / self.players, 6),
            "raw": head["raw"],
            "adjusted": head["adjusted"],
            "variance_ratio": head.get("variance_ratio"),
            "members": members,
        }


def _deals(args: tuple[GameConfig, tuple[AgentProtocol, ...], int, range, str, Game | None]
           ) -> list[DealResult]:  # fmt: skip
    config, field, seed, deals, evaluator, start = args
    return [play_deal(config, field, seed, d, evaluator, start) for d in deals]


def luck_match(
    field: Sequence[AgentProtocol | str],
    games: int,
    *,
    seed: int = 0,
    config: GameConfig | None = None,
    evaluator: str = "network",
    margin: float | None = None,
    start: Game | None = None,
    workers: int | None = 1,
    batch: int = 20,
) -> LuckResult:
    """Play ``field`` (one agent per seat; member 0 is measured) luck-adjusted and paired.

    At most ``games`` games (rounded up to whole deals of ``players`` games).
    With ``margin`` the run stops as soon as the adjusted 95% half-width of
    member 0 is at most ``margin`` (looked at after every ``batch`` deals, and
    from 10 deals on). ``start``: play every deal from this position (e.g. a
    solved board) instead of a fresh deal. ``workers`` processes (None: every
    core) play the batches' deals.
    """
    agents = tuple(resolve_agent(a) for a in field)
    config = config if config is not None else (start.config if start else None)
    if config is None:
        config = GameConfig(players=len(agents))
    if len(agents) != config.players:
        raise LuckError(f"{len(agents)} agents for {config.players} players: name one per seat")
    if not is_whole(games) or games < config.players:
        raise LuckError(f"games must be a whole number of at least {config.players}, got {games!r}")
    if margin is not None and not (isinstance(margin, float | int) and 0 < margin < 1):
        raise LuckError(f"margin must be a share between 0 and 1 (0.01: one point), got {margin!r}")
    if not is_whole(batch) or batch < 1:
        raise LuckError(f"batch must be a whole number of deals, at least 1, got {batch!r}")
    if start is not None and start.is_over:
        raise LuckError(f"the starting position is over: {start.end_reason}")
    workers = at_least_or_none(workers, "workers", 1) or (os.cpu_count() or 1)
    check_evaluator(evaluator, config)
    total = -(-games // config.players)
    results: list[DealResult] = []
    pool = _pool(workers) if workers > 1 else None
    try:
        while len(results) < total:
            first = len(results)
            last = min(total, first + batch)
            parts = np.array_split(np.arange(first, last), workers)
            jobs = [(config, agents, seed, range(int(p[0]), int(p[-1]) + 1), evaluator, start)
                    for p in parts if p.size]  # fmt: skip
            done = pool.map(_deals, jobs) if pool else map(_deals, jobs)
            for part in done:
                results.extend(part)
            result = _result(agents, config, seed, evaluator, margin, results)
            wide = result.adjusted_share().half_width if result.deals >= 10 else 1.0
            if margin is not None and wide <= margin:
                break
    finally:
        if pool is not None:
            pool.shutdown()
    return _result(agents, config, seed, evaluator, margin, results)


def _pool(workers: int) -> ProcessPoolExecutor:
    """``workers`` fresh processes, each with one BLAS thread.

    The DP's products are small: more threads only contend for the cores the
    other workers use.
    """
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))


def _result(agents: tuple[AgentProtocol, ...], config: GameConfig, seed: int, evaluator: str,
            margin: float | None, results: list[DealResult]) -> LuckResult:  # fmt: skip
    return LuckResult(
        field=tuple(a.name for a in agents),
        players=config.players,
        seed=seed,
        evaluator=evaluator,
        margin=None if margin is None else float(margin),
        raw=np.stack([r.raw for r in results]),
        luck=np.stack([r.luck for r in results]),
    )
