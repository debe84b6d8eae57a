"""The output of ``pinastats advise --objective win``: keeps and placements by the chance to win.

The advice is :func:`pinastats.coach.win_advice`; the JSON adds
``win_probability`` and ``win_probability_se`` to the items of ``keeps`` and
``placements`` of the points objective (see :mod:`pinastats.cli.advise`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pinastats.cli._common import fraction_text, percent, render_table
from pinastats.cli.advise import _no_placement, _placement_records, _points, _text
from pinastats.cli.optimal_hold import keep_label, rank_labels

if TYPE_CHECKING:
    from pinastats.coach import WinAdvice
    from pinastats.game.game import Game


def _chance(p: float, se: float) -> str:
    """``62.3% ± 1.5%`` (no ``±`` for an exact value)."""
    return percent(p, 1) + (f" ± {100 * se:.1f}%" if se > 0 else "")


def win_record(win: WinAdvice, game: Game, dice: list[int]) -> dict[str, Any]:
    """The JSON record: the points record's fields, each item with its win probability."""
    points = win.points
    by_cell = {r["cell"]: r for r in _placement_records(points, game)}
    return {
        "objective": "win",
        "player": win.player,
        "dice": list(dice),
        "rolls_left": win.rolls_left,
        "win_probability": win.win_probability,
        "win_probability_se": win.win_probability_se,
        "too_close_to_call": win.too_close_to_call,
        "lead": win.lead,
        "lead_se": win.lead_se,
        "playouts": win.playouts,
        "policy": win.policy,
        "seed": win.seed,
        "expected_points": points.expected_points,
        "fraction": fraction_text(points.expected_fraction),
        "stop_points": points.stop_points,
        "keeps": [
            {
                "keep": list(k.keep),
                "win_probability": k.win_probability,
                "win_probability_se": k.win_probability_se,
                "expected_points": k.expected_points,
                "fraction": fraction_text(k.fraction),
                "best": k.best,
                "stop": k.stop,
            }
            for k in win.keeps
        ],
        "placements": [
            by_cell[p.cell]
            | {
                "win_probability": p.win_probability,
                "win_probability_se": p.win_probability_se,
                "best": p.best,
            }
            for p in win.placements
        ],
        "outcomes": [
            {
                "outcome": o.outcome.label,
                "win_probability": o.win_probability,
                "win_probability_se": o.win_probability_se,
                "exact": o.exact,
            }
            for o in win.outcomes
        ],
    }


def _win_placements_text(win: WinAdvice, game: Game, title: str, stopping: bool) -> str:
    if not win.placements:
        return _no_placement(win.points, game, stopping)
    rows = [
        [str(p.row), str(p.col), p.coaster, p.combination, game.side(p.cell), str(p.points),
         _chance(p.win_probability, p.win_probability_se), "best" if p.best else ""]
        for p in win.placements
    ]  # fmt: skip
    header = ["row", "col", "coaster", "combination", "side", "points", "win", ""]
    return f"{title}\n" + render_table(header, rows, "rrllllrrl")


def _win_keeps_text(win: WinAdvice, top: int | None) -> str:
    ranks = rank_labels([k.win_probability for k in win.keeps])
    shown = win.keeps if top is None else win.keeps[:top]
    rows = [
        [rank, keep_label(k.keep, win.dice), str(k.rerolled) if k.rerolled else "",
         _chance(k.win_probability, k.win_probability_se), _points(k.fraction),
         "best" if k.best else ""]
        for rank, k in zip(ranks, shown, strict=False)
    ]  # fmt: skip
    header = ["rank", "keep", "re-roll", "win", "expected points", ""]
    which = f"best {len(shown)} of {len(win.keeps)}; --all for every keep"
    if len(shown) == len(win.keeps):
        which = "every keep"
    return f"Keeps by the chance to win ({which}):\n" + render_table(header, rows, "rlrrrl")


def _win_summary(win: WinAdvice) -> list[str]:
    chance = _chance(win.win_probability, win.win_probability_se)
    if win.rolls_left:
        best = [keep_label(k.keep, win.dice) for k in win.best_keeps]
        verb = "stop" if best == ["stop"] else "keep " + " or ".join(best)
    elif win.placements:
        verb = f"place on row {win.placements[0].row}, col {win.placements[0].col}"
    else:
        verb = "nothing to place"
    lines = [f"Best: {verb} → {chance} to win."]
    if win.too_close_to_call:
        lines.append(
            f"Too close to call: the lead over the second best is {100 * win.lead:.1f}% "
            f"± {100 * win.lead_se:.1f}% (paired); more --playouts may tell them apart."
        )
    return lines


def win_text(win: WinAdvice, game: Game, top: int | None) -> str:
    """The readable advice: the best option, the keeps and the placements by the chance to win."""
    head = _text(win.points, game, top).split("\n\n")[0]
    n = win.playouts
    how = (
        "every outcome is decided, no play-out needed"
        if n == 0
        else f"{n} play-out{'s' * (n != 1)} per outcome position by {win.policy}, seed {win.seed}"
    )
    lines = [head, f"Objective: the chance to win ({how}).", "", *_win_summary(win)]
    if win.rolls_left == 0:
        lines += ["", _win_placements_text(win, game, "Placements (best first):", False)]
    else:
        lines += [
            "",
            _win_keeps_text(win, top),
            "",
            _win_placements_text(win, game, "If you stop now, place (best first):", True),
        ]
    return "\n".join(lines)
