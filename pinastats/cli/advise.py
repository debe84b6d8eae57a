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
from typing import TYPE_CHECKING, Any

from pinastats.cli._advice import (
    catalogue_option,
    points_record,
    points_text,
    position_line,
    position_text,
    win_record,
    win_text,
)
from pinastats.cli._common import (
    EVALUATOR_CHOICES,
    add_position_options,
    die,
    fail,
    load_position,
    non_negative_int,
    positive_int,
    surface_networks,
    write_json,
)

if TYPE_CHECKING:
    from pinastats.evaluation import Choice
    from pinastats.game.game import Game

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
    catalogue = catalogue_option(args.coasters)
    if args.objective != "win":
        for option in ("playouts", "seed", "evaluator"):
            if getattr(args, option) is not None:
                fail(f"--{option} applies to --objective win only")
    game = load_position(args, catalogue=catalogue, happy_hour=args.happy_hour)
    points = ["dice", "agents", "rules"]
    ensure_warm([*points, "turn", "coach", "value"] if args.objective == "win" else points)
    advice = advise(game, args.dice, args.rolls_left)  # a finished game is refused here, in words
    if args.objective == "win":
        return _run_win(args, game)
    if args.format == "json":
        write_json(
            {"objective": "points"} | points_record(advice, game, args.dice) | position_line(game)
        )
    else:
        print(position_text(game))
        print(points_text(advice, game, None if args.all else args.top))
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
    from pinastats.cli._solving import solve_with_progress

    choice = _choice(args, game)
    if choice.solve == "first":  # asked for by name: solve with progress, then answer
        solve_with_progress(game, workers=None)
    win = choice.evaluator.advise(game, tuple(args.dice), args.rolls_left)
    if args.format == "json":
        write_json(win_record(win, game, args.dice, choice) | position_line(game))
    else:
        print(position_text(game))
        print(win_text(win, game, None if args.all else args.top, choice))
    return 0
