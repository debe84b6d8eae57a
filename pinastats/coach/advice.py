"""Advice that maximises the probability of winning: every keep and placement with its chance.

See :func:`win_advice`. The outcome positions and their play-outs are in
:mod:`pinastats.coach.outcomes`, the turn DP on their win probabilities in
:mod:`pinastats.coach.solve`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from pinastats._arrays import FloatArray
from pinastats.agents.advice import Advice, KeptDice, advise, check_rolls_left
from pinastats.agents.network import ValueNetworks
from pinastats.coach.outcomes import (
    Outcome,
    OutcomeSet,
    Playouts,
    check_playouts,
    check_policy,
    outcome_positions,
)
from pinastats.coach.solve import TurnWin, solve_win_turn, standard_error
from pinastats.dice.hands import TIE_TOL, check_dice, dice_tables
from pinastats.errors import PinastatsError, expect_instance
from pinastats.game.game import Game

Dice = tuple[int, ...]

DEFAULT_PLAYOUTS = 200
"""Most play-outs from each outcome position (the adaptive search stops earlier when clear)."""
DEFAULT_BATCH = 100
"""Play-outs per outcome added between two checks of the lead."""
CLEAR_LEAD = 3.0
"""The lead of the best option over the second, in paired standard errors, that ends the search."""


@dataclass(frozen=True)
class PlacementWin:
    """A legal placement of the final dice and the mover's chance to win after it.

    Attributes:
        cell, row, col, coaster, combination: where the token goes.
        points: the points it scores now.
        win_probability: ``W`` of the position after it (exact when the game ends there).
        win_probability_se: the standard error of that estimate (0 when exact).
        best: tied (within ``TIE_TOL``) for the highest win probability.
    """

    cell: int
    row: int
    col: int
    coaster: str
    combination: str
    points: int
    win_probability: float
    win_probability_se: float
    best: bool


@dataclass(frozen=True)
class KeepWin(KeptDice):
    """A keep (all five dice: stop) with the chance to win when the turn is played on well.

    Attributes:
        keep: the dice kept, sorted.
        win_probability: ``K_r(k)`` of the turn DP on ``W``.
        win_probability_se: its standard error, ``sqrt(q^T Sigma q)``.
        expected_points: this turn's expected points after the keep (the points objective).
        fraction: the same points, exactly.
        best: tied (within ``TIE_TOL``) for the highest win probability.
    """

    keep: Dice
    win_probability: float
    win_probability_se: float
    expected_points: float
    fraction: Fraction
    best: bool


@dataclass(frozen=True)
class OutcomeWin:
    """One outcome position of the turn and the mover's win probability there."""

    outcome: Outcome
    win_probability: float
    win_probability_se: float
    exact: bool


@dataclass(frozen=True)
class WinAdvice:
    """What gives the player to move the best chance to win.

    Attributes:
        player, dice, rolls_left: the decision asked about.
        placements: the legal placements of these dice, most likely to win first (on a
            tie the surer estimate, then the most points).
        keeps: every keep (none with 0 rolls left), most likely to win first.
        win_probability: the chance to win with the best play from here.
        win_probability_se: its standard error.
        too_close_to_call: the best option leads the second by at most
            ``CLEAR_LEAD`` paired standard errors (the play-outs cannot tell them apart).
        lead, lead_se: the best option's lead over the second and its paired
            standard error (0 with fewer than two options).
        playouts: play-outs made from each undecided outcome position (0 with the network).
        policy: the agent that played every seat in the play-outs.
        seed: the entropy of the play-outs' ``SeedSequence`` (to repeat them).
        evaluator: ``"network"`` (the learned evaluator values the outcome
            positions) or ``"playouts"``.
        chosen_check: how ``win_probability`` was measured: with play-outs, on
            fresh play-outs that did not choose the option (the estimate is
            then not inflated by the choice); with the network, its own value.
        outcomes: every outcome position of the turn and its ``W``.
        points: the advice for this turn's points, for comparison.
    """

    player: int
    dice: Dice
    rolls_left: int
    placements: tuple[PlacementWin, ...]
    keeps: tuple[KeepWin, ...]
    win_probability: float
    win_probability_se: float
    too_close_to_call: bool
    lead: float
    lead_se: float
    playouts: int
    policy: str
    seed: int
    outcomes: tuple[OutcomeWin, ...]
    points: Advice
    evaluator: str = "playouts"
    chosen_check: str = ""

    @property
    def best_keeps(self) -> tuple[KeepWin, ...]:
        """The keeps tied for the best win probability (empty with 0 rolls left)."""
        return tuple(k for k in self.keeps if k.best)

    @property
    def best_placements(self) -> tuple[PlacementWin, ...]:
        """The placements tied for the best win probability."""
        return tuple(p for p in self.placements if p.best)


@dataclass(frozen=True)
class _Options:
    """The choices of the decision asked about: their values and outcome weights."""

    values: FloatArray
    weights: FloatArray  # (n_options, M)


