"""``pinastats simulate``: Monte Carlo games between built-in agents.

Plays ``--games`` games (chunked, seeded per chunk: the same ``--seed`` and
``--chunk-size`` give the same games on any number of workers or on Dask) and
prints who wins how often with 95% intervals, the first-player advantage, how
games end and how long they last. ``--out`` keeps the per-game table.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from pinastats.cli._common import (
    fail,
    non_negative_int,
    percent,
    percent_range,
    positive_int,
    render_table,
    write_json,
)

if TYPE_CHECKING:
    from pinastats.agents.builtin import Agent
    from pinastats.game.config import GameConfig
    from pinastats.simulation.runner import Engine

FORMATS = ("table", "json")
ENGINES = ("local", "dask")
_EXAMPLE = "pinastats simulate --agents ev,greedy --games 100000 --seed 7"
_REASON_TEXT = {
    "pina_coladice": "PIÑA COLADICE (a full line)",
    "score": "20 points reached, best score",
    "tokens": "last token placed, best score",
    "tie_break": "tied score, latest placement wins",
    "draw": "tied score, nobody placed: draw",
    "turn_limit": "turn limit (no winner)",
}


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``simulate`` subcommand."""
    parser = subparsers.add_parser(
        "simulate",
        help="play many games between agents and compare them",
        description=(
            "Play N games (--games) between built-in agents (one per seat) and report win rates "
            "with 95% intervals, the first-player advantage, how games end and how long "
            "they last. Agents: random, greedy, ev, strategic, ... (a wrong name lists them "
            "all); some take parameters, e.g. 'strategic(line=4,block=2)'."
        ),
        epilog=f"example: {_EXAMPLE}",
    )
    parser.add_argument(
        "--agents",
        required=True,
        metavar="LIST",
        help="comma-separated agents, seat 0 first, e.g. ev,greedy or 'strategic(line=4),ev'",
    )
    parser.add_argument(
        "--players",
        type=positive_int,
        metavar="N",
        help="players, 2-4 (default: the number of agents)",
    )
    parser.add_argument(
        "--games", type=positive_int, required=True, metavar="N", help="games to play"
    )
    parser.add_argument(
        "--seed", type=non_negative_int, default=0, metavar="N", help="seed of the run (default 0)"
    )
    parser.add_argument("--happy-hour", action="store_true", help="play the Happy Hour variant")
    parser.add_argument(
        "--negative-scores",
        action="store_true",
        help="with --happy-hour: 'lose 3 points' may go below 0 (as on Board Game Arena)",
    )
    parser.add_argument(
        "--first-seat",
        type=int,
        metavar="N",
        help="seat that always plays first (default: drawn at random each game)",
    )
    parser.add_argument(
        "--workers",
        type=positive_int,
        metavar="N",
        help="local worker threads, or local Dask worker processes (default: the CPU count)",
    )
    parser.add_argument(
        "--engine",
        choices=ENGINES,
        help="run on local threads (default) or on Dask (a local cluster, or --scheduler)",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="Dask scheduler to run on, e.g. tcp://10.0.0.5:8786 (implies --engine dask)",
    )
    parser.add_argument(
        "--chunk-size",
        type=positive_int,
        default=None,
        metavar="N",
        help="games per chunk, the unit of work and of seeding (default 500; part of what "
        "makes a run reproducible)",
    )
    parser.add_argument(
        "--layout", metavar="NAME|FILE", help="board layout: a shipped name or a JSON file"
    )
    parser.add_argument(
        "--coasters", metavar="FILE", help="coaster catalogue CSV (default: the shipped one)"
    )
    parser.add_argument(
        "--out", metavar="FILE", help="save one row per game to FILE (.parquet or .csv)"
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="table",
        help="output: readable tables (default) or JSON",
    )
    parser.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar (it is drawn on stderr, only when stderr is a terminal)",
    )
    parser.set_defaults(func=run)


def split_agents(text: str) -> list[str]:
    """Split an agent list on the commas outside parentheses.

    >>> split_agents("strategic(line=4,block=2), ev")
    ['strategic(line=4,block=2)', 'ev']
    """
    items: list[str] = []
    current: list[str] = []
    depth = 0
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                fail(f"--agents {text!r}: a ')' without its '('")
        if ch == "," and depth == 0:
            items.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    if depth != 0:
        fail(f"--agents {text!r}: a '(' without its ')'")
    items.append("".join(current).strip())
    if not all(items):
        fail(f"--agents {text!r}: an empty agent name (agents are separated by single commas)")
    return items


