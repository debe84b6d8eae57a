"""Policy iteration at full size: ``value`` labels its own play, is trained on, and plays.

    python benchmarks/policy_iteration.py --players 2 3 4 --rounds 3 \
        --folder /tmp/pi --out studies/policy-iteration.json

The recipe is :mod:`pinastats.value.rounds`: a round labels ``value``'s own
play with the network of the round before, trains that network on from there,
and plays the new network against the old one and both against ``strategic``;
the rounds of a player count stop when a round beats the one before by less
than one point above the fair share. This script runs it for each
``--players`` and prints; the networks (with their provenance) and the label
files stay in ``--folder`` (a run that stops resumes), every figure, with the
seeds and the load average, goes to ``--out``.

Other steps:

    python benchmarks/policy_iteration.py table      # --out's rounds as docs/value.md shows them
    python benchmarks/policy_iteration.py match --players 2 --networks NEW.npz OLD.npz
    python benchmarks/policy_iteration.py exact --networks in-use ROUND.npz ...
    python benchmarks/policy_iteration.py boards --games 200 --networks NET.npz ...

``match`` plays two weights files as a round is played; ``exact`` measures
two-player networks against the exact values of the solved boards of
``benchmarks/exact_labels.py``; ``boards`` plays ``value`` with each network
against ``strategic`` on the solved boards where ``perfect`` played its duels.
Shipping the last round of a chain is a package command:
``pinastats ship-network --use 2=ROUND-1.npz,ROUND-2.npz``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from pinastats.agents.weights import NetworkAgent
from pinastats.value import rounds as R
from pinastats.value.exact import (
    DECISION_BOARDS,
    TEST_BOARDS,
    decision_accuracy,
    exact_accuracy,
    exact_positions,
    on_boards,
)

SURVEY = Path("studies/perfect/boards.jsonl")
"""The yardstick's survey log: the solved boards, their graded games and duels."""
LABELS = Path("studies/perfect/labels")
"""The yardstick's labelled boards."""


def _command() -> str:
    return " ".join(["python", "benchmarks/policy_iteration.py", *sys.argv[1:]])


def _settings(args: argparse.Namespace) -> R.Settings:
    return R.Settings(playouts=args.playouts, parts=args.parts, scale=args.scale,
                      games=args.games, workers=args.workers)  # fmt: skip


def run(args: argparse.Namespace) -> None:
    """Every round of every player count, as the module text says."""
    import os

    report: dict[str, Any] = json.loads(args.out.read_text()) if args.out.is_file() else {}
    report["about"] = {
        "command": _command(), "playouts": args.playouts, "parts": args.parts,
        "scale": args.scale, "games": args.games, "label_seed": R.LABEL_SEED,
        "play_seed": R.PLAY_SEED, "labelled_games": {str(n): R.GAMES[n] for n in args.players},
        "machine": f"{os.cpu_count()} cores",
    }  # fmt: skip

    def save() -> None:
        args.out.write_text(json.dumps(report, indent=1) + "\n")

    settings = _settings(args)
    for n in args.players:
        done = report.setdefault(str(n), {"rounds": []})["rounds"]
        R.run_rounds(n, args.rounds, args.start or None, args.folder, done, settings,
                     command=report["about"]["command"], stream=sys.stderr, saved=save)  # fmt: skip
    save()


def exact(args: argparse.Namespace) -> None:
    """Two players: each of ``--networks`` against the exact values of boards it never saw.

    The test positions and the choices (100 turn starts on each decision board,
    seed 37) of ``benchmarks/exact_labels.py``, so that its table and this one
    are of the same positions.
    """
    held = on_boards(exact_positions(SURVEY, range(80), labels=LABELS), TEST_BOARDS)
    paths: list[Path | None] = [None if p == "in-use" else Path(p) for p in args.networks]
    rows: list[dict[str, Any]] = [
        {"network": str(p or "in use"), "test": exact_accuracy(held, p)} for p in paths
    ]
    choices = decision_accuracy(SURVEY, DECISION_BOARDS, labels=LABELS, paths=paths,
                                per_board=100, seed=37)  # fmt: skip
    for row, choice in zip(rows, choices.to_dict("records"), strict=True):
        row["decisions"] = choice
    out = {"command": _command(), "test_boards": list(TEST_BOARDS), "test_positions": len(held),
           "test_digest": held.digest(), "decision_boards": list(DECISION_BOARDS),
           "networks": rows, "load": R.load()}  # fmt: skip
    args.exact_out.write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps(rows, indent=1))


