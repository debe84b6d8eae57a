"""Perfect play as the yardstick, at full scale: every agent's errors, its games against
perfect, the reviewers compared, and the two-player findings on solved boards.

    python benchmarks/perfect_yardstick.py --study 20 --boards 20 --starts 1,1 1,3 \
        --log studies/perfect/boards.jsonl --out data/perfect-play.json
    python benchmarks/perfect_yardstick.py --tokens 3 --study 2 --games 2 --duels 4   # a quick look

Deals boards from ``--seed`` (:func:`pinastats.solve.survey.board_seeds`) and
solves each once, on a pool of ``--processes`` processes (each board on one
thread, so the games of one board are played while another is solved), or on
Dask with ``--engine dask`` (a local cluster) or ``--scheduler ADDRESS``, one
task a board. The
first ``--study`` boards are studied while solved
(:func:`pinastats.records.yardstick.study_board`): ``--games`` self-play games
of each agent graded exactly, ``--duels`` games of ``perfect`` against each
opponent, the first ``--reviewed`` games of each agent reviewed by the network
too. Boards up to ``--boards`` are solved for their start and openings only.
``--starts 1,3 1,1`` solves the first ``--start-boards`` boards again with each
vector of starting scores (the fair starting scores). With ``--log`` every board
is appended to a JSON Lines file as it is done (one file per starting vector:
``boards.jsonl``, ``boards-start-1-3.jsonl``) and a run given the same file goes
on where the last one stopped. ``--labels DIR`` also labels, on each board
solved after the studied ones, the turn starts of ``--label-games`` games of
agents drawn from :data:`~pinastats.records.yardstick.LABEL_AGENTS` with their
exact chances (:func:`~pinastats.records.yardstick.label_board`, a file a board
in ``DIR``): the exact labels of the learned evaluator. Prints every table with
the load average, and writes them with the command, seed, sizes and times to ``--out`` (the file
:func:`pinastats.balance.perfect.perfect_play` reads). ``--update FILE ...``
only rewrites the tables after the ``<!-- table: perfect-... -->`` markers of
the docs from the shipped file.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import pandas as pd

from pinastats.balance.perfect import doc_tables, perfect_play, summary_data
from pinastats.balance.strong import update_tables
from pinastats.game import GameConfig, Rules
from pinastats.ratings.bradley_terry import place_against
from pinastats.ratings.document import strength_ladder
from pinastats.records.yardstick import (
    duel_table,
    error_table,
    label_board,
    perfect_survey,
    reviewer_table,
)
from pinastats.solve.survey import first_player_summary, survey

AGENTS = ["random", "greedy", "ev", "strategic", "rollout", "value", "coach",
          "coach(leaf=value,depth=2)", "perfect"]  # fmt: skip


def _load() -> str:
    return f"load {os.getloadavg()[0]:.2f}"


def _log(base: str | None, start: tuple[int, int] | None) -> Path | None:
    """The log of one starting vector: ``boards.jsonl``, ``boards-start-1-3.jsonl``."""
    if base is None:
        return None
    path = Path(base)
    if start is None:
        return path
    return path.with_name(f"{path.stem}-start-{start[0]}-{start[1]}{path.suffix}")


def _progress(label: str) -> Any:
    started = time.perf_counter()

    def report(done: int, total: int) -> None:
        spent = time.perf_counter() - started
        print(f"  {label}: {done}/{total} boards, {spent:.0f} s  [{_load()}]", file=sys.stderr,
              flush=True)  # fmt: skip

    return report


def _ladder(duels: list[Any]) -> dict[str, Any]:
    """``perfect`` placed on the strength ladder from its duels (the others' Elo held fixed)."""
    ladder = strength_ladder()
    ratings = {r["agent"]: float(r["elo"]) for r in ladder["ratings"]}
    results = [(d.opponent, d.score * d.games, d.games) for d in duels if d.opponent in ratings]
    if not results:
        return {}
    low, elo, high = place_against(ratings, results)
    return {"elo": elo, "elo_low": low, "elo_high": high, "ladder_command": ladder["command"],
            "opponents": [{"agent": a, "elo": ratings[a], "points": p, "games": n}
                          for a, p, n in results]}  # fmt: skip


@contextmanager
def _executor(args: argparse.Namespace) -> Iterator[Any]:
    """A process pool, or a Dask client (``--engine dask``, ``--scheduler``)."""
    if args.scheduler is not None or args.engine == "dask":
        from pinastats.simulation.cluster import dask_client

        with dask_client(args.processes, args.scheduler) as (client, _):
            yield client
    else:
        with ProcessPoolExecutor(args.processes) as pool:
            yield pool


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", nargs="+", default=AGENTS)
    parser.add_argument("--opponents", nargs="*", default=["strategic", "value", "coach"])
    parser.add_argument("--study", type=int, default=20, help="boards studied with games")
    parser.add_argument("--boards", type=int, default=20, help="boards solved in all")
    parser.add_argument("--games", type=int, default=10, help="self-play games a board an agent")
    parser.add_argument("--duels", type=int, default=20, help="games a board an opponent")
    parser.add_argument("--reviewed", type=int, default=2, help="games also reviewed by the net")
    parser.add_argument("--starts", nargs="*", default=[], help="other starting scores: 1,3 1,1")
    parser.add_argument("--start-boards", type=int, default=20)
    parser.add_argument("--seed", type=int, default=36)
    parser.add_argument("--tokens", type=int, default=6)
    parser.add_argument(
        "--processes",
        type=int,
        default=len(os.sched_getaffinity(0)),
        help="local processes (of the pool, or of the local Dask cluster)",
    )
    parser.add_argument(
        "--engine",
        choices=("local", "dask"),
        default="local",
        help="a local process pool, or Dask: one task a board (a local "
        "cluster of --processes workers, or --scheduler)",
    )
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="the Dask scheduler to run on (implies --engine dask); --labels "
                        "must then be a folder every worker writes to")  # fmt: skip
    parser.add_argument("--log", default=None)
    parser.add_argument("--labels", type=Path, default=None, metavar="DIR",
                        help="label the turn starts of --label-games games on each board solved "
                        "after the studied ones, a file a board in DIR (the exact labels of "
                        "the learned evaluator)")  # fmt: skip
    parser.add_argument("--label-games", type=int, default=300)
    parser.add_argument("--out", default=None)
    parser.add_argument("--update", nargs="+", type=Path, metavar="FILE",
                        help="only rewrite the perfect-play tables after each FILE's markers, "
                        "from the shipped data/perfect-play.json")  # fmt: skip
    parser.add_argument("--figures", type=Path, metavar="DIR",
                        help="with --update: draw the docs' figures into DIR too")  # fmt: skip
    args = parser.parse_args()
    if args.update:
        tables = doc_tables()
        for path in args.update:
            path.write_text(update_tables(path.read_text(encoding="utf-8"), tables),
                            encoding="utf-8")  # fmt: skip
            print(f"updated {path}")
        if args.figures:
            from pinastats.report.perfect_figures import write_figures

            for path in write_figures(perfect_play(), args.figures):
                print(f"wrote {path}")
        return
    rules = Rules(tokens=args.tokens)
    config = GameConfig(players=2, rules=rules)
    if args.log:
        Path(args.log).parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with _executor(args) as pool:
        studies = perfect_survey(
            args.study, agents=args.agents, games=args.games, opponents=args.opponents,
            duels=args.duels,
            reviewed=args.reviewed, seed=args.seed, config=config, executor=pool,
            log=_log(args.log, None), progress=_progress("studied"),
        )  # fmt: skip
        study_seconds = time.perf_counter() - started
        labels = (
            None
            if args.labels is None
            else partial(label_board, games=args.label_games, folder=args.labels, seed=args.seed)
        )
        frame = survey(max(args.boards, args.study), seed=args.seed, config=config, executor=pool,
                       log=_log(args.log, None), progress=_progress("solved"),
                       study=labels)  # fmt: skip
        # without a log the second survey does not know the studies: take them from the first
        by_board = dict(zip(studies["board"], studies["study"], strict=True))
        frame["study"] = [by_board.get(b, st) for b, st in zip(frame["board"], frame["study"],
                                                                strict=True)]  # fmt: skip
        starts: dict[tuple[int, ...], pd.DataFrame] = {}
        for text in args.starts:
            vector = tuple(int(x) for x in text.split(","))
            other = GameConfig(players=2, rules=rules, starting_scores=vector)
            starts[vector] = survey(args.start_boards, seed=args.seed, config=other, executor=pool,
                                  log=_log(args.log, (vector[0], vector[1])),
                                  progress=_progress(f"start {text}"))  # fmt: skip
    seconds = time.perf_counter() - started
    studied = frame[frame["study"].map(bool)]
    errors, duels, reviewers = error_table(studied), duel_table(studied), reviewer_table(studied)
    print(f"Loss per decision against perfect play, thousandths of a win, {len(studied)} boards "
          f"[{_load()}]")  # fmt: skip
    print(errors.to_string(index=False, float_format=lambda x: f"{x:.2f}"))
    print(f"perfect against each opponent [{_load()}]")
    for d in duels:
        print(f"  perfect vs {d.opponent}: {d.score:.1%} [{d.low:.1%}, {d.high:.1%}] over "
              f"{d.games} games (perfect vs perfect from the same seats: "
              f"{d.perfect_vs_perfect:.1%})")  # fmt: skip
    print("The network reviewer against the exact one, same games")
    print(reviewers.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    summary = first_player_summary(frame)
    print(f"First player's exact chance over {summary['boards']} boards: {summary['mean']:.2%} "
          f"[{summary['low']:.2%}, {summary['high']:.2%}], sd {summary['sd']:.2%}, "
          f"{summary['min']:.2%} to {summary['max']:.2%}")  # fmt: skip
    for vector, table in starts.items():
        s = first_player_summary(table)
        diff = table["first_chance"].to_numpy() - frame["first_chance"].to_numpy()[: len(table)]
        print(f"  starting scores {vector}: {s['mean']:.2%} [{s['low']:.2%}, {s['high']:.2%}] "
              f"over {s['boards']} boards ({diff.mean():+.2%} against the rulebook's on the same "
              "boards)")  # fmt: skip
    print(f"{seconds:.0f} s (studied boards {study_seconds:.0f} s)  [{_load()}]")
    if args.out:
        about = {
            "command": "python benchmarks/perfect_yardstick.py " + " ".join(sys.argv[1:]),
            "seed": args.seed, "tokens": args.tokens, "studied_boards": len(studied),
            "boards": len(frame), "games": args.games, "duels": args.duels,
            "reviewed": args.reviewed, "agents": args.agents, "opponents": args.opponents,
            "seconds": round(seconds), "study_seconds": round(study_seconds),
            "solve_seconds": round(float(frame["seconds"].mean()), 1),
            "processes": args.processes, "load": round(os.getloadavg()[0], 2),
            "written": time.strftime("%Y-%m-%d"),
        }  # fmt: skip
        data = summary_data(frame, starts, errors, duels, reviewers, about)
        data["ladder"] = _ladder(duels)
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
