"""The two-player findings under perfect play: solved boards beside ``strategic`` and ``value``.

The two-player base game is solved board by board (:mod:`pinastats.solve`), so on
each solved board the first player's chance at the start, an opening token's
worth on each coaster and every decision's loss are exact: no agent's play
stands behind them. ``data/perfect-play.json`` (installed as ``pinastats.data``)
holds the measurements of ``benchmarks/perfect_yardstick.py`` (boards dealt from
one seed, never used to train or tune an agent): each board's first-player
chance and openings, the same boards solved again with other starting scores,
each agent's loss per decision against perfect play, ``perfect``'s games
against other agents, and the network reviewer beside the exact one.
:func:`perfect_play` reads it; :func:`comparisons` puts each two-player finding
of :mod:`pinastats.balance.strong` beside its perfect-play answer.

Over boards, a mean carries a normal 95% interval (the boards are a random
sample of deals; each board's value is exact); a rate over games a Wilson one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from pinastats._files import read_json
from pinastats._stats import mean_interval
from pinastats.balance.strong import (
    AGENTS,
    BASELINE,
    STRONG,
    StrongPlay,
    coaster_group,
    position_rate,
    strong_play,
)
from pinastats.errors import PinastatsError
from pinastats.game.catalogue import load_catalogue
from pinastats.solve.survey import first_player_summary

PERFECT = "perfect"
"""The name of perfect play in the tables (the ``perfect`` agent plays it)."""

RULEBOOK = (1, 2)
"""The rulebook's two-player starting scores."""

_PARTS = ("about", "boards", "starting_scores", "error_rates", "head_to_head", "reviewers")


@dataclass(frozen=True)
class PerfectPlay:
    """The shipped perfect-play measurements.

    * ``boards``: ``board, seed, first_chance, coasters, openings`` — each solved
      board (rulebook starting scores): the first player's exact chance at the
      start, the coaster on each cell (row-major) and her exact chance after her
      first token on each cell;
    * ``starting_scores``: ``starting_scores, board, first_chance`` — the first
      boards solved again with other starting scores (the rulebook's too);
    * ``error_rates``: each agent's loss per decision against perfect play
      (:func:`~pinastats.records.yardstick.error_table`);
    * ``head_to_head``: ``perfect`` against each opponent
      (:class:`~pinastats.records.yardstick.HeadToHead` fields);
    * ``reviewers``: the network reviewer beside the exact one
      (:func:`~pinastats.records.yardstick.reviewer_table`);
    * ``about``: the command, seed, sizes, run time and load of the run;
    * ``ladder``: ``perfect`` placed on the strength ladder (``elo``,
      ``elo_low``, ``elo_high``, the ``opponents`` it met with their ladder Elo),
      from its duels with the ladder's ratings held fixed (empty when none).
    """

    boards: pd.DataFrame
    starting_scores: pd.DataFrame
    error_rates: pd.DataFrame
    head_to_head: pd.DataFrame
    reviewers: pd.DataFrame
    about: dict[str, Any]
    ladder: dict[str, Any] = field(default_factory=dict)


def data_path() -> Path:
    """The shipped ``perfect-play.json``."""
    return Path(str(files("pinastats.data") / "perfect-play.json"))


def perfect_play(path: str | Path | None = None) -> PerfectPlay:
    """The perfect-play measurements from ``path`` (default: the shipped file)."""
    source = data_path() if path is None else Path(path)
    data = read_json(source, "perfect-play")
    if not isinstance(data, dict):
        raise PinastatsError(f"{source}: not a perfect-play file (not a JSON object)")
    missing = set(_PARTS) - set(data)
    if missing:
        raise PinastatsError(f"{source}: not a perfect-play file, missing {sorted(missing)}")
    boards = pd.DataFrame(data["boards"])
    for column in ("coasters", "openings"):
        boards[column] = boards[column].map(tuple)
    return PerfectPlay(
        boards=boards,
        starting_scores=pd.DataFrame(data["starting_scores"]),
        error_rates=pd.DataFrame(data["error_rates"]),
        head_to_head=pd.DataFrame(data["head_to_head"]),
        reviewers=pd.DataFrame(data["reviewers"]),
        about=dict(data["about"]),
        ladder=dict(data.get("ladder") or {}),
    )


