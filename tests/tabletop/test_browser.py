"""End to end in a real browser: the served board driven in headless Chromium (Playwright).

Debian's ``chromium`` (``apt-get install chromium``; ``.ci/run`` installs it) is driven
through Playwright's own protocol client, pointed at that browser: nothing is
downloaded at test time. The server runs in this process on a free port.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from pinastats.evaluation import advise
from pinastats.records import read_records
from pinastats.records.review import review_game
from pinastats.tabletop.server import BoardServer
from pinastats.tabletop.session import PlaySession

STEP = 30_000
"""Milliseconds a page waits for the board to answer a click."""


def _serve(seats: list[str], seed: int) -> tuple[BoardServer, str]:
    server = BoardServer(PlaySession(seats, seed=seed), 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def _page(browser: Any, url: str) -> Any:
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.set_default_timeout(STEP)
    page.goto(url)
    page.wait_for_selector(".pina-ask, .pina-result")
    return page


def _click(page: Any, target: Any) -> None:
    """Click and wait for the server's answer to be drawn."""
    before = int(page.evaluate("Number(document.body.dataset.answers || 0)"))
    target.click()
    page.wait_for_function(f"Number(document.body.dataset.answers || 0) > {before}")
    page.wait_for_function("!document.body.innerText.includes('other seats are playing')")


def _press(page: Any, key: str) -> None:
    """Press a key on the board and wait for the server's answer to be drawn."""
    before = int(page.evaluate("Number(document.body.dataset.answers || 0)"))
    page.locator(".pina-app").press(key)
    page.wait_for_function(f"Number(document.body.dataset.answers || 0) > {before}")
    page.wait_for_function("!document.body.innerText.includes('other seats are playing')")


def _dice(page: Any) -> list[int]:
    return [int(t.split()[-1]) for t in page.locator(".pina-die").all_inner_texts()]


def test_hold_dice_roll_and_place_a_token(browser: Any) -> None:
    server, url = _serve(["human", "strategic"], seed=12)
    try:
        page = _page(browser, url)
        _click(page, page.locator(".pina-roll"))
        first = _dice(page)
        page.click('.pina-die[data-die="0"]')
        page.click('.pina-die[data-die="1"]')
        assert page.locator(".pina-die.held").count() == 2
        assert page.inner_text(".pina-roll") == "Roll 3 dice"
        _click(page, page.locator(".pina-roll"))
        second = _dice(page)
        for kept in first[:2]:  # the held dice are still showing
            assert kept in second
            second.remove(kept)
        _press(page, "s")  # stop, by the keyboard
        legal = page.locator(".pina-cell.legal")
        if legal.count():
            cell = legal.first.get_attribute("data-cell")
            _click(page, legal.first)
            page.wait_for_selector(f'.pina-cell[data-cell="{cell}"] .pina-token')
            assert "Seat 1 (you): rolled" in page.inner_text(".pina-log")
    finally:
        server.shutdown()
        server.server_close()


def test_the_coach_panel_shows_the_numbers_of_win_advice(browser: Any) -> None:
    server, url = _serve(["human", "strategic"], seed=8)
    try:
        page = _page(browser, url)
        _click(page, page.locator(".pina-roll"))
        page.wait_for_selector(".pina-advice")
        session = server.session
        assert isinstance(session, PlaySession)
        p = session.pending
        assert p is not None
        advice = advise(session.game, p.dice, p.rolls_left, surface="board")
        panel = page.inner_text(".pina-coach")
        assert f"{100 * advice.win_probability:.1f}%" in panel
        best = page.locator(".pina-advice tr.best").inner_text()
        top = advice.keeps[0]
        assert f"{100 * top.win_probability:.1f}%" in best
        assert ("stop" if len(top.keep) == 5 else " ".join(map(str, top.keep))) in best
    finally:
        server.shutdown()
        server.server_close()


def test_a_whole_game_against_an_agent_exports_a_record_that_reviews(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    server, url = _serve(["human", "strategic"], seed=3)
    shots = []
    try:
        page = _page(browser, url)
        for step in range(400):
            if page.locator(".pina-result").count():
                break
            if page.locator(".pina-cell.legal").count():
                _click(page, page.locator(".pina-cell.legal").last)
            elif page.locator(".pina-stop").count():
                _click(page, page.locator(".pina-stop"))
            elif page.locator(".pina-option").count():
                _click(page, page.locator(".pina-option").first)
            else:
                _click(page, page.locator(".pina-roll"))
            if step in (1, 20):
                shots.append(page.screenshot())
        result = page.inner_text(".pina-result")
        assert result.startswith("Game over:")
        assert "wins" in result or "nobody" in result
        with page.expect_download() as download:
            page.click(".pina-export")
        assert download.value.suggested_filename == "pinastats-game-seed3.jsonl"
        page.wait_for_selector(".pina-message")
        assert "record saved as" in page.inner_text(".pina-message")
        assert list(tmp_path.iterdir()) == []  # nothing written by the server
        download.value.save_as(tmp_path / "saved" / "game.jsonl")
        record = read_records(tmp_path / "saved" / "game.jsonl")[0]
        assert record.agents == ("you", "strategic")
        assert review_game(record, evaluator="network", seats=[0]).summary(0).decisions > 0
        page.click(".pina-review")
        page.wait_for_function(
            "(document.querySelector('.pina-review-box') || {innerText: ''})"
            ".innerText.includes('Graded by')"
        )
        assert all(len(s) > 10_000 for s in shots)  # the board was drawn
    finally:
        server.shutdown()
        server.server_close()
