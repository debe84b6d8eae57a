"""Advice as a person reads it and as JSON: shared by ``advise`` and ``table``.

The points advice (:func:`points_text`, :func:`points_record`) and the advice by the
chance to win (:func:`win_text`, :func:`win_record`), each naming its evaluator and
its error, and the position's line.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pinastats.cli._common import (
    dice_text,
    fail,
    fraction_text,
    keep_label,
    percent,
    rank_labels,
    read_state,
    render_table,
)

if TYPE_CHECKING:
    from pinastats.agents.advice import Advice
    from pinastats.coach import WinAdvice
    from pinastats.evaluation import Choice
    from pinastats.game.catalogue import Catalogue
    from pinastats.game.game import Game
    from pinastats.game.rules import Rules


# ---------------------------------------------------------------- input


def catalogue_option(path: str | None) -> Catalogue | None:
    from pinastats.game.catalogue import load_catalogue

    if path is None:
        return None
    try:
        return load_catalogue(path)
    except OSError as exc:
        fail(f"{path}: {exc.strerror or exc}")


def load_state(
    path: str | Path, *, catalogue: Catalogue | None = None, rules: Rules | None = None
) -> Game:
    """Read a state file and build its game (:func:`pinastats.cli._common.read_state`)."""
    return read_state(path, catalogue=catalogue, rules=rules)


def position_text(game: Game) -> str:
    from pinastats.game.notation import notation_of

    return f"Position: {notation_of(game)}"


def position_line(game: Game) -> dict[str, Any]:
    from pinastats.game.notation import notation_of

    return {"position": notation_of(game)}


# ---------------------------------------------------------------- output


def _why(game: Game, cell: int, dice: Sequence[int]) -> str:
    """Why a token there matters, in a few words worked out from the position."""
    from pinastats.game.why import placement_reasons, why_text

    return why_text(placement_reasons(game, cell, dice))


def _placement_records(advice: Advice, game: Game) -> list[dict[str, Any]]:
    return [
        {
            "cell": p.cell,
            "row": p.row,
            "col": p.col,
            "coaster": p.coaster,
            "combination": p.combination,
            "side": game.side(p.cell),
            "points": p.points,
            "why": _why(game, p.cell, advice.dice),
        }
        for p in advice.placements
    ]


def points_record(advice: Advice, game: Game, dice: list[int]) -> dict[str, Any]:
    return {
        "player": advice.player,
        "dice": list(dice),
        "rolls_left": advice.rolls_left,
        "expected_points": advice.expected_points,
        "fraction": fraction_text(advice.expected_fraction),
        "stop_points": advice.stop_points,
        "keeps": [
            {
                "keep": list(k.keep),
                "expected_points": k.expected_points,
                "fraction": fraction_text(k.fraction),
                "best": k.best,
                "stop": k.stop,
            }
            for k in advice.keeps
        ],
        "placements": _placement_records(advice, game),
    }


def _points(value: Fraction) -> str:
    """Write points for reading: whole numbers as such, others to 3 decimals."""
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.3f}"


def _exact(value: Fraction) -> str:
    """Write a value exactly: ``p/q``, or a whole number."""
    return str(value.numerator) if value.denominator == 1 else fraction_text(value)


def _no_placement(advice: Advice, game: Game, stopping: bool) -> str:
    player = advice.player
    if game.reserves[player] == 0:
        why = f"player {player + 1} has no token left in reserve"
    else:
        why = f"{dice_text(advice.dice)} matches no coaster open to player {player + 1}"
    # the engine's answer: Happy Hour only after every roll of the turn, else a pass
    rolls = game.config.rules.rolls
    ending = game.turn_ending(advice.dice, rolls - advice.rolls_left if stopping else rolls)
    return f"{'If you stop now' if stopping else 'No placement'}: {why}; the turn ends: {ending}."


def _placements_text(advice: Advice, game: Game, title: str, stopping: bool) -> str:
    if not advice.placements:
        return _no_placement(advice, game, stopping)
    rows = [
        [str(r["row"]), str(r["col"]), r["coaster"], r["combination"], r["side"],
         str(r["points"]), r["why"]]
        for r in _placement_records(advice, game)
    ]  # fmt: skip
    header = ["row", "col", "coaster", "combination", "side", "points", "why"]
    return f"{title}\n" + render_table(header, rows, "rrlllrl")


def _keeps_text(advice: Advice, top: int | None) -> str:
    ranks = rank_labels([k.fraction for k in advice.keeps])
    shown = advice.keeps if top is None else advice.keeps[:top]
    rows = [
        [
            rank,
            keep_label(k.keep, advice.dice),
            str(k.rerolled) if k.rerolled else "",
            _points(k.fraction),
            _exact(k.fraction),
            "best" if k.best else "",
        ]
        for rank, k in zip(ranks, shown, strict=False)
    ]
    header = ["rank", "keep", "re-roll", "expected points", "exact", ""]
    which = f"best {len(shown)} of {len(advice.keeps)}; --all for every keep"
    if len(shown) == len(advice.keeps):
        which = "every keep"
    return f"Keeps ({which}):\n" + render_table(header, rows, "rlrrrl")


def _best_text(advice: Advice) -> str:
    best = [keep_label(k.keep, advice.dice) for k in advice.best_keeps]
    verb = "stop" if best == ["stop"] else "keep " + " or ".join(best)
    exact = _exact(advice.expected_fraction)
    value = _points(advice.expected_fraction)
    tail = "" if exact == value else f" ({exact})"
    stop = advice.stop_points
    return f"Best: {verb} → {value} points expected{tail}; stopping now scores {stop}."


def points_text(advice: Advice, game: Game, top: int | None) -> str:
    n = advice.rolls_left
    rolls = f"{n} roll{'s' * (n > 1)} left" if n else "no rolls left"
    scores = "; ".join(
        f"player {p + 1} {s} ({r} token{'s' * (r != 1)} in reserve)"
        for p, (s, r) in enumerate(zip(game.scores, game.reserves, strict=True))
    )
    lines = [
        f"Player {advice.player + 1} to move with {dice_text(advice.dice)}, {rolls}.",
        f"Scores: {scores}.",
    ]
    if advice.rolls_left == 0:
        lines += ["", _placements_text(advice, game, "Placements (best first):", False)]
    else:
        lines += [
            "",
            _best_text(advice),
            "",
            _keeps_text(advice, top),
            "",
            _placements_text(advice, game, "If you stop now, place (best first):", True),
        ]
    return "\n".join(lines)


# ---------------------------------------------------------------- output by the chance to win


def _chance(p: float, se: float) -> str:
    """``62.3% ± 1.5%`` (no ``±`` for an exact value)."""
    return percent(p, 1) + (f" ± {100 * se:.1f}%" if se > 0 else "")


def win_record(win: WinAdvice, game: Game, dice: list[int],
               choice: Choice | None = None) -> dict[str, Any]:  # fmt: skip
    """The JSON record: the points record's fields, each item with its win probability.

    With the ``choice`` of the evaluation policy: the evaluator's label and measured
    errors, and ``exact_available`` (how to get the exact answer, where it exists).
    """
    points = win.points
    by_cell = {r["cell"]: r for r in _placement_records(points, game)}
    about: dict[str, Any] = {}
    if choice is not None:
        e = choice.evaluator
        about = {"evaluator_label": e.label, "chance_error": e.chance_error,
                 "difference_error": e.difference_error,
                 "exact_available": choice.exact_note or None}  # fmt: skip
    return about | {
        "objective": "win",
        "player": win.player,
        "dice": list(dice),
        "rolls_left": win.rolls_left,
        "win_probability": win.win_probability,
        "win_probability_se": win.win_probability_se,
        "too_close_to_call": win.too_close_to_call,
        "lead": win.lead,
        "lead_se": win.lead_se,
        "evaluator": win.evaluator,
        "win_probability_check": win.chosen_check,
        "playouts": win.playouts,
        "policy": win.policy,
        "seed": win.seed,
        "expected_points": points.expected_points,
        "fraction": fraction_text(points.expected_fraction),
        "stop_points": points.stop_points,
        "keeps": [
            {
                "keep": list(k.keep),
                "win_probability": k.win_probability,
                "win_probability_se": k.win_probability_se,
                "expected_points": k.expected_points,
                "fraction": fraction_text(k.fraction),
                "best": k.best,
                "stop": k.stop,
            }
            for k in win.keeps
        ],
        "placements": [
            by_cell[p.cell]
            | {
                "win_probability": p.win_probability,
                "win_probability_se": p.win_probability_se,
                "best": p.best,
            }
            for p in win.placements
        ],
        "outcomes": [
            {
                "outcome": o.outcome.label,
                "win_probability": o.win_probability,
                "win_probability_se": o.win_probability_se,
                "exact": o.exact,
            }
            for o in win.outcomes
        ],
    }


def _win_placements_text(win: WinAdvice, game: Game, title: str, stopping: bool) -> str:
    if not win.placements:
        return _no_placement(win.points, game, stopping)
    rows = [
        [str(p.row), str(p.col), p.coaster, p.combination, game.side(p.cell), str(p.points),
         _chance(p.win_probability, p.win_probability_se), "best" if p.best else "",
         _why(game, p.cell, win.dice)]
        for p in win.placements
    ]  # fmt: skip
    header = ["row", "col", "coaster", "combination", "side", "points", "win", "", "why"]
    return f"{title}\n" + render_table(header, rows, "rrllllrrll")


def _win_keeps_text(win: WinAdvice, top: int | None) -> str:
    ranks = rank_labels([k.win_probability for k in win.keeps])
    shown = win.keeps if top is None else win.keeps[:top]
    rows = [
        [rank, keep_label(k.keep, win.dice), str(k.rerolled) if k.rerolled else "",
         _chance(k.win_probability, k.win_probability_se), _points(k.fraction),
         "best" if k.best else ""]
        for rank, k in zip(ranks, shown, strict=False)
    ]  # fmt: skip
    header = ["rank", "keep", "re-roll", "win", "expected points", ""]
    which = f"best {len(shown)} of {len(win.keeps)}; --all for every keep"
    if len(shown) == len(win.keeps):
        which = "every keep"
    return f"Keeps by the chance to win ({which}):\n" + render_table(header, rows, "rlrrrl")


def _win_summary(win: WinAdvice, hints: bool = True) -> list[str]:
    chance = _chance(win.win_probability, win.win_probability_se)
    if win.rolls_left:
        best = [keep_label(k.keep, win.dice) for k in win.best_keeps]
        kept = [f"keep {b}" if b != "stop" else b for b in best]
        verb = " or ".join(kept).replace("keep re-roll all", "re-roll all")
    elif win.placements:
        verb = f"place on row {win.placements[0].row}, col {win.placements[0].col}"
    else:
        verb = "nothing to place"
    lines = [f"Best: {verb} → {chance} to win."]
    if win.too_close_to_call and win.evaluator == "exact":
        lines.append("Tied: the best options give the same exact chance.")
    elif win.too_close_to_call:
        lines.append(
            f"Too close to call: the lead over the second best is {100 * win.lead:.1f}% "
            f"± {100 * win.lead_se:.1f}% (paired)"
            + ("; more --playouts may tell them apart." if hints else ".")
            if win.evaluator == "playouts"
            else f"Too close to call: the lead over the second best is {100 * win.lead:.1f}%, "
            "within the network's error on a difference"
            + ("; --playouts N may tell them apart." if hints else ".")
        )
    return lines


def win_text(win: WinAdvice, game: Game, top: int | None, choice: Choice | None = None,
             hints: bool = True) -> str:  # fmt: skip
    """The readable advice: the best option, the keeps and the placements by the chance to win.

    With the policy's ``choice``: a line on how to get the exact answer, where it exists;
    ``hints``: name ``advise``'s options (``--playouts``) where they would help.
    """
    head = points_text(win.points, game, top).split("\n\n")[0]
    n = win.playouts
    how = (
        "every outcome is decided, no play-out needed"
        if n == 0
        else f"{n} play-out{'s' * (n != 1)} per outcome position by {win.policy}, seed {win.seed}; "
        "the best option's chance measured again on fresh play-outs"
    )
    if win.evaluator == "network" and not all(o.exact for o in win.outcomes):
        from pinastats.evaluation.network import NETWORK_CHANCE_ERROR

        how = (f"the learned network's chances, typical error ±{100 * NETWORK_CHANCE_ERROR:.1f} "
               "points" + ("; --playouts N to play them out instead" if hints else ""))  # fmt: skip
    if win.evaluator == "exact":
        how = "exact, from the solved game: both players play perfectly from here on"
    lines = [head, f"Objective: the chance to win ({how}).", "", *_win_summary(win, hints)]
    if choice is not None and choice.exact_note:
        lines += ["", choice.exact_note]
    if win.rolls_left == 0:
        lines += ["", _win_placements_text(win, game, "Placements (best first):", False)]
    else:
        lines += [
            "",
            _win_keeps_text(win, top),
            "",
            _win_placements_text(win, game, "If you stop now, place (best first):", True),
        ]
    return "\n".join(lines)
