"""A whole game at a real table, played on a phone the way a person would (headless Chromium).

Set up from a line of the position notation at 390×844, enter the dice of every roll by
tapping their faces, read the coach (whichever network ships: the dice and moves are scripted,
the advice checked against the session's), record the placements and a pass,
undo a mistyped roll, finish, and read the review; the page is checked at each step, and
it never scrolls sideways. Screenshots of the agents' game on the phone and of the table in
a desktop window (1280×900) are written to ``$PINASTATS_SCREENSHOTS`` when it is set
(``docs/images`` for ``docs/play.md``).
"""

from __future__ import annotations

import os
import re
import threading
from pathlib import Path
from typing import Any

import pytest

from pinastats.game.notation import parse_position
from pinastats.tabletop.server import BoardServer
from pinastats.tabletop.session import PlaySession
from pinastats.tabletop.table import TableSession
from pinastats.tabletop.view import advice_view

STEP = 30_000
"""Milliseconds a page waits for the board to answer a tap."""
LINE = "pc1 P1,P2+2,P3+1,P4/P5+2,P6+1,T1+2,T2/T3+1,T4+2,T5,T6+1/FH+2,SS,LS,OD 1"
"""Ana (seat 1) has two tokens left, Ben one: four turns to the end."""
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def _tap(page: Any, target: Any) -> None:
    """Tap and wait for the server's answer to be drawn."""
    before = int(page.evaluate("Number(document.body.dataset.answers || 0)"))
    target.click()
    page.wait_for_function(f"Number(document.body.dataset.answers || 0) > {before}")


def _no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


def _shot(page: Any, name: str, folder: Path) -> None:
    page.screenshot(path=str(folder / name), full_page=False)


def _session(server: BoardServer) -> TableSession:
    session = server.session
    assert isinstance(session, TableSession)
    return session


def _enter(page: Any, dice: list[int]) -> None:
    """Tap the faces of the dice rolled anew (the kept dice stay entered): the roll goes in
    with the fifth die."""
    kept = [int(t.split()[1]) for t in page.locator(".pina-entry .pina-die.kept").all_inner_texts()]
    rest = list(dice)
    for d in kept:
        if d not in rest:  # not what was kept at this table: let every kept die go
            for die in page.locator(".pina-keep .pina-die.held").all():
                die.click()
            rest = list(dice)
            break
        rest.remove(d)
    for i, d in enumerate(rest):
        face = page.locator(f'.pina-faces .pina-face[data-face="{d}"]')
        if i == len(rest) - 1:
            _tap(page, face)
        else:
            face.click()
    shown = " ".join(map(str, sorted(dice)))
    page.wait_for_selector(f'.pina-shown:has-text("{shown}")')


def _check_advice(page: Any, server: BoardServer) -> dict[str, Any]:
    """The coach's best row on the page is the advice for the position and the dice."""
    session = _session(server)
    table = session.summary()
    rolls_left = min(table["rolls"] - table["roll"], 2)
    advice = advice_view(session.game, session.dice, rolls_left, session.labels)
    assert advice is not None
    coach = page.inner_text(".pina-coach")
    assert "percentage points" in coach
    assert advice["verdict"] in coach
    best = page.locator(".pina-advice tr.best")
    assert best.count() == 1  # one best move
    rows = advice.get("keeps") or advice["placements"]
    label = rows[0].get("label") or rows[0]["coaster"]
    assert label in best.inner_text()
    return advice


def _play_turn(page: Any, server: BoardServer, rolls: list[list[int]], place: str) -> None:
    """Enter the rolls one by one, reading the coach at each, then place on ``place``.

    The script's dice and placements are fixed, whatever the coach says, so that the
    game is the same with any network: at each roll the page must show the advice the
    session gives for it (its best row marked, and after the last roll the best cell lit
    as the best placement), and ``place`` must be a legal cell of the last roll.
    """
    advice: dict[str, Any] = {}
    for dice in rolls:
        _enter(page, dice)
        advice = _check_advice(page, server)
    if "placements" in advice:
        best = page.locator(".pina-cell.legal.best")
        assert best.count() == 1
        assert best.locator(".pina-coaster").inner_text() == advice["placements"][0]["coaster"]
        why = page.locator(".pina-advice tr.best .pina-why").first.inner_text()
        assert why == advice["placements"][0]["why"]
        if len(advice["placements"]) > 1:  # why the best beats the runner-up
            compare = advice["placements"][0]["compare"]
            assert page.locator(".pina-advice tr.best .pina-compare").inner_text() == compare
            assert advice["placements"][1]["coaster"] in compare
    cell = page.locator(".pina-cell.legal", has_text=place)
    assert cell.count() == 1, f"{place} is not a legal cell after {rolls[-1]}"
    assert cell.locator(".pina-coaster").inner_text() == place
    _tap(page, cell)


