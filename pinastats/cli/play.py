"""``pinastats play --serve``: play Piña Coladice in a browser, the coach beside you.

Serves the board of the JupyterLab widget (``pinastats.play(...)`` in a notebook)
as a web page on 127.0.0.1 until interrupted (Ctrl-C).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from pinastats.cli._common import (
    add_position_options,
    fail,
    load_position,
    non_negative_int,
    positive_int,
)

_EXAMPLE = "pinastats play --serve --seats human,coach --seed 7"


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``play`` subcommand."""
    parser = subparsers.add_parser(
        "play",
        help="play in a browser against the agents, with the coach's advice",
        description=(
            "Play a game of Piña Coladice in a web page served on 127.0.0.1: click dice to hold "
            "them, roll, stop, and click a lit coaster to place; the coach's panel shows every "
            "keep and placement with the chance to win. In JupyterLab, pinastats.play() shows "
            "the same board in a notebook."
        ),
        epilog=f"example: {_EXAMPLE}",
    )
    parser.add_argument("--serve", action="store_true", help="serve the board as a web page")
    parser.add_argument("--port", type=positive_int, default=8765, help="the port (8765)")
    parser.add_argument(
        "--seats",
        default="human,coach",
        help="2-4 seats, comma-separated: human (a person) or an agent name (human,coach)",
    )
    parser.add_argument(
        "--seed",
        type=non_negative_int,
        default=None,
        help="seed of the deal and dice (default: a random one, printed; New game draws another)",
    )
    parser.add_argument("--happy-hour", action="store_true", help="play the Happy Hour variant")
    add_position_options(parser, required=False)
    parser.add_argument("--no-coach", action="store_true", help="hide the coach's panel")
    parser.add_argument(
        "--table",
        action="store_true",
        help="My table: open on the setup of a game played with real dice and coasters",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Start the session and serve it until interrupted."""
    if not args.serve:
        fail("say --serve to serve the board in a browser (in a notebook: pinastats.play())")
    if args.port > 65535:
        fail(f"--port must be at most 65535, got {args.port}")
    from pinastats._warmup import ensure_warm
    from pinastats.tabletop.server import BoardServer
    from pinastats.tabletop.session import PlaySession

    ensure_warm(["dice", "agents", "rules", "turn", "coach", "value"])

    seats = [s.strip() for s in args.seats.split(",") if s.strip()]
    start = None
    if args.state is not None or args.position is not None:  # instead of a deal
        start = load_position(args, happy_hour=args.happy_hour)
    session = PlaySession(seats, seed=args.seed, happy_hour=start is None and args.happy_hour,
                          position=start)  # fmt: skip
    board: Any = session
    if args.table:
        from pinastats.tabletop.table import resume

        session.close()
        board, kept = resume(back=session.again, happy_hour=args.happy_hour)
        print(f"pinastats: {kept}", file=sys.stderr, flush=True)
    try:
        server = BoardServer(board, args.port, coach=not args.no_coach)
    except OSError as exc:
        fail(f"--port {args.port}: cannot serve there ({exc.strerror or exc})")
    what = "My table" if args.table else f"{' vs '.join(session.names)}, seed {session.seed}"
    print(f"pinastats: playing {what} at http://127.0.0.1:{args.port}/ (Ctrl-C to stop)",
          file=sys.stderr, flush=True)  # fmt: skip
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        server.session.close()
    return 0
