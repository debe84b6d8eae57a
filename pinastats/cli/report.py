"""``pinastats report``: a printable PDF strategy report per player count.

Solves every coaster of the catalogue, builds the hold cheat-sheets, plays
the simulations (``--games`` per run) and writes an A4 PDF. The same options
give the same PDF, byte for byte, whatever ``--workers``. The output paths are
checked before anything is computed, and held (a lock file) so that no other
run writes them meanwhile; each PDF is written whole or not at all, so a
failure (a full disk: one error naming the file) leaves no partial file.
Ctrl-C or SIGTERM says which reports were written and which were not.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pinastats._files import check_output, claimed
from pinastats.cli._common import fail, non_negative_int, positive_int
from pinastats.errors import PLAYER_COUNTS, OutputError, players_text

if TYPE_CHECKING:
    from pinastats.game import Catalogue
    from pinastats.simulation.progress import Stopped

DEFAULT_GAMES = 20_000
"""Games per simulation run (kept equal to :data:`pinastats.report.DEFAULT_GAMES`)."""
DEFAULT_DESIGNER_GAMES = 10_000
"""Games per designer run (kept equal to
:data:`pinastats.report.designer_data.DEFAULT_DESIGNER_GAMES`)."""
DEFAULT_WIN_POSITIONS = 200
"""Decisions of the playing-to-win section (kept equal to
:data:`pinastats.report.win_data.DEFAULT_WIN_POSITIONS`)."""
DEFAULT_WIN_PLAYOUTS = 64
"""Play-outs per outcome position there (kept equal to
:data:`pinastats.report.win_data.DEFAULT_WIN_PLAYOUTS`)."""
MIN_GAMES = 1_000
"""Fewest games per run a report is written from without ``--allow-small``.

At n games a win rate near 50% has a 95% interval of about ±1.96·√(0.25/n):
±3.1 points at 1,000 games, ±10 at 100, ±98 at 1 — below 1,000 the report's
tables and their differences between agents are mostly noise.
"""

_EPILOG = """examples:
  pinastats report --players 2 -o reports/strategy-2p.pdf
  pinastats report --players 2 3 4 --out-dir reports/
  pinastats report --players 4 --happy-hour --games 5000 --seed 7 -o hh-4p.pdf

Each run (strategic self-play, then every table of different agents among
random, greedy, ev and strategic) plays --games games. With --out-dir the files
are named strategy-<N>p.pdf (strategy-<N>p-happy-hour.pdf with --happy-hour)."""


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``report`` subcommand."""
    parser = subparsers.add_parser(
        "report",
        help="write a printable PDF strategy report",
        description=(
            "Write an A4 PDF strategy report for a player count: headline findings, a coaster "
            "tier list, hold cheat-sheets, probability charts, simulated games between agents "
            "(win rates, first-player advantage, how games end), where playing to win differs "
            "from playing for points, and the methodology."
        ),
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--players", type=_players, nargs="+", required=True, metavar="N",
        help="player count, 2-4; several with --out-dir (e.g. --players 2 3 4)",
    )  # fmt: skip
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("-o", "--output", metavar="FILE", help="the PDF to write (one player count)")
    where.add_argument(
        "--out-dir", metavar="DIR", help="write strategy-<N>p.pdf for each player count into DIR"
    )
    parser.add_argument(
        "--games", type=positive_int, default=DEFAULT_GAMES, metavar="N",
        help=f"games per simulation run (default {DEFAULT_GAMES:,})",
    )  # fmt: skip
    parser.add_argument(
        "--seed",
        type=non_negative_int,
        default=0,
        metavar="N",
        help="seed of the simulations (default 0)",
    )
    parser.add_argument("--happy-hour", action="store_true", help="simulate the Happy Hour variant")
    parser.add_argument(
        "--coasters", metavar="FILE", help="coaster catalogue CSV (default: the shipped one)"
    )
    parser.add_argument(
        "--workers", type=positive_int, metavar="N",
        help="worker threads for the simulations (default: the CPU count; the PDF is the same)",
    )  # fmt: skip
    parser.add_argument(
        "--guest", action="append", default=[], metavar="AGENT",
        help="an agent played against each built-in agent, on a page of its own: one's own "
        "(FILE.py:Class or module:Class) or one outside the tables (rollout, coach); up to 2",
    )  # fmt: skip
    parser.add_argument(
        "--guest-games", type=positive_int, metavar="N",
        help="games per guest table (default: the smaller of --games and 2,000)",
    )  # fmt: skip
    parser.add_argument(
        "--designer-games", type=non_negative_int, default=DEFAULT_DESIGNER_GAMES, metavar="N",
        help="games per run of the designer's notes (fair starting scores, what-if rules, "
        f"coaster points; default {DEFAULT_DESIGNER_GAMES:,}; 0: no designer's notes)",
    )  # fmt: skip
    parser.add_argument(
        "--win-positions", type=non_negative_int, default=DEFAULT_WIN_POSITIONS, metavar="N",
        help="placement decisions of strategic self-play on which the win-probability coach "
        "is compared with the points advice, on the 'Playing to win' pages (default "
        f"{DEFAULT_WIN_POSITIONS}; at most 20,000; 0: no such pages)",
    )  # fmt: skip
    parser.add_argument(
        "--win-playouts", type=positive_int, default=DEFAULT_WIN_PLAYOUTS, metavar="N",
        help="play-outs per outcome position of each of those decisions (default "
        f"{DEFAULT_WIN_PLAYOUTS}; 2 to 10,000)",
    )  # fmt: skip
    parser.add_argument(
        "--allow-small", action="store_true",
        help=f"write the report even with --games below {MIN_GAMES:,} (its intervals are wide)",
    )  # fmt: skip
    parser.add_argument(
        "--no-progress", action="store_true",
        help="no progress on stderr (a bar on a terminal, else a line every few seconds)",
    )  # fmt: skip
    parser.add_argument(
        "-q", "--quiet", action="store_true",
        help="nothing on stderr but errors: no progress, no word about compiling the engine",
    )  # fmt: skip
    parser.set_defaults(func=run)


