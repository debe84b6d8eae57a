"""``pinastats solve``: solve a two-player board exactly and say the first player's chance.

The board is a random deal (``--seed``), a given position's (``--state`` /
``--position``), on the rulebook's grid or a ``--layout``. The solve checks the
memory first, reports progress with an estimate of the time left on stderr, and
keeps the table in the cache folder (a later solve of the same board, the
``perfect`` agent and exact advice read it back at once).
"""

from __future__ import annotations

import argparse
import math
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
from pinastats.errors import PinastatsError

if TYPE_CHECKING:
    from pinastats.game import Game, GameConfig
    from pinastats.solve import Solution


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


FIRST_ESTIMATE = 0.05
"""The share of a solve's work done before its first estimate of the time left."""


class _Line:
    """Progress on stderr: one line redrawn in place on a terminal, sparse lines otherwise.

    On a terminal the line is redrawn (a carriage return) at most every
    ``every`` seconds; into a file or a pipe a line is written at most every
    ``sparse`` seconds. The last update (``final``) is always shown, and ends the line.
    """

    def __init__(self, every: float = 0.5, sparse: float = 30.0) -> None:
        self.tty = sys.stderr.isatty()
        self.every = every if self.tty else sparse
        self.last = -math.inf
        self.width = 0

    def show(self, text: str, final: bool = False) -> None:
        now = time.perf_counter()
        if now - self.last < self.every and not final:
            return
        self.last = now
        if self.tty:
            pad = " " * max(self.width - len(text), 0)
            self.width = len(text)
            sys.stderr.write("\r" + text + pad + ("\n" if final else ""))
        else:
            sys.stderr.write(text + "\n")
        sys.stderr.flush()


def _duration(seconds: float) -> str:
    """``seconds`` for people: ``40 s``, ``12 min``, ``3.4 h``."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


class _Progress:
    """A solve's or a survey's progress: done, the share, the time so far and left.

    The time left is the work left at the rate measured since the first update
    (work done by then, such as boards a log holds or a solve's first block,
    which may hold a compile, is not counted in the rate); none is given before
    ``share`` of the work (:data:`FIRST_ESTIMATE`) and ``settle`` seconds have
    passed, so the first estimate rests on measured work.
    """

    def __init__(
        self, what: str, unit: str, settle: float = 5.0, share: float = FIRST_ESTIMATE
    ) -> None:
        self.what, self.unit, self.settle, self.share = what, unit, settle, share
        self.line = _Line()
        self.started = time.perf_counter()
        self.first: int | None = None
        self.first_at = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter() - self.started
        if self.first is None:
            self.first, self.first_at = done, now
        worked, spent = done - self.first, now - self.first_at
        share = worked / max(total - self.first, 1)
        if done >= total:
            when = f"done in {_duration(now)}"
        elif worked > 0 and share >= self.share and spent >= self.settle:
            when = f"{_duration(now)}, about {_duration(spent * (total - done) / worked)} left"
        else:
            when = f"{_duration(now)}, estimating the time left"
        self.line.show(
            f"{self.what}: {done:,}/{total:,} {self.unit} ({done / total:.0%}), {when}",
            final=done >= total,
        )


def prepare_kernels() -> None:
    """Compile the solver's kernels now if they are not in the cache, saying so and how long.

    A board of one token a player is solved in memory: it runs every kernel of
    a solve, so the real solve's progress and estimates measure solving only.
    """
    from pinastats import _engine as E
    from pinastats._jit import cache_is_warm
    from pinastats.game import Game, GameConfig
    from pinastats.game.rules import Rules
    from pinastats.solve import solve

    if cache_is_warm([E.solve_range, E.solve_final_turn_table]):
        return
    print(
        "compiling the solver's kernels (once; kept in the cache for the next runs)...",
        file=sys.stderr,
        flush=True,
    )
    started = time.perf_counter()
    solve(Game.new(config=GameConfig(players=2, rules=Rules(tokens=1)), seed=0), store=False)
    print(
        f"compiled the solver's kernels in {time.perf_counter() - started:.1f} s",
        file=sys.stderr,
        flush=True,
    )


def solve_with_progress(game: Game, workers: int | None) -> tuple[Solution, bool]:
    """The solution of ``game``'s board, and whether it was solved now.

    A solve checks the memory first, compiles the solver's kernels if they are
    not cached (saying so), and reports progress on stderr; any problem is one line.
    """
    from pinastats.solve import SolvedBoard, cached, solve
    from pinastats.solve.solver import check_memory

    try:
        board = SolvedBoard.of(game)
        found = cached(board)
        if found is not None:
            return found, False
        check_memory(board)
        prepare_kernels()
        print(
            f"solving this board first: {board.positions:,} boards of a {board.n_cells}-cell "
            f"layout (about {board.memory_needed() / 2**20:,.0f} MiB); kept for next time",
            file=sys.stderr,
            flush=True,
        )
        return solve(board, workers=workers, progress=_Progress("solving", "boards")), True
    except PinastatsError as exc:
        fail(str(exc))


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
        bar: list[_Progress] = []

        def progress(done: int, total: int) -> None:
            if not bar:  # the log is read and checked: the work starts
                logged = f", {done:,} of them in {args.log} already" if done else ""
                print(f"surveying {total:,} boards (seed {seed}) on {where}{logged}",
                      file=sys.stderr, flush=True)  # fmt: skip
                if args.scheduler is None:
                    prepare_kernels()  # here once, not in each local worker at once
                bar.append(_Progress("surveying", "boards", settle=0.0, share=0.0))
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
        "stored": "float32",
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
