"""``pinastats targets``: every combination with its chance in one roll and in a turn.

Coaster combinations come first, then the generic analysis targets. When the
coaster catalogue exists (:func:`pinastats.game.catalogue.load_catalogue`), the
points of side A and side B are added for the coasters.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from pinastats.cli._common import (
    add_format_option,
    fraction_text,
    percent,
    positive_int,
    render_table,
    write_csv,
    write_json,
)

CATALOGUE_MODULE = "pinastats.game.catalogue"
COLUMNS = (
    "combination", "key", "coaster", "one_roll", "one_roll_fraction", "probability",
    "fraction", "sticky_probability", "sticky_fraction",
)  # fmt: skip


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``targets`` subcommand."""
    parser = subparsers.add_parser(
        "targets",
        help="every combination and its chance in one roll and in a turn",
        description=(
            "Every combination (the 25 coasters, then generic targets) with its chance in "
            "one roll and in a turn of --rolls rolls with optimal holds, free and sticky."
        ),
    )
    parser.add_argument(
        "--rolls", type=positive_int, default=3, metavar="N", help="rolls per turn (default 3)"
    )
    parser.add_argument("--coasters", action="store_true", help="only the 25 coasters")
    add_format_option(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the table of targets."""
    records = target_records(args.rolls, coasters_only=args.coasters)
    points = coaster_points()
    columns = list(COLUMNS)
    if points is not None:
        columns += ["side_a", "side_b"]
        for r in records:
            r["side_a"], r["side_b"] = points.get(r["combination"], (None, None))
    if args.format == "json":
        write_json({"rolls": args.rolls, "targets": records})
    elif args.format == "csv":
        write_csv(columns, [{k: _csv_cell(r[k]) for k in columns} for r in records])
    else:
        print(_table(records, args.rolls, with_points=points is not None))
    return 0


def target_records(rolls: int, *, coasters_only: bool = False) -> list[dict[str, Any]]:
    """One record per combination: exact chances in one roll and in a turn."""
    from pinastats.dice import COASTER_COMBINATIONS, Combination, solve_turn

    combos = COASTER_COMBINATIONS if coasters_only else tuple(Combination)
    out = []
    for comb in combos:
        one = solve_turn(comb, rolls=1)
        free = solve_turn(comb, rolls=rolls)
        sticky = solve_turn(comb, rolls=rolls, sticky=True)
        out.append({
            "combination": comb.value,
            "key": comb.name,
            "coaster": comb.is_coaster,
            "one_roll": one.value,
            "one_roll_fraction": fraction_text(one.fraction),
            "probability": free.value,
            "fraction": fraction_text(free.fraction) or None,
            "sticky_probability": sticky.value,
            "sticky_fraction": fraction_text(sticky.fraction) or None,
        })  # fmt: skip
    return out


def coaster_points() -> dict[str, tuple[Any, Any]] | None:
    """Side A / side B points of each coaster combination, or None without a catalogue.

    Hook for :func:`pinastats.game.catalogue.load_catalogue`, used only when that
    module exists. Its result is iterated for coasters (objects or mappings) with
    ``combination``, ``side_a`` and ``side_b`` (side B: the points of the first and
    the second token).
    """
    module = _catalogue_module()
    if module is None:
        return None
    from pinastats.dice import parse_combination

    out: dict[str, tuple[Any, Any]] = {}
    for coaster in module.load_catalogue():
        comb = parse_combination(_field(coaster, "combination"))
        side_b = _field(coaster, "side_b")
        out[comb.value] = (int(_field(coaster, "side_a")), [int(p) for p in side_b])
    return out


def _catalogue_module() -> ModuleType | None:
    if CATALOGUE_MODULE in sys.modules:
        return sys.modules[CATALOGUE_MODULE]
    try:
        spec = importlib.util.find_spec(CATALOGUE_MODULE)
    except ModuleNotFoundError:  # no pinastats.game package at all
        return None
    return None if spec is None else importlib.import_module(CATALOGUE_MODULE)


def _field(entry: Any, name: str) -> Any:
    return entry[name] if isinstance(entry, Mapping) else getattr(entry, name)


def _points_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return "/".join(str(v) for v in value)
    return str(value)


def _csv_cell(value: Any) -> Any:
    return _points_text(value) if value is None or isinstance(value, list) else value


def _table(records: list[dict[str, Any]], rolls: int, *, with_points: bool) -> str:
    turn = f"{rolls} roll{'s' * (rolls > 1)}"
    header = ["combination", "1 roll", turn, f"{turn} sticky"]
    if with_points:
        header += ["side A", "side B"]
    out = []
    for title, coaster in (("Coasters", True), ("Other targets (analysis only)", False)):
        rows = []
        for r in records:
            if r["coaster"] is not coaster:
                continue
            cells = [
                r["combination"],
                percent(r["one_roll"]),
                percent(r["probability"]),
                percent(r["sticky_probability"]),
            ]
            if with_points:
                cells += [_points_text(r.get(k)) for k in ("side_a", "side_b")]
            rows.append(cells)
        if rows:
            out += [f"{title}:", render_table(header, rows, "lrrrrr"), ""]
    out.append(
        f"Chances with optimal holds over a {rolls}-roll turn; 'sticky': kept dice stay kept. "
        "Exact fractions: --format json or csv."
    )
    return "\n".join(out)