def _players(text: str) -> int:
    """Argparse type: a supported player count."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {players_text()}, got {text!r}") from None
    if value not in PLAYER_COUNTS:
        raise argparse.ArgumentTypeError(f"a game has {players_text()} players, got {value}")
    return value


def file_name(players: int, happy_hour: bool) -> str:
    """The name of a report in ``--out-dir``.

    >>> file_name(3, False), file_name(4, True)
    ('strategy-3p.pdf', 'strategy-4p-happy-hour.pdf')
    """
    return f"strategy-{players}p{'-happy-hour' if happy_hour else ''}.pdf"


def run(args: argparse.Namespace) -> int:
    """Check every input, then build and write one report per player count."""
    players: list[int] = args.players
    if len(set(players)) != len(players):
        fail(f"--players {' '.join(map(str, players))}: each player count once")
    if args.games < MIN_GAMES and not args.allow_small:
        fail(
            f"--games {args.games:,}: a report needs at least {MIN_GAMES:,} games per run, "
            "below that its 95% intervals are wider than ±3 points and its comparisons mostly "
            "noise (--allow-small writes it anyway)"
        )
    if args.output is not None:
        if len(players) > 1:
            fail("-o names one file: use --out-dir DIR to write several player counts")
        targets = [Path(args.output)]
        _check_file(targets[0], "-o")
    else:
        folder = Path(args.out_dir)
        targets = [folder / file_name(p, args.happy_hour) for p in players]
        for target in targets:
            _check_output(target, f"--out-dir {args.out_dir}:")
    catalogue = _catalogue(args.coasters)
    from pinastats.report.sims import check_guests

    guests = check_guests(args.guest)  # a bad guest fails before anything is computed
    from pinastats.report.win_data import check_win_playouts, check_win_positions

    check_win_positions(args.win_positions, "--win-positions")
    check_win_playouts(args.win_playouts, "--win-playouts")

    from pinastats._warmup import ensure_warm
    from pinastats.report import build_report, write_pdf
    from pinastats.report.pages import plan

    progress = not (args.no_progress or args.quiet)
    ensure_warm(["dice", "agents", "rules", "turn", "games", "coach"], quiet=args.quiet)
    written: list[Path] = []
    with contextlib.ExitStack() as held:
        for target in targets:  # no other run writes them meanwhile
            held.enter_context(claimed(target))
        for p, target in zip(players, targets, strict=True):
            try:
                report = build_report(
                    p, happy_hour=args.happy_hour, games=args.games, seed=args.seed,
                    catalogue=catalogue, workers=args.workers, progress=progress,
                    guests=guests, guest_games=args.guest_games,
                    designer_games=args.designer_games, win_positions=args.win_positions,
                    win_playouts=args.win_playouts,
                )  # fmt: skip
                if progress:
                    print(f"laying out {target}", file=sys.stderr, flush=True)
                path = write_pdf(report, target)
            except KeyboardInterrupt as exc:
                raise _stopped(exc, p, targets[len(written) :], written) from None
            written.append(path)
            size = path.stat().st_size
            print(f"wrote {path}: {len(plan(report))} pages, {size / 1024:,.0f} kB")
    return 0


def _stopped(
    exc: KeyboardInterrupt, players: int, left: list[Path], written: list[Path]
) -> Stopped:
    """Ctrl-C or SIGTERM while building the ``players``-player report, and what was written.

    The report being built is not written (nothing of it is left), nor are the ones after it.
    """
    from pinastats.simulation.progress import Stopped, stop_signal

    text = f"{str(exc) or 'interrupted'}, building the {players}-player report: "
    if written:
        text += f"wrote {', '.join(map(str, written))}; did not write {', '.join(map(str, left))}"
    else:
        text += "no file was written"
    return Stopped(text, stop_signal(exc))


def _catalogue(path: str | None) -> Catalogue:
    from pinastats.game import load_catalogue

    try:
        return load_catalogue(path)
    except OSError as exc:
        fail(f"--coasters {path}: {exc.strerror or exc}")


def _check_output(path: Path, option: str) -> None:
    """Fail unless ``path`` can be written (:func:`~pinastats._files.check_output`).

    ``option`` starts the message (``-o``, or ``--out-dir DIR:``).
    """
    try:
        check_output(path)
    except OutputError as exc:
        fail(f"{option} {exc}")


def _check_file(path: Path, option: str) -> None:
    """Fail unless ``path`` can be written as a PDF."""
    if path.suffix.lower() != ".pdf":
        fail(f"{option} {path}: the report is a PDF, give a file name ending in .pdf")
    if path.is_dir():
        fail(f"{option} {path}: is a directory, give a file name ending in .pdf")
    _check_output(path, option)
