"""The coach's and the network's win probabilities are calibrated: p is won ~p of the time."""

from __future__ import annotations

import numpy as np
import pytest

from pinastats.coach import calibration, calibration_summary
from pinastats.coach.reliability import (
    PHASES,
    brier_score,
    ece_floor,
    equal_mass_ece,
    game_phase,
    log_loss,
)
from pinastats.errors import PinastatsError

MIN_COUNT = 15
"""Deciles with fewer positions are too noisy to check."""
BIAS = 0.10
"""Allowed bias of the estimate (few play-outs: the best of noisy ``W`` is optimistic)."""


def test_the_coach_is_calibrated_and_beats_the_base_rate() -> None:
    r = calibration(150, playouts=24, seed=3, workers=1)
    assert r.table["count"].sum() == 150
    assert np.isin(r.result, [0.0, 0.5, 1.0]).all()
    assert ((r.predicted >= 0) & (r.predicted <= 1)).all()
    # the predictions separate wins from losses better than the base rate does
    assert r.brier < r.brier_constant
    checked = r.table[r.table["count"] >= MIN_COUNT]
    assert len(checked) >= 2
    for row in checked.to_dict("records"):
        p, n = float(row["predicted"]), int(row["count"])
        # three binomial standard deviations of the observed rate, plus the allowed bias
        noise = 3 * np.sqrt(p * (1 - p) / n)
        assert abs(float(row["observed"]) - p) <= BIAS + noise, row


def test_the_network_is_calibrated_in_every_phase() -> None:
    r = calibration(240, evaluator="network", seed=5, workers=2)
    assert r.playouts == 0
    assert r.predictor == "network (value)"
    assert r.brier < r.brier_constant
    summary = r.summary()
    assert list(summary["phase"]) == [*PHASES, "all"]
    by_phase = summary.set_index("phase")
    assert by_phase.loc[list(PHASES), "positions"].sum() == by_phase.loc["all", "positions"] == 240
    assert by_phase.loc["all", "brier"] == pytest.approx(r.brier)
    assert by_phase.loc["all", "ece"] == pytest.approx(r.ece)
    # the ECE of 240 noisy results: within the floor of a perfect predictor plus a bias
    floor = summary[summary["phase"] == "all"]["ece_floor"].to_numpy(dtype=float)[0]
    assert r.ece <= floor + BIAS
    checked = r.table[r.table["count"] >= MIN_COUNT]
    for row in checked.to_dict("records"):
        p, n = float(row["predicted"]), int(row["count"])
        assert abs(float(row["observed"]) - p) <= BIAS + 3 * np.sqrt(p * (1 - p) / n), row


def test_the_summary_stacks_runs_and_names_the_predictor() -> None:
    a = calibration(12, evaluator="network", players=3, happy_hour=True, seed=2)
    b = calibration(12, playouts=4, seed=2)
    both = calibration_summary([a, b])
    assert len(both) == 2 * (len(PHASES) + 1)
    assert set(both["evaluator"]) == {"network (value)", "coach (4 play-outs)"}
    assert set(both["players"]) == {2, 3}
    assert both[both["players"] == 3]["happy_hour"].all()
    assert set(a.phase) <= set(PHASES)


def test_the_measures_on_known_predictions() -> None:
    rng = np.random.default_rng(0)
    p = rng.random(20_000)
    y = (rng.random(20_000) < p).astype(float)
    # a calibrated predictor: ECE near its floor; shifted by 0.1: ECE near 0.1
    assert equal_mass_ece(p, y) < 0.02
    assert abs(equal_mass_ece(np.clip(p + 0.1, 0, 1), y) - 0.1) < 0.03
    assert ece_floor(p) < 0.02
    half = np.full(4, 0.5)
    assert log_loss(half, np.array([0.0, 1.0, 0.5, 1.0])) == pytest.approx(np.log(2))
    assert brier_score(half, np.array([0.0, 1.0, 0.5, 1.0])) == pytest.approx(0.1875)
    # a sure wrong prediction is finite (clipped) but large
    assert 10 < log_loss(np.array([1.0]), np.array([0.0])) < 20
    phases = game_phase(np.array([0, 3, 4, 7, 8, 11]), 12)
    assert list(phases) == ["early", "early", "middle", "middle", "late", "late"]


def test_the_threads_change_nothing() -> None:
    one = calibration(6, playouts=4, seed=1, workers=1)
    two = calibration(6, playouts=4, seed=1, workers=2)
    np.testing.assert_array_equal(one.predicted, two.predicted)
    np.testing.assert_array_equal(one.result, two.result)
    net_one = calibration(6, evaluator="network", seed=1, workers=1)
    net_two = calibration(6, evaluator="network", seed=1, workers=2)
    np.testing.assert_array_equal(net_one.predicted, net_two.predicted)
    np.testing.assert_array_equal(net_one.phase, net_two.phase)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"positions": 0}, "got 0"), ({"policy": "evv"}, "did you mean 'ev'"),
     ({"players": 5}, "players must be 2, 3 or 4"),
     ({"evaluator": "nets"}, "evaluator must be one of coach, network, got 'nets'"),
     ({"happy_hour": 1}, "happy_hour must be True or False, got 1")],
)  # fmt: skip
def test_bad_settings_are_named(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(PinastatsError, match=message):
        calibration(**kwargs)  # type: ignore[arg-type]
