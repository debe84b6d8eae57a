"""Plackett–Luce ratings of three- and four-player fields (:mod:`pinastats.ratings.fields`)."""

from __future__ import annotations

import pytest

from pinastats.errors import PinastatsError
from pinastats.ratings.fields import field_ladder


def test_a_strong_agent_is_rated_above_a_weak_one_in_a_mixed_field() -> None:
    ratings = field_ladder(["random", "strategic", "greedy"], 3, 200, seed=5)
    by_name = {r.agent: r for r in ratings}
    assert ratings[0].agent == "strategic"
    assert by_name["strategic"].low > by_name["random"].high
    assert sum(r.games for r in ratings) == 3 * 200
    for r in ratings:
        assert r.low < r.mu < r.high


def test_every_agent_gets_seats_in_four_player_fields() -> None:
    ratings = field_ladder(["ev", "greedy", "strategic", "random", "value"], 4, 20, seed=1)
    assert sum(r.games for r in ratings) == 80
    assert all(r.games > 0 for r in ratings)
    assert field_ladder(["ev", "greedy", "strategic", "random", "value"], 4, 20, seed=1) == ratings


@pytest.mark.parametrize(
    ("field", "players", "words"),
    [
        (["ev", "greedy"], 3, "cannot fill 3 seats"),
        (["ev", "ev", "greedy"], 3, "names an agent twice"),
        (["ev", "greedy"], 2, "cannot fill 2 seats"),
    ],
)
def test_bad_fields_are_refused(field: list[str], players: int, words: str) -> None:
    with pytest.raises(PinastatsError, match=words):
        field_ladder(field, players, 10)
