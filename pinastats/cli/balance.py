"""``pinastats balance``: fair starting scores, what coasters are worth, what-if rules.

By default it searches the starting scores (seat 1 on 1, later seats
non-decreasing, at most ``--spread`` above) that bring every seat's win rate in
``--agent`` self-play closest to 1/n, with ``--games`` games in all (see
:mod:`pinastats.balance.search`). ``--coasters`` measures each coaster's
same-round effect on winning and suggests a points table; ``--what-if``
measures the rule variants. JSON output of the search: ``rulebook``,
``fairest`` and ``candidates`` (the runners-up), each with ``starting_scores``,
``games``, ``seat_wins``, ``seat_win_rates`` (seat 1 = first in turn order),
``seat_win_rate_intervals`` (95% Wilson ``[low, high]`` per seat),
``max_deviation`` (largest |rate − 1/n|) with ``max_deviation_interval``
(jointly 95%), and ``dropped_after_round`` (null: still in contention).
"""

from __future__ import annotations

import argparse
import math
from typing import TYPE_CHECKING, Any

from pinastats.cli._common import (
    CliError,
    non_negative_int,
    positive_int,
    render_table,
    write_json,
)

if TYPE_CHECKING:
    import pandas as pd

_EXAMPLE = "pinastats balance --players 3 --games 100000 --seed 1"


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``balance`` subcommand."""
    parser = subparsers.add_parser(
        "balance",
        help="fair starting scores, coaster worth and what-if rules",
        description=(
            "Search the starting scores that make every seat's win rate closest to 1/n "
            "(sequential testing, common random numbers); or, with --coasters, what each "
            "coaster's token is worth to winning and a points table that evens it out; or, "
            "with --what-if, how target score, tokens, rolls, Happy Hour and layout change "
            "game length, endings, the first-player edge and how often the stronger agent wins."
        ),
        epilog=f"example: {_EXAMPLE}",
    )
    parser.add_argument("--players", type=int, required=True, metavar="N", help="players, 2-4")
    parser.add_argument(
        "--agent",
        default="strategic",
        metavar="A",
        help="self-play agent (default strategic); one's own as FILE.py:Class "
        "(not with --coasters)",
    )
    parser.add_argument(
        "--games",
        type=positive_int,
        metavar="G",
        help="search: games in all (default 100000); --coasters, --what-if: games per "
        "simulation (default 20000, 5000)",
    )
    parser.add_argument(
        "--seed", type=non_negative_int, default=0, metavar="S", help="seed (default 0)"
    )
    parser.add_argument(
        "--spread",
        type=non_negative_int,
        default=4,
        metavar="K",
        help="search: later seats start at most K above seat 1 (default 4)",
    )
    parser.add_argument(
        "--workers", type=positive_int, metavar="N", help="worker threads (default: the CPU count)"
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--coasters", action="store_true", help="coaster worth and points")
    mode.add_argument("--what-if", action="store_true", help="rule variants")
    parser.add_argument(
        "--fallback",
        metavar="A",
        help="--what-if: the self-play agent of the variants --agent cannot play "
        "(value plays the standard grid only); without it such a variant is an error",
    )
    parser.add_argument(
        "--skill",
        type=_skill_pairs,
        metavar="S:W[,S:W]",
        help="--what-if: the skill pairs, stronger:weaker (default strategic:ev,ev:greedy), "
        "or none",
    )
    parser.add_argument("--format", choices=("table", "json"), default="table", help="output")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    parser.set_defaults(func=run)


def _skill_pairs(text: str) -> tuple[tuple[str, str], ...]:
    """``strategic:ev,ev:greedy`` as pairs, ``none`` for none (agents checked at the start)."""
    if text.strip().lower() == "none":
        return ()
    pairs = []
    for item in text.split(","):
        strong, sep, weak = item.partition(":")
        if not sep or not strong.strip() or not weak.strip() or ":" in weak:
            raise argparse.ArgumentTypeError(
                f"a skill pair is STRONGER:WEAKER, e.g. strategic:ev; got {item!r}"
            )
        pairs.append((strong.strip(), weak.strip()))
    return tuple(pairs)


def _pct(x: float) -> str:
    return "" if math.isnan(x) else f"{100 * x:.1f}%"


def _records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    out = []
    for rec in frame.to_dict(orient="records"):
        out.append(
            {
                str(k): (None if isinstance(v, float) and math.isnan(v) else v)
                for k, v in rec.items()
            }
        )
    return out


def run(args: argparse.Namespace) -> int:
    """Run the search, the coaster analysis or the what-if table, and print it."""
    from pinastats._warmup import ensure_warm
    from pinastats.agents.loading import resolve_agent
    from pinastats.balance.seats import check_players

    players = check_players(args.players)
    if not args.what_if and (args.fallback or args.skill is not None):
        flag = "--fallback" if args.fallback else "--skill"
        raise CliError(f"{flag} goes with --what-if (the rule variants) only")
    resolve_agent(args.agent)  # an unknown name fails here, with a suggestion
    if args.coasters or args.what_if:  # each simulation plays --games games
        from pinastats.game.config import GameConfig
        from pinastats.simulation.limits import check_memory

        check_memory(args.games or (20_000 if args.coasters else 5_000), GameConfig(players))
    ensure_warm(["games"], quiet=args.quiet)
    if args.coasters:
        return _coasters(args, players)
    if args.what_if:
        return _what_if(args, players)
    from pinastats.balance.search import search_starting_scores

    result = search_starting_scores(
        players,
        agent=args.agent,
        budget=args.games or 100_000,
        first_round=min(2_000, max(1, (args.games or 100_000) // 50)),
        seed=args.seed,
        spread=args.spread,
        workers=args.workers,
        progress=not args.quiet,
    )
    if args.format == "json":
        write_json(result.to_dict())
        return 0
    rows = []
    for role, cand in result._shown(4):
        c = cand.counts
        lo, hi = c.deviation_interval()
        seats = "  ".join(
            f"{_pct(r)} [{_pct(a)}, {_pct(b)}]"
            for r, (a, b) in zip(c.rates, c.intervals(), strict=True)
        )
        rows.append(
            [
                role,
                " ".join(map(str, c.starting_scores)),
                f"{c.games:,}",
                seats,
                f"{_pct(c.deviation)} [{_pct(lo)}, {_pct(hi)}]",
            ]
        )
    print(
        f"{players} players, {args.agent} self-play, {result.games:,} games in "
        f"{result.rounds} rounds (seed {args.seed}); fair share {_pct(1 / players)}"
    )
    print(
        render_table(
            ["", "starting scores", "games", "seat win rates [95%]", "max |rate - 1/n|"],
            rows,
            "llrlr",
        )
    )
    verdict = "within" if result.within_precision else "not within"
    print(f"fairest: every seat's 95% interval {verdict} reach of 1/n")
    return 0


def _coasters(args: argparse.Namespace, players: int) -> int:
    from pinastats.balance.coasters import coaster_points

    frame = coaster_points((players,), games=args.games or 20_000, agent=args.agent, seed=args.seed)
    if args.format == "json":
        write_json({"players": players, "coasters": _records(frame)})
        return 0
    rows = []
    for r in _records(frame):
        eff = [100 * float(r[k]) for k in ("effect", "effect_low", "effect_high")]
        rows.append(
            [
                str(r["coaster"]),
                f"{r['side_a']} / {r['side_b_1']}-{r['side_b_2']}",
                f"{int(r['taken']):,}",
                f"{float(r['mean_round']):.1f}",
                f"{_pct(float(r['held_win_rate']))} vs {_pct(float(r['not_held_win_rate']))}",
                f"{eff[0]:+.1f} [{eff[1]:+.1f}, {eff[2]:+.1f}]",
                f"{r['new_side_a']} / {r['new_side_b_1']}-{r['new_side_b_2']}",
            ]
        )
    print(f"{players} players, {args.agent} self-play, {args.games or 20_000:,} games")
    header = ["coaster", "points A / B", "taken", "round", "held vs not", "effect pp", "suggested"]
    print(render_table(header, rows, "llrrlll"))
    print(f"one point is worth {100 * frame['point_slope'].iloc[0]:.2f} pp of win rate")
    return 0


def _what_if(args: argparse.Namespace, players: int) -> int:
    from pinastats.balance.whatif import SKILL_PAIRS, what_if

    frame = what_if(
        players,
        games=args.games or 5_000,
        agent=args.agent,
        seed=args.seed,
        workers=args.workers,
        pairs=SKILL_PAIRS if args.skill is None else args.skill,
        fallback=args.fallback,
        progress=not args.quiet,
    )
    if args.format == "json":
        write_json({"players": players, "variants": _records(frame)})
        return 0
    skill = [
        c
        for c in frame.columns
        if c.startswith("skill_") and not c.endswith(("_low", "_high", "_games", "_note"))
    ]
    rows = [
        [
            r["variant"],
            r["agent"],
            f"{r['mean_rounds']:.2f}",
            _pct(r["share_pina_coladice"]),
            f"{100 * r['first_player_edge']:+.1f} pp",
            *(
                f"{_pct(r[c])} [{_pct(r[c + '_low'])}, {_pct(r[c + '_high'])}]"
                if r[c] is not None
                else "not played"
                for c in skill
            ),
        ]
        for r in _records(frame)
    ]
    names = [c.removeprefix("skill_").replace("_vs_", " vs ") for c in skill]
    header = ["variant", "self-play", "rounds", "PIÑA", "first edge", *names]
    print(render_table(header, rows, "llrrr"))
    notes = sorted({n for r in _records(frame) for n in (r["agent_note"], r["skill_note"]) if n})
    for note in notes:
        print(f"note: {note}")
    return 0
