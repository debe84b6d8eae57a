"""``pinastats solve``: solve a two-player board exactly and say the first player's chance.

The board is a random deal (``--seed``), a given position's (``--state`` /
``--position``), on the rulebook's grid or a ``--layout``. The solve checks the
memory first, reports progress with an estimate of the time left on stderr, and
keeps the table in the cache folder (a later solve of the same board, the
``perfect`` agent and exact advice read it back at once).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING, Any

from pinastats.cli._common import (
    add_position_options,
    fail,
    load_position,
    non_negative_int,
    positive_int,
    write_json,
)
from pinastats.cli._solving import Progress, prepare_kernels, solve_with_progress
from pinastats.errors import PinastatsError

if TYPE_CHECKING:
    from pinastats.game import Game, GameConfig


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``solve`` subcommand."""
    parser = subparsers.add_parser(
        "solve",
        help="solve a two-player board exactly: every position's chance under perfect play",
        description=(
            "Solve the two-player base game (no Happy Hour) on one board: the chance to win of "
            "every position under perfect play by both players. Prints the first player's exact "
            "chance at the start and where the table is kept; the perfect agent and "
            "'advise --objective win' read it back."
        ),
    )
    add_position_options(parser, required=False)
    parser.add_argument(
        "--seed", type=non_negative_int, default=None, metavar="N",
        help="deal a random board from this seed when no position is given (default: random)",
    )  # fmt: skip
    parser.add_argument(
        "--layout", default=None, metavar="NAME|FILE",
        help="layout of the random board (default: the rulebook's 4x4 grid)",
    )  # fmt: skip
    parser.add_argument(
        "--target", type=positive_int, default=None, metavar="N",
        help="points that trigger the end (default 20)",
    )  # fmt: skip
    parser.add_argument(
        "--tokens", type=positive_int, default=None, metavar="N",
        help="tokens per player (default 6)",
    )  # fmt: skip
    parser.add_argument(
        "--workers", type=positive_int, default=None, metavar="N",
        help="threads that solve (default: every core); with --boards --engine dask, the "
        "local cluster's worker processes",
    )  # fmt: skip
    parser.add_argument(
        "--boards", type=positive_int, default=None, metavar="N",
        help="solve N random boards dealt from --seed (default 0) and summarise the first "
        "player's exact chance over them (at most 1,000,000)",
    )  # fmt: skip
    parser.add_argument(
        "--log", default=None, metavar="FILE.jsonl",
        help="with --boards: a survey log, a header line then one line per solved board; a "
        "run given the same file goes on where the last one stopped",
    )  # fmt: skip
    parser.add_argument(
        "--engine", choices=("local", "dask"), default=None,
        help="with --boards: solve the boards one after the other on this machine (default) "
        "or one task a board on Dask (a local cluster of --workers processes, or --scheduler)",
    )  # fmt: skip
    parser.add_argument(
        "--scheduler", default=None, metavar="ADDRESS",
        help="with --boards: the Dask scheduler to run on, e.g. tcp://10.0.0.5:8786 "
        "(implies --engine dask)",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.set_defaults(func=run)


def _config(args: argparse.Namespace) -> GameConfig:
    """The two-player config of a dealt board: ``--layout``, ``--target``, ``--tokens``."""
    from pinastats.game import GameConfig, load_layout
    from pinastats.game.rules import Rules

    rules = Rules(
        **{k: v for k, v in (("target_score", args.target), ("tokens", args.tokens)) if v}
    )
    layout = load_layout(args.layout) if args.layout else load_layout()
    return GameConfig(players=2, layout=layout, rules=rules)


def _game(args: argparse.Namespace) -> Game:
    from pinastats.game import Game

    if args.state is not None or args.position is not None:
        for option in ("seed", "layout", "target", "tokens"):
            if getattr(args, option) is not None:
                fail(f"--{option} goes with a random board, not with --state or --position")
        return load_position(args)
    seed = args.seed if args.seed is not None else int(time.time_ns() % 2**31)
    args.seed = seed
    return Game.new(config=_config(args), seed=seed)


def _survey(args: argparse.Namespace) -> int:
    """``--boards N``: solve N dealt boards and summarise the first player's chance."""
    from pinastats.solve.survey import check_boards, first_player_summary, survey

    if args.state is not None or args.position is not None:
        fail("--boards deals its own boards: give --seed, not --state or --position")
    if args.scheduler is not None and args.engine == "local":
        fail("--scheduler runs on a Dask cluster: leave out --engine local")
    if args.scheduler is not None and args.workers is not None:
        fail("--workers sets local workers; with --scheduler the cluster's workers solve")
    dask = args.scheduler is not None or args.engine == "dask"
    try:
        boards = check_boards(args.boards)
        config = _config(args)
        seed = 0 if args.seed is None else args.seed
        where = f"the Dask scheduler at {args.scheduler}" if args.scheduler else (
            "a local Dask cluster" if dask else "this machine")  # fmt: skip
        bar: list[Progress] = []

        def progress(done: int, total: int) -> None:
            if not bar:  # the log is read and checked: the work starts
                logged = f", {done:,} of them in {args.log} already" if done else ""
                print(f"surveying {total:,} boards (seed {seed}) on {where}{logged}",
                      file=sys.stderr, flush=True)  # fmt: skip
                if args.scheduler is None:
                    prepare_kernels()  # here once, not in each local worker at once
                bar.append(Progress("surveying", "boards", settle=0.0, share=0.0))
            bar[0](done, total)

        if not dask:
            frame = survey(boards, seed=seed, config=config, log=args.log, progress=progress)
        else:
            from pinastats.game import Game
            from pinastats.simulation.cluster import dask_client
            from pinastats.solve import SolvedBoard
            from pinastats.solve.solver import check_memory, default_workers
            from pinastats.solve.survey import board_seed

            workers = args.workers or default_workers()
            if args.scheduler is None:  # each local worker solves a board at once
                check_memory(SolvedBoard.of(Game.new(config=config, seed=board_seed(seed, 0))),
                             copies=workers)  # fmt: skip
            with dask_client(workers, args.scheduler) as (client, _):
                frame = survey(boards, seed=seed, config=config, log=args.log,
                               progress=progress, executor=client)  # fmt: skip
    except PinastatsError as exc:
        fail(str(exc))
    summary = first_player_summary(frame)
    if args.json:
        write_json({"seed": seed, "summary": summary, "boards": frame.to_dict("records")})
        return 0
    print(
        f"First player's exact chance over {summary['boards']} boards (seed {seed}): "
        f"mean {summary['mean']:.3%}, 95% interval [{summary['low']:.3%}, "
        f"{summary['high']:.3%}]; boards range from {summary['min']:.3%} to "
        f"{summary['max']:.3%} (sd {summary['sd']:.3%})"
    )
    return 0


def run(args: argparse.Namespace) -> int:
    """Solve the board and print its result."""
    if args.boards is not None:
        return _survey(args)
    for option in ("log", "engine", "scheduler"):
        if getattr(args, option) is not None:
            fail(f"--{option} goes with --boards")
    game = _game(args)
    solution, solved_now = solve_with_progress(game, args.workers)
    board = solution.board
    found = None if solved_now else solution
    stats = solution.stats
    first = game.first_player
    chances = solution.chances(game)
    result: dict[str, Any] = {
        "digest": solution.digest,
        "seed": args.seed,
        "layout": game.config.layout.name,
        "coasters": [game.coaster(c).name for c in range(board.n_cells)],
        "boards": board.positions,
        "first_player_chance_at_start": solution.start_chance,
        "position_chances": list(chances),
        "to_move": game.to_move,
        "first_player": first,
        "stored": "16-bit fixed point",
        "table": solution.path,
        "solved_now": found is None,
        "seconds": None if stats is None else round(stats.seconds, 1),
        "workers": None if stats is None else stats.workers,
        "newton_steps_per_board": None
        if stats is None or not stats.boards
        else round(stats.steps / stats.boards, 2),
    }
    if args.json:
        write_json(result)
        return 0
    print(game.draw())
    print(
        f"First player's chance to win under perfect play: {solution.start_chance:.4%} "
        f"(second player {1 - solution.start_chance:.4%})"
    )
    if not game.is_over and len(game.config.start_scores) == 2:
        print(
            f"This position, seat {game.to_move + 1} to move: "
            + ", ".join(f"seat {s + 1} {p:.4%}" for s, p in enumerate(chances))
        )
    how = "solved now" if found is None else "read back"
    timing = "" if stats is None else f" in {stats.seconds:.1f} s on {stats.workers} threads"
    print(f"{board.positions:,} boards, {how}{timing if found is None else ''}")
    print(f"Table kept in {solution.path or '(memory only: no writable cache folder)'}")
    return 0
