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
        help="threads that solve (default: every core)",
    )  # fmt: skip
    parser.add_argument(
        "--boards", type=positive_int, default=None, metavar="N",
        help="solve N random boards dealt from --seed (default 0) and summarise the first "
        "player's exact chance over them",
    )  # fmt: skip
    parser.add_argument(
        "--log", default=None, metavar="FILE.jsonl",
        help="with --boards: one line per solved board; a run given the same file goes on "
        "where the last one stopped",
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


class _Progress:
    """Progress lines on stderr: boards done, the share, and an estimate of the time left."""

    def __init__(self, every: float = 2.0) -> None:
        self.started = time.perf_counter()
        self.last = 0.0
        self.every = every

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter() - self.started
        if now - self.last < self.every and done < total:
            return
        self.last = now
        left = now * (total - done) / done if done else float("nan")
        print(
            f"solving: {done:,}/{total:,} boards ({done / total:.0%}), "
            f"{now:.0f} s, about {left:.0f} s left",
            file=sys.stderr,
            flush=True,
        )


def solve_with_progress(game: Game, workers: int | None) -> tuple[Solution, bool]:
    """The solution of ``game``'s board, and whether it was solved now.

    A solve checks the memory first and reports progress on stderr; any problem
    is one line.
    """
    from pinastats.solve import SolvedBoard, cached, solution_path, solve
    from pinastats.solve.solver import check_memory

    try:
        board = SolvedBoard.of(game)
        found = cached(board)
        if found is not None:
            return found, False
        check_memory(board)
        print(
            f"solving this board first: {board.positions:,} boards of a {board.n_cells}-cell "
            f"layout (about {board.memory_needed() / 2**20:,.0f} MiB of memory); its table is "
            f"kept in {solution_path(board).parent} for next time",
            file=sys.stderr,
            flush=True,
        )
        return solve(board, workers=workers, progress=_Progress()), True
    except PinastatsError as exc:
        fail(str(exc))


def _survey(args: argparse.Namespace) -> int:
    """``--boards N``: solve N dealt boards and summarise the first player's chance."""
    from pinastats.solve.survey import first_player_summary, survey

    if args.state is not None or args.position is not None:
        fail("--boards deals its own boards: give --seed, not --state or --position")
    config = _config(args)
    seed = 0 if args.seed is None else args.seed

    def progress(done: int, total: int) -> None:
        print(f"boards solved: {done}/{total}", file=sys.stderr, flush=True)

    try:
        frame = survey(args.boards, seed=seed, config=config, log=args.log, progress=progress)
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
    if args.log is not None:
        fail("--log goes with --boards")
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
