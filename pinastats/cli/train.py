"""``pinastats value-data``, ``train`` and ``ship-network``: the learned evaluator's networks.

``value-data`` plays the games of a round of :mod:`pinastats.value.recipe`
and labels their positions by play-outs, one Parquet file per part (a part
already written is kept). ``train`` fits one network per player count on
those files (PyTorch: the ``[train]`` extra) with progress on stderr, early
stopping on held-out games, and writes the weights file and the learning
curves. ``ship-network`` writes the weights file the tools play with from the
last round of policy iteration (:mod:`pinastats.value.rounds`) of each player
count given, with the provenance of every round.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import Any

from pinastats.cli._common import fail, positive_int
from pinastats.errors import PLAYER_COUNTS, players_text


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``value-data`` and ``train`` subcommands."""
    data = subparsers.add_parser(
        "value-data",
        help="make the value network's training positions (self-play + play-outs)",
        description=(
            "Play the games of a round of training data and label every kept position with "
            "the share of strategic play-outs each seat wins, one Parquet file per part of "
            "the round (a file already there is kept). Same round, same files."
        ),
    )
    data.add_argument("--players", type=int, choices=PLAYER_COUNTS, required=True)
    data.add_argument("--round", type=int, default=1, help="the round of data (1 or 2)")
    data.add_argument("--out", required=True, help="the folder of the Parquet files")
    data.add_argument("--workers", type=positive_int, default=None, help="threads (default: cores)")
    data.add_argument("--quiet", action="store_true", help="no progress on stderr")
    data.set_defaults(func=run_data)

    train = subparsers.add_parser(
        "train",
        help="train the value networks on value-data's files (needs the [train] extra)",
        description=(
            "Fit one network per player count on the Parquet files of value-data "
            "(positions-<n>p-*.parquet in --data), with early stopping on held-out games; "
            "write the weights file (default: the one pinastats ships) and the learning curves."
        ),
    )
    train.add_argument("--data", required=True, help="the folder of value-data's files")
    train.add_argument("--players", default="2,3,4", help="player counts to train (default 2,3,4)")
    train.add_argument("--out", default=None, help="the weights file (default: the shipped one)")
    train.add_argument("--seed", type=int, default=0, help="seed of the split and the fit")
    train.add_argument("--hidden", default="96,48", help="hidden layer widths (default 96,48)")
    train.add_argument("--figure", default=None, help="write the learning curves here (.png/.pdf)")
    train.add_argument("--patience", type=positive_int, default=8,
                       help="epochs without a better held-out loss before stopping")  # fmt: skip
    train.add_argument("--quiet", action="store_true", help="no progress on stderr")
    train.set_defaults(func=run_train)

    ship = subparsers.add_parser(
        "ship-network",
        help="write the weights file from rounds of policy iteration, with their provenance",
        description=(
            "Write a weights file (default: the one pinastats ships): the networks of --start, "
            "each player count of --use replaced by the last round of its chain of policy "
            "iteration (benchmarks/policy_iteration.py's round-R-Np.npz files, in order). The "
            "provenance keeps --start's and adds every round's command, seed, label files and "
            "their digests, the fit's metrics, each file's SHA-256, the SHA-256 of every "
            "network's weights and this command."
        ),
    )
    ship.add_argument(
        "--use",
        action="append",
        required=True,
        metavar="N=ROUND1.npz,ROUND2.npz",
        help="a player count and its rounds, first to last (repeat per count)",
    )
    ship.add_argument(
        "--start", default=None, help="the weights the rounds started from (default: shipped)"
    )
    ship.add_argument("--out", default=None, help="the weights file (default: the shipped one)")
    ship.set_defaults(func=run_ship)


def _ints(text: str, what: str) -> list[int]:
    try:
        values = [int(t) for t in text.split(",") if t.strip()]
    except ValueError:
        fail(f"{what} must be whole numbers separated by commas, got {text!r}")
    if not values:
        fail(f"{what}: give at least one number, got {text!r}")
    return values