def run(args: argparse.Namespace) -> int:
    """Check the options, play the games, print the summary and save the table."""
    from pinastats.simulation.runner import DEFAULT_CHUNK, simulate

    agents = _agents(args.agents)
    players = len(agents) if args.players is None else args.players
    if len(agents) != players:
        fail(
            f"{len(agents)} agent(s) given for {players} players: name one agent per seat "
            f"(e.g. --agents {','.join(['ev'] * players)})"
        )
    if args.first_seat is not None and not 0 <= args.first_seat < players:
        fail(f"--first-seat must be a seat from 0 to {players - 1}, got {args.first_seat}")
    if args.negative_scores and not args.happy_hour:
        fail("--negative-scores changes a Happy Hour effect: use it with --happy-hour")
    if args.scheduler is not None and args.engine == "local":
        fail("--scheduler runs on a Dask cluster: leave out --engine local")
    if args.scheduler is not None and args.workers is not None:
        fail("--workers sets local workers; with --scheduler the cluster's workers play")
    engine: Engine = "dask" if args.scheduler is not None or args.engine == "dask" else "local"
    if engine == "dask":
        _check_dask()
    config = _config(args, players)
    if args.out is not None:
        _check_out(args.out)
    result = simulate(
        agents,
        args.games,
        seed=args.seed,
        config=config,
        first_seat=args.first_seat,
        workers=args.workers,
        engine=engine,
        scheduler=args.scheduler,
        chunk_size=args.chunk_size or DEFAULT_CHUNK,
        progress=not args.no_progress and sys.stderr.isatty(),
    )
    saved = None if args.out is None else str(result.save(args.out))
    summary = result.summary() | {"first_seat": args.first_seat, "out": saved}
    if args.format == "json":
        write_json(summary)
    else:
        print(summary_text(summary))
    return 0


# ---------------------------------------------------------------- input


def _agents(text: str) -> list[Agent]:
    from pinastats.agents.builtin import make_agent

    return [make_agent(spec) for spec in split_agents(text)]


def _config(args: argparse.Namespace, players: int) -> GameConfig:
    from pinastats.game.catalogue import load_catalogue
    from pinastats.game.config import GameConfig
    from pinastats.game.layout import load_layout
    from pinastats.game.rules import Rules

    try:
        catalogue = load_catalogue(args.coasters)
    except OSError as exc:
        fail(f"--coasters {args.coasters}: {exc.strerror or exc}")
    try:
        layout = load_layout(args.layout or "standard")
    except OSError as exc:
        fail(f"--layout {args.layout}: {exc.strerror or exc}")
    rules = Rules(happy_hour=args.happy_hour, negative_scores=args.negative_scores)
    return GameConfig(players=players, catalogue=catalogue, layout=layout, rules=rules)


def _check_dask() -> None:
    from importlib.util import find_spec

    if find_spec("distributed") is None:
        fail("the Dask engine needs dask.distributed: pip install 'pinastats[dask]'")


def _check_out(path: str) -> None:
    """Fail before playing if ``--out`` cannot be written in its format."""
    from importlib.util import find_spec
    from pathlib import Path

    from pinastats.simulation.result import output_suffix

    suffix = output_suffix(path)
    if suffix == ".parquet" and find_spec("pyarrow") is None and find_spec("fastparquet") is None:
        fail("writing Parquet needs pyarrow: pip install pyarrow (or use a .csv file)")
    if Path(path).is_dir():
        fail(f"--out {path}: is a directory; give a file name ending in .parquet or .csv")
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"--out {path}: cannot create its folder ({exc.strerror or exc}: {exc.filename})")


# ---------------------------------------------------------------- output


def _count(n: int) -> str:
    return f"{n:,}"


