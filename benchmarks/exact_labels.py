"""The learned evaluator against perfect play: today's network, and networks taught by exact labels.

    python benchmarks/exact_labels.py --log studies/perfect/boards.jsonl \
        --labels studies/perfect/labels --out studies/exact-labels.json

Reads the exact labels of the yardstick's survey (``benchmarks/perfect_yardstick.py``):
the turn starts of its graded games (every agent from ``random`` to ``perfect``)
and of its labelled boards (``--labels``: games between agents drawn from
``random`` to ``perfect``), each with the mover's exact chance
(:func:`pinastats.value.exact.exact_positions`). The boards are split three
ways: ``--test`` boards no network here is fitted or stopped on, ``--valid``
boards whose positions stop the training (whole boards held out), and the rest
to train on. Measures the network the tools play with on the test boards, then
fits networks to the exact labels of the first ``--curve`` training boards
(a seeded order, so each set holds the smaller ones: a learning curve over
boards) and, on every training board, one network of each ``--widths``. Each
network is measured on the test positions (mean absolute error, bias, RMSE,
calibration) and on the choices of ``--decisions`` positions of each of the
``--decision-boards`` (every way a turn can end valued exactly and by the
network: the error on the differences, how often the best way agrees, the
exact loss of the network's best way; :func:`~pinastats.value.exact.decision_accuracy`,
which solves those boards once, in memory). The weights of the ``--hidden``
network fitted on every training board (the candidate: the width the speed
targets allow), with its provenance, go to ``--net`` (not installed); every figure, with the
command, seed, sizes, data digests and the load average, to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from pinastats.agents.network import save_networks
from pinastats.value.exact import (
    DECISION_BOARDS,
    TEST_BOARDS,
    VALID_BOARDS,
    board_of,
    decision_accuracy,
    exact_accuracy,
    exact_positions,
    on_boards,
)
from pinastats.value.train import fit

TEST = ",".join(map(str, TEST_BOARDS))
VALID = ",".join(map(str, VALID_BOARDS))


def _load() -> float:
    return round(os.getloadavg()[0], 2)


def _boards(text: str) -> list[int]:
    return [int(b) for b in text.split(",") if b]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--log", type=Path, default=None, help="a yardstick survey's log")
    parser.add_argument("--labels", type=Path, default=None, help="a folder of labelled boards")
    parser.add_argument("--boards", type=int, default=None,
                        help="use the boards below this number only (default: all)")  # fmt: skip
    parser.add_argument("--test", default=TEST, help="test boards (never trained or stopped on)")
    parser.add_argument("--valid", default=VALID, help="boards that stop the training")
    parser.add_argument("--curve", default="8,16,32,all", help="training boards per network")
    parser.add_argument("--widths", nargs="*", default=["256,128"],
                        help="hidden layers of networks fitted on all training boards")  # fmt: skip
    parser.add_argument("--hidden", default="96,48", help="hidden layers along the curve")
    parser.add_argument("--decision-boards", default=",".join(map(str, DECISION_BOARDS)))
    parser.add_argument("--decisions", type=int, default=100, help="positions a decision board")
    parser.add_argument("--epochs", type=int, default=200, help="most epochs a network")
    parser.add_argument("--seed", type=int, default=37)
    parser.add_argument("--net", type=Path, default=Path(tempfile.gettempdir()) / "exact-net.npz")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    started = time.perf_counter()
    command = "python benchmarks/exact_labels.py " + " ".join(sys.argv[1:])
    test, valid = _boards(args.test), _boards(args.valid)
    upto = None if args.boards is None else range(args.boards)
    everything = exact_positions(args.log, upto, labels=args.labels)
    boards = sorted({int(board_of(g)) for g in everything.game})
    train = [b for b in boards if b not in test and b not in valid]
    order = [train[k] for k in np.random.default_rng(args.seed).permutation(len(train))]
    held, stop = on_boards(everything, test), on_boards(everything, valid)
    print(f"{len(everything):,} positions on {len(boards)} boards: {len(train)} to train on, "
          f"validation {valid} ({len(stop):,}), test {test} ({len(held):,})")  # fmt: skip
    in_use = exact_accuracy(held)
    print(f"network in use on the test boards: {json.dumps(in_use)}  [load {_load()}]")
    runs: list[dict[str, Any]] = []
    plans = [(len(train) if n == "all" else int(n), args.hidden) for n in args.curve.split(",")]
    plans += [(len(train), w) for w in args.widths if w != args.hidden]
    with tempfile.TemporaryDirectory() as folder:
        paths: list[Path] = []
        for k, (count, hidden_text) in enumerate(plans):
            hidden = [int(h) for h in hidden_text.split(",")]
            chosen = sorted(order[:count])
            training = on_boards(everything, chosen)
            t = time.perf_counter()
            result = fit([training], validation=[stop], hidden=hidden, seed=args.seed,
                         epochs=args.epochs, stream=sys.stderr)  # fmt: skip
            seconds = time.perf_counter() - t
            path = Path(folder) / f"net-{k}.npz"
            provenance = {
                "command": command, "seed": args.seed, "hidden": hidden,
                "labels": "exact (perfect play, solved boards)",
                "data": {"2": [{"boards": chosen, "positions": len(training),
                                "digest": training.digest()}]},
                "validation": {"boards": valid, "digest": stop.digest()},
                "metrics": {"2": result.metrics},
            }  # fmt: skip
            save_networks(path, {2: result.network}, provenance)
            paths.append(path)
            accuracy = exact_accuracy(held, path)
            runs.append({"boards": count, "hidden": hidden, "positions": len(training),
                         "digest": training.digest(), "fit": result.metrics,
                         "seconds": round(seconds), "test": accuracy,
                         "load": _load()})  # fmt: skip
            print(f"{count} boards ({len(training):,} positions), {hidden}: test "
                  f"{json.dumps(accuracy)}, fitted in {seconds:.0f} s  [load {_load()}]",
                  flush=True)  # fmt: skip
        decisions = decision_accuracy(args.log, _boards(args.decision_boards), labels=args.labels,
                                      paths=[None, *paths], per_board=args.decisions,
                                      seed=args.seed)  # fmt: skip
        names = ["in use", *(f"{n} boards, {h}" for n, h in plans)]
        decisions["network"] = names
        print(f"choices on boards {args.decision_boards} [load {_load()}]")
        print(decisions.to_string(index=False, float_format=lambda x: f"{x:.4f}"))
        rows = decisions.to_dict("records")
        for run, row in zip(runs, rows[1:], strict=True):
            run["decisions"] = {k: v for k, v in row.items() if k != "network"}
        # the candidate: every training board, at the width the speed targets allow
        best = plans.index((len(train), args.hidden))
        args.net.write_bytes(paths[best].read_bytes())
        print(f"wrote the network of {plans[best]} to {args.net}")
    if args.out:
        report = {
            "command": command, "seed": args.seed, "epochs": args.epochs,
            "test_boards": test, "valid_boards": valid,
            "train_boards": train, "positions": len(everything),
            "test_positions": len(held), "test_digest": held.digest(),
            "valid_positions": len(stop), "valid_digest": stop.digest(),
            "decision_boards": _boards(args.decision_boards), "decisions": args.decisions,
            "in_use": {**in_use, "decisions": {k: v for k, v in rows[0].items() if k != "network"}},
            "runs": runs, "candidate": best,
            "seconds": round(time.perf_counter() - started), "load": _load(),
            "written": time.strftime("%Y-%m-%d"),
        }  # fmt: skip
        args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