def run_data(args: argparse.Namespace) -> int:
    """Make the files of a round of training data."""
    from pinastats.value.recipe import make_round

    folder = Path(args.out)
    if folder.exists() and not folder.is_dir():
        fail(f"--out {args.out!r} is a file; give a folder")
    files = make_round(args.players, args.round, folder, workers=args.workers,
                       progress=not args.quiet)  # fmt: skip
    for path in files:
        print(path)
    return 0


def run_train(args: argparse.Namespace) -> int:
    """Train the networks and write the weights file."""
    from pinastats.agents.network import network_path
    from pinastats.value.train import train_files

    players = _ints(args.players, "--players")
    bad = [n for n in players if n not in PLAYER_COUNTS]
    if bad:
        fail(f"--players: player counts are {players_text()}, got {bad[0]}")
    hidden = _ints(args.hidden, "--hidden")
    if any(h < 1 for h in hidden):
        fail(f"--hidden: widths must be at least 1, got {args.hidden!r}")
    folder = Path(args.data)
    if not folder.is_dir():
        fail(f"--data {args.data!r} is not a folder (make one with pinastats value-data)")
    files = {n: sorted(folder.glob(f"positions-{n}p-*.parquet")) for n in players}
    missing = [n for n, f in files.items() if not f]
    if missing:
        fail(f"no positions-{missing[0]}p-*.parquet in {args.data!r} (pinastats value-data "
             f"--players {missing[0]} --out {args.data})")  # fmt: skip
    out = network_path() if args.out is None else Path(args.out)
    command = "pinastats train " + " ".join(shlex.quote(a) for a in sys.argv[2:])
    train_files(files, out, hidden=hidden, seed=args.seed, command=command.strip(),
                figure=args.figure, stream=None if args.quiet else sys.stderr,
                patience=args.patience)  # fmt: skip
    print(f"weights written to {out}")
    return 0


def _chains(items: list[str]) -> dict[int, list[Path]]:
    """``--use N=FILE,FILE`` items as player count → round files, each checked."""
    chains: dict[int, list[Path]] = {}
    for item in items:
        count, sep, names = item.partition("=")
        if not sep or not count.strip().isdigit() or int(count) not in PLAYER_COUNTS:
            fail(f"--use: give N=ROUND1.npz,ROUND2.npz with N a player count "
                 f"({players_text()}), got {item!r}")  # fmt: skip
        n = int(count)
        if n in chains:
            fail(f"--use: {n} players given twice")
        files = [Path(f.strip()) for f in names.split(",") if f.strip()]
        if not files:
            fail(f"--use: no round files for {n} players in {item!r}")
        for path in files:
            if not path.is_file():
                fail(f"--use: no weights file at {str(path)!r}")
        chains[n] = files
    return chains


def run_ship(args: argparse.Namespace) -> int:
    """Write the weights file from the last round of each chain."""
    from pinastats.agents.network import network_path
    from pinastats.value.rounds import ship_networks

    chains = _chains(args.use)
    start = network_path() if args.start is None else Path(args.start)
    if not start.is_file():
        fail(f"--start: no weights file at {str(start)!r}")
    out = network_path() if args.out is None else Path(args.out)
    words = [w for u in args.use for w in ("--use", u)]
    words += [w for flag, v in (("--start", args.start), ("--out", args.out)) if v
              for w in (flag, v)]  # fmt: skip
    command = " ".join(["pinastats", "ship-network", *(shlex.quote(w) for w in words)])
    provenance = ship_networks(start, chains, out, command=command)
    for n in sorted(chains):
        rounds = provenance["policy_iteration"][str(n)]["rounds"]
        print(f"{n} players: round {rounds[-1].get('round', len(rounds))} of "
              f"{len(rounds)} ({chains[n][-1].name}), weights "
              f"{provenance['weights_sha256'][str(n)][:12]}")  # fmt: skip
    print(f"weights written to {out}")
    return 0
