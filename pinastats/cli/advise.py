"""``pinastats advise``: where to place a token, or which dice to keep, in a given position.

The position comes from a JSON state file (``--state``, the format of
:mod:`pinastats.game.position`, documented in ``docs/state-format.md``) or a
position line (``--position``, :mod:`pinastats.game.notation`,
``docs/notation.md``); the advice starts with the position's line. With
0 rolls left it lists the legal placements and their points; with 1 or 2 it
ranks the keeps by the expected points of the turn (see
:mod:`pinastats.agents.advice`) and shows what stopping now would score.
With ``--objective win`` it ranks them by the chance to win the game instead
(:mod:`pinastats.coach`: play-outs from the turn's outcome positions, then the
turn DP on their win probabilities); its JSON adds ``win_probability`` and
``win_probability_se`` to the items of ``keeps`` and ``placements``.
"""

from __future__ import annotations

import argparse
import difflib
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pinastats.cli._common import (
    EVALUATOR_CHOICES,
    add_position_options,
    dice_text,
    die,
    fail,
    fraction_text,
    load_position,
    non_negative_int,
    percent,
    positive_int,
    read_state,
    render_table,
    surface_networks,
    write_json,
)
from pinastats.cli.optimal_hold import keep_label, rank_labels

if TYPE_CHECKING:
    from pinastats.agents.advice import Advice
    from pinastats.coach import WinAdvice
    from pinastats.evaluation import Choice
    from pinastats.game.catalogue import Catalogue
    from pinastats.game.game import Game
    from pinastats.game.rules import Rules

FORMATS = ("table", "json")
OBJECTIVES = ("points", "win")
_EXAMPLE = "pinastats advise --state examples/state.json --dice 5 5 5 3 3 --rolls-left 1"


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``advise`` subcommand."""
    parser = subparsers.add_parser(
        "advise",
        help="where to place, or what to keep, in a game position",
        description=(
            "Advice for the player to move in a position (a state file or a position line): "
            "the legal placements of the dice (--rolls-left 0), or the keeps (--rolls-left 1 "
            "or 2), ranked by the chance to win the game, valued by the evaluator the "
            "evaluation policy picks (docs/evaluation.md), named with its error; with "
            "--objective points, by this turn's expected points."
        ),
        epilog=f"example: {_EXAMPLE}   (state file format: docs/state-format.md; position "
        "lines: docs/notation.md)",
    )
    add_position_options(parser)
    parser.add_argument(
        "--dice", required=True, nargs="+", type=die, metavar="D", help="the five dice showing"
    )
    parser.add_argument(
        "--rolls-left",
        required=True,
        type=int,
        metavar="N",
        help="re-rolls still allowed this turn: 0 (the dice are final), 1 or 2",
    )
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument(
        "--top", type=positive_int, default=5, metavar="N", help="keeps shown (default 5)"
    )
    shown.add_argument("--all", action="store_true", help="show every keep")
    parser.add_argument(
        "--coasters", metavar="FILE", help="coaster catalogue CSV (default: the shipped one)"
    )
    parser.add_argument(
        "--happy-hour",
        action="store_true",
        help="play the Happy Hour variant (a position may say so itself)",
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="table",
        help="output: a readable table (default) or JSON (every keep)",
    )
    parser.add_argument(
        "--objective",
        type=objective,
        default="win",
        metavar="{win,points}",
        help="rank by the chance to win the game (default) or by this turn's expected points",
    )
    parser.add_argument(
        "--playouts",
        type=positive_int,
        metavar="N",
        help=(
            "with --objective win: value the outcome positions by play-outs, at most N from "
            "each (default: the evaluation policy's instant evaluator, docs/evaluation.md)"
        ),
    )
    parser.add_argument(
        "--evaluator",
        choices=EVALUATOR_CHOICES,
        default=None,
        help=(
            "with --objective win: what values the outcome positions (default, the policy of "
            "docs/evaluation.md: exact where the board's table is kept, else the learned "
            "network at once, saying how to get the exact answer; play-outs where no network "
            "fits). --evaluator exact solves the board first, with progress"
        ),
    )
    parser.add_argument(
        "--seed",
        type=non_negative_int,
        metavar="S",
        help="with --objective win: seed of the play-outs (default: fresh entropy, reported)",
    )
    parser.set_defaults(func=run)


def objective(text: str) -> str:
    """Argparse type: ``points`` or ``win`` (the closest is suggested on a typo)."""
    value = text.strip().lower()
    if value not in OBJECTIVES:
        close = difflib.get_close_matches(value, OBJECTIVES, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise argparse.ArgumentTypeError(
            f"unknown objective {text!r}{hint} (objectives: {', '.join(OBJECTIVES)})"
        )
    return value


def run(args: argparse.Namespace) -> int:
    """Load the position, advise the player to move, print the advice."""
    from pinastats._warmup import ensure_warm
    from pinastats.agents.advice import advise, check_rolls_left
    from pinastats.dice.hands import check_dice

    check_dice(args.dice)
    check_rolls_left(args.rolls_left)
    catalogue = _catalogue(args.coasters)
    if args.objective != "win":
        for option in ("playouts", "seed", "evaluator"):
            if getattr(args, option) is not None:
                fail(f"--{option} applies to --objective win only")
    game = load_position(args, catalogue=catalogue, happy_hour=args.happy_hour)
    points = ["dice", "agents", "rules"]
    ensure_warm([*points, "turn", "coach", "value"] if args.objective == "win" else points)
    if args.objective == "win":
        return _run_win(args, game)
    advice = advise(game, args.dice, args.rolls_left)
    if args.format == "json":
        write_json({"objective": "points"} | _record(advice, game, args.dice) | _line(game))
    else:
        print(_position_text(game))
        print(_text(advice, game, None if args.all else args.top))
    return 0


def _choice(args: argparse.Namespace, game: Game) -> Choice:
    """The evaluator asked for, or the one the policy picks for ``advise`` (instant)."""
    from pinastats.evaluation import EvaluationError, choose

    asked: str | None = args.evaluator
    if args.playouts is not None or args.seed is not None:
        if asked not in (None, "playouts"):
            fail(f"--playouts and --seed go with --evaluator playouts, not {asked}")
        asked = "playouts"
    try:
        return choose(game, "advise", asked=asked, playouts=args.playouts, seed=args.seed,
                      networks=surface_networks())  # fmt: skip
    except EvaluationError as exc:
        fail(f"--evaluator {asked}: {exc}")


def _run_win(args: argparse.Namespace, game: Game) -> int:
    from pinastats.cli.solve import solve_with_progress

    choice = _choice(args, game)
    if choice.solve == "first":  # asked for by name: solve with progress, then answer
        solve_with_progress(game, workers=None)
    win = choice.evaluator.advise(game, tuple(args.dice), args.rolls_left)
    if args.format == "json":
        write_json(win_record(win, game, args.dice, choice) | _line(game))
    else:
        print(_position_text(game))
        print(win_text(win, game, None if args.all else args.top, choice))
    return 0


# ---------------------------------------------------------------- input


def _catalogue(path: str | None) -> Catalogue | None:
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


def _position_text(game: Game) -> str:
    from pinastats.game.notation import notation_of

    return f"Position: {notation_of(game)}"


def _line(game: Game) -> dict[str, Any]:
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


def _record(advice: Advice, game: Game, dice: list[int]) -> dict[str, Any]:
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


def _text(advice: Advice, game: Game, top: int | None) -> str:
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
    head = _text(win.points, game, top).split("\n\n")[0]
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
