"""The supported player counts are named once: ``PLAYER_COUNTS`` (``pinastats/errors.py``).

Every validator of a player count says the same thing, from that one name, and
no module writes the counts out again.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import pinastats
from pinastats.errors import PinastatsError

PACKAGE = Path(pinastats.__file__).resolve().parent


def _validators() -> dict[str, Callable[[Any], object]]:
    from pinastats.balance.seats import check_players
    from pinastats.coach.objectives import compare_objectives
    from pinastats.coach.reliability import calibration
    from pinastats.game import GameConfig
    from pinastats.value.recipe import parts

    return {
        "GameConfig": lambda n: GameConfig(players=n),
        "balance.check_players": check_players,
        "coach.compare_objectives": lambda n: compare_objectives(4, players=n),
        "coach.calibration": lambda n: calibration(players=n),
        "value.recipe.parts": lambda n: parts(n, 1),
    }


@pytest.mark.parametrize("name", sorted(_validators()))
@pytest.mark.parametrize("bad", [1, 5, True])
def test_every_validator_names_the_supported_counts_the_same_way(name: str, bad: object) -> None:
    from pinastats.game.rules import PLAYER_COUNTS, players_text

    assert PLAYER_COUNTS == (2, 3, 4)
    with pytest.raises(PinastatsError, match=re.escape(f"players must be {players_text()}, got")):
        _validators()[name](bad)


def test_no_module_writes_the_counts_out_again() -> None:
    written = re.compile(r"2, 3 or 4|\(2, 3, 4\)|range\(2, 5\)|2 <= \w+ <= 4")
    found = [
        str(path.relative_to(PACKAGE))
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.relative_to(PACKAGE).as_posix() != "errors.py"
        and written.search(path.read_text(encoding="utf-8"))
    ]
    assert found == []