def test_a_whole_game_at_a_real_table_on_a_phone(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # no solved table kept: the coach is the learned network, whatever this machine solved
    from pinastats.solve import table

    monkeypatch.setattr(table, "tables_dir", lambda: tmp_path / "tables")
    monkeypatch.setattr(table, "_SOLUTIONS", type(table._SOLUTIONS)())
    folder = Path(os.environ.get("PINASTATS_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    server = BoardServer(PlaySession(["human", "strategic"], seed=1), 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.port}/"
    try:
        page = browser.new_page(viewport=PHONE)
        page.set_default_timeout(STEP)
        page.goto(url)
        page.wait_for_selector(".pina-ask")
        assert "seed 1" in page.inner_text(".pina-bar")
        _no_sideways_scroll(page)
        _tap(page, page.locator(".pina-roll"))  # a game against the agent first: the coach
        page.wait_for_selector(".pina-coach")
        play = server.session
        assert isinstance(play, PlaySession)
        pending = play.pending
        assert pending is not None
        made = play.game.legal_cells(pending.dice)  # lit while keeping, not to be tapped
        assert page.locator(".pina-cell.lit").count() == len(made) == 3  # 2 2 2 3 5
        assert "percentage points" in page.inner_text(".pina-coach")
        _no_sideways_scroll(page)
        _shot(page, "play-phone.png", folder)

        # My table: set up from a pasted line, the seats named
        _tap(page, page.locator(".pina-table"))
        page.wait_for_selector(".pina-setup")
        assert page.locator(".pina-coaster-input").count() == 16
        page.fill('.pina-name[data-seat="0"]', "Ana")
        page.fill('.pina-name[data-seat="1"]', "Ben")
        page.fill(".pina-paste", LINE)
        _no_sideways_scroll(page)
        _tap(page, page.locator(".pina-setup-line"))
        page.wait_for_selector(".pina-faces")
        seats = page.inner_text(".pina-seats")
        assert "Ana — 7 points · 2 tokens left · to play" in seats
        assert "Ben — 14 points · 1 token left" in seats
        assert "Ana to play: tap the five dice rolled" in page.inner_text(".pina-ask")
        _no_sideways_scroll(page)

        # turn 11: Ana keeps 1 2 3 4 twice, then takes the Small Straight
        _enter(page, [1, 2, 3, 4, 6])
        _check_advice(page, server)
        lit = {c.get_attribute("data-cell") for c in page.locator(".pina-cell.legal").all()}
        assert lit == {"13"}  # the coaster the dice already make: the Small Straight
        desktop = browser.new_page(viewport=DESKTOP)
        desktop.goto(url)
        desktop.wait_for_selector(".pina-coach")
        _no_sideways_scroll(desktop)
        _shot(desktop, "table-desktop.png", folder)
        desktop.close()
        _play_turn(page, server, [[1, 2, 3, 4, 4], [4, 3, 2, 1, 4]], "Small Straight")
        log = page.inner_text(".pina-log")
        # the dice the coach kept between the rolls (whichever evaluator advises) are told
        told = re.search(r"Turn 11 · Ana: rolled 1 2 3 4 6, kept ([\d ]+), then 1 2 3 4 4, kept "
                         r"([\d ]+), then 1 2 3 4 4 — placed on Small Straight for 3 points\.",
                         log)  # fmt: skip
        assert told is not None, log
        assert "Ana — 10 points · 1 token left" in page.inner_text(".pina-seats")

        # turn 12: Ben mistypes a roll on the keyboard and takes it back, then nothing: a pass
        board = page.locator(".pina-app")
        for key in ["6", "6", "6", "1", "Backspace", "6"]:  # the 1 was a slip
            board.press(key)
        before = int(page.evaluate("Number(document.body.dataset.answers || 0)"))
        board.press("6")  # the fifth die enters the roll
        page.wait_for_function(f"Number(document.body.dataset.answers || 0) > {before}")
        assert "6 6 6 6 6" in page.inner_text(".pina-shown")
        _tap(page, page.locator(".pina-undo"))
        assert page.locator(".pina-shown").count() == 0
        for dice in ([2, 3, 3, 5, 6], [2, 2, 3, 6, 6], [2, 2, 3, 3, 6]):
            _enter(page, dice)
        assert page.locator(".pina-cell.legal").count() == 0
        _tap(page, page.locator(".pina-pass"))
        told = page.inner_text(".pina-log")
        assert re.search(r"Turn 12 · Ben: rolled 2 3 3 5 6, kept [\w ]+, then 2 2 3 6 6, kept "
                         r"[\w ]+, then 2 2 3 3 6 — nothing to place: the turn passes\.",
                         told), told  # fmt: skip

        # turn 13: Ana's last token triggers the end; Ben is told this is his last turn
        _play_turn(page, server, [[1, 2, 5, 5, 5], [3, 5, 5, 5, 6]], "Three 5s")
        announce = page.inner_text(".pina-announce")
        assert "End triggered — this is the last round." in announce
        assert "This is Ben's last turn." in announce
        assert "the end is triggered — last round" in page.inner_text(".pina-log")

        # turn 14: Ben's last turn, then the result and the review
        _play_turn(page, server, [[1, 1, 3, 5, 6], [1, 1, 2, 5, 6]], "Pair of 1s")
        result = page.inner_text(".pina-result")
        assert result.startswith("Game over: Ben wins")
        assert len(page.locator(".pina-log li").all()) == 4  # every turn, the undone roll not
        _tap(page, page.locator(".pina-review"))
        review = page.inner_text(".pina-review-box")
        assert "Graded by a search over the network, 3 turns deep, stronger than" in review
        assert "The game ended and Ben won." in review
        assert page.locator("svg.pina-chart polyline").count() == 2  # each seat's chance
        for width in (360, 430):  # the narrowest and widest phones
            page.set_viewport_size({"width": width, "height": 844})
            _no_sideways_scroll(page)
        page.set_viewport_size(PHONE)
        page.locator(".pina-review-box").scroll_into_view_if_needed()
        assert _session(server).game.is_over
        assert parse_position(LINE).turn == 10
    finally:
        server.shutdown()
        server.server_close()
        server.session.close()


CODES = ["P1", "P2", "P3", "P4", "P5", "P6", "T1", "T2", "T3", "T4", "T5", "T6"]


def test_the_table_set_up_by_typing_the_coasters_and_tapping_the_tokens(
    browser: Any, tmp_path: Path
) -> None:
    folder = Path(os.environ.get("PINASTATS_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    server = BoardServer(TableSession(), 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        page = browser.new_page(viewport={"width": 360, "height": 780})
        page.set_default_timeout(STEP)
        page.goto(f"http://127.0.0.1:{server.port}/")
        page.wait_for_selector(".pina-setup")
        options = page.locator("#pina-coasters option")
        assert options.count() == 50  # the catalogue, offered as one types: names and codes
        names = [options.nth(i).get_attribute("value") for i in range(50)]
        assert "Full House" in names
        assert "FH" in names
        page.click(".pina-add-seat")  # three seats
        for seat, name in enumerate(("Ana", "Ben", "Cleo")):
            page.fill(f'.pina-name[data-seat="{seat}"]', name)
        board = ["Pair of 1s", "Pair of 2s", "Pair of 3s", "Pair of 4s", "Pair of 5s",
                 "Pair of 6s", "Three 1s", "Three 2s", "Three 3s", "Three 4s", "Three 5s",
                 "Three 6s", "Full House", "Small Straight", "Large Straight", "Odds"]  # fmt: skip
        for cell, name in enumerate(board):
            page.fill(f'.pina-coaster-input[data-cell="{cell}"]', name)
        page.click('.pina-put[data-cell="0"]')  # Ana's token (the first seat is picked)
        page.click(".pina-seat-pick >> nth=2")
        page.click('.pina-put[data-cell="5"]')  # Cleo's
        assert page.locator('.pina-put[data-cell="5"] .pina-token').count() == 1
        page.select_option(".pina-first", "0")  # Ana played first, Ben is to play now
        page.select_option(".pina-to-move", "1")
        _no_sideways_scroll(page)
        page.set_viewport_size(PHONE)
        page.locator(".pina-token-seat").scroll_into_view_if_needed()
        _tap(page, page.locator(".pina-start"))
        page.wait_for_selector(".pina-faces")
        seats = page.inner_text(".pina-seats")
        session = _session(server)
        a, b, c = session.game.scores  # the starting scores, and the tokens' points
        assert f"Ana — {a} points · 5 tokens left" in seats
        assert f"Ben — {b} points · 6 tokens left · to play" in seats
        assert f"Cleo — {c} points · 5 tokens left" in seats
        assert session.game.players == 3
        assert [session.game.coaster(c).name for c in range(16)] == board
        _no_sideways_scroll(page)
    finally:
        server.shutdown()
        server.server_close()