def summary_data(
    boards: pd.DataFrame,
    starts: dict[tuple[int, ...], pd.DataFrame],
    error_rates: pd.DataFrame,
    head_to_head: list[Any],
    reviewers: pd.DataFrame,
    about: dict[str, Any],
) -> dict[str, Any]:
    """The JSON object :func:`perfect_play` reads, from a run's surveys and tables.

    ``boards`` are the surveyed rows (:func:`~pinastats.solve.survey.survey`),
    ``starts`` the surveys of other starting scores by vector.
    """
    keep = ["board", "seed", "first_chance", "coasters", "openings"]
    rows = [{k: _plain(r[k]) for k in keep} for r in boards.to_dict("records")]
    start_rows = [
        {"starting_scores": list(vector), "board": int(r["board"]),
         "first_chance": float(r["first_chance"])}
        for vector, frame in starts.items() for r in frame.to_dict("records")
    ]  # fmt: skip
    return {
        "about": about,
        "boards": rows,
        "starting_scores": start_rows,
        "error_rates": error_rates.to_dict("records"),
        "head_to_head": [h.__dict__ for h in head_to_head],
        "reviewers": reviewers.to_dict("records"),
    }


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    return value


# ------------------------------------------------------------------ findings


def first_player(pp: PerfectPlay) -> dict[str, float]:
    """The first player's exact chance over the boards (rulebook scores): mean, interval, spread.

    :func:`~pinastats.solve.survey.first_player_summary`, with the boards ±0.3
    points would take at this spread.
    """
    return first_player_summary(pp.boards)


def extreme_boards(pp: PerfectPlay, count: int = 3) -> pd.DataFrame:
    """The ``count`` fairest boards and the ``count`` least fair, with their coasters.

    Columns: ``kind`` (``fairest``/``least fair``), ``board``, ``first_chance``,
    ``edge`` (``first_chance - 0.5``) and ``grid`` (the coasters, one row of the
    grid a line).
    """
    b = pp.boards.assign(edge=pp.boards["first_chance"] - 0.5)
    order = b["edge"].abs().sort_values(kind="stable").index
    n = len(b["coasters"].iloc[0])
    side = round(math.sqrt(n)) if round(math.sqrt(n)) ** 2 == n else n  # a square grid by rows
    rows = []
    for kind, picks in (("fairest", order[:count]), ("least fair", order[::-1][:count])):
        for i in picks:
            r = b.loc[i]
            names = list(r["coasters"])
            grid = " / ".join(" ".join(names[k : k + side]) for k in range(0, len(names), side))
            rows.append({"kind": kind, "board": int(r["board"]),
                         "first_chance": float(r["first_chance"]), "edge": float(r["edge"]),
                         "grid": grid})  # fmt: skip
    return pd.DataFrame(rows)


def starting_scores_table(pp: PerfectPlay) -> pd.DataFrame:
    """The first player's exact chance with each starting vector, on the same boards.

    Columns: ``starting_scores``, ``boards``, ``first_chance`` with ``low``/``high``
    (95%, over boards), ``change`` (against the rulebook's vector on the same
    boards, with its interval ``change_low``/``change_high``) and ``distance``
    (|first_chance − 50%|). The rulebook's row comes from the main survey.
    """
    s = pp.starting_scores
    if s.empty:
        return pd.DataFrame()
    vectors = sorted({tuple(v) for v in s["starting_scores"]} | {RULEBOOK})
    boards = sorted(set(s["board"]))
    rulebook = pp.boards.set_index("board")["first_chance"].reindex(boards).to_numpy()
    rows = []
    for v in vectors:
        if v == RULEBOOK:
            x = rulebook
        else:
            pick = s[s["starting_scores"].map(tuple) == v].set_index("board")["first_chance"]
            x = pick.reindex(boards).to_numpy()
        ok = ~np.isnan(x) & ~np.isnan(rulebook)
        mean, low, high = mean_interval(x[ok])
        d_mean, d_low, d_high = mean_interval(x[ok] - rulebook[ok])
        rows.append({"starting_scores": ", ".join(map(str, v)), "boards": int(ok.sum()),
                     "first_chance": mean, "low": low, "high": high,
                     "change": d_mean, "change_low": d_low,
                     "change_high": d_high, "distance": abs(mean - 0.5)})  # fmt: skip
    return pd.DataFrame(rows)