def match(args: argparse.Namespace) -> None:
    """``--networks NEW OLD``: NEW in one seat against OLD (seed ``PLAY_SEED + 90,000``)."""
    n = args.players[0]
    new_path, old_path = (Path(p) for p in args.networks)
    new, old = NetworkAgent(new_path, new_path.stem), NetworkAgent(old_path, old_path.stem)
    result = R.duel(new, [old] * (n - 1), args.games, R.PLAY_SEED + 90_000, workers=args.workers)
    print(json.dumps({"players": n, "new": new_path.name, "old": old_path.name,
                      "seed": R.PLAY_SEED + 90_000, **result}, indent=1))  # fmt: skip


def boards(args: argparse.Namespace) -> None:
    """``value`` with each of ``--networks`` against ``strategic`` on the studied solved boards.

    The boards on which ``perfect`` played its duels against ``strategic``
    (the survey log, seed 36): ``--games`` games a board, seats swapped every
    other game, the same games for every network
    (:func:`~pinastats.value.rounds.duel_on_boards`). Beside ``perfect``'s score
    over its duels there (``data/perfect-play.json``).
    """
    studied = R.studied_boards(SURVEY)
    out: dict[str, Any] = {"boards": sorted(studied), "games_a_board": args.games,
                           "seed": R.BOARDS_SEED, "networks": {}}  # fmt: skip
    for name in args.networks:
        row = R.duel_on_boards(NetworkAgent(Path(name)), "strategic", studied, args.games)
        out["networks"][Path(name).name] = {k: row[k] for k in ("share", "low", "high", "games")}
        print(f"{Path(name).name}: {R.percent(row)} over {row['games']} games "
              f"(load {R.load()})", flush=True)  # fmt: skip
    perfect = json.loads(Path("data/perfect-play.json").read_text())["head_to_head"]
    out["perfect"] = next(h for h in perfect if h["opponent"] == "strategic")
    out["command"] = _command()
    args.exact_out.write_text(json.dumps(out, indent=1) + "\n")


def table(args: argparse.Namespace) -> None:
    """Print the rounds of ``--out`` as the Markdown table of ``docs/value.md``."""
    print(R.rounds_table(json.loads(args.out.read_text())), end="")


STEPS = {"run": run, "table": table, "exact": exact, "match": match, "boards": boards}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("step", nargs="?", default="run", choices=tuple(STEPS))
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--rounds", type=int, default=3, help="at most this many rounds")
    parser.add_argument(
        "--folder", type=Path, default=Path("policy-iteration"), help="labels and networks"
    )
    parser.add_argument("--out", type=Path, default=Path("studies/policy-iteration.json"))
    parser.add_argument("--start", default="", help="round 0's weights (default: the tools')")
    parser.add_argument("--playouts", type=int, default=32, help="value play-outs a label")
    parser.add_argument("--parts", type=int, default=2, help="runs (seeds) per setting")
    parser.add_argument("--scale", type=float, default=1.0, help="times the labelled games")
    parser.add_argument("--games", type=int, default=2000, help="games per setting and match")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument(
        "--networks", nargs="*", default=["in-use"], help="(exact) weights files, or in-use"
    )
    parser.add_argument("--exact-out", type=Path, default=Path("policy-iteration-exact.json"),
                        help="(exact, boards) where their figures go")  # fmt: skip
    args = parser.parse_args()
    STEPS[args.step](args)


if __name__ == "__main__":
    main()
