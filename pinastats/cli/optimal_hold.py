"""``pinastats optimal-hold``: the chance of a target in one turn, and how to hold for it.

Without ``--dice`` it prints the turn's success probability and a hold guide
(hands grouped by what to keep, see :mod:`pinastats.holds.guide`); ``--all``
or ``--format csv`` gives the keep of every hand. With ``--dice`` it ranks
every distinct keep of that hand.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from pinastats.cli._common import (
    add_format_option,
    dice_text,
    die,
    fail,
    fraction_text,
    keep_label,
    percent,
    percent_range,
    positive_int,
    rank_texts,
    render_table,
    write_csv,
    write_json,
)

if TYPE_CHECKING:
    from pinastats.dice import Combination, TurnSolution
    from pinastats.dice.solver import KeepOption
    from pinastats.holds.guide import GuideRow, HandAdvice

HAND_COLUMNS = ("rolls_left", "hand", "keep", "probability", "fraction", "alternatives")
DICE_COLUMNS = ("rank", "keep", "probability", "fraction", "best")
_EPILOG = """examples:
  pinastats optimal-hold --target "full house"
  pinastats optimal-hold --target fh --dice 2 2 5 4 1 --rolls-left 2
  pinastats optimal-hold --target "sum <= 9" --all --format csv
  pinastats optimal-hold --target yahtzee --sticky --format json

