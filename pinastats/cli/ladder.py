"""``pinastats ladder``: a round-robin between agents, rated on one Bradley–Terry (Elo) scale.

Every pair of agents plays ``--games`` two-player games (``--games-for`` gives
expensive agents or single pairs fewer), the first move alternating; the
strengths are fitted by maximum likelihood and shown in Elo with 95% intervals
(:mod:`pinastats.ratings`). OpenSpiel's MCTS plays as ``mcts100``, ``mcts1000``
or ``mcts(simulations=K)`` with the ``[openspiel]`` extra.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from pinastats.cli._common import (
    add_format_option,
    fail,
    json_text,
    non_negative_int,
    positive_int,
    render_table,
    write_csv,
)

if TYPE_CHECKING:
    from pinastats.agents.protocol import AgentProtocol
    from pinastats.game.config import GameConfig
    from pinastats.ratings.document import RunInfo
    from pinastats.ratings.round_robin import RoundRobin

_EXAMPLE = (
    "pinastats ladder --agents random,greedy,ev,strategic,mcts100 --games 200 "
    "--games-for mcts100=20 --seed 2911"
)


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``ladder`` subcommand."""
    parser = subparsers.add_parser(
        "ladder",
        help="rate agents on one scale (Bradley-Terry / Elo) from a round-robin",
        description=(
            "Play every pair of agents (two-player games, the first move alternating, "
            "reproducible from --seed on any number of workers) and fit their strengths "
            "(Bradley-Terry, maximum likelihood) on the Elo scale with 95% intervals "
            "(Wald, from the Fisher information). Agents: random, greedy, ev, strategic, "
            "rollout, value, coach (with parameters, e.g. 'coach(leaf=value,depth=2)'), perfect, "
            "one's own as FILE.py:Class, and OpenSpiel's MCTS as mcts100, mcts1000 or "
            "'mcts(simulations=K)' (needs pip install 'pinastats[openspiel]')."
        ),
        epilog=f"example: {_EXAMPLE}",
    )
    parser.add_argument(
        "--agents",
        metavar="LIST",
        help="comma-separated agents, at least 2, e.g. random,ev,coach,mcts100",
    )
    parser.add_argument(
        "--games", type=positive_int, metavar="N", help="games per pair (with --agents)"
    )
    parser.add_argument(
        "--games-for",
        action="append",
        default=[],
        metavar="AGENT=N|A:B=N",
        help="fewer (or more) games: AGENT=N for every pair with AGENT (the smaller count "
        "when both agents are named), A:B=N for one pair (it wins over AGENT=N); 0: the pair "
        "does not play; repeatable, e.g. --games-for mcts1000=10 --games-for mcts1000:ev=20",
    )
    parser.add_argument(
        "--seed", type=non_negative_int, default=0, metavar="N", help="seed of the run (default 0)"
    )
    parser.add_argument(
        "--anchor",
        metavar="AGENT",
        help="the agent rated 0 (default: random when it plays, else the ratings average 0); "
        "'mean' for the average",
    )
    parser.add_argument(
        "--prior",
        type=_prior,
        default=0.0,
        metavar="DRAWS",
        help="drawn games added to every pair that played (default 0: the plain maximum "
        "likelihood, refused when an agent never wins or never loses)",
    )
    parser.add_argument(
        "--workers",
        type=positive_int,
        default=1,
        metavar="N",
        help="processes playing at once (default 1; the games are the same for any N)",
    )
    parser.add_argument(
        "--out", metavar="FILE", help="also save the ladder as JSON (the --format json document)"
    )
    parser.add_argument(
        "--from",
        dest="load",
        metavar="FILE",
        help="play nothing: rate the games of a ladder saved with --out again (e.g. with "
        "another --anchor or --prior)",
    )
    add_format_option(parser)
    parser.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="nothing on stderr but errors: no progress, no word about compiling the engine",
    )
    parser.set_defaults(func=run)


