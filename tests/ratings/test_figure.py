"""The ladder's figure: one labelled row per agent, written as a PNG."""

from __future__ import annotations

from pathlib import Path

from pinastats.game.config import GameConfig
from pinastats.ratings import round_robin
from pinastats.ratings.document import ladder_document
from pinastats.ratings.figure import ladder_figure


def test_figure_rows_and_file(tmp_path: Path) -> None:
    result = round_robin(["random", "greedy", "ev"], 30, seed=2)
    document = ladder_document(result, result.fit(anchor="random"), config=GameConfig(players=2))
    target = tmp_path / "ladder.png"
    fig = ladder_figure(document, target)
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    (ax,) = fig.axes
    labels = [t.get_text() for t in ax.get_yticklabels()]
    strongest_last = [r["agent"] for r in reversed(document["ratings"])]
    assert labels == [a + (" (anchor)" if a == "random" else "") for a in strongest_last]
    notes = [t.get_text() for t in ax.texts]
    assert any(note.startswith("+0, 60 games") for note in notes)


def test_saved_ladder_is_read_back_and_checked(tmp_path: Path) -> None:
    import json

    import pytest

    from pinastats.errors import PinastatsError
    from pinastats.ratings.document import strength_ladder

    result = round_robin(["random", "greedy"], 10, seed=1)
    document = ladder_document(result, result.fit(prior=1), config=GameConfig(players=2))
    document["command"] = "pinastats ladder ..."
    path = tmp_path / "ladder.json"
    path.write_text(json.dumps(document))
    assert strength_ladder(path) == document
    with pytest.raises(PinastatsError, match="no strength-ladder file"):
        strength_ladder(tmp_path / "missing.json")
    path.write_text("{")
    with pytest.raises(PinastatsError, match="not a strength-ladder file"):
        strength_ladder(path)
    path.write_text(json.dumps(document | {"schema": "other"}))
    with pytest.raises(PinastatsError, match="schema"):
        strength_ladder(path)
    path.write_text(json.dumps({k: v for k, v in document.items() if k != "ratings"}))
    with pytest.raises(PinastatsError, match=r"without \['ratings'\]"):
        strength_ladder(path)
