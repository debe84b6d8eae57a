"""The findings on strong play: ``value`` self-play beside ``strategic`` self-play.

Every designer's finding (who wins by turn order, the fairest starting scores, a
coaster token's worth, the what-if rules, the Happy Hour) was first measured on
``strategic`` self-play, an agent the learned ``value`` agent beats about three
games in five. ``data/strong-play.json`` (installed as ``pinastats.data``) holds the
same measurements with ``value`` in every seat, written by
``benchmarks/strong_play.py --summary``; :func:`strong_play` reads it as tables and
:func:`comparisons` says, finding by finding, whether the ``strategic`` conclusion
holds on strong play or changes.

Rates carry 95% Wilson intervals; a coaster's worth a normal interval. The
agent behind each number is a column of every table (``agent``), and the what-if
rows name the agent that played them (``value`` plays the standard grid only, so
``strategic`` stands in on the other layouts).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from pinastats._files import read_json
from pinastats._stats import Z95
from pinastats.errors import PinastatsError
from pinastats.game.rules import PLAYER_COUNTS

STRONG = "value"
"""The strong agent of these measurements (the learned evaluator, one-turn look-ahead)."""
BASELINE = "strategic"
"""The agent of the earlier findings."""
AGENTS = (BASELINE, STRONG)
SKILL_COLUMNS = (f"skill_{BASELINE}_vs_ev", f"skill_{STRONG}_vs_{BASELINE}")
"""The what-if skill measure of each side: ``strategic`` vs ``ev``, ``value`` vs ``strategic``."""


@dataclass(frozen=True)
class StrongPlay:
    """The shipped strong-play measurements, one DataFrame per question.

    * ``seats``: ``agent, players, happy_hour, position, games, win_rate, ci_low,
      ci_high`` — the win rate of the player in each position of turn order, with the
      rulebook's starting scores;
    * ``ends``: ``agent, players, happy_hour, games, mean_rounds`` and the share of each
      end reason;
    * ``starting_scores``: ``agent, players, role`` (``rulebook`` or ``fairest``),
      ``starting_scores``, ``search_games``, ``within_precision`` and, from a
      confirmation run of ``check_games`` games, ``seat_win_rates`` with
      ``seat_intervals`` and ``max_deviation`` (the largest |rate − 1/n|);
    * ``coasters``: ``agent, coaster, combination, side_a, side_b_1, side_b_2, taken,
      effect, effect_low, effect_high, new_side_a, new_side_b_1, new_side_b_2`` (two
      players);
    * ``what_if``: the rows of :func:`~pinastats.balance.whatif.what_if` (two players),
      with ``run`` naming the self-play agent asked for (``value`` or ``strategic``) and
      ``agent`` the one that played;
    * ``about``: the commands, seeds and dates of the runs.
    """

    seats: pd.DataFrame
    ends: pd.DataFrame
    starting_scores: pd.DataFrame
    coasters: pd.DataFrame
    what_if: pd.DataFrame
    about: dict[str, Any]


def data_path() -> Path:
    """The shipped ``strong-play.json``."""
    return Path(str(files("pinastats.data") / "strong-play.json"))


def strong_play(path: str | Path | None = None) -> StrongPlay:
    """The strong-play measurements from ``path`` (default: the shipped file)."""
    source = data_path() if path is None else Path(path)
    data = read_json(source, "strong-play")
    if not isinstance(data, dict):
        raise PinastatsError(f"{source}: not a strong-play file (not a JSON object)")
    missing = {"seats", "ends", "starting_scores", "coasters", "what_if", "about"} - set(data)
    if missing:
        raise PinastatsError(f"{source}: not a strong-play file, missing {sorted(missing)}")
    what = pd.DataFrame(data["what_if"]).fillna(value=np.nan)
    return StrongPlay(
        seats=pd.DataFrame(data["seats"]),
        ends=pd.DataFrame(data["ends"]),
        starting_scores=pd.DataFrame(data["starting_scores"]),
        coasters=pd.DataFrame(data["coasters"]),
        what_if=what,
        about=dict(data["about"]),
    )


def pct(rate: float, low: float, high: float) -> str:
    """``51.8% [51.3, 52.3]``."""
    return f"{100 * rate:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def _side(low: float, high: float, fair: float) -> int:
    """+1 when the interval lies above ``fair``, −1 below, 0 when it holds it."""
    return 1 if low > fair else -1 if high < fair else 0


def position_rate(
    sp: StrongPlay, agent: str, players: int, position: int, happy_hour: bool = False
) -> Any:
    """The ``seats`` row of one position in turn order under ``agent`` (rulebook scores)."""
    s = sp.seats
    pick = (
        (s["agent"] == agent)
        & (s["players"] == players)
        & (s["position"] == position)
        & (s["happy_hour"] == happy_hour)
    )
    return s[pick].iloc[0]


def _verdict(before: int, after: int, neutral: str) -> str:
    """Whether a sign (+1, −1, 0 for "within noise") is the same under both agents."""
    if before == after:
        return "holds"
    if before == 0 or after == 0:
        return f"changes ({neutral})"
    return "changes (reversed)"


def _size(a: Any, b: Any, fair: float) -> str:
    """``, larger`` or ``, smaller`` when the strong edge differs measurably from the other."""
    if b.ci_low > a.ci_high:
        return ", larger" if b.win_rate > fair else ", smaller"
    if b.ci_high < a.ci_low:
        return ", larger" if b.win_rate < fair else ", smaller"
    return ""


def comparisons(sp: StrongPlay | None = None) -> pd.DataFrame:
    """Finding by finding: the ``strategic`` answer, the strong-play answer, and whether it holds.

    Columns ``topic, finding, strategic, strong_play, verdict``. A seat's verdict
    compares which side of the fair share 1/n its 95% interval lies on (above,
    below, or holding it); a starting-score verdict compares the fairest vectors;
    the coaster verdict the best and worst tokens and the rank correlation; a
    what-if verdict the direction of the skill measure's change from the rulebook
    (the stronger agent's heads-up win rate: ``strategic`` vs ``ev`` in the
    ``strategic`` column, ``value`` vs ``strategic`` in the ``strong_play`` column).
    """
    sp = strong_play() if sp is None else sp
    rows: list[dict[str, str]] = []

    def seat_row(players: int, position: int, hh: bool) -> None:
        fair = 1 / players
        a, b = (position_rate(sp, ag, players, position, hh) for ag in AGENTS)
        side = _side(b.ci_low, b.ci_high, fair)
        verdict = _verdict(_side(a.ci_low, a.ci_high, fair), side, "fair under one agent only")
        word = "first" if position == 1 else "last" if position == players else f"#{position}"
        rows.append(
            {
                "topic": "turn order" + (", Happy Hour" if hh else ""),
                "finding": f"{players} players{', Happy Hour' if hh else ''}: the {word} "
                f"player's win rate (fair {100 * fair:.1f}%)",
                "strategic": pct(a.win_rate, a.ci_low, a.ci_high),
                "strong_play": pct(b.win_rate, b.ci_low, b.ci_high),
                "verdict": verdict
                + (_size(a, b, fair) if verdict == "holds" and side != 0 else ""),
            }
        )

    for hh in (False, True):
        for n in PLAYER_COUNTS:
            seat_row(n, 1, hh)
            if n > 2:
                seat_row(n, n, hh)
    st = sp.starting_scores
    for n in PLAYER_COUNTS:
        got = []
        for agent in AGENTS:
            r = st[(st["agent"] == agent) & (st["players"] == n) & (st["role"] == "fairest")]
            got.append(r.iloc[0])
        texts = [_vector(r) for r in got]
        same = list(got[0].starting_scores) == list(got[1].starting_scores)
        rows.append(
            {
                "topic": "starting scores",
                "finding": f"{n} players: the fairest starting scores (seat win rates, %)",
                "strategic": texts[0],
                "strong_play": texts[1],
                "verdict": "holds" if same else "changes",
            }
        )
    co = sp.coasters
    eff = {a: co[co["agent"] == a].set_index("coaster")["effect"] for a in AGENTS}
    names = dict(zip(co["coaster"], co["combination"], strict=False))
    best = {a: str(names[str(eff[a].idxmax())]) for a in AGENTS}
    worst = {
        a: coaster_group(sorted(names[str(c)] for c in eff[a].nsmallest(6).index)) for a in AGENTS
    }
    rho = float(eff[AGENTS[0]].rank().corr(eff[AGENTS[1]].reindex(eff[AGENTS[0]].index).rank()))
    rows.append(
        {
            "topic": "coasters",
            "finding": "2 players: the best token to hold; the six worst",
            "strategic": f"{best[BASELINE]}; {worst[BASELINE]}",
            "strong_play": f"{best[STRONG]}; {worst[STRONG]}",
            "verdict": "holds"
            if (best[BASELINE], worst[BASELINE]) == (best[STRONG], worst[STRONG])
            else "changes",
        }
    )
    rows.append(
        {
            "topic": "coasters",
            "finding": "2 players: the coasters' ranking by worth (Spearman correlation)",
            "strategic": "-",
            "strong_play": f"{rho:.2f}",
            "verdict": "holds" if rho >= 0.8 else "partly holds" if rho >= 0.5 else "changes",
        }
    )
    rows += _what_if_rows(sp)
    return pd.DataFrame(rows)


def coaster_group(names: list[str]) -> str:
    """``the six pairs`` when ``names`` are the pairs, else the names (comma-separated)."""
    if all(n.startswith("Pair of") for n in names):
        return f"the {len(names)} pairs" if len(names) != 6 else "the six pairs"
    return ", ".join(names)


def _difference(before: Any, after: Any, rate: str, low: str, high: str) -> tuple[float, float]:
    """``after − before`` of two independent rates and its 95% half-width (from their intervals)."""
    half = float(np.hypot((before[high] - before[low]) / 2, (after[high] - after[low]) / 2))
    return float(after[rate] - before[rate]), half


def _what_if_rows(sp: StrongPlay) -> list[dict[str, str]]:
    w = sp.what_if
    strong = w[w["run"] == STRONG].set_index("variant")
    weak_col, strong_col = SKILL_COLUMNS
    base = strong.loc["rulebook"]
    rows = []
    for name, r in strong.iterrows():
        if name == "rulebook":
            continue
        cells: list[str] = []
        sides: list[int | None] = []
        for col in (weak_col, strong_col):
            if pd.isna(r[col]):
                cells.append("not played")
                sides.append(None)
                continue
            d, half = _difference(base, r, col, f"{col}_low", f"{col}_high")
            cells.append(f"{100 * r[col]:.1f}% ({100 * d:+.1f} ± {100 * half:.1f})")
            sides.append(_side(d - half, d + half, 0.0))
        verdict = (
            "not measured on strong play"
            if sides[1] is None
            else _verdict(sides[0], sides[1], "measurable under one agent only")
            if sides[0] is not None
            else "-"
        )
        rows.append(
            {
                "topic": "what-if skill",
                "finding": f"{name}: the skill measure (change from the rulebook)",
                "strategic": cells[0],
                "strong_play": cells[1],
                "verdict": verdict,
            }
        )
    return rows


def markdown(frame: pd.DataFrame) -> str:
    """``frame`` as a Markdown table (cells as printed by ``str``)."""
    head = "| " + " | ".join(map(str, frame.columns)) + " |"
    rule = "|" + "---|" * len(frame.columns)
    body = ["| " + " | ".join(str(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join([head, rule, *body])


def seat_table(sp: StrongPlay, happy_hour: bool = False) -> pd.DataFrame:
    """Each position's win rate, ``strategic`` beside ``value`` (rulebook starting scores)."""
    rows = []
    for n in PLAYER_COUNTS:
        for k in range(1, n + 1):
            a, b = (position_rate(sp, ag, n, k, happy_hour) for ag in AGENTS)
            rows.append(
                {
                    "players": n,
                    "position": k,
                    f"`{BASELINE}`": pct(a.win_rate, a.ci_low, a.ci_high),
                    f"`{STRONG}`": pct(b.win_rate, b.ci_low, b.ci_high),
                }
            )
    return pd.DataFrame(rows)


