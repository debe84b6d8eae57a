"""The readable summary of a ``pinastats simulate`` run (its ``--format table`` output)."""

from __future__ import annotations

from typing import Any

from pinastats.cli._common import percent, percent_range, render_table


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
        f"starting scores {', '.join(map(str, s['starting_scores']))}, seed {s['seed']}",
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
    from pinastats.game.rules import EndReason, end_entry  # the engine's words (loads it)

    n = s["games"]
    rows = []
    for reason, games in s["end_reason_games"].items():
        if games:
            low, high = wilson_interval(games, n)
            rows.append(
                [
                    end_entry(EndReason[reason.upper()], s["target_score"]),
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
