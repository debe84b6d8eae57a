"""The findings again on strong play: ``value`` self-play beside ``strategic`` self-play.

    python benchmarks/strong_play.py --run DIR      # the runs, as JSON files
    python benchmarks/strong_play.py --tables DIR   # the side-by-side tables, as Markdown

Each run is a ``pinastats`` command with ``--format json`` written to ``DIR``; the
same commands with ``--agent strategic`` give the left-hand columns. Sizes: 40,000
games a player count for the seats (95% intervals within ±0.5 points), the
sequential search's 100,000 games for the starting scores.
"""

from __future__ import annotations

import argparse
import json
import subprocess
from pathlib import Path
from typing import Any

AGENTS = ("strategic", "value")
PLAYERS = (2, 3, 4)


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
    return out


def run(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, command in commands().items():
        if not (folder / name).exists():
            print(" ".join(command), flush=True)
            text = subprocess.run(command, check=True, capture_output=True, text=True).stdout
            (folder / name).write_text(text, encoding="utf-8")


def _ci(rate: float, low: float, high: float) -> str:
    return f"{100 * rate:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def _load(folder: Path, name: str) -> Any:
    return json.loads((folder / name).read_text(encoding="utf-8"))


def seat_table(folder: Path, suffix: str, heading: str) -> None:
    """Each seat's win rate by turn order, the two agents side by side (runs ``sim-*{suffix}``)."""
    print(f"| players | seat | `strategic`{heading} | `value`{heading} |")
    print("|---|---|---|---|")
    for n in PLAYERS:
        rows = [_load(folder, f"sim-{a}-{n}p{suffix}.json")["position_win_rate"] for a in AGENTS]
        for k in range(n):
            cells = [_ci(r[k]["win_rate"], r[k]["ci_low"], r[k]["ci_high"]) for r in rows]
            print(f"| {n} | {k + 1} | {cells[0]} | {cells[1]} |")
    print()


def tables(folder: Path) -> None:
    seat_table(folder, "", " self-play")
    seat_table(folder, "-hh", ", Happy Hour")
    print("| players | ends | `strategic` | `value` |")
    print("|---|---|---|---|")
    for n in PLAYERS:
        ends = {a: _load(folder, f"sim-{a}-{n}p.json") for a in AGENTS}
        for reason in ("pina_coladice", "score", "tokens", "tie_break"):
            cells = [f"{100 * ends[a]['end_reasons'][reason]:.1f}%" for a in AGENTS]
            print(f"| {n} | {reason.replace('_', ' ')} | {cells[0]} | {cells[1]} |")
        rounds = [f"{ends[a]['mean_rounds']:.2f}" for a in AGENTS]
        print(f"| {n} | mean rounds | {rounds[0]} | {rounds[1]} |")
    print()
    print(
        "| players | `strategic`: fairest starting scores (seat win rates) | `value`: fairest "
        "(seat win rates) | rulebook's under `value` | search within its precision "
        "(`strategic` / `value`) |"
    )
    print("|---|---|---|---|---|")
    for n in PLAYERS:
        cells = []
        for a in AGENTS:
            f = _load(folder, f"balance-{a}-{n}p.json")["fairest"]
            rates = " / ".join(f"{100 * r:.1f}" for r in f["seat_win_rates"])
            cells.append(f"{tuple(f['starting_scores'])}: {rates}")
        rb = _load(folder, f"balance-value-{n}p.json")["rulebook"]
        rates = " / ".join(f"{100 * r:.1f}" for r in rb["seat_win_rates"])
        cells.append(f"{tuple(rb['starting_scores'])}: {rates}")
        precise = " / ".join(
            "yes" if _load(folder, f"balance-{a}-{n}p.json")["within_precision"] else "no"
            for a in AGENTS
        )
        print(f"| {n} | {cells[0]} | {cells[1]} | {cells[2]} | {precise} |")


def coaster_table(folder: Path) -> None:
    """What a coaster's token is worth to winning (2 players), under each agent."""
    rows = {a: {c["coaster"]: c for c in _load(folder, f"coasters-{a}-2p.json")["coasters"]}
            for a in AGENTS}  # fmt: skip
    print(
        "| coaster | points A / B | `strategic`: held − not held (points) | "
        "`value`: held − not held (points) |"
    )
    print("|---|---|---|---|")
    for cid, c in rows["strategic"].items():
        v = rows["value"][cid]
        cells = [f"{100 * x['effect']:+.1f} [{100 * x['effect_low']:+.1f}, "
                 f"{100 * x['effect_high']:+.1f}]" for x in (c, v)]  # fmt: skip
        print(
            f"| {c['combination']} | {c['side_a']} / {c['side_b_1']}-{c['side_b_2']} | "
            f"{cells[0]} | {cells[1]} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--run", type=Path, default=None)
    parser.add_argument("--tables", type=Path, default=None)
    args = parser.parse_args()
    if args.run:
        run(args.run)
    if args.tables:
        tables(args.tables)
        print()
        coaster_table(args.tables)


if __name__ == "__main__":
    main()