def _rate(row: dict[str, Any], key: str = "win_rate") -> tuple[str, str]:
    """A rate and its 95% interval as text."""
    return percent(row[key]), percent_range(row["ci_low"], row["ci_high"])


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def _headline(s: dict[str, Any]) -> list[str]:
    seats = sorted(s["win_rate"], key=lambda r: -r["win_rate"])
    parts = [f"{r['agent']} (seat {r['seat']}) {_rate(r)[0]} (95% CI {_rate(r)[1]})" for r in seats]
    lines = ["Wins: " + ", ".join(parts) + "."]
    if s["draws"]:
        lines.append(
            f"No winner in {_count(s['draws'])} games ({percent(s['draws'] / s['games'])})."
        )
    first = s["position_win_rate"][0]
    fair = 1 / s["players"]
    if first["ci_low"] > fair:
        verdict = "an advantage"
    elif first["ci_high"] < fair:
        verdict = "a disadvantage"
    else:
        verdict = "no clear advantage"
    mixed = s["first_seat"] is not None
    lines.append(
        f"The first player won {_rate(first)[0]} (95% CI {_rate(first)[1]}) against a fair share "
        f"of {percent(fair)}: {verdict}"
        + (
            f" (seat {s['first_seat']} always starts: position and agent are mixed)."
            if mixed
            else "."
        )
    )
    rounds = s["rounds"]
    lines.append(
        f"Games last {rounds['mean']:.2f} rounds on average (median {rounds['median']:g}, "
        f"80% between {rounds['q10']:g} and {rounds['q90']:g}); "
        f"{percent(s['end_reasons']['pina_coladice'])} end on a PIÑA COLADICE."
    )
    return lines


def summary_text(s: dict[str, Any]) -> str:
    """The table output of a run's :meth:`~SimulationResult.summary` (plus ``first_seat``, ``out``).

    A headline in words, then win rates by seat, by agent (when an agent holds
    several seats) and by position, how games ended, game length and speed.
    """
    from pinastats.simulation.stats import wilson_interval

    rules = "Happy Hour" + (" with negative scores" if s["negative_scores"] else "")
    starts = "random first player" if s["first_seat"] is None else f"seat {s['first_seat']} starts"
    out = [
        f"{_count(s['games'])} games, {s['players']} players: " + " vs ".join(s["agents"]),
        f"layout {s['layout']}, {rules if s['happy_hour'] else 'no Happy Hour'}, {starts}, "
        f"seed {s['seed']}",
        "",
        *_headline(s),
        "",
        "Win rate by seat",
        render_table(
            ["seat", "agent", "wins", "win rate", "95% CI"],
            [[str(r["seat"]), r["agent"], _count(r["wins"]), *_rate(r)] for r in s["win_rate"]],
            "rlrrr",
        ),
    ]
    if len(s["agent_win_rate"]) < len(s["win_rate"]):  # an agent in several seats
        out += ["", "Win rate by agent (over the seats it holds)"]
        out.append(
            render_table(
                ["agent", "seats", "wins", "win rate", "95% CI"],
                [
                    [r["agent"], str(r["seats"]), _count(r["wins"]), *_rate(r)]
                    for r in s["agent_win_rate"]
                ],
                "lrrrr",
            )
        )
    out += ["", "Win rate by position in turn order"]
    out.append(
        render_table(
            ["position", "wins", "win rate", "95% CI"],
            [
                [
                    _ordinal(r["position"]) + (" (first player)" if r["position"] == 1 else ""),
                    _count(r["wins"]),
                    *_rate(r),
                ]
                for r in s["position_win_rate"]
            ],
            "lrrr",
        )
    )
    out += ["", "How games ended"]
    n = s["games"]
    rows = []
    for reason, games in s["end_reason_games"].items():
        if games:
            low, high = wilson_interval(games, n)
            rows.append(
                [
                    _REASON_TEXT.get(reason, reason),
                    _count(games),
                    percent(games / n),
                    percent_range(low, high),
                ]
            )
    out.append(render_table(["end", "games", "share", "95% CI"], rows, "lrrr"))
    rounds = s["rounds"]
    keys = ["mean", "median", "q10", "q25", "q75", "q90", "min", "max"]
    out += ["", "Game length in rounds (a round: every player plays once)"]
    out.append(
        render_table(
            ["mean", "median", "10%", "25%", "75%", "90%", "min", "max"],
            [[f"{rounds['mean']:.2f}"] + [f"{rounds[k]:g}" for k in keys[1:]]],
            "r" * len(keys),
        )
    )
    rate = "-" if s["games_per_second"] is None else f"{s['games_per_second']:,.0f}"
    workers = f"{s['workers']} worker{'s' * (s['workers'] > 1)}"
    out += [
        "",
        f"Speed: {_count(n)} games in {s['elapsed']:.2f} s on {workers} ({s['engine']}): "
        f"{rate} games/s",
    ]
    if s["out"] is not None:
        out.append(f"Saved one row per game to {s['out']}")
    return "\n".join(out)