def ends_table(sp: StrongPlay, happy_hour: bool = False) -> pd.DataFrame:
    """How games end and how long they last, ``strategic`` beside ``value``."""
    e = sp.ends[sp.ends["happy_hour"] == happy_hour].set_index(["players", "agent"])
    rows = []
    for n in PLAYER_COUNTS:
        for reason in ("pina_coladice", "score", "tokens", "tie_break"):
            rows.append(
                {
                    "players": n,
                    "ends": reason.replace("_", " "),
                    **{f"`{a}`": f"{100 * _num(e, (n, a), reason):.1f}%" for a in AGENTS},
                }
            )
        rows.append(
            {
                "players": n,
                "ends": "mean rounds",
                **{f"`{a}`": f"{_num(e, (n, a), 'mean_rounds'):.2f}" for a in AGENTS},
            }
        )
    return pd.DataFrame(rows)


def _num(frame: pd.DataFrame, key: tuple[Any, ...], column: str) -> float:
    """``frame.loc[key, column]`` as a float."""
    value: Any = frame.loc[key, column]
    return float(value)


def _vector(r: Any) -> str:
    scores = f"({', '.join(map(str, r.starting_scores))})"
    rates = " / ".join(f"{100 * x:.1f}" for x in r.seat_win_rates)
    return f"{scores}: {rates}"


