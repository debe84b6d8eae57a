"""``pinastats simulate --luck-adjusted``: a paired match with the dice's luck taken out.

Plays the agents of ``--agents`` (the first is the one measured) on rotated
seats with shared dice and prints the raw and the luck-adjusted share of each,
with their 95% intervals and the variance ratio
(:mod:`pinastats.ratings.luck`; docs/strength-ladder.md, *Measuring a point*).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pinastats.cli._common import fail, write_json

if TYPE_CHECKING:
    from pinastats.agents.protocol import AgentProtocol
    from pinastats.game.config import GameConfig

_NOT_WITH = {
    "out": "--out",
    "record": "--record",
    "first_seat": "--first-seat",
    "scheduler": "--scheduler",
    "engine": "--engine",
    "chunk_size": "--chunk-size",
    "piece_games": "--piece-games",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of a luck-adjusted run."""
    parser.add_argument(
        "--luck-adjusted",
        action="store_true",
        help="a paired match: each deal played once per rotation of the agents with the same "
        "dice, every roll's luck (its value minus the mean over all rolls, by --evaluator) "
        "taken out; prints the raw and the adjusted share of each agent, the first one "
        "measured, with 95%% intervals and the variance ratio",
    )
    parser.add_argument(
        "--evaluator",
        choices=("network", "exact"),
        default="network",
        help="with --luck-adjusted: who values the rolls: the learned network (default) or "
        "the solved two-player game's table (each deal's board is solved first: minutes)",
    )
    parser.add_argument(
        "--margin",
        type=float,
        metavar="POINTS",
        help="with --luck-adjusted: stop once the first agent's adjusted 95%% interval is "
        "at most ± POINTS percentage points wide (--games is then the most played)",
    )


def run(args: argparse.Namespace, agents: Sequence[AgentProtocol], config: GameConfig) -> int:
    """Play the luck-adjusted match and print its summary (a table, or JSON)."""
    from pinastats.ratings.luck import LuckError, luck_match

    for name, option in _NOT_WITH.items():
        if getattr(args, name, None) not in (None, False):
            fail(f"{option} is not played with --luck-adjusted (a paired match of its own)")
    if config.rules.happy_hour and args.evaluator == "exact":
        fail("--evaluator exact values the base game: leave out --happy-hour")
    margin = None
    if args.margin is not None:
        if not 0 < args.margin < 100:
            fail(f"--margin must be between 0 and 100 percentage points, got {args.margin}")
        margin = args.margin / 100
    try:
        result = luck_match(agents, args.games, seed=args.seed, config=config,
                            evaluator=args.evaluator, margin=margin,
                            workers=args.workers)  # fmt: skip
    except LuckError as exc:
        fail(str(exc))
    summary = result.as_dict()
    if args.format == "json":
        write_json(summary)
    else:
        print(summary_text(summary))
    return 0


def _pct(share: dict[str, Any]) -> str:
    return f"{100 * share['share']:5.1f}%  [{100 * share['low']:5.1f}, {100 * share['high']:5.1f}]"


def summary_text(summary: dict[str, Any]) -> str:
    """The readable summary: one row per agent of the field."""
    lines = [
        f"{summary['games']} games ({summary['deals']} deals x {summary['players']} seat "
        f"rotations), luck valued by the {summary['evaluator']} evaluator; fair share "
        f"{100 * summary['fair_share']:.1f}%",
        "",
        f"  {'agent':<24} {'raw share [95%]':<24} {'adjusted [95%]':<24} variance ratio",
    ]
    for m in summary["members"]:
        ratio = m.get("variance_ratio")
        shown = "-" if ratio is None else f"{ratio:.1f}x"
        lines.append(f"  {m['agent']:<24} {_pct(m['raw']):<24} {_pct(m['adjusted']):<24} {shown}")
    return "\n".join(lines)
