"""The findings again on strong play: ``value`` self-play beside ``strategic`` self-play.

    python benchmarks/strong_play.py --run DIR              # the runs, as JSON files in DIR
    python benchmarks/strong_play.py --summary DIR          # DIR's runs -> data/strong-play.json
    python benchmarks/strong_play.py --tables               # the docs' tables, as Markdown
    python benchmarks/strong_play.py --update docs/strong-play.md docs/headlines.md  # in place
    python benchmarks/strong_play.py --figures docs         # the figures of the docs and the site

Each run is a ``pinastats`` command with ``--format json`` written to ``DIR``; the
same commands with ``strategic`` give the left-hand columns. Sizes: 40,000 games a
player count for the seats and the what-if rows (95% intervals within ±0.5 points),
the sequential search's 100,000 games for the starting scores, then 40,000 games at
each fairest vector to measure it within ±0.5 points. ``--tables`` and ``--figures``
read the shipped summary (``pinastats.balance.strong``), so the docs, the notebooks
and the reports show the same numbers.
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
from pathlib import Path
from typing import Any

from pinastats.balance.strong import (
    AGENTS,
    data_path,
    doc_tables,
    markdown,
    strong_play,
    update_tables,
)

PLAYERS = (2, 3, 4)
SEEDS = {"seats": 2901, "starting scores": 2902, "coasters": 2903, "what-if": 2904, "check": 2905}
CHECKS: dict[str, dict[int, tuple[int, ...]]] = {
    "value": {3: (1, 4, 5), 4: (1, 4, 5, 5)},
    "strategic": {4: (1, 1, 2, 3)},
}
"""Vectors measured again at 40,000 games: each agent's fairest (2 and 3 players: the
rulebook's for ``strategic``, measured by the seat runs), and each other's, crossed."""
CROSS: dict[str, dict[int, tuple[int, ...]]] = {
    "value": {4: (1, 1, 2, 3)},
    "strategic": {3: (1, 4, 5), 4: (1, 4, 5, 5)},
}


def _scores(v: tuple[int, ...]) -> str:
    return ",".join(map(str, v))


def commands() -> dict[str, list[str]]:
    """The file name of each run and its command line."""
    out: dict[str, list[str]] = {}
    for a in AGENTS:
        for n in PLAYERS:
            out[f"sim-{a}-{n}p.json"] = ["pinastats", "simulate", "--agents", ",".join([a] * n),
                                         "--games", "40000", "--seed", "2901", "--format",
                                         "json", "--quiet"]  # fmt: skip
            out[f"sim-{a}-{n}p-hh.json"] = [*out[f"sim-{a}-{n}p.json"], "--happy-hour"]
            out[f"balance-{a}-{n}p.json"] = ["pinastats", "balance", "--players", str(n),
                                             "--agent", a, "--games", "100000", "--seed",
                                             "2902", "--format", "json", "--quiet"]  # fmt: skip
        out[f"coasters-{a}-2p.json"] = ["pinastats", "balance", "--players", "2", "--agent", a,
                                        "--coasters", "--seed", "2903", "--format", "json",
                                        "--quiet"]  # fmt: skip
        for table in (CHECKS, CROSS):
            for n, v in table[a].items():
                out[f"fair-{a}-{n}p-{_scores(v).replace(',', '-')}.json"] = [
                    "pinastats", "simulate", "--agents", ",".join([a] * n), "--starting-scores",
                    _scores(v), "--games", "40000", "--seed", "2905", "--format", "json",
                    "--no-progress",
                ]  # fmt: skip
    out["whatif-value-2p.json"] = ["pinastats", "balance", "--players", "2", "--what-if",
                                   "--agent", "value", "--fallback", "strategic", "--skill",
                                   "value:strategic,strategic:ev", "--games", "40000", "--seed",
                                   "2904", "--format", "json", "--quiet"]  # fmt: skip
    out["whatif-strategic-2p.json"] = ["pinastats", "balance", "--players", "2", "--what-if",
                                       "--agent", "strategic", "--skill", "none", "--games",
                                       "40000", "--seed", "2904", "--format", "json",
                                       "--quiet"]  # fmt: skip
    return out


def run(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, command in commands().items():
        if not (folder / name).exists():
            print(" ".join(command), flush=True)
            text = subprocess.run(command, check=True, capture_output=True, text=True).stdout
            (folder / name).write_text(text, encoding="utf-8")


def _load(folder: Path, name: str) -> Any:
    return json.loads((folder / name).read_text(encoding="utf-8"))


def _checked(folder: Path, a: str, n: int, vector: tuple[int, ...], role: str) -> dict[str, Any]:
    """A starting-score vector measured by its 40,000-game run (the rulebook's: the seat run)."""
    if vector == tuple(range(1, n + 1)):
        check = _load(folder, f"sim-{a}-{n}p.json")
    else:
        check = _load(folder, f"fair-{a}-{n}p-{'-'.join(map(str, vector))}.json")
    assert check.get("starting_scores", list(vector)) == list(vector)
    rates = check["position_win_rate"]
    return {
        "agent": a, "players": n, "role": role, "starting_scores": list(vector),
        "check_games": check["games"],
        "seat_win_rates": [r["win_rate"] for r in rates],
        "seat_intervals": [[r["ci_low"], r["ci_high"]] for r in rates],
        "max_deviation": max(abs(r["win_rate"] - 1 / n) for r in rates),
    }  # fmt: skip


def summary(folder: Path) -> dict[str, Any]:
    """The shipped summary of ``folder``'s runs (``data/strong-play.json``)."""
    seats, ends, starts, coasters, what = [], [], [], [], []
    for a in AGENTS:
        for n in PLAYERS:
            for hh in (False, True):
                run = _load(folder, f"sim-{a}-{n}p{'-hh' if hh else ''}.json")
                assert run["agents"] == [a] * n
                assert run["happy_hour"] == hh
                for r in run["position_win_rate"]:
                    seats.append({"agent": a, "players": n, "happy_hour": hh,
                                  "position": r["position"], "games": run["games"],
                                  "win_rate": r["win_rate"], "ci_low": r["ci_low"],
                                  "ci_high": r["ci_high"]})  # fmt: skip
                ends.append({"agent": a, "players": n, "happy_hour": hh, "games": run["games"],
                             "mean_rounds": run["mean_rounds"],
                             **{k: run["end_reasons"][k] for k in
                                ("pina_coladice", "score", "tokens", "tie_break")}})  # fmt: skip
            search = _load(folder, f"balance-{a}-{n}p.json")
            for role in ("rulebook", "fairest"):
                vector = tuple(search[role]["starting_scores"])
                row = _checked(folder, a, n, vector, role)
                starts.append(row | {"search_games": search[role]["games"],
                                     "within_precision": search["within_precision"]})  # fmt: skip
            if n in CROSS[a]:
                row = _checked(folder, a, n, CROSS[a][n], "other's fairest")
                starts.append(row | {"search_games": 0, "within_precision": False})
        keep = (
            "coaster",
            "combination",
            "side_a",
            "side_b_1",
            "side_b_2",
            "taken",
            "effect",
            "effect_low",
            "effect_high",
            "new_side_a",
            "new_side_b_1",
            "new_side_b_2",
        )
        for c in _load(folder, f"coasters-{a}-2p.json")["coasters"]:
            coasters.append({"agent": a, **{k: c[k] for k in keep}})
        for r in _load(folder, f"whatif-{a}-2p.json")["variants"]:
            what.append({"run": a, **r})  # NaN is already None in the CLI's JSON
    cmds = commands()
    return {
        "about": {
            "strong_agent": "value",
            "baseline_agent": "strategic",
            "written": datetime.date.today().isoformat(),
            "seeds": SEEDS,
            "commands": {name: " ".join(c) for name, c in cmds.items()},
            "reproduce": "python benchmarks/strong_play.py --run DIR && "
            "python benchmarks/strong_play.py --summary DIR",
        },
        "seats": seats,
        "ends": ends,
        "starting_scores": starts,
        "coasters": coasters,
        "what_if": what,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--run", type=Path, metavar="DIR", help="play the runs missing in DIR")
    parser.add_argument("--summary", type=Path, metavar="DIR", help="DIR's runs -> the data file")
    parser.add_argument("--tables", action="store_true", help="print the docs' tables")
    parser.add_argument(
        "--update",
        type=Path,
        nargs="+",
        metavar="FILE",
        help="rewrite the tables after each FILE's markers",
    )
    parser.add_argument("--figures", type=Path, metavar="DIR", help="write the figures to DIR")
    args = parser.parse_args()
    if args.run:
        run(args.run)
    if args.summary:
        text = json.dumps(summary(args.summary), indent=1, allow_nan=False) + "\n"
        tmp = data_path().with_suffix(".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(data_path())  # whole or not at all
        print(f"wrote {data_path()}")
    if args.tables:
        print(
            "\n\n".join(
                f"<!-- table: {k} -->\n{markdown(v)}" for k, v in doc_tables(strong_play()).items()
            )
        )
    for path in args.update or ():
        text = update_tables(path.read_text(encoding="utf-8"), doc_tables(strong_play()))
        path.write_text(text, encoding="utf-8")
        print(f"updated {path}")
    if args.figures:
        from pinastats.report.strong_figures import write_figures

        for path in write_figures(strong_play(), args.figures):
            print(f"wrote {path}")


if __name__ == "__main__":
    main()