def starting_scores_table(sp: StrongPlay) -> pd.DataFrame:
    """Fairest and rulebook starting scores of each agent, with the checked seat win rates.

    The seat rates are those of the confirmation run (``check_games`` games at the
    vector); ``max |rate − 1/n|`` carries no interval, the seat rates carry theirs in the
    data (``seat_intervals``).
    """
    st = sp.starting_scores
    rows = []
    for n in PLAYER_COUNTS:
        for a in AGENTS:
            for row in st[(st["agent"] == a) & (st["players"] == n)].itertuples():
                r: Any = row
                half = max((hi - lo) / 2 for lo, hi in r.seat_intervals)
                rows.append(
                    {
                        "players": n,
                        "agent": f"`{a}`",
                        "vector": r.role,
                        "starting scores: seat win rates (%)": _vector(r),
                        "max abs(rate - 1/n)": f"{100 * r.max_deviation:.1f}",
                        "games (± half-width)": f"{r.check_games:,} (±{100 * half:.1f})",
                        "search within precision": ("yes" if r.within_precision else "no")
                        if r.role == "fairest"
                        else "-",
                    }
                )
    return pd.DataFrame(rows)


def coaster_table(sp: StrongPlay) -> pd.DataFrame:
    """A coaster token's worth to winning (two players), ``strategic`` beside ``value``."""
    co = sp.coasters
    by = {a: co[co["agent"] == a].set_index("coaster") for a in AGENTS}
    rows = []
    for cid, c in by[BASELINE].iterrows():
        cells = {}
        for a in AGENTS:
            x: Any = by[a].loc[str(cid)]
            cells[f"`{a}`: held - not held (points)"] = (
                f"{100 * x.effect:+.1f} [{100 * x.effect_low:+.1f}, {100 * x.effect_high:+.1f}]"
            )
            cells[f"`{a}`: suggested A / B"] = f"{x.new_side_a} / {x.new_side_b_1}-{x.new_side_b_2}"
        rows.append(
            {
                "coaster": c.combination,
                "printed A / B": f"{c.side_a} / {c.side_b_1}-{c.side_b_2}",
                **cells,
            }
        )
    return pd.DataFrame(rows)


