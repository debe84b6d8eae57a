"""Perfect play as the yardstick: exact error rates, games against perfect play, the reviewers."""

from __future__ import annotations

import json
import math
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from statistics import NormalDist

import pytest

from pinastats.errors import PinastatsError
from pinastats.game import GameConfig, Rules
from pinastats.records.yardstick import (
    duel_table,
    error_rates,
    error_table,
    head_to_head,
    perfect_survey,
    reviewer_table,
)

SMALL = GameConfig(rules=Rules(tokens=3))


def test_perfect_loses_nothing_and_random_loses_most() -> None:
    table = error_rates(["random", "ev", "perfect"], boards=2, games=2, config=SMALL, seed=3)
    loss = dict(zip(table["agent"], table["loss"].astype(float), strict=True))
    rate = dict(zip(table["agent"], table["error_rate"].astype(float), strict=True))
    assert loss["perfect"] == pytest.approx(0.0, abs=1e-3)
    assert rate["perfect"] == pytest.approx(0.0, abs=1e-3)
    assert loss["random"] > loss["ev"] > loss["perfect"]
    assert (table["games"] == 4).all()
    assert (table["boards"] == 2).all()
    assert (table["loss_low"] <= table["loss"]).all()
    assert table["agent"].iloc[0] == "perfect"  # best first


def wilson(points: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of ``points`` out of ``n`` (the oracle: its textbook form)."""
    z = NormalDist().inv_cdf(0.975)
    p = points / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def test_head_to_head_scores_perfect_against_an_agent() -> None:
    result = head_to_head("random", boards=1, games=6, config=SMALL, seed=2)
    assert result.games == 6
    points = result.score * result.games  # wins, and halves for games nobody won
    assert points == pytest.approx(round(2 * points) / 2)
    assert (result.low, result.high) == pytest.approx(wilson(points, result.games))
    assert result.score > 0.5  # perfect play beats random play
    # the seats swap every other game on the board: perfect's exact chance from the first
    # seat and from the second add up to one, so over 6 games they average one half
    assert result.perfect_vs_perfect == pytest.approx(0.5)


def test_one_study_a_board_gives_every_table_the_same_on_any_executor(tmp_path: Path) -> None:
    kwargs = {"agents": ["strategic", "perfect"], "games": 2, "opponents": ["greedy"],
              "duels": 2, "reviewed": 1, "seed": 5, "config": SMALL}  # fmt: skip
    plain = perfect_survey(2, **kwargs)  # type: ignore[arg-type]
    with ThreadPoolExecutor(2) as pool:
        pooled = perfect_survey(2, executor=pool, log=tmp_path / "b.jsonl", **kwargs)  # type: ignore[arg-type]
    assert plain["study"].tolist() == pooled["study"].tolist()
    header, *rows = [json.loads(line) for line in (tmp_path / "b.jsonl").read_text().splitlines()]
    assert header["format"] == "pinastats survey log"
    assert sorted(r["board"] for r in rows) == [0, 1]
    duels = duel_table(plain)
    assert [(d.opponent, d.games) for d in duels] == [("greedy", 4)]
    reviewers = {str(r["agent"]): r for r in reviewer_table(plain).to_dict("records")}
    assert float(reviewers["perfect"]["loss_exact"]) == pytest.approx(0.0, abs=1e-6)
    assert reviewers["all"]["decisions"] == sum(
        r["decisions"] for a, r in reviewers.items() if a != "all"
    )
    assert 0.0 <= float(reviewers["all"]["same_mark"]) <= 1.0
    table = error_table(plain)
    errors = dict(zip(table["agent"], table["error_rate"].astype(float), strict=True))
    assert errors["perfect"] == pytest.approx(0.0, abs=1e-6)
    assert not math.isnan(errors["strategic"])


def test_a_bad_name_or_count_is_refused_before_any_solve() -> None:
    with pytest.raises(PinastatsError, match="nobody"):
        perfect_survey(1, agents=["nobody"], games=1, config=SMALL)
    with pytest.raises(PinastatsError, match="duels"):
        perfect_survey(1, duels=-1, config=SMALL)
