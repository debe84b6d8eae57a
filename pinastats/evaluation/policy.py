"""One policy chooses the evaluator for every surface: the strongest that answers in its budget.

Each surface has a budget (:data:`SURFACES`):

========================================  ==========  ===========================================
surface                                   budget      evaluator
========================================  ==========  ===========================================
the board, *My table*, ``table``,         instant     ``exact`` where the board's table is kept
                                                      or solves within 2 s (a small layout);
``advise``, the widget, the Python API                else the strongest instant evaluator that
                                                      covers the game (``search`` two turns
                                                      deep over the network); else ``playouts``
                                                      (layouts no network fits).
                                                      Where ``exact`` covers the game but is not
                                                      kept, the answer says so and what solving
                                                      costs; the board and ``table`` solve it in
                                                      the background and switch when ready.
``review``, the yardstick, the report     analysis    ``exact`` where it covers the game (solved
                                                      first, with progress); else ``search``
                                                      three turns deep (measured stronger than
                                                      the two-turn search that advised) where a
                                                      network fits; else ``playouts`` by
                                                      ``strategic``.
the board's review at the end of a game   analysis    the same without waiting for a solve:
                                                      ``exact`` once the background solve is
                                                      done, else ``search`` three turns deep.
========================================  ==========  ===========================================

An evaluator asked for by name (``--evaluator``) replaces the choice; one that does not
cover the game is refused with its reason. Every answer names its evaluator and states
its error (:class:`~pinastats.evaluation.base.Evaluator`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pinastats.agents.network import ValueNetworks
from pinastats.evaluation.base import EvaluationError, Evaluator
from pinastats.evaluation.exact import ExactEvaluator
from pinastats.evaluation.registry import EVALUATORS, make_evaluator
from pinastats.game.game import Game

SOLVE_RATE = 126_000
"""Boards solved a second on two idle cores (9.2 million boards of the 4×4 grid in 73 s,
``docs/solved-game.md``): what an estimate of a solve's time divides by."""

INSTANT_SOLVE = 2.0
"""Seconds of an estimated solve that an instant surface waits for: a small board is solved
first and answered exactly (:func:`solve_estimate`)."""

ANALYSIS_DEPTH = 3
"""The search's depth when a review grades without the exact solution: three whole turns,
measured the strongest non-exact evaluator (:data:`~pinastats.evaluation.search.MEASURED`)."""

REVIEW_PLAYOUTS = 256
"""Play-outs by ``value`` per outcome position when a review grades without the exact
solution: from 256 they grade better than the network
(:data:`~pinastats.evaluation.playouts.MEASURED`); they cost about 3 s a turn on two
loaded cores."""


class Budget(StrEnum):
    """How long a surface may take for an answer."""

    INSTANT = "instant"
    """About a second: a person waits for it (advice, the board)."""
    ANALYSIS = "analysis"
    """Minutes, with progress: a review, a study."""


SURFACES: dict[str, Budget] = {
    "board": Budget.INSTANT,
    "table": Budget.INSTANT,
    "advise": Budget.INSTANT,
    "widget": Budget.INSTANT,
    "python": Budget.INSTANT,
    "review": Budget.ANALYSIS,
    "board-review": Budget.ANALYSIS,
    "yardstick": Budget.ANALYSIS,
    "report": Budget.ANALYSIS,
}
"""Every surface that values positions, and its budget."""
NO_SOLVE_FIRST = frozenset({"board-review"})
"""Analysis surfaces that never wait for a solve: the board's review at the end of a game
grades exactly where the background solve is done, else with the strongest other grader."""


@dataclass(frozen=True)
class Choice:
    """The evaluator a surface uses for a game, and what it says about exactness.

    Attributes:
        evaluator: the evaluator chosen.
        surface, budget: who asked, and its budget.
        solve: ``"first"`` (the exact table is solved before the answer),
            ``"background"`` (the answer comes now; exact follows when solved), or ``""``.
        exact_note: where the exact solution covers the game but is not used yet, a
            sentence saying so and what a solve costs here; else ``""``.
    """

    evaluator: Evaluator
    surface: str
    budget: Budget
    solve: str = ""
    exact_note: str = ""