def coaster_worth(pp: PerfectPlay) -> pd.DataFrame:
    """What an opening token on each coaster is worth under perfect play.

    On each board, a coaster's worth is the first player's exact chance after her
    first token on it minus her chance at the start (what the dice must give her
    to place there is not counted: the start averages over it). Columns:
    ``coaster`` (its id, as :mod:`pinastats.balance.strong` names it), ``name``,
    ``boards`` (those it was dealt on), ``worth`` with ``low``/``high`` (95%, over
    boards) and ``rank`` (1 = worth most).
    """
    ids = {c.name: c.id for c in load_catalogue()}
    per: dict[str, list[float]] = {}
    for r in pp.boards.to_dict("records"):
        for name, chance in zip(r["coasters"], r["openings"], strict=True):
            per.setdefault(name, []).append(float(chance) - float(r["first_chance"]))
    rows = []
    for name, values in per.items():
        mean, low, high = mean_interval(values)
        rows.append({"coaster": ids.get(name, name), "name": name, "boards": len(values),
                     "worth": mean, "low": low, "high": high})  # fmt: skip
    table = pd.DataFrame(rows).sort_values("worth", ascending=False, kind="stable")
    table["rank"] = np.arange(1, len(table) + 1)
    return table.reset_index(drop=True)


def _spearman(a: pd.Series, b: pd.Series) -> float:
    joined = pd.concat([a, b], axis=1, join="inner").dropna()
    if len(joined) < 3:
        return math.nan
    ranks = joined.rank()
    return float(np.corrcoef(ranks.iloc[:, 0], ranks.iloc[:, 1])[0, 1])


def comparisons(pp: PerfectPlay | None = None, sp: StrongPlay | None = None) -> pd.DataFrame:
    """Each two-player finding under ``strategic``, ``value`` and perfect play, with verdicts.

    Columns ``finding, strategic, value, perfect, verdict_strategic, verdict_value``:
    whether each agent's conclusion holds under perfect play. The first player's
    edge holds when the agent's 95% interval and the perfect-play one lie on the
    same side of 50% (or both hold it); the fairest starting scores when the
    vector is the one, among those solved, whose first-player chance is nearest
    50%; the coasters when the best token is the same and the agent's six worst
    are among those perfect play cannot tell from its own sixth worst (their
    95% intervals meet), the Spearman correlation of the agent's ranking of worth
    with perfect play's in brackets. (The agents' worth is that of holding a
    coaster's token over a game, perfect play's that of an opening token on it.)
    """
    pp = perfect_play() if pp is None else pp
    sp = strong_play() if sp is None else sp
    rows: list[dict[str, str]] = []
    fp = first_player(pp)
    side_p = _side(fp["low"], fp["high"])
    cells = {}
    for agent in AGENTS:
        r = position_rate(sp, agent, 2, 1)
        cells[agent] = (f"{100 * r.win_rate:.1f}% [{100 * r.ci_low:.1f}, {100 * r.ci_high:.1f}]",
                        _holds(_side(r.ci_low, r.ci_high), side_p))  # fmt: skip
    rows.append({
        "finding": "the first player's chance to win (fair 50%)",
        BASELINE: cells[BASELINE][0], STRONG: cells[STRONG][0],
        PERFECT: f"{100 * fp['mean']:.1f}% [{100 * fp['low']:.1f}, {100 * fp['high']:.1f}] "
                 f"over {int(fp['boards'])} boards",
        f"verdict_{BASELINE}": cells[BASELINE][1], f"verdict_{STRONG}": cells[STRONG][1],
    })  # fmt: skip
    starts = starting_scores_table(pp)
    if not starts.empty:
        best = starts.sort_values("distance", kind="stable").iloc[0]
        fairest = {}
        st = sp.starting_scores
        for agent in AGENTS:
            pick = st[(st["agent"] == agent) & (st["players"] == 2) & (st["role"] == "fairest")]
            fairest[agent] = ", ".join(map(str, pick.iloc[0]["starting_scores"]))
        solved = ", ".join(f"({v})" for v in starts["starting_scores"])
        rows.append({
            "finding": f"the fairest starting scores (perfect play: nearest 50% of {solved})",
            BASELINE: f"({fairest[BASELINE]})", STRONG: f"({fairest[STRONG]})",
            PERFECT: f"({best['starting_scores']}): first player {100 * best['first_chance']:.1f}%",
            **{f"verdict_{a}": "holds" if fairest[a] == best["starting_scores"] else "changes"
               for a in AGENTS},
        })  # fmt: skip
    worth = coaster_worth(pp)
    if not worth.empty:
        w = worth.set_index("coaster")["worth"]
        top_p, sixth = worth["name"].iloc[0], worth.iloc[-min(6, len(worth))]
        # the coasters perfect play cannot tell from its sixth worst (their intervals meet)
        bottom = set(worth.loc[worth["low"] <= sixth["high"], "name"])
        worst = coaster_group(sorted(worth["name"].iloc[-6:]))
        row = {"finding": "the best coaster to hold; the six worst (rank correlation)",
               PERFECT: f"{top_p}; {worst} ({len(bottom)} coasters within the intervals of "
                        "the sixth worst)"}  # fmt: skip
        for agent in AGENTS:
            c = sp.coasters[sp.coasters["agent"] == agent].sort_values("effect", ascending=False)
            top, low = str(c["combination"].iloc[0]), sorted(c["combination"].iloc[-6:])
            rho = _spearman(c.set_index("coaster")["effect"], w)
            row[agent] = f"{top}; {coaster_group(low)} ({rho:.2f})"
            same = top == top_p and set(low) <= bottom
            row[f"verdict_{agent}"] = "holds" if same else "changes"
        rows.append(row)
    return pd.DataFrame(rows)


