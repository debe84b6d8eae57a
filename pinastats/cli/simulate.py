"""``pinastats simulate``: Monte Carlo games between built-in agents.

Plays ``--games`` games (chunked, seeded per chunk: the same ``--seed`` and
``--chunk-size`` give the same games on any number of workers or on Dask) and
prints who wins how often with 95% intervals, the first-player advantage, how
games end and how long they last. ``--out`` keeps the per-game table.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pinastats._files import check_output, claimed
from pinastats._signals import holding
from pinastats.cli._common import (
    fail,
    kernel_groups,
    non_negative_int,
    positive_int,
    split_agents,
    write_json,
)
from pinastats.cli._summary import summary_text as summary_text
from pinastats.errors import OutputError

if TYPE_CHECKING:
    from pinastats.agents.protocol import AgentProtocol
    from pinastats.game.config import GameConfig
    from pinastats.simulation.pieces import PiecePlan
    from pinastats.simulation.result import SimulationResult
    from pinastats.simulation.runner import Engine

FORMATS = ("table", "json")
ENGINES = ("local", "dask")
_EXAMPLE = "pinastats simulate --agents ev,greedy --games 100000 --seed 7"


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``simulate`` subcommand."""
    parser = subparsers.add_parser(
        "simulate",
        help="play many games between agents and compare them",
        description=(
            "Play N games (--games) between agents (one per seat) and report win rates "
            "with 95% intervals, the first-player advantage, how games end and how long "
            "they last. Agents: random, greedy, ev, strategic, rollout, value, coach, perfect "
            "(a wrong name lists them all); some take parameters, e.g. "
            "'strategic(line=4,block=2)' or 'coach(playouts=32)'; one's own as FILE.py:Class."
        ),
        epilog=f"example: {_EXAMPLE}",
    )
    parser.add_argument(
        "--agents",
        required=True,
        metavar="LIST",
        help=(
            "comma-separated agents, seat 0 first, e.g. ev,greedy or 'strategic(line=4),ev'; "
            "one's own as FILE.py:Class or module:Class, e.g. examples/corner_agent.py:CornerAgent"
        ),
    )
    parser.add_argument(
        "--players",
        type=positive_int,
        metavar="N",
        help="players, 2-4 (default: the number of agents)",
    )
    parser.add_argument(
        "--games", type=positive_int, required=True, metavar="N", help="games to play"
    )
    parser.add_argument(
        "--seed", type=non_negative_int, default=0, metavar="N", help="seed of the run (default 0)"
    )
    parser.add_argument("--happy-hour", action="store_true", help="play the Happy Hour variant")
    parser.add_argument(
        "--negative-scores",
        action="store_true",
        help="with --happy-hour: 'lose 3 points' may go below 0 (as on Board Game Arena)",
    )
    parser.add_argument(
        "--first-seat",
        type=int,
        metavar="N",
        help="seat that always plays first (default: drawn at random each game)",
    )
    parser.add_argument(
        "--workers",
        type=positive_int,
        metavar="N",
        help="local worker threads, or local Dask worker processes (default: the CPU count)",
    )
    parser.add_argument(
        "--engine",
        choices=ENGINES,
        help="run on local threads (default) or on Dask (a local cluster, or --scheduler); "
        "Dask's own log lines are not shown unless PINASTATS_DASK_LOG asks for them "
        "(debug, info, warning, error)",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="Dask scheduler to run on, e.g. tcp://10.0.0.5:8786 (implies --engine dask)",
    )
    parser.add_argument(
        "--chunk-size",
        type=positive_int,
        default=None,
        metavar="N",
        help="games per chunk, the unit of work and of seeding (default 500, 16 with a "
        "rollout agent; part of what makes a run reproducible)",
    )
    parser.add_argument(
        "--layout", metavar="NAME|FILE", help="board layout: a shipped name or a JSON file"
    )
    parser.add_argument(
        "--coasters", metavar="FILE", help="coaster catalogue CSV (default: the shipped one)"
    )
    parser.add_argument(
        "--starting-scores",
        type=_starting_scores,
        metavar="S1,S2,...",
        help="scores at setup in turn order, one per player, each below the target score "
        "(default the rulebook's 1,2,3,4)",
    )
    parser.add_argument(
        "--out",
        metavar="FILE|DIR|PATTERN",
        help="save one row per game: to FILE (.csv, or .parquet, which needs pyarrow: pip "
        "install pyarrow; it is not installed with pinastats), or in pieces of at most "
        "--piece-games games to DIR/games-00000.parquet, ... or to a PATTERN with {} for the "
        "piece number (e.g. runs/games-{}.csv); pieces are written as the games come, so "
        "the table is never held in memory; a stopped run leaves its complete pieces and says "
        "which, and a place already holding pieces is refused (pieces of two runs never mix)",
    )
    parser.add_argument(
        "--piece-games",
        type=positive_int,
        metavar="N",
        help="with --out DIR or PATTERN: games per piece (default 100,000)",
    )
    _add_record_option(parser)
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="table",
        help="output: readable tables (default) or JSON",
    )
    parser.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress on stderr (a bar on a terminal, else a line every few seconds)",
    )
    parser.add_argument(
        "--progress-every",
        type=_seconds,
        metavar="SECONDS",
        help="off a terminal, a progress line every SECONDS (default 5)",
    )
    parser.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="nothing on stderr but errors: no progress, no word about compiling the engine",
    )
    parser.add_argument(
        "--worker-timeout",
        type=_seconds,
        default=None,
        metavar="S",
        help="with Dask: fail when the cluster has had no worker for S seconds (default 60)",
    )
    from pinastats.cli import _luck as luck

    luck.add_arguments(parser)
    parser.set_defaults(func=run)


