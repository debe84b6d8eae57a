"""``pinastats review``: the luck of every roll and the error of every decision of recorded games.

Reads a file of game records (``pinastats simulate --record``), replays the
chosen game (checking it) and reviews it (:mod:`pinastats.records.review`):
per seat its error rate, marks, luck, luck-adjusted result and rating; per
decision the chance to win of the move played and of the best move and the loss
with its interval; per roll its luck. ``--games all`` reviews every game and
prints a per-agent table; ``--format annotated`` writes the annotated game
(``docs/records.md``).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from typing import TYPE_CHECKING, Any

from pinastats._files import check_output, claimed, written_whole
from pinastats.cli._common import (
    EVALUATOR_CHOICES,
    fail,
    non_negative_int,
    percent,
    positive_int,
    render_table,
    write_json,
)
from pinastats.errors import OutputError

if TYPE_CHECKING:
    from pinastats.records.review import GameReview

FORMATS = ("table", "json", "pdf", "annotated")
_EXAMPLE = "pinastats review games.jsonl --game 3 --seat 0"


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``review`` subcommand."""
    parser = subparsers.add_parser(
        "review",
        help="the luck and the errors of recorded games, by the chance to win",
        description=(
            "Replay a recorded game (a file written by 'pinastats simulate --record') and "
            "review it: the luck of every roll, the error of every keep and placement against "
            "the best move by the chance to win (graded exactly where the game is solved — the "
            "board is solved first — else by play-outs of the value agent; losses that would "
            "be marked are checked by play-outs), each seat's error rate, marks, luck, "
            "luck-adjusted result and rating. --games all reviews every game of the file and "
            "adds a table per agent."
        ),
        epilog=f"example: {_EXAMPLE}",
    )
    parser.add_argument("file", metavar="FILE", help="game records (JSON Lines)")
    which = parser.add_mutually_exclusive_group()
    which.add_argument(
        "--game", type=non_negative_int, metavar="K", help="the game to review (default: the first)"
    )
    which.add_argument(
        "--games", choices=("all",), help="review every game of the file (a table per agent)"
    )
    parser.add_argument(
        "--seat", type=non_negative_int, metavar="P", help="review this seat only (default: all)"
    )
    parser.add_argument(
        "--evaluator",
        choices=EVALUATOR_CHOICES,
        default=None,
        help="what grades the positions (default, the review policy of docs/evaluation.md: "
        "exact for two players without Happy Hour, the board solved first unless its table "
        "is kept; else play-outs by value where a network fits; else play-outs by strategic)",
    )
    parser.add_argument(
        "--playouts",
        type=positive_int,
        default=400,
        metavar="N",
        help="most play-outs per outcome position that check a loss (default 400)",
    )
    parser.add_argument(
        "--seed", type=non_negative_int, default=0, metavar="S", help="seed of the play-outs"
    )
    parser.add_argument("--format", choices=FORMATS, default="table", help="output (table)")
    parser.add_argument(
        "--out",
        metavar="PATH",
        help="file to write (needed with --format pdf); checked before the review, written "
        "whole or not at all",
    )
    parser.add_argument(
        "--layout", metavar="NAME|FILE", help="the record's layout, if not a shipped one"
    )
    parser.add_argument("--coasters", metavar="FILE", help="the record's coaster catalogue CSV")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    parser.set_defaults(func=run)


class _Lines:
    """Progress on stderr: a line every few seconds."""

    def __init__(self, what: str, every: float = 5.0) -> None:
        self.what, self.every, self.last = what, every, time.monotonic()

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self.last >= self.every or done == total:
            self.last = now
            print(f"pinastats: reviewed {done} of {total} {self.what}", file=sys.stderr,
                  flush=True)  # fmt: skip


