"""``pinastats play --serve``: play Piña Coladice in a browser, the coach beside you.

Serves the board of the JupyterLab widget (``pinastats.play(...)`` in a notebook)
as a web page until interrupted (Ctrl-C): on 127.0.0.1, or for the phones around a
table on the computer's network address (``--lan``) or another (``--host``), with the
address, its token and a QR code printed. The seats are checked before anything is
served (an agent that cannot play the game is refused in one line, as ``simulate``
refuses it); the server then answers at once, and while the engine compiles (the
first run on a computer) its page says so with the compile's progress.
"""

from __future__ import annotations

import argparse
import sys
import threading
from typing import Any, TextIO

from pinastats.cli._common import (
    add_position_options,
    fail,
    load_position,
    non_negative_int,
    positive_int,
)

_EXAMPLE = "pinastats play --serve --seats human,coach --seed 7"
KERNELS = ["dice", "agents", "rules", "turn", "coach", "value"]
"""The kernel groups the board needs (:mod:`pinastats._warmup`)."""


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``play`` subcommand."""
    parser = subparsers.add_parser(
        "play",
        help="play in a browser against the agents, with the coach's advice",
        description=(
            "Play a game of Piña Coladice in a web page served on 127.0.0.1 (or, with --lan, "
            "on this computer's network address for the phones at a table): click dice to "
            "hold them, roll, stop, and click a lit coaster to place; the coach's panel shows "
            "every keep and placement with the chance to win. In JupyterLab, pinastats.play() "
            "shows the same board in a notebook."
        ),
        epilog=f"example: {_EXAMPLE}",
    )
    parser.add_argument("--serve", action="store_true", help="serve the board as a web page")
    parser.add_argument("--port", type=positive_int, default=8765, help="the port (8765)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--lan",
        action="store_true",
        help="serve on this computer's network address, for phones on the same Wi-Fi "
        "(prints the address with its token and a QR code)",
    )
    where.add_argument(
        "--host",
        metavar="ADDRESS",
        default=None,
        help="serve on this IP address of the computer (default 127.0.0.1)",
    )
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


def _seats(args: argparse.Namespace, start: Any) -> list[Any]:
    """The seats, each agent resolved and checked against the game it will play.

    An agent that cannot play the game (``perfect`` with three players, Happy Hour or
    a Happy Hour position) is refused here, by the check ``simulate`` makes
    (:func:`~pinastats.agents.builtin.check_plays`), before anything is served.
    """
    from pinastats.agents.builtin import check_plays
    from pinastats.agents.loading import resolve_agent
    from pinastats.game.config import GameConfig
    from pinastats.game.rules import Rules
    from pinastats.tabletop.session import HUMAN

    seats = [s.strip() for s in args.seats.split(",") if s.strip()]
    if not 2 <= len(seats) <= 4:
        fail(f"--seats: a game has 2 to 4 seats, got {len(seats)}: {args.seats!r:.80}")
    if start is not None:
        config = start.config
    else:
        config = GameConfig(players=len(seats), rules=Rules(happy_hour=args.happy_hour))
    if config.players != len(seats):
        fail(f"--seats: the position is for {config.players} players, got {len(seats)} seats")
    chosen: list[Any] = []
    for seat in seats:
        if seat == HUMAN or seat.startswith(HUMAN + ":"):
            chosen.append(seat)
            continue
        agent = resolve_agent(seat)
        check_plays(agent, config)
        chosen.append(agent)
    return chosen


def _address(args: argparse.Namespace) -> str:
    """The address to serve: ``--host``, the network's (``--lan``) or 127.0.0.1."""
    from pinastats.tabletop.server import DEFAULT_HOST, check_host, lan_address

    if args.lan:
        return lan_address()
    return DEFAULT_HOST if args.host is None else check_host(args.host)


def announce(server: Any, out: TextIO) -> None:
    """Print where the board is: its address with the token, and a QR code off 127.0.0.1."""
    print(f"pinastats: serving the board at {server.url} (Ctrl-C to stop)", file=out, flush=True)
    if server.open_page:
        return
    try:
        import segno
    except ImportError:
        print("pinastats: (a QR code of the address needs segno: pip install 'pinastats[play]')",
              file=out, flush=True)  # fmt: skip
        return
    print("pinastats: on a phone on the same Wi-Fi, scan this code (or type the address):",
          file=out, flush=True)  # fmt: skip
    segno.make(server.url, error="m").terminal(out=out, compact=True)
    out.flush()


def run(args: argparse.Namespace) -> int:
    """Check the game, serve at once, compile if needed, then serve the game until Ctrl-C."""
    if not args.serve:
        fail("say --serve to serve the board in a browser (in a notebook: pinastats.play())")
    if args.port > 65535:
        fail(f"--port must be at most 65535, got {args.port}")
    from pinastats._warmup import ensure_warm
    from pinastats.tabletop.server import BoardServer, StartUp

    host = _address(args)
    start = None
    if args.state is not None or args.position is not None:  # instead of a deal
        start = load_position(args, happy_hour=args.happy_hour)
    seats = _seats(args, start)

    starting = StartUp(echo=sys.stderr)
    try:
        server = BoardServer(None, args.port, coach=not args.no_coach, host=host,
                             starting=starting)  # fmt: skip
    except OSError as exc:
        fail(f"--port {args.port} on {host}: cannot serve there ({exc.strerror or exc})")
    announce(server, sys.stderr)
    thread = threading.Thread(target=server.serve_forever, daemon=True, name="pinastats-serve")
    thread.start()
    try:
        try:
            ensure_warm(KERNELS, stream=starting)
        except Exception as exc:
            starting.error = f"the engine did not compile: {type(exc).__name__}: {exc}"
            raise
        board = _session(args, seats, start)
        server.ready(board)
        names = getattr(board, "names", ())
        what = "My table" if args.table else f"{' vs '.join(names)}, seed {board.seed}"
        print(f"pinastats: the board is ready: {what}", file=sys.stderr, flush=True)
        while thread.is_alive():
            thread.join(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
        server.server_close()
        server.close_session()
    return 0


def _session(args: argparse.Namespace, seats: list[Any], start: Any) -> Any:
    """The game served: a deal, the position, or My table."""
    from pinastats.tabletop.session import PlaySession

    session = PlaySession(seats, seed=args.seed, happy_hour=start is None and args.happy_hour,
                          position=start)  # fmt: skip
    if not args.table:
        return session
    from pinastats.tabletop.table import resume

    session.close()
    board, kept = resume(back=session.again, happy_hour=args.happy_hour)
    print(f"pinastats: {kept}", file=sys.stderr, flush=True)
    return board