def _seconds(text: str) -> float:
    """Argparse type: a number of seconds > 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number of seconds > 0, got {text}")
    return value


@holding
def run(args: argparse.Namespace) -> int:
    """Check the options and the outputs, play the games, print the summary and save the table.

    Every output is checked before the games are played and held (a lock file next
    to it) until the run ends: a second run writing the same file is refused.
    Ctrl-C and SIGTERM are held from the first line (:func:`pinastats._signals.held`):
    noted, then raised where the run can stop (between chunks), so that one landing
    while the engine loads is not lost; the command exits 130 (143) with one line.
    """
    from pinastats.game.config import MAX_PLAYERS, MIN_PLAYERS
    from pinastats.simulation.limits import check_memory

    agents = _agents(args.agents)
    players = len(agents) if args.players is None else args.players
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        given = "--players" if args.players is not None else "one agent per seat in --agents"
        fail(f"players must be {MIN_PLAYERS}, 3 or {MAX_PLAYERS}, got {players} ({given})")
    if len(agents) != players:
        fail(
            f"{len(agents)} agent(s) given for {players} players: name one agent per seat "
            f"(e.g. --agents {','.join(['ev'] * players)})"
        )
    if args.first_seat is not None and not 0 <= args.first_seat < players:
        fail(f"--first-seat must be a seat from 0 to {players - 1}, got {args.first_seat}")
    if args.negative_scores and not args.happy_hour:
        fail("--negative-scores changes a Happy Hour effect: use it with --happy-hour")
    if args.scheduler is not None and args.engine == "local":
        fail("--scheduler runs on a Dask cluster: leave out --engine local")
    if args.scheduler is not None and args.workers is not None:
        fail("--workers sets local workers; with --scheduler the cluster's workers play")
    engine: Engine = "dask" if args.scheduler is not None or args.engine == "dask" else "local"
    if engine == "dask":
        _check_dask()
        from pinastats.simulation.cluster import dask_log_level

        dask_log_level()  # a bad PINASTATS_DASK_LOG is refused before anything starts
    config = _config(args, players)
    if args.luck_adjusted:
        from pinastats.cli import _luck as luck

        return luck.run(args, agents, config)
    if args.worker_timeout is not None and engine != "dask":
        fail("--worker-timeout is for the Dask engine: add --engine dask or --scheduler")
    pieces = _out_pieces(args)
    held = _check_outputs(args, pieces)
    if pieces is None:  # the per-game table is kept in memory
        check_memory(args.games, config)
    with contextlib.ExitStack() as claims:
        for option, path in held:  # no other run writes them until this one ends
            _claim(claims, option, path)
        summary = _play(agents, args, config, engine, pieces)
    if args.format == "json":
        write_json(summary)
    else:
        print(summary_text(summary))
    return 0


def _play(
    agents: list[AgentProtocol],
    args: argparse.Namespace,
    config: GameConfig,
    engine: Engine,
    pieces: PiecePlan | None,
) -> dict[str, Any]:
    """Play the run, save its table and records; its summary (with where the table went)."""
    import functools

    from pinastats._warmup import ensure_warm
    from pinastats.simulation.cluster import WORKER_TIMEOUT
    from pinastats.simulation.runner import simulate

    ensure_warm(kernel_groups(agents), quiet=args.quiet)
    options: dict[str, Any] = {
        "seed": args.seed,
        "config": config,
        "first_seat": args.first_seat,
        "workers": args.workers,
        "engine": engine,
        "scheduler": args.scheduler,
        "chunk_size": args.chunk_size,
        "progress": not (args.no_progress or args.quiet),
        "worker_timeout": args.worker_timeout or WORKER_TIMEOUT,
    }
    if args.progress_every is not None:
        options["progress_every"] = args.progress_every
    play: Callable[..., SimulationResult] = simulate
    if args.record is not None:
        from pinastats.records import record_run

        play = functools.partial(record_run, path=args.record)
    if pieces is not None:
        summary = _simulate_pieces(agents, args, pieces, play, options)
    else:
        result = play(agents, args.games, **options)
        saved = None if args.out is None else str(result.save(args.out))
        summary = result.summary() | {"first_seat": args.first_seat, "out": saved}
    return summary


# ---------------------------------------------------------------- input


def _agents(text: str) -> list[AgentProtocol]:
    from pinastats.agents.loading import resolve_agent

    return [resolve_agent(spec) for spec in split_agents(text)]


def _config(args: argparse.Namespace, players: int) -> GameConfig:
    from pinastats.game.catalogue import load_catalogue
    from pinastats.game.config import GameConfig
    from pinastats.game.layout import load_layout
    from pinastats.game.rules import Rules

    try:
        catalogue = load_catalogue(args.coasters)
    except OSError as exc:
        fail(f"--coasters {args.coasters}: {exc.strerror or exc}")
    try:
        layout = load_layout(args.layout or "standard")
    except OSError as exc:
        fail(f"--layout {args.layout}: {exc.strerror or exc}")
    rules = Rules(happy_hour=args.happy_hour, negative_scores=args.negative_scores)
    scores = args.starting_scores
    if scores is not None and len(scores) != players:
        fail(f"--starting-scores {','.join(map(str, scores))}: give {players}, one per player")
    if scores is not None and max(scores) >= rules.target_score:
        fail(
            f"--starting-scores {','.join(map(str, scores))}: each must be below the target "
            f"score {rules.target_score} (a score at the target ends every game in one round)"
        )
    return GameConfig(
        players=players, catalogue=catalogue, layout=layout, rules=rules, starting_scores=scores
    )


def _starting_scores(text: str) -> tuple[int, ...]:
    """``1,4,5`` as whole scores from 0 up, in turn order."""
    try:
        scores = tuple(int(x) for x in text.split(","))
    except ValueError:
        scores = ()
    if not scores or any(x < 0 for x in scores):
        raise argparse.ArgumentTypeError(
            f"starting scores are whole numbers from 0 up, comma-separated, e.g. 1,4,5; "
            f"got {text!r}"
        )
    return scores


def _check_dask() -> None:
    from importlib.util import find_spec

    if find_spec("distributed") is None:
        fail("the Dask engine needs dask.distributed: pip install 'pinastats[dask]'")


def _check_outputs(args: argparse.Namespace, pieces: PiecePlan | None) -> list[tuple[str, str]]:
    """Fail before playing if an output cannot be written; the files to hold while playing.

    ``--out`` (one file, or the first of its pieces) and ``--record`` are checked
    (:func:`~pinastats._files.check_output`) and must differ; pieces are held by
    :func:`~pinastats.simulation.pieces.simulate_pieces`.
    """
    from pathlib import Path

    files: list[tuple[str, str]] = []
    if args.out is not None and pieces is None:
        _check_format(args.out)
        files.append(("--out", args.out))
    if args.record is not None:
        files.append(("--record", args.record))
        if pieces is not None and pieces.matches(Path(args.record)):
            fail(
                f"--record {args.record} is named like a piece of --out {args.out}: "
                "write the records elsewhere"
            )
    if len(files) == 2 and Path(args.out).resolve() == Path(args.record).resolve():
        fail(f"--out and --record both name {args.record}: give each a file of its own")
    first_piece = [] if pieces is None else [("--out", str(pieces.path(0)))]
    for option, path in files + first_piece:
        try:
            check_output(path)
        except OutputError as exc:
            fail(f"{option} {exc}")
    return files


def _claim(claims: contextlib.ExitStack, option: str, path: str) -> None:
    """Hold ``path`` until ``claims`` closes (:func:`~pinastats._files.claimed`), or fail."""
    try:
        claims.enter_context(claimed(path))
    except OutputError as exc:
        fail(f"{option} {exc}")


def _check_format(path: str) -> None:
    """Fail unless ``--out`` names a table file whose format can be written."""
    from importlib.util import find_spec

    from pinastats.simulation.result import output_suffix

    suffix = output_suffix(path)
    if suffix == ".parquet" and find_spec("pyarrow") is None and find_spec("fastparquet") is None:
        fail("writing Parquet needs pyarrow: pip install pyarrow (or use a .csv file)")


def _add_record_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--record",
        metavar="FILE",
        help="also write every game's record to FILE (JSON Lines, for 'pinastats review'); "
        "slower: each game is played again turn by turn in Python (tens of games a second)",
    )


# ---------------------------------------------------------------- --out in pieces


def _out_pieces(args: argparse.Namespace) -> PiecePlan | None:
    """The pieces ``--out`` asks for (a folder or a pattern), None for one file or no --out."""
    from importlib.util import find_spec

    from pinastats.simulation.pieces import piece_plan

    plan = None if args.out is None else piece_plan(args.out)
    if plan is None:
        if args.piece_games is not None:
            fail(
                "--piece-games needs --out DIR or a pattern with {} (e.g. runs/games-{}.parquet)"
                + ("" if args.out is None else f", not the single file {args.out!r}")
            )
        return None
    if (
        plan.suffix == ".parquet"
        and find_spec("pyarrow") is None
        and find_spec("fastparquet") is None
    ):
        fail("writing Parquet needs pyarrow: pip install pyarrow (or use a pattern ending in .csv)")
    return plan


def _simulate_pieces(
    agents: list[AgentProtocol],
    args: argparse.Namespace,
    plan: PiecePlan,
    play: Callable[..., SimulationResult],
    options: dict[str, Any],
) -> dict[str, Any]:
    """Play the run writing its table in pieces; the summary, naming where the pieces are."""
    from pinastats.simulation.pieces import PIECE_GAMES, simulate_pieces

    size = args.piece_games or PIECE_GAMES
    summary, paths = simulate_pieces(
        agents, args.games, plan, piece_games=size, play=play, **options
    )
    where = f"{len(paths)} piece(s) of at most {size:,} games, {paths[0]} to {paths[-1].name}"
    return summary | {"first_seat": args.first_seat, "out": where}