def run(args: argparse.Namespace) -> int:
    """Check the output path, then read, pick the games, review them and print (or write)."""
    if args.format == "pdf" and args.out is None:
        fail("--format pdf writes a file: give --out PATH (e.g. --out review.pdf)")
    if args.out is None:
        return _review(args, None)
    with contextlib.ExitStack() as held:
        try:
            check_output(args.out)  # before the review: a bad path fails at once
            held.enter_context(claimed(args.out))  # no other run writes it meanwhile
        except OutputError as exc:
            fail(f"--out {exc}")
        return _review(args, args.out)


def _review(args: argparse.Namespace, out: str | None) -> int:
    """Review the game(s) and print the review, or write it to ``out`` (whole or not at all)."""
    from pinastats._warmup import ensure_warm
    from pinastats.cli._solving import solve_with_progress
    from pinastats.evaluation import EvaluationError, choose
    from pinastats.records import read_records
    from pinastats.records.replay import record_config, replay
    from pinastats.records.review import agent_table, annotated_text, review_game

    records = read_records(args.file)
    if args.games == "all":
        chosen = list(records)
    elif args.game is None:
        chosen = [records[0]]
    else:
        by_game = {r.game: r for r in records}
        if args.game not in by_game:
            games = sorted(by_game)
            fail(f"{args.file} has no game {args.game}; its games are {_span(games)}")
        chosen = [by_game[args.game]]
    if args.seat is not None and args.seat >= min(r.players for r in chosen):
        fail(f"--seat must be a seat from 0 to {min(r.players for r in chosen) - 1}, "
             f"got {args.seat}")  # fmt: skip
    config = _config(args) if args.layout or args.coasters else None
    evaluator = args.evaluator
    record_config(chosen[0], config)  # a record that does not fit the options fails here
    for record in chosen:  # each board solved once, with progress, before the review
        try:
            choice = choose(replay(record, config), "review", asked=evaluator)
        except EvaluationError as exc:
            fail(f"--evaluator {evaluator}: {exc}" if evaluator else str(exc))
        if choice.solve == "first":
            solve_with_progress(replay(record, config), workers=None)
    ensure_warm(["dice", "agents", "rules", "turn", "coach", "value"], quiet=args.quiet)
    reviews = []
    many = len(chosen) > 1
    progress = None if args.quiet else _Lines("games" if many else "turns")
    for k, record in enumerate(chosen, 1):
        reviews.append(review_game(
            record, evaluator=evaluator, playouts=args.playouts, seed=args.seed,
            seats=None if args.seat is None else [args.seat], config=config,
            progress=None if many or progress is None else progress,
        ))  # fmt: skip
        if many and progress is not None:
            progress(k, len(chosen))
    if args.format == "pdf" and out is not None:
        from pinastats.records.review_pdf import review_pdf

        print(review_pdf(reviews, out))
        return 0
    if args.format == "json":
        data: Any = [r.to_dict() for r in reviews] if many else reviews[0].to_dict()
        if many:
            data = {"agents": agent_table(reviews).to_dict(orient="records"), "games": data}
        text = _json(data)
    elif args.format == "annotated":
        text = "\n\n".join(annotated_text(r) for r in reviews)
    else:
        text = "\n\n".join(review_text(r) for r in reviews)
        if many:
            text += "\n\n" + agents_text(agent_table(reviews))
    if out is None:
        print(text)
    else:
        with written_whole(out, encoding="utf-8") as file:
            file.write(text + "\n")
    return 0


def _json(data: Any) -> str:
    import io
    from contextlib import redirect_stdout

    buffer = io.StringIO()
    with redirect_stdout(buffer):
        write_json(data)
    return buffer.getvalue().rstrip("\n")


def _span(games: list[int]) -> str:
    if games == list(range(games[0], games[-1] + 1)):
        return f"{games[0]} to {games[-1]}"
    return ", ".join(map(str, games[:20])) + (" ..." if len(games) > 20 else "")


def _milli(x: float) -> str:
    return f"{1000 * x:.1f}"