def _side(low: float, high: float) -> int:
    return 1 if low > 0.5 else -1 if high < 0.5 else 0


def _holds(agent: int, perfect: int) -> str:
    if agent == perfect:
        return "holds"
    if agent == 0 or perfect == 0:
        return "changes (even under one only)"
    return "changes (reversed)"


# ------------------------------------------------------------------ the docs' tables


def _ci(mean: float, low: float, high: float, scale: float = 100.0, digits: int = 1) -> str:
    """``51.8% [51.3, 52.3]`` (``scale`` 100) or ``2.5 [1.9, 3.1]`` (``scale`` 1)."""
    unit = "%" if scale == 100.0 else ""
    return (f"{scale * mean:.{digits}f}{unit} [{scale * low:.{digits}f}, "
            f"{scale * high:.{digits}f}]")  # fmt: skip


def _correlation(value: float) -> str:
    """A correlation for the docs; "—" where one reviewer's rates do not vary (no correlation)."""
    return "—" if math.isnan(value) else f"{value:.2f}"


def doc_tables(
    pp: PerfectPlay | None = None, sp: StrongPlay | None = None
) -> dict[str, pd.DataFrame]:
    """The perfect-play tables of the docs (``docs/solved-game.md``, the README), by name."""
    pp = perfect_play() if pp is None else pp
    sp = strong_play() if sp is None else sp
    fp = first_player(pp)
    first = pd.DataFrame([{
        "boards": int(fp["boards"]),
        "first player's exact chance (mean, 95%)": _ci(fp["mean"], fp["low"], fp["high"], digits=2),
        "spread (sd)": f"{100 * fp['sd']:.2f} points",
        "least and most": f"{100 * fp['min']:.2f}% to {100 * fp['max']:.2f}%",
        "boards for ±0.3 points": f"{fp['boards_for_0_3_points']:,}",
    }])  # fmt: skip
    extremes = (
        extreme_boards(pp, min(3, len(pp.boards) // 2))
        .assign(first_chance=lambda f: f["first_chance"].map(lambda x: f"{100 * x:.2f}%"))[
            ["kind", "board", "first_chance", "grid"]
        ]
        .rename(
            columns={"first_chance": "first player's exact chance", "grid": "coasters, row by row"}
        )
    )
    starts = starting_scores_table(pp)
    start_rows = [{
        "starting scores": f"({r['starting_scores']})" + (" rulebook" if tuple(
            int(x) for x in r["starting_scores"].split(", ")) == RULEBOOK else ""),
        "boards": r["boards"],
        "first player's exact chance": _ci(r["first_chance"], r["low"], r["high"]),
        "change on the same boards": "-" if r["change"] == 0 else
        _ci(r["change"], r["change_low"], r["change_high"]).replace("%", " points"),
    } for r in starts.to_dict("records")]  # fmt: skip
    worth = coaster_worth(pp)
    ranks = {}
    for agent in AGENTS:
        c = sp.coasters[sp.coasters["agent"] == agent].sort_values("effect", ascending=False)
        ranks[agent] = {k: i + 1 for i, k in enumerate(c["coaster"])}
    coasters = pd.DataFrame([{
        "rank": r["rank"], "coaster": r["name"], "boards": r["boards"],
        "opening token's worth (points)": _ci(r["worth"], r["low"], r["high"]).replace("%", ""),
        **{f"rank under `{a}`": ranks[a].get(r["coaster"], "-") for a in AGENTS},
    } for r in worth.to_dict("records")])  # fmt: skip
    errors = pd.DataFrame([{
        "agent": f"`{r['agent']}`", "games": r["games"], "decisions": r["decisions"],
        "loss per decision": _ci(r["loss"], r["loss_low"], r["loss_high"], 1.0),
        "loss per unforced decision": _ci(r["error_rate"], r["error_low"], r["error_high"], 1.0),
    } for r in pp.error_rates.to_dict("records")])  # fmt: skip
    duels = pd.DataFrame([{
        "`perfect` against": f"`{r['opponent']}`", "games": r["games"],
        "`perfect`'s score": _ci(r["score"], r["low"], r["high"]),
        "`perfect` against itself, same seats": f"{100 * r['perfect_vs_perfect']:.1f}%",
    } for r in pp.head_to_head.to_dict("records")])  # fmt: skip
    reviewers = pd.DataFrame([{
        "graded agent": f"`{r['agent']}`" if r["agent"] != "all" else "all",
        "decisions": r["decisions"], "same mark": f"{100 * r['same_mark']:.0f}%",
        "marked (exact)": f"{100 * r['marked_exact']:.1f}%",
        "marked (network)": f"{100 * r['marked_network']:.1f}%",
        "loss a decision, exact / network": f"{r['loss_exact']:.1f} / {r['loss_network']:.1f}",
        "seat error rates' correlation": _correlation(r["seat_correlation"]),
        "network's chance at a turn start, mean distance": f"{r.get('start_error', math.nan):.3f}",
    } for r in pp.reviewers.to_dict("records")])  # fmt: skip
    verdicts = comparisons(pp, sp).rename(columns={
        "finding": "finding (two players)", BASELINE: f"`{BASELINE}` self-play",
        STRONG: f"`{STRONG}` self-play", PERFECT: "perfect play (solved boards)",
        f"verdict_{BASELINE}": f"`{BASELINE}`'s finding",
        f"verdict_{STRONG}": f"`{STRONG}`'s finding",
    })  # fmt: skip
    ladder = pd.DataFrame([{
        "agent": "`perfect`",
        "Elo (95%)": f"{pp.ladder['elo']:.0f} [{pp.ladder['elo_low']:.0f}, "
                     f"{pp.ladder['elo_high']:.0f}]",
        "from its games against": ", ".join(
            f"`{o['agent']}` ({o['elo']:.0f}): {o['points']:g} of {o['games']}"
            for o in pp.ladder["opponents"]),
    }]) if pp.ladder else pd.DataFrame()  # fmt: skip
    return {
        "perfect-ladder": ladder,
        "perfect-first-player": first,
        "perfect-extreme-boards": extremes,
        "perfect-starting-scores": pd.DataFrame(start_rows),
        "perfect-coasters": coasters,
        "perfect-errors": errors,
        "perfect-duels": duels,
        "perfect-reviewers": reviewers,
        "perfect-verdicts": verdicts,
    }