`pinastats targets` lists every target; names are case-insensitive, with
aliases such as "fh", "5≠", "pair of 6s", "three 3s", "sum 12-14"."""


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``optimal-hold`` subcommand."""
    parser = subparsers.add_parser(
        "optimal-hold",
        help="chance of a target in one turn and what to keep",
        description=(
            "Chance of ending a turn on TARGET with optimal holds, and what to keep: a "
            "guide by kind of hand, every hand (--all), or one hand (--dice)."
        ),
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("-t", "--target", required=True, help='e.g. "full house", "sum <= 9"')
    parser.add_argument(
        "--dice", nargs="+", type=die, metavar="D", help="advise this hand of five dice"
    )
    parser.add_argument(
        "--rolls-left",
        type=int,
        metavar="N",
        help="rolls still to come for --dice (default: all but the first)",
    )
    parser.add_argument(
        "--locked", nargs="*", type=die, default=[], metavar="D",
        help="with --sticky and --dice: dice kept earlier, which stay kept",
    )  # fmt: skip
    parser.add_argument(
        "--rolls", type=positive_int, default=3, metavar="N", help="rolls per turn (default 3)"
    )
    parser.add_argument(
        "--sticky", action="store_true", help="a kept die cannot be taken back (default: it can)"
    )
    parser.add_argument(
        "--all", action="store_true", help="list the keep of every hand instead of the guide"
    )
    add_format_option(parser)
    parser.set_defaults(func=run)


def _target_text(text: str) -> str:
    """``--target`` as given, refused when it is not one line of a name.

    A name with a control character (a line break, a tab, NUL, ...) or made of
    blanks only is named in the error by its characters, as an error line would
    otherwise show it changed (a line break as a space, three spaces as one).
    """
    import unicodedata

    for i, c in enumerate(text):
        if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp"):
            fail(f"--target {text!a} holds a control character ({c!a}, character "
                 f"{i + 1} of {len(text)}): a target is one line, e.g. 'full house'")  # fmt: skip
    if not text.strip():
        if not text:
            what = "empty"
        elif set(text) == {" "}:
            what = f"blank ({len(text)} space{'s' * (len(text) > 1)})"
        else:  # the characters by code, as blanks of other kinds print alike
            codes = " ".join(f"U+{ord(c):04X}" for c in text[:8]) + " ..." * (len(text) > 8)
            what = f"blank ({len(text)} blank characters: {codes})"
        fail(f"--target is {what}: name a combination, e.g. 'full house' "
             "(`pinastats targets` lists them)")  # fmt: skip
    return text


def run(args: argparse.Namespace) -> int:
    """Solve the turn and print the guide, the full table, or the advice for one hand."""
    from pinastats.dice import parse_combination
    from pinastats.dice.stored import load_solution

    comb = parse_combination(_target_text(args.target))
    if args.dice is None:
        if args.rolls_left is not None or args.locked:
            fail("--rolls-left and --locked describe a hand: use them with --dice")
    elif args.all:
        fail("--all lists every hand; leave out --dice (or --all)")
    # a hand's advice runs the kernels: solve with them; the guide can read a stored solution
    solution = None if args.dice is not None else load_solution(comb, rolls=args.rolls,
                                                                  sticky=args.sticky)  # fmt: skip
    if solution is None:
        solution = _solve(comb, args.rolls, args.sticky)
    if args.dice is not None:
        _advise_hand(args, comb, solution)
    else:
        _print_guide(args, comb, solution)
    return 0


# ---------------------------------------------------------------- shared pieces


def _solve(comb: Combination, rolls: int, sticky: bool) -> TurnSolution:
    """Solve the turn with the kernels (compiled first if need be) and keep the solution."""
    from pinastats._warmup import ensure_warm
    from pinastats.dice import solve_turn
    from pinastats.dice.stored import save_solution

    ensure_warm(["dice"])
    solution = solve_turn(comb, rolls=rolls, sticky=sticky)
    save_solution(comb, solution)
    return solution


def _header(comb: Combination, solution: TurnSolution) -> dict[str, Any]:
    return {
        "target": comb.label,
        "rolls": solution.rolls,
        "sticky": solution.sticky,
        "probability": solution.value,
        "fraction": fraction_text(solution.fraction) or None,
    }


def _holds(solution: TurnSolution) -> str:
    return "sticky holds" if solution.sticky else "free holds"


def _title(comb: Combination, solution: TurnSolution) -> str:
    exact = f"  (exactly {fraction_text(solution.fraction)})" if solution.fraction else ""
    return (
        f"{comb.label} in {solution.rolls} roll{'s' * (solution.rolls > 1)}, "
        f"{_holds(solution)}\n"
        f"Chance with optimal holds: {percent(solution.value)}{exact}"
    )


def _after(rolls_left: int, solution: TurnSolution) -> str:
    roll = solution.rolls - rolls_left
    return f"After roll {roll} ({rolls_left} roll{'s' * (rolls_left > 1)} left)"


# ---------------------------------------------------------------- the guide


def _print_guide(args: argparse.Namespace, comb: Combination, solution: TurnSolution) -> None:
    from pinastats.holds.guide import build_guide

    rows, advice = build_guide(comb, solution)
    hands = [a for r in sorted(advice, reverse=True) for a in advice[r]]
    if args.format == "csv":
        write_csv(HAND_COLUMNS, [_hand_record(a) for a in hands])
    elif args.format == "json":
        out = _header(comb, solution) | {"guide": [_row_record(r, solution) for r in rows]}
        if args.all:
            out["hands"] = [_hand_record(a, as_text=False) for a in hands]
        write_json(out)
    elif args.all:
        print(_title(comb, solution))
        print(_all_table(hands, solution))
    else:
        print(_title(comb, solution))
        print(_guide_text(comb, solution, rows))


def _hand_record(a: HandAdvice, *, as_text: bool = True) -> dict[str, Any]:
    if not as_text:
        return {
            "rolls_left": a.rolls_left,
            "hand": list(a.hand),
            "keep": list(a.keeps[0]),
            "probability": a.probability,
            "fraction": fraction_text(a.fraction) or None,
            "alternatives": [list(k) for k in a.keeps[1:]],
        }
    return {
        "rolls_left": a.rolls_left,
        "hand": dice_text(a.hand),
        "keep": keep_label(a.keeps[0], a.hand),
        "probability": repr(a.probability),
        "fraction": fraction_text(a.fraction),
        "alternatives": "; ".join(keep_label(k, a.hand) for k in a.keeps[1:]),
    }


def _row_record(row: GuideRow, solution: TurnSolution) -> dict[str, Any]:
    return {
        "after_roll": solution.rolls - row.rolls_left,
        "rolls_left": row.rolls_left,
        "hand": row.situation or None,
        "keep": row.rule,
        "probability_min": row.low.probability,
        "probability_max": row.high.probability,
        "fraction_min": fraction_text(row.low.fraction) or None,
        "fraction_max": fraction_text(row.high.fraction) or None,
        "share": row.share,
        "hands": [{"hand": list(a.hand), "keep": list(a.keeps[0])} for a in row.hands],
    }


def _example(a: HandAdvice) -> str:
    keep = keep_label(a.keeps[0], a.hand)
    return dice_text(a.hand) if keep == "stop" else f"{dice_text(a.hand)} → {keep}"


def _guide_text(comb: Combination, solution: TurnSolution, rows: list[GuideRow]) -> str:
    if solution.rolls == 1:
        return "\nWith a single roll there is nothing to keep: the first roll is final."
    shapes = any(r.situation and r.situation != "already made" for r in rows)
    out = []
    for rolls_left in sorted({r.rolls_left for r in rows}, reverse=True):
        section = [r for r in rows if r.rolls_left == rolls_left]
        table = []
        for r in section:
            made = r.situation == "already made"
            keep = r.rule
            if made:
                keep = "stop: keep all five" if shapes else f"stop ({comb.label} already made)"
            cells = [
                keep,
                percent_range(r.low.probability, r.high.probability),
                percent(r.share),
                ", ".join(_example(a) for a in r.examples(2)),
            ]
            if shapes:
                cells.insert(0, f"{comb.label} already" if made else r.situation)
            table.append(cells)
        header = ["what to keep", "success", "how often", "for example"]
        if shapes:
            header.insert(0, "your hand")
        out.append(f"\n{_after(rolls_left, solution)}")
        out.append(render_table(header, table, "llrrl" if shapes else "lrrl"))
    if solution.sticky and solution.rolls > 2:
        out.append(
            "\nWith sticky holds later choices depend on the dice already kept: ask for one "
            "hand with --dice ... --rolls-left N --locked ..."
        )
    out.append(
        f"\nsuccess: chance of ending on {comb.label} from such a hand with optimal play."
        "\nhow often: chance of holding such a hand at that point when you follow this guide."
        "\nEvery hand: add --all (or --format csv). One hand: --dice 2 2 5 4 1 --rolls-left 2."
    )
    return "\n".join(out)


def _all_table(hands: list[HandAdvice], solution: TurnSolution) -> str:
    rows = [
        [
            str(a.rolls_left),
            dice_text(a.hand),
            keep_label(a.keeps[0], a.hand),
            percent(a.probability),
            fraction_text(a.fraction),
            "; ".join(keep_label(k, a.hand) for k in a.keeps[1:]),
        ]
        for a in hands
    ]
    header = ["rolls left", "hand", "keep", "success", "exact", "also optimal"]
    text = render_table(header, rows, "rllrrl")
    if solution.sticky and solution.rolls > 2:
        text += "\n\nWith sticky holds only the first choice is a table over hands (see --dice)."
    return "\n" + text


# ---------------------------------------------------------------- one hand


def _advise_hand(args: argparse.Namespace, comb: Combination, solution: TurnSolution) -> None:
    from pinastats.dice import check_dice

    dice = check_dice(args.dice)
    locked = check_dice(args.locked, count=None, what="locked dice")
    if solution.rolls == 1:
        fail("with --rolls 1 there is nothing to keep: the first roll is final")
    rolls_left = solution.rolls - 1 if args.rolls_left is None else args.rolls_left
    if not 1 <= rolls_left <= solution.rolls - 1:
        fail(
            f"--rolls-left must be from 1 to {solution.rolls - 1} in a {solution.rolls}-roll "
            f"turn, got {rolls_left}"
        )
    options = solution.ranked_keeps(dice, rolls_left, locked)
    ranks = rank_texts([o.rank for o in options])
    if args.format == "json":
        top = options[0]
        hand = {
            "dice": list(args.dice),
            "rolls_left": rolls_left,
            "locked": list(locked),
            "probability": top.value,
            "fraction": fraction_text(top.fraction) or None,
        }
        keeps = [
            {
                "keep": list(o.keep),
                "probability": o.value,
                "fraction": fraction_text(o.fraction) or None,
                "best": o.best,
                "stop": len(o.keep) == len(dice),
            }
            for o in options
        ]
        write_json(_header(comb, solution) | {"hand": hand, "keeps": keeps})
    elif args.format == "csv":
        records = [
            {
                "rank": rank,
                "keep": keep_label(o.keep, dice),
                "probability": repr(o.value),
                "fraction": fraction_text(o.fraction),
                "best": o.best,
            }
            for rank, o in zip(ranks, options, strict=True)
        ]
        write_csv(DICE_COLUMNS, records)
    else:
        print(_hand_text(comb, solution, dice, rolls_left, locked, options, ranks))


def _hand_text(
    comb: Combination,
    solution: TurnSolution,
    dice: tuple[int, ...],
    rolls_left: int,
    locked: tuple[int, ...],
    options: list[KeepOption],
    ranks: list[str],
) -> str:
    lock = f", {dice_text(locked)} locked" if locked else ""
    exact_column = any(o.fraction is not None for o in options)
    rows = [
        [rank, keep_label(o.keep, dice), percent(o.value)]
        + ([fraction_text(o.fraction)] if exact_column else [])
        + ["best" if o.best else ""]
        for rank, o in zip(ranks, options, strict=True)
    ]
    header = ["rank", "keep", "success", *(["exact"] if exact_column else []), ""]
    best = [keep_label(o.keep, dice) for o in options if o.best]
    top = options[0]
    exact = f" ({fraction_text(top.fraction)})" if top.fraction is not None else ""
    verb = "stop" if best == ["stop"] else "keep " + " or ".join(best)
    return "\n".join([
        f"{comb.label} from {dice_text(dice)}{lock}, {rolls_left} roll"
        f"{'s' * (rolls_left > 1)} left ({solution.rolls}-roll turn, {_holds(solution)})",
        f"Best: {verb} → {percent(top.value)}{exact}",
        "",
        render_table(header, rows, "rlrrl" if exact_column else "rlrl"),
    ])  # fmt: skip