def _loss_text(d: Any) -> str:
    """``forced``, ``0`` (the best by the evaluator, unchecked), or the loss and its interval."""
    if d.forced:
        return "forced"
    if d.evaluator_loss == 0 and not d.checked:
        return "0"
    return f"{_milli(d.loss)} [{_milli(d.low)}, {_milli(d.high)}]"


def review_text(review: GameReview) -> str:
    """The review as tables: every decision, then each seat's figures."""
    winner = "no winner" if review.winner is None else f"seat {review.winner} won"
    how = ("the network, losses checked by play-outs" if review.evaluator == "network"
           else "the exact values of the solved game" if review.evaluator == "exact"
           else "play-outs")  # fmt: skip
    head = (
        f"Game {review.game}: {' vs '.join(review.agents)}; {winner} "
        f"({review.reason.lower().replace('_', ' ')}). Reviewed by {how} (up to "
        f"{review.playouts} a position), seed {review.seed}."
    )
    rows = [
        [
            str(d.turn),
            str(d.seat),
            d.decision,
            " ".join(map(str, d.dice)),
            d.played + d.mark,
            percent(d.played_win, 1),
            "=" if d.evaluator_loss == 0 else d.best,
            percent(d.best_win, 1),
            _loss_text(d),
            str(d.checked) if d.checked else "",
        ]
        for d in review.decisions
    ]
    header = ["turn", "seat", "decision", "dice", "played", "win", "best", "best win",
              "loss (milli-wins, 95%)", "checked"]  # fmt: skip
    table = render_table(header, rows, "rrlllrlrrr")
    summary = [
        [f"{m.seat} ({m.agent})", str(m.unforced),
         f"{m.error_rate:.1f} [{m.error_low:.1f}, {m.error_high:.1f}]",
         f"{m.doubtful}/{m.bad}/{m.very_bad}", f"{100 * m.luck:+.1f}", f"{m.result:g}",
         f"{m.luck_adjusted:.2f}", m.rating]
        for m in (review.summary(s) for s in review.seats)
    ]  # fmt: skip
    seats = render_table(["seat", "unforced", "error rate", "?!/?/??", "luck (points)", "result",
                          "luck-adjusted", "plays"], summary, "lrrrrrrl")  # fmt: skip
    notes = (
        "best '=': the move played was (tied for) the best by the evaluator; loss: thousandths "
        "of a win given away, with its 95% interval; checked: play-outs behind it. Marks ?! "
        "(20+), ? (50+), ?? (100+) only where the interval lies inside one band. Error rate: "
        "mean loss per unforced decision; luck: the rolls' swing of the chance to win, in points."
    )
    return "\n".join([head, "", table, "", seats, "", notes])


def agents_text(table: Any) -> str:
    """The per-agent table of many reviewed games."""
    rows = [
        [str(r["agent"]), str(r["games"]), str(r["unforced"]),
         f"{r['error_rate']:.1f} [{r['error_low']:.1f}, {r['error_high']:.1f}]",
         f"{r['doubtful']:.1f}/{r['bad']:.1f}/{r['very_bad']:.1f}", f"{100 * r['luck']:+.1f}",
         f"{r['result']:.3f}", f"{r['luck_adjusted']:.3f}", str(r["rating"])]
        for r in table.to_dict(orient="records")
    ]  # fmt: skip
    return "Per agent:\n" + render_table(
        ["agent", "games", "unforced", "error rate", "?!/?/?? per 100", "luck", "result",
         "luck-adjusted", "plays"], rows, "lrrrrrrrl")  # fmt: skip


def _config(args: argparse.Namespace) -> Any:
    from pinastats.game.catalogue import load_catalogue
    from pinastats.game.config import GameConfig
    from pinastats.game.layout import load_layout

    try:
        catalogue = load_catalogue(args.coasters)
        layout = load_layout(args.layout or "standard")
    except OSError as exc:
        fail(f"cannot read {exc.filename}: {exc.strerror or exc}")
    return GameConfig(catalogue=catalogue, layout=layout)