def what_if_table(sp: StrongPlay) -> pd.DataFrame:
    """The what-if rows (two players): length, endings, first-player edge and skill, both sides."""
    w = sp.what_if
    by = {a: w[w["run"] == a].set_index("variant") for a in AGENTS}
    strong = by[STRONG]
    weak_col, strong_col = SKILL_COLUMNS

    def rate(r: Any, col: str) -> str:
        if pd.isna(r[col]):
            return "not played"
        return pct(r[col], r[f"{col}_low"], r[f"{col}_high"])

    def edge(r: Any) -> str:
        lo, hi = r["first_player_edge_low"], r["first_player_edge_high"]
        return f"{100 * r['first_player_edge']:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]"

    rows = []
    for name in strong.index:
        a, b = by[BASELINE].loc[name], strong.loc[name]
        rows.append(
            {
                "variant": name,
                "rounds (`strategic` / strong)": f"{a.mean_rounds:.2f} / {b.mean_rounds:.2f}",
                "PIÑA COLADICE ends": f"{100 * a.share_pina_coladice:.1f}% / "
                f"{100 * b.share_pina_coladice:.1f}%",
                "first-player edge, `strategic` (points)": edge(a),
                "first-player edge, strong (points)": edge(b),
                "strong self-play by": f"`{b.agent}`",
                "skill: `strategic` vs `ev`": rate(b, weak_col),
                "skill: `value` vs `strategic`": rate(b, strong_col),
            }
        )
    return pd.DataFrame(rows)


