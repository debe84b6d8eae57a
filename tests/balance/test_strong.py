"""The shipped strong-play measurements: whole, precise enough, and the same wherever shown."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from pinastats.balance import strong
from pinastats.balance.strong import AGENTS, comparisons, doc_tables, markdown, strong_play
from pinastats.errors import MissingFileError, PinastatsError

ROOT = Path(__file__).resolve().parents[2]


def test_every_rate_lies_in_its_interval_and_the_seat_rows_are_within_half_a_point() -> None:
    sp = strong_play()
    s = sp.seats
    assert set(s["agent"]) == set(AGENTS)
    assert ((s["ci_low"] <= s["win_rate"]) & (s["win_rate"] <= s["ci_high"])).all()
    assert ((s["ci_high"] - s["ci_low"]) / 2 <= 0.005).all()  # the issue's ±0.5 points
    # each run's positions share every game's single winner (no draws in these rules)
    sums = s.groupby(["agent", "players", "happy_hour"])["win_rate"].sum()
    assert sums.to_numpy() == pytest.approx(1.0, abs=1e-9)
    for row in sp.starting_scores.itertuples():
        r: Any = row
        assert len(r.starting_scores) == r.players
        assert r.check_games >= 40_000
        assert max(abs(x - 1 / r.players) for x in r.seat_win_rates) == pytest.approx(
            r.max_deviation
        )
        for x, (lo, hi) in zip(r.seat_win_rates, r.seat_intervals, strict=True):
            assert lo <= x <= hi
            assert (hi - lo) / 2 <= 0.005


def test_the_what_if_rows_name_who_played() -> None:
    w = strong_play().what_if
    value = w[w["run"] == "value"].set_index("variant")
    assert (value.loc[value["layout"] == "standard", "agent"] == "value").all()
    others = value[value["layout"] != "standard"]
    assert len(others) >= 3
    assert (others["agent"] == "strategic").all()
    assert others["skill_value_vs_strategic"].isna().all()
    assert (others["skill_value_vs_strategic_games"] == 0).all()
    assert (w["games"] >= 40_000).all()


def _frames(first: tuple[float, float], second: tuple[float, float]) -> strong.StrongPlay:
    """A two-player-only StrongPlay with the first player's interval under each agent."""
    rows = []
    for agent, (lo, hi) in zip(AGENTS, (first, second), strict=True):
        mid = (lo + hi) / 2
        for n in (2, 3, 4):
            for k in range(1, n + 1):
                for hh in (False, True):
                    a, b = (lo, hi) if (n, k) == (2, 1) else (1 / n - 0.01, 1 / n + 0.01)
                    rate = mid if (n, k) == (2, 1) else 1 / n
                    rows.append(
                        {"agent": agent, "players": n, "happy_hour": hh, "position": k,
                         "games": 1, "win_rate": rate, "ci_low": a, "ci_high": b}
                    )  # fmt: skip
    real = strong_play()
    return strong.StrongPlay(
        seats=pd.DataFrame(rows), ends=real.ends, starting_scores=real.starting_scores,
        coasters=real.coasters, what_if=real.what_if, about=real.about,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("first", "second", "verdict"),
    [
        ((0.51, 0.53), (0.505, 0.52), "holds"),
        ((0.51, 0.53), (0.47, 0.49), "changes (reversed)"),
        ((0.51, 0.53), (0.49, 0.51), "changes (fair under one agent only)"),
        ((0.49, 0.51), (0.495, 0.505), "holds"),
        ((0.51, 0.52), (0.53, 0.55), "holds, larger"),
        ((0.51, 0.53), (0.501, 0.505), "holds, smaller"),
    ],
)
def test_a_seat_verdict_compares_the_sides_of_the_fair_share(
    first: tuple[float, float], second: tuple[float, float], verdict: str
) -> None:
    table = comparisons(_frames(first, second))
    row = table[table["finding"].str.startswith("2 players: the first")].iloc[0]
    assert row["verdict"] == verdict


def test_docs_show_the_shipped_numbers() -> None:
    """The docs carry each table as the data makes it (``strong_play.py --update``)."""
    pages = {
        name: (ROOT / "docs" / name).read_text(encoding="utf-8")
        for name in ("strong-play.md", "headlines.md")
    }
    for name, frame in doc_tables(strong_play()).items():
        marker = f"<!-- table: {name} -->\n"
        where = [page for page in pages.values() if marker in page]
        assert len(where) == 1, f"table {name!r} is in {len(where)} pages"
        assert marker + markdown(frame) + "\n" in where[0], f"table {name!r} is out of date"


def test_a_missing_or_foreign_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(MissingFileError, match="no strong-play file"):
        strong_play(tmp_path / "none.json")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"seats": []}), encoding="utf-8")
    with pytest.raises(PinastatsError, match=r"missing \['about', 'coasters'"):
        strong_play(bad)
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(PinastatsError, match="not a strong-play file"):
        strong_play(bad)
