"""``pinastats review``: the decisions of a recorded game rated by the win-probability coach.

Reads a file of game records (``pinastats simulate --record``), replays the
chosen game (checking it), and for each keep and placement of the chosen seats
prints the chance to win of the move played and of the best move, the loss
between them, and what each seat gave away in all (``docs/records.md``).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from typing import TYPE_CHECKING, Any

from pinastats._files import check_output, claimed, written_whole
from pinastats.cli._common import (
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

FORMATS = ("table", "json", "pdf")
_EXAMPLE = "pinastats review games.jsonl --game 3 --seat 0 --playouts 100"


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``review`` subcommand."""
    parser = subparsers.add_parser(
        "review",
        help="rate the decisions of a recorded game by the chance to win",
        description=(
            "Replay a recorded game (a file written by 'pinastats simulate --record') and "
            "rate each keep and placement with the win-probability coach: the chance to win "
            "of the move played and of the best move, and the chance given away. Each "
            "decision costs coach play-outs (a few seconds each with the default)."
        ),
        epilog=f"example: {_EXAMPLE}",
    )
    parser.add_argument("file", metavar="FILE", help="game records (JSON Lines)")
    parser.add_argument(
        "--game", type=non_negative_int, metavar="K", help="the game to review (default: the first)"
    )
    parser.add_argument(
        "--seat", type=non_negative_int, metavar="P", help="review this seat only (default: all)"
    )
    parser.add_argument(
        "--playouts",
        type=positive_int,
        default=200,
        metavar="N",
        help="most coach play-outs per outcome position (default 200; fewer is faster, noisier)",
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

    def __init__(self, every: float = 5.0) -> None:
        self.every, self.last = every, time.monotonic()

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self.last >= self.every or done == total:
            self.last = now
            print(f"pinastats: reviewed {done} of {total} decisions", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    """Check the output path, then read, pick the game, review it and print (or write) it."""
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
    """Review the game and print the review, or write it to ``out`` (whole or not at all)."""
    from pinastats._warmup import ensure_warm
    from pinastats.records import read_records
    from pinastats.records.review import review_game

    records = read_records(args.file)
    if args.game is None:
        record = records[0]
    else:
        by_game = {r.game: r for r in records}
        if args.game not in by_game:
            games = sorted(by_game)
            fail(f"{args.file} has no game {args.game}; its games are {_span(games)}")
        record = by_game[args.game]
    if args.seat is not None and args.seat >= record.players:
        fail(f"--seat must be a seat from 0 to {record.players - 1}, got {args.seat}")
    ensure_warm(["dice", "agents", "rules", "turn", "coach"], quiet=args.quiet)
    review = review_game(
        record,
        playouts=args.playouts,
        seed=args.seed,
        seats=None if args.seat is None else [args.seat],
        config=_config(args) if args.layout or args.coasters else None,
        progress=None if args.quiet else _Lines(),
    )
    if args.format == "pdf" and out is not None:
        from pinastats.records.review_pdf import review_pdf

        print(review_pdf(review, out))
        return 0
    text = _json(review) if args.format == "json" else review_text(review)
    if out is None:
        print(text)
    else:
        with written_whole(out, encoding="utf-8") as file:
            file.write(text + "\n")
    return 0


def _json(review: GameReview) -> str:
    import io
    from contextlib import redirect_stdout

    buffer = io.StringIO()
    with redirect_stdout(buffer):
        write_json(review.to_dict())
    return buffer.getvalue().rstrip("\n")


def _span(games: list[int]) -> str:
    if games == list(range(games[0], games[-1] + 1)):
        return f"{games[0]} to {games[-1]}"
    return ", ".join(map(str, games[:20])) + (" ..." if len(games) > 20 else "")


def review_text(review: GameReview) -> str:
    """The review as tables: every decision, then what each seat gave away."""
    winner = "no winner" if review.winner is None else f"seat {review.winner} won"
    head = (
        f"Game {review.game}: {' vs '.join(review.agents)}; {winner} "
        f"({review.reason.lower().replace('_', ' ')}). Coach: up to {review.playouts} "
        f"play-outs, seed {review.seed}."
    )
    rows = [
        [
            str(d.turn),
            str(d.seat),
            d.decision,
            " ".join(map(str, d.dice)),
            d.played,
            percent(d.played_win, 1),
            "=" if d.loss == 0 else d.best,
            percent(d.best_win, 1),
            "-" if d.loss == 0 else percent(d.loss, 1) + ("" if d.clear else "?"),
            "!" if d.costly else "",
        ]
        for d in review.decisions
    ]
    header = ["turn", "seat", "decision", "dice", "played", "win", "best", "best win", "loss", ""]
    table = render_table(header, rows, "rrlllrlrrl")
    totals = "; ".join(
        f"seat {s} ({review.agents[s]}) {percent(v, 1)}" for s, v in review.given_away.items()
    )
    notes = (
        "best '=': the move played was (tied for) the best; loss '?': within the play-outs' "
        "noise (less than 2 standard errors); '!': costly (5% or more)."
    )
    return "\n".join([head, "", table, "", f"Win chance given away: {totals}.", notes])


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