def solve_estimate(game: Game) -> float:
    """Seconds a solve of ``game``'s board takes on two idle cores (an estimate)."""
    from pinastats.solve import SolvedBoard

    return SolvedBoard.of(game).positions / SOLVE_RATE


def exact_note(game: Game) -> str:
    """The sentence telling that exact advice exists for ``game`` and what it costs."""
    from pinastats.game.notation import notation_of

    seconds = solve_estimate(game)
    return (
        f"Exact advice is available for this board: solving it takes about {seconds:.0f} s "
        f"on two idle cores (`pinastats solve --position '{notation_of(game)}'`), kept for "
        "next time; then every surface answers exactly."
    )


def check_surface(surface: str) -> Budget:
    """The budget of ``surface``, or a clear error naming the surfaces."""
    if surface not in SURFACES:
        raise EvaluationError(f"unknown surface {surface!r} (surfaces: {', '.join(SURFACES)})")
    return SURFACES[surface]


def choose(
    game: Game,
    surface: str,
    *,
    asked: str | None = None,
    networks: ValueNetworks | None = None,
    **settings: Any,
) -> Choice:
    """The evaluator for ``game`` on ``surface`` (the table in the module docstring).

    ``asked``: an evaluator's name that replaces the choice (refused where it does not
    cover the game); ``settings``: its settings (``playouts``, ``seed``, ``policy``).
    """
    budget = check_surface(surface)
    config = game.config
    exact = ExactEvaluator()
    covered = exact.covers(config) is None
    kept = covered and exact.is_kept(game)
    if asked is not None:
        chosen = make_evaluator(asked, networks=networks, strict=False, **settings)
        why = chosen.covers(config)
        if why is not None:
            raise EvaluationError(f"the {asked} evaluator cannot value this game: {why}")
        solve = "first" if asked == "exact" and not kept else ""
        note = exact_note(game) if covered and not kept and asked != "exact" else ""
        return Choice(chosen, surface, budget, solve, note)
    if kept:
        return Choice(exact, surface, budget)
    if budget is Budget.ANALYSIS:
        if covered and surface not in NO_SOLVE_FIRST:
            return Choice(exact, surface, budget, "first")
        grader = _strongest(game, networks, instant=False, **settings)
        return Choice(grader, surface, budget)
    if covered and solve_estimate(game) <= INSTANT_SOLVE:
        return Choice(exact, surface, budget, "first")
    quick = _strongest(game, networks, instant=True, **settings)
    if covered:
        background = "background" if surface in ("board", "table") else ""
        return Choice(quick, surface, budget, background, exact_note(game))
    return Choice(quick, surface, budget)


def _strongest(game: Game, networks: ValueNetworks | None, *, instant: bool,
               **settings: Any) -> Evaluator:  # fmt: skip
    """The strongest evaluator other than ``exact`` that covers ``game`` within the budget.

    Instant: the strongest instant one, else ``strategic`` play-outs. Analysis: play-outs by
    ``value`` where a network fits, else by ``strategic``.
    """
    config = game.config
    candidates: list[Evaluator] = []
    for name in EVALUATORS:
        if name in ("exact", "playouts"):
            continue
        e = make_evaluator(name, networks=networks, strict=False)
        if e.instant and e.covers(config) is None:
            candidates.append(e)
    playouts = settings.get("playouts")
    seed = settings.get("seed", 0)
    if not instant:
        deep = make_evaluator("search", depth=ANALYSIS_DEPTH, networks=networks)
        by_value = make_evaluator("playouts", policy="value", networks=networks, seed=seed,
                                  playouts=playouts or REVIEW_PLAYOUTS)  # fmt: skip
        candidates += [e for e in (deep, by_value) if e.covers(config) is None]
    if candidates:
        return max(candidates, key=lambda e: e.strength)
    return make_evaluator("playouts", policy="strategic", seed=seed, playouts=playouts)
