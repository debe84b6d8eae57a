"""Guest agents in a report: their runs, their seeds, their page, their errors."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from matplotlib.text import Text

from pinastats.errors import PinastatsError
from pinastats.game import GameConfig
from pinastats.report import render
from pinastats.report.pages import page_titles
from pinastats.report.pages.guests import SECTION
from pinastats.report.sims import AGENTS, MAX_GUESTS, check_guests, run_seed, run_simulations
from pinastats.report.typeset import style
from pinastats.report.typeset.check import page_problems
from pinastats.simulation import simulate
from tests.report.conftest import Written

ROOT = Path(__file__).resolve().parents[2]
CORNER = f"{ROOT / 'examples' / 'corner_agent.py'}:CornerAgent"
GUEST = "strategic(block=0)"  # a built-in agent that is not one of the report's


@pytest.fixture(scope="module")
def guest_sims():  # type: ignore[no-untyped-def]
    config = GameConfig(players=3)
    return run_simulations(config, 40, 2, workers=1, guests=[CORNER, GUEST], guest_games=12)


def test_each_guest_meets_every_built_in_agent(guest_sims) -> None:  # type: ignore[no-untyped-def]
    assert guest_sims.guest_games == 12
    assert [len(runs) for runs in guest_sims.guests] == [len(AGENTS), len(AGENTS)]
    for g, (guest, runs) in enumerate(zip(("corner", GUEST), guest_sims.guests, strict=True)):
        for b, run in enumerate(runs):
            assert run.agents == (guest, AGENTS[b], AGENTS[b])
            assert run.games == 12
            assert run.seeds == (run_seed(2, 8 + 4 * g + b),)
    # the match-ups and the ladder are those of a report without guests
    plain = run_simulations(GameConfig(players=3), 40, 2, workers=1)
    assert guest_sims.mixed == plain.mixed
    assert plain.guests == ()
    assert plain.guest_games == 0


def test_a_guest_run_replays_with_simulate(guest_sims) -> None:  # type: ignore[no-untyped-def]
    run = guest_sims.guests[0][3]
    again = simulate([CORNER, "strategic", "strategic"], 12, seed=run.seeds[0], workers=1)
    wins = again.games["winner"].value_counts()
    assert run.win_rate("corner").count == int(wins.get(0, 0))


@pytest.mark.parametrize(
    ("guests", "words"),
    [
        (["ev"], "'ev' is taken"),
        ([CORNER, CORNER], "'corner' is taken"),
        ([CORNER, "rollout", "greedy(t=1)"], None),
        (["nowhere.py:X"], "not found"),
        (["evv"], "did you mean 'ev'"),
    ],
)
def test_bad_guests_are_refused(guests: list[str], words: str | None) -> None:
    with pytest.raises(PinastatsError, match=words or f"at most {MAX_GUESTS}"):
        check_guests(guests)


def test_the_guest_page(two_players: Written) -> None:
    sims = run_simulations(GameConfig(players=2), 30, 1, workers=1, guests=[CORNER],
                           guest_games=10)  # fmt: skip
    report = dataclasses.replace(two_players.report, simulations=sims)
    titles = page_titles(report)
    assert titles.count(SECTION) == 1
    assert SECTION not in page_titles(two_players.report)
    assert titles.index(SECTION) == titles.index("Strong play") - 1
    figures = render(report)
    page = figures[titles.index(SECTION)]
    texts = [t.get_text() for t in page.findobj(Text)]
    assert all(texts.count(opponent) >= 1 for opponent in AGENTS)  # a row against each
    assert texts.count("corner") >= len(AGENTS)
    assert any("played 10 games against each built-in agent" in t for t in texts)
    with style():
        assert page_problems(page) == []


def test_the_cli_refuses_a_bad_guest_before_computing(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    line = cli("report", "--players", "2", "-o", str(tmp_path / "r.pdf"),
               "--guest", "nowhere.py:X").one_error_line()  # fmt: skip
    assert "nowhere.py" in line
    assert "not found" in line
    assert not (tmp_path / "r.pdf").exists()