def _prior(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of games >= 0, got {text!r}") from None
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number of games >= 0, got {text}")
    return value


def parse_schedule(items: list[str]) -> dict[str, int]:
    """``["mcts1000=20", "a:b=0"]`` -> ``{"mcts1000": 20, "a:b": 0}`` (or a user error)."""
    schedule: dict[str, int] = {}
    for item in items:
        key, eq, value = item.rpartition("=")
        key = key.strip()
        if not eq or not key:
            fail(f"--games-for {item!r}: expected AGENT=N or A:B=N, e.g. mcts1000=20")
        try:
            count = int(value)
        except ValueError:
            fail(f"--games-for {item!r}: the games must be a whole number >= 0, got {value!r}")
        if count < 0:
            fail(f"--games-for {item!r}: the games must be a whole number >= 0, got {count}")
        if key in schedule:
            fail(f"--games-for names {key!r} twice")
        schedule[key] = count
    return schedule


def _agents(text: str) -> list[AgentProtocol]:
    from pinastats.cli._common import split_agents
    from pinastats.ratings.agents import ladder_agent

    return [ladder_agent(spec) for spec in split_agents(text)]


def _warm_groups(agents: list[AgentProtocol]) -> list[str]:
    from pinastats.cli._common import kernel_groups

    return kernel_groups(agents)


def run(args: argparse.Namespace) -> int:
    """Check the options, play the round-robin, fit it and print (and save) the ladder."""
    from pinastats._files import check_output
    from pinastats._warmup import ensure_warm
    from pinastats.errors import OutputError
    from pinastats.game.config import GameConfig
    from pinastats.ratings import document as _document  # noqa: F401 - loaded before the games
    from pinastats.ratings.round_robin import cpu_load, pair_games, round_robin

    if args.load is not None:
        return _refit(args)
    if args.agents is None or args.games is None:
        fail("--agents and --games say what to play (or --from FILE re-rates a saved ladder)")
    agents = _agents(args.agents)
    names = [a.name for a in agents]
    if len(names) < 2:
        fail(f"--agents {args.agents!r}: a ladder needs at least 2 agents")
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        fail(f"--agents {args.agents!r}: each agent once; named twice: {', '.join(twice)}")
    schedule = parse_schedule(args.games_for)
    pair_games(names, args.games, schedule)  # a bad schedule is refused before any game
    anchor = _anchor(args.anchor, names)
    if args.out is not None:
        try:
            check_output(args.out)
        except OutputError as exc:
            fail(f"--out {exc}")
    config = GameConfig(players=2)
    ensure_warm(_warm_groups(agents), quiet=args.quiet)
    started = datetime.now(UTC)
    load_start = cpu_load()
    result = round_robin(
        agents,
        args.games,
        seed=args.seed,
        schedule=schedule,
        config=config,
        workers=args.workers,
        progress=not args.quiet,
    )
    run_info: RunInfo = {
        "command": " ".join(["pinastats", *map(shlex.quote, sys.argv[1:])])
        if sys.argv and os.path.basename(sys.argv[0]) in ("pinastats", "__main__.py")
        else None,
        "started": started.isoformat(timespec="seconds"),
        "finished": datetime.now(UTC).isoformat(timespec="seconds"),
        "workers": args.workers,
        "cpu_count": os.cpu_count(),
        "load_start": load_start,
        "load_end": cpu_load(),
    }
    return _rate(args, result, config, anchor, run_info)


def _rate(
    args: argparse.Namespace,
    result: RoundRobin,
    config: GameConfig,
    anchor: str | None,
    run_info: RunInfo,
) -> int:
    """Fit the games, print the ladder and save it.

    Games that cannot be rated are saved (without ratings) before the error, to be
    re-rated with ``--from FILE --prior N``.
    """
    from pinastats.ratings.bradley_terry import RatingError
    from pinastats.ratings.document import games_document, ladder_document

    try:
        fit = result.fit(anchor=anchor, prior=args.prior)
    except RatingError as exc:
        if args.out is not None and args.load is None:
            _save(args.out, games_document(result, config=config, **run_info) | {"error": str(exc)})
            fail(f"{exc}; the games are saved in {args.out}: re-rate them with "
                 f"pinastats ladder --from {args.out} --prior 1")  # fmt: skip
        raise
    document = ladder_document(result, fit, config=config, **run_info)
    if args.out is not None:
        _save(args.out, document)
    if args.format == "json":
        print(json_text(document, indent=2))
    elif args.format == "csv":
        columns = ["rank", "agent", "elo", "elo_low", "elo_high", "strength", "se", "games",
                   "wins", "score"]  # fmt: skip
        write_csv(columns, document["ratings"])
    else:
        print(ladder_text(document))
    return 0


def _save(path: str, document: dict[str, Any]) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(json_text(document, indent=2) + "\n")


def _refit(args: argparse.Namespace) -> int:
    """``--from FILE``: rate the games of a saved ladder again (another anchor or prior)."""
    import json

    from pinastats.game.config import GameConfig
    from pinastats.ratings.document import round_robin_from

    if args.agents is not None or args.games_for or args.games is not None:
        fail("--from FILE re-rates saved games: leave out --agents, --games and --games-for")
    try:
        with open(args.load, encoding="utf-8") as handle:
            saved = json.load(handle)
        result, run_info = round_robin_from(saved)
    except (ValueError, KeyError, TypeError) as exc:
        fail(f"--from {args.load}: not a saved ladder ({exc})")
    if args.out is not None and os.path.abspath(args.out) != os.path.abspath(args.load):
        from pinastats._files import check_output
        from pinastats.errors import OutputError

        try:
            check_output(args.out)
        except OutputError as exc:
            fail(f"--out {exc}")
    anchor = _anchor(args.anchor, list(result.names))
    return _rate(args, result, GameConfig(players=2), anchor, run_info)


def _anchor(text: str | None, names: list[str]) -> str | None:
    if text is None:
        return "random" if "random" in names else None
    if text == "mean":
        return None
    if text not in names:
        fail(f"--anchor {text!r} is no agent of the ladder ({', '.join(names)}), nor 'mean'")
    return text


def ladder_text(document: dict[str, Any]) -> str:
    """The ladder as readable tables: the ratings, then every pair's games."""
    model = document["model"]
    anchor = f"{model['anchor']} = 0" if model["anchor"] else "average 0"
    rows = [
        [
            str(r["rank"]),
            r["agent"],
            f"{r['elo']:+.0f}",
            f"{r['elo_low']:+.0f} to {r['elo_high']:+.0f}",
            f"{r['games']:,}",
            f"{r['score']:.1%}",
        ]
        for r in document["ratings"]
    ]
    lines = [
        f"Strength ladder: Bradley-Terry on the Elo scale ({anchor}), 95% intervals; "
        f"{document['games']:,} games, seed {document['seed']}, {document['seconds']:.0f} s",
        "",
        render_table(["#", "agent", "elo", "95% interval", "games", "score"], rows, "rllrrr"),
        "",
        "Pairs (score: a's wins + half the draws, 95% Wilson interval; fitted: the model's)",
        "",
    ]
    pair_rows = [
        [
            p["a"],
            p["b"],
            f"{p['games']:,}",
            f"{p['a_wins']}-{p['b_wins']}" + (f"-{p['draws']}" if p["draws"] else ""),
            f"{p['a_score']:.1%} ({p['a_score_low']:.1%} to {p['a_score_high']:.1%})",
            f"{p['fitted_a_score']:.1%}",
        ]
        for p in document["pairs"]
    ]
    lines.append(
        render_table(["a", "b", "games", "wins", "a's score", "fitted"], pair_rows, "llrrrr")
    )
    fit = model.get("fit")
    if fit is not None and fit["df"] > 0:
        lines.append(
            f"\nOne scale? deviance {fit['deviance']:.1f} on {fit['df']} degrees of freedom "
            f"({_p_text(fit['p_value'])}; a small p: the pairs are not one-dimensional)"
        )
    if model["prior"]:
        lines.append(f"\nprior: {model['prior']:g} drawn game(s) added to every pair that played")
    return "\n".join(lines)


def _p_text(p: float) -> str:
    """``p = 0.042``, or ``p < 0.001``."""
    return "p < 0.001" if p < 0.001 else f"p = {p:.2g}"