def _decision(outcomes: OutcomeSet, turn: TurnWin, w: FloatArray, hand: int,
              rolls_left: int) -> _Options:  # fmt: skip
    """The options of the decision: the hand's keeps, else its placements, else the one outcome."""
    m = outcomes.size
    if rolls_left > 0:
        t = dice_tables()
        keeps = t.hand_keep[t.hand_keep_ptr[hand] : t.hand_keep_ptr[hand + 1]]
        return _Options(
            turn.keep_value[rolls_left - 1, keeps], turn.keep_weights[rolls_left - 1, keeps]
        )
    columns = np.flatnonzero(outcomes.shows[hand])
    if columns.size:
        return _Options(w[columns], np.eye(m)[columns])
    q = turn.final_weights[hand][None, :]
    return _Options(q @ w, q)


def _lead(options: _Options, covariance: FloatArray) -> tuple[float, float]:
    """The best option's lead over the second and its paired standard error."""
    if options.values.size < 2:
        return 0.0, 0.0
    order = np.argsort(-options.values, kind="stable")
    a, b = order[0], order[1]
    diff = options.weights[a] - options.weights[b]
    return float(options.values[a] - options.values[b]), standard_error(diff, covariance)


def _clear(lead: float, lead_se: float, n_options: int, measured: bool) -> bool:
    """Whether the lead decides: one option, or a lead beyond ``CLEAR_LEAD`` standard errors.

    A zero standard error decides (the comparison is exact, or every play-out
    agreed) once the play-outs can measure one (``measured``: at least two each,
    or none needed).
    """
    if n_options < 2:
        return True
    if not measured:
        return False
    return lead_se == 0.0 or lead > CLEAR_LEAD * lead_se


def win_advice(
    game: Game,
    dice: Sequence[int],
    rolls_left: int,
    *,
    playouts: int | None = DEFAULT_PLAYOUTS,
    policy: str = "strategic",
    seed: int | None = None,
    batch: int = DEFAULT_BATCH,
    workers: int | None = None,
    networks: ValueNetworks | None = None,
) -> WinAdvice:
    """Rank the keeps and placements of the player to move by the chance to win, by play-outs.

    Each outcome position ``o`` of the turn (a token on an open cell, a pass,
    a Happy Hour face) gets its win probability ``W(o)``: exact where the game
    is over, else the mean of
    play-outs to the end by ``policy`` in every seat (common random numbers:
    play-out ``i`` of every outcome uses the same seed). The turn DP on ``W``
    then values every keep exactly given ``W``. Play-outs are added ``batch``
    at a time until the best option leads the second by more than
    :data:`CLEAR_LEAD` paired standard errors or each outcome has
    ``playouts``; ``too_close_to_call`` tells when the cap came first.

    The best option's ``win_probability`` is then measured again on as many
    fresh play-outs (another seed), with the choices of the turn fixed: the
    maximum of noisy estimates overstates the option it picks, an independent
    estimate does not. ``networks``: those of ``value`` seats (default: the default
    networks). Other evaluators' advice (exact, network, search) is
    :func:`valued_advice` on their ``W`` (:mod:`pinastats.evaluation`).
    """
    expect_instance(game, Game, "game", "Game.new()")
    hand_dice = check_dice(dice)
    rolls_left = check_rolls_left(rolls_left)
    rolls = game.config.rules.rolls
    if rolls_left > rolls - 1:
        raise PinastatsError(
            f"rolls left must be at most {rolls - 1} (the game plays {rolls} rolls), "
            f"got {rolls_left}"
        )
    policy = check_policy(policy)
    points = advise(game, hand_dice, rolls_left)
    outcomes = outcome_positions(game)
    playouts = check_playouts(DEFAULT_PLAYOUTS if playouts is None else playouts)
    batch = check_playouts(batch)
    runner = Playouts(outcomes, policy=policy, seed=seed, workers=workers, networks=networks)
    hand = dice_tables().hand_index(hand_dice)
    step = min(batch, playouts)
    if outcomes.undecided.size:
        runner.extend(step)
    while True:
        w, cov = runner.mean(), runner.covariance()
        turn = solve_win_turn(w, outcomes.shows, outcomes.pass_column, outcomes.happy_columns,
                              rolls_left, rolls)  # fmt: skip
        options = _decision(outcomes, turn, w, hand, rolls_left)
        lead, lead_se = _lead(options, cov)
        measured = runner.n >= 2 or not outcomes.undecided.size
        if _clear(lead, lead_se, options.values.size, measured) or runner.n >= playouts:
            break
        runner.extend(min(playouts, runner.n + step))
    close = not _clear(lead, lead_se, options.values.size, measured)
    advice = _advice(points, outcomes, runner.mean(), runner.covariance(), turn, options, hand,
                     (lead, lead_se, close))  # fmt: skip
    n = runner.n if outcomes.undecided.size else 0
    check = "exact: no play-out needed"
    chosen, chosen_se = advice.win_probability, advice.win_probability_se
    if n:
        fresh = Playouts(outcomes, policy=policy, seed=runner.entropy + 1, workers=workers,
                         networks=networks)  # fmt: skip
        fresh.extend(n)
        top = int(np.argmax(options.values))
        chosen = float(options.weights[top] @ fresh.mean())
        chosen_se = standard_error(options.weights[top], fresh.covariance())
        check = f"{n} fresh play-outs per outcome (seed {fresh.entropy}) that did not choose"
    return dataclasses.replace(advice, playouts=n, policy=runner.policy, seed=runner.entropy,
                               win_probability=chosen, win_probability_se=chosen_se,
                               evaluator="playouts", chosen_check=check)  # fmt: skip


