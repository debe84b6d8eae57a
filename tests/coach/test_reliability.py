"""The coach's win probabilities are calibrated: positions predicted at p are won ~p of the time."""

from __future__ import annotations

import numpy as np
import pytest

from pinastats.coach import calibration
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


def test_the_threads_change_nothing() -> None:
    one = calibration(6, playouts=4, seed=1, workers=1)
    two = calibration(6, playouts=4, seed=1, workers=2)
    np.testing.assert_array_equal(one.predicted, two.predicted)
    np.testing.assert_array_equal(one.result, two.result)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"positions": 0}, "got 0"), ({"policy": "evv"}, "did you mean 'ev'"),
     ({"players": 5}, "players must be 2, 3 or 4")],
)  # fmt: skip
def test_bad_settings_are_named(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(PinastatsError, match=message):
        calibration(**kwargs)  # type: ignore[arg-type]