def happy_hour_table(sp: StrongPlay) -> pd.DataFrame:
    """What the Happy Hour variant changes, under each agent: first player, endings, skill.

    Differences are Happy Hour minus the rulebook, in points of percentage, with the
    normal 95% interval of a difference of two independent rates.
    """
    rows = []

    def diff(a: Any, b: Any, rate: str, lo: str, hi: str) -> str:
        d, half = _difference(a, b, rate, lo, hi)
        return f"{100 * d:+.1f} ± {100 * half:.1f}"

    for n in PLAYER_COUNTS:
        cells = {}
        for ag in AGENTS:
            a, b = position_rate(sp, ag, n, 1, False), position_rate(sp, ag, n, 1, True)
            cells[f"`{ag}`"] = (
                f"{100 * a.win_rate:.1f}% → {100 * b.win_rate:.1f}% "
                f"({diff(a, b, 'win_rate', 'ci_low', 'ci_high')})"
            )
        rows.append({"measure": f"{n} players: the first player's win rate", **cells})
    e = sp.ends.set_index(["players", "agent", "happy_hour"])

    def share_diff(n: int, ag: str) -> str:
        p0, p1 = (_num(e, (n, ag, hh), "pina_coladice") for hh in (False, True))
        g0, g1 = (_num(e, (n, ag, hh), "games") for hh in (False, True))
        half = Z95 * float(np.hypot(np.sqrt(p0 * (1 - p0) / g0), np.sqrt(p1 * (1 - p1) / g1)))
        return f"{100 * p0:.1f}% → {100 * p1:.1f}% ({100 * (p1 - p0):+.1f} ± {100 * half:.1f})"

    for n in PLAYER_COUNTS:
        rows.append(
            {
                "measure": f"{n} players: games ending on a full line",
                **{f"`{ag}`": share_diff(n, ag) for ag in AGENTS},
            }
        )
    w = sp.what_if[sp.what_if["run"] == STRONG].set_index("variant")
    weak_col, strong_col = SKILL_COLUMNS
    base, hh = w.loc["rulebook"], w.loc["happy hour"]
    rows.append(
        {
            "measure": "2 players: the stronger agent's heads-up win rate",
            f"`{BASELINE}`": f"vs `ev`: {100 * base[weak_col]:.1f}% → {100 * hh[weak_col]:.1f}% "
            f"({diff(base, hh, weak_col, weak_col + '_low', weak_col + '_high')})",
            f"`{STRONG}`": f"vs `strategic`: {100 * base[strong_col]:.1f}% → "
            f"{100 * hh[strong_col]:.1f}% "
            f"({diff(base, hh, strong_col, strong_col + '_low', strong_col + '_high')})",
        }
    )
    return pd.DataFrame(rows)


def headline_table(sp: StrongPlay) -> pd.DataFrame:
    """The landing page's table: turn order, starting scores and coasters, both sides."""
    table = comparisons(sp)
    keep = table["topic"].isin(["turn order", "starting scores", "coasters"])
    out = table[keep].drop(columns="topic")
    return out.rename(
        columns={
            "strategic": f"`{BASELINE}` self-play",
            "strong_play": f"strong play (`{STRONG}` self-play)",
        }
    ).reset_index(drop=True)


def doc_tables(sp: StrongPlay) -> dict[str, pd.DataFrame]:
    """The tables of ``docs/strong-play.md`` by name, in the page's order."""
    return {
        "seats": seat_table(sp),
        "seats-happy-hour": seat_table(sp, happy_hour=True),
        "ends": ends_table(sp),
        "starting-scores": starting_scores_table(sp),
        "coasters": coaster_table(sp),
        "what-if": what_if_table(sp),
        "happy-hour": happy_hour_table(sp),
        "verdicts": comparisons(sp),
        "headline": headline_table(sp),
    }


def update_tables(text: str, tables: dict[str, Any]) -> str:
    """``text`` with the Markdown table after each ``<!-- table: NAME -->`` line replaced.

    Markers of names that ``tables`` lacks are left as they are (a page may hold the
    tables of several sources).
    """
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        out.append(lines[i])
        name = lines[i].removeprefix("<!-- table: ").removesuffix(" -->")
        i += 1
        if lines[i - 1].startswith("<!-- table: ") and name in tables:
            while i < len(lines) and lines[i].startswith("|"):
                i += 1
            out.append(markdown(tables[name]))
    return "\n".join(out)