def valued_advice(
    game: Game,
    dice: Sequence[int],
    rolls_left: int,
    outcomes: OutcomeSet,
    w: FloatArray,
    *,
    resolution: float,
    evaluator: str,
    check: str,
) -> WinAdvice:
    """The advice on given ``W`` of ``outcomes`` (``outcome_positions(game)``): the turn DP on it.

    ``W`` comes from an evaluator with no sampling error (the exact solution, the
    network, a search over it); the options within ``resolution`` of the best are too
    close to call; ``evaluator`` names who valued ``W`` and ``check`` how the chosen
    option's chance was measured.
    """
    expect_instance(game, Game, "game", "Game.new()")
    hand_dice = check_dice(dice)
    rolls_left = check_rolls_left(rolls_left)
    points = advise(game, hand_dice, rolls_left)
    m = outcomes.size
    cov = np.zeros((m, m))
    turn = solve_win_turn(w, outcomes.shows, outcomes.pass_column, outcomes.happy_columns,
                          rolls_left, game.config.rules.rolls)  # fmt: skip
    hand = dice_tables().hand_index(hand_dice)
    options = _decision(outcomes, turn, w, hand, rolls_left)
    lead, _ = _lead(options, cov)
    close = options.values.size > 1 and lead <= resolution
    advice = _advice(points, outcomes, w, cov, turn, options, hand, (lead, 0.0, close))
    policy = "perfect" if evaluator == "exact" else evaluator
    return dataclasses.replace(advice, playouts=0, policy=policy, seed=0, evaluator=evaluator,
                               chosen_check=check)  # fmt: skip


def _advice(
    points: Advice,
    outcomes: OutcomeSet,
    w: FloatArray,
    cov: FloatArray,
    turn: TurnWin,
    options: _Options,
    hand: int,
    lead: tuple[float, float, bool],
) -> WinAdvice:
    """The advice's records from the final estimates and DP (``lead``: lead, its SE, close)."""
    m = outcomes.size
    column = {int(c): j for j, c in enumerate(outcomes.cells)}
    se = [standard_error(np.eye(m)[j], cov) for j in range(m)]
    top_w = max((w[column[p.cell]] for p in points.placements), default=0.0)
    placements = sorted(
        (
            PlacementWin(
                p.cell,
                p.row,
                p.col,
                p.coaster,
                p.combination,
                p.points,
                float(w[column[p.cell]]),
                se[column[p.cell]],
                bool(w[column[p.cell]] >= top_w - TIE_TOL),
            )
            for p in points.placements
        ),
        key=lambda p: (-p.win_probability, p.win_probability_se, -p.points, p.cell),
    )
    keeps: list[KeepWin] = []
    if points.rolls_left > 0:
        t = dice_tables()
        r = points.rolls_left
        by_keep = {k.keep: k for k in points.keeps}
        ks = t.hand_keep[t.hand_keep_ptr[hand] : t.hand_keep_ptr[hand + 1]]
        top = float(turn.keep_value[r - 1, ks].max())
        for k in ks:
            dice = t.keep_of(int(k))
            value = float(turn.keep_value[r - 1, k])
            pts = by_keep[dice]
            se_k = standard_error(turn.keep_weights[r - 1, k], cov)
            best = value >= top - TIE_TOL
            keeps.append(KeepWin(dice, value, se_k, pts.expected_points, pts.fraction, best))
        keeps.sort(key=lambda k: (-k.win_probability, -len(k.keep), k.keep))
    top_option = int(np.argmax(options.values))
    return WinAdvice(
        player=points.player,
        dice=points.dice,
        rolls_left=points.rolls_left,
        placements=tuple(placements),
        keeps=tuple(keeps),
        win_probability=float(options.values[top_option]),
        win_probability_se=standard_error(options.weights[top_option], cov),
        too_close_to_call=lead[2],
        lead=lead[0],
        lead_se=lead[1],
        playouts=0,
        policy="",
        seed=0,
        outcomes=tuple(
            OutcomeWin(o, float(w[j]), se[j], not np.isnan(outcomes.exact[j]))
            for j, o in enumerate(outcomes.outcomes)
        ),
        points=points,
    )
