"""A whole game at a real table on a touch phone of 360×740, as its players would play it.

Two players set the table up (the coasters typed by their short codes, Ben chosen to
play first), then every turn is entered by touch: the five faces of the first roll,
then only the faces of the re-rolled dice (the dice the coach keeps stay entered and
are marked on the dice), and the coaster the coach stars. After every roll the best
option is on screen without scrolling; a three-roll turn takes at most 12 taps. Half
way the page is switched to French and back, the server is stopped and started again
on the same port and the page, reloaded, resumes the game; a shared link opens the
same position on another board. At the end the review grades the keeps entered.
Screenshots go to ``$PINASTATS_SCREENSHOTS`` when it is set (``docs/images``).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pinastats.tabletop.server import BoardServer
from pinastats.tabletop.table import TableSession, resume

STEP = 60_000
"""Milliseconds a page waits for the board to answer a tap."""
PHONE = {"width": 360, "height": 740}
CODES = ["P1", "T3", "SS", "P4", "OD", "P2", "FH", "T5", "P6", "EV", "P3", "LS", "T1", "S21",
         "P5", "4K"]  # fmt: skip
MOST_TURNS = 40
"""A two-player game ends within 40 turns at most here (a bound for the loop, never reached)."""


class Phone:
    """A page with touch; every tap is counted."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.taps = 0
        self.shot = False

    def answers(self) -> int:
        return int(self.page.evaluate("Number(document.body.dataset.answers || 0)"))

    def tap(self, target: Any, *, answered: bool) -> None:
        """Tap ``target``; with ``answered``, wait for the server's answer to be drawn."""
        before = self.answers()
        self.taps += 1
        target.tap()
        if answered:
            self.page.wait_for_function(f"Number(document.body.dataset.answers || 0) > {before}")


def _serve(session: TableSession, port: int = 0) -> BoardServer:
    server = BoardServer(session, port)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def _stop(server: BoardServer) -> None:
    server.shutdown()
    server.server_close()


def _in_view(page: Any, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def _shot(page: Any, name: str) -> None:
    folder = os.environ.get("PINASTATS_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / name), full_page=False)


def _kept(page: Any) -> list[int]:
    return [int(t.split()[1]) for t in page.locator(".pina-entry .pina-die.kept").all_inner_texts()]


def _roll(phone: Phone, faces: list[int]) -> None:
    """Tap the faces of the dice rolled (the roll is entered with the last of them)."""
    for i, f in enumerate(faces):
        phone.tap(phone.page.locator(f'.pina-faces .pina-face[data-face="{f}"]'),
                  answered=i == len(faces) - 1)  # fmt: skip


def _turn(phone: Phone, rng: np.random.Generator) -> dict[str, Any]:
    """One turn, following the coach; what it took."""
    page = phone.page
    start = phone.taps
    rolls = 0
    faces: list[int] = []  # the dice tapped at each roll
    while True:
        kept = _kept(page)
        faces.append(5 - len(kept))
        _roll(phone, [int(d) for d in rng.integers(1, 7, 5 - len(kept))])
        rolls += 1
        page.wait_for_selector(".pina-best, .pina-pass")
        if not page.locator(".pina-best").count():  # the last roll makes no open coaster
            assert rolls == 3
            phone.tap(page.locator(".pina-pass"), answered=True)
            return {"rolls": rolls, "taps": phone.taps - start, "faces": faces}
        assert _in_view(page, ".pina-best"), f"roll {rolls}: the coach's best is off screen"
        best = page.locator(".pina-best")
        aimed = page.locator(".pina-keep .pina-die.aim").count()
        if best.evaluate("e => e.tagName") == "BUTTON":  # stop, or the last roll: place
            text = best.inner_text()
            phone.tap(best, answered=True)
            return {"rolls": rolls, "taps": phone.taps - start, "faces": faces, "placed": text}
        assert rolls < 3  # after the last roll the coach names a placement
        # a keep: the coach's dice are marked on the dice and stay entered for the next roll
        if aimed >= 2 and not phone.shot:
            _shot(page, "table-game-phone.png")
            phone.shot = True
        assert len(_kept(page)) == aimed
        assert page.locator(".pina-keep .pina-die.held.aim").count() == aimed


def test_a_whole_table_game_on_a_touch_phone(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pinastats.solve import table
    from pinastats.tabletop import review

    monkeypatch.setattr(table, "tables_dir", lambda: tmp_path / "tables")  # the network advises
    monkeypatch.setattr(table, "_SOLUTIONS", type(table._SOLUTIONS)())
    if not os.environ.get("PINASTATS_SCREENSHOTS"):  # the grading is tested elsewhere
        monkeypatch.setattr(review, "PLAYOUTS", 10)
    folder = tmp_path / "kept"
    server = _serve(resume(folder=folder)[0])
    port = server.port
    url = f"http://127.0.0.1:{port}/"
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale="en-GB")
    other = None
    try:
        page = context.new_page()
        page.set_default_timeout(STEP)
        phone = Phone(page)
        page.goto(url)
        page.wait_for_selector(".pina-setup")

        # the setup: names, who played first, the coasters by their codes
        page.fill('.pina-name[data-seat="0"]', "Ana")
        page.fill('.pina-name[data-seat="1"]', "Ben")
        assert page.locator(".pina-seat-pick").all_inner_texts()[1].strip().endswith("Ben")
        assert page.locator(".pina-first option").all_inner_texts()[1:] == ["Ana", "Ben"]
        offered = page.locator("#pina-coasters option")
        assert "FH" in [offered.nth(i).get_attribute("value") for i in range(offered.count())]
        for cell, code in enumerate(CODES):
            page.fill(f'.pina-coaster-input[data-cell="{cell}"]', code)
            page.locator(f'.pina-coaster-input[data-cell="{cell}"]').dispatch_event("change")
        named = page.locator(".pina-setup-name").all_inner_texts()
        assert named[6] == "Full House"  # each code's coaster, by name
        for name in page.locator(".pina-setup-name").all():  # the names fit their boxes
            assert name.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.locator(".pina-start").tap()
        page.wait_for_selector(".pina-message")
        assert "Say who played first" in page.inner_text(".pina-message")
        page.select_option(".pina-first", "1")  # Ben played first
        page.locator(".pina-order").scroll_into_view_if_needed()
        _shot(page, "table-game-setup.png")
        phone.tap(page.locator(".pina-start"), answered=True)
        page.wait_for_selector(".pina-faces")
        session = server.session
        assert isinstance(session, TableSession)
        assert session.game.scores == (2, 1)  # Ben first: 1 point, Ana second: 2
        seats = page.inner_text(".pina-seats")
        assert "Ben — 1 point · 6 tokens left · to play" in seats
        assert "Ana — 2 points · 6 tokens left" in seats

        rng = np.random.default_rng(3)
        turns = []
        for number in range(MOST_TURNS):
            turns.append(_turn(phone, rng))
            if server.session.is_over:
                break
            if number == 3:  # the page in French, and back
                phone.page.select_option(".pina-lang-pick", "fr")
                page.wait_for_selector('.pina-undo:has-text("Annuler")')
                assert "Tour 1 · Ben : lance" in page.inner_text(".pina-log")
                assert "À jouer" not in page.inner_text(".pina-seats")
                assert " · à jouer" in page.inner_text(".pina-seats")
                _roll(phone, [2, 2, 3, 5, 6])
                page.wait_for_selector(".pina-best")
                assert _in_view(page, ".pina-best")
                _shot(page, "table-game-phone-fr.png")
                phone.tap(page.locator(".pina-undo"), answered=True)
                for lang, undo in (("nl", "Ongedaan"), ("de", "Rückgängig"), ("fr", "Annuler")):
                    page.select_option(".pina-lang-pick", lang)
                    page.wait_for_selector(f'.pina-undo:has-text("{undo}")')
                    for name in page.locator(".pina-coaster").all():  # printed names fit
                        assert name.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
                    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
                page.select_option(".pina-lang-pick", "en")
                page.wait_for_selector('.pina-undo:has-text("Undo")')
            if number == 5:  # the server stops and starts again; the page resumes the game
                position = server.session.game
                line = page.inner_text(".pina-position code")
                _stop(server)
                server = _serve(resume(folder=folder)[0], port)
                page.reload()
                page.wait_for_selector(".pina-faces")
                assert page.inner_text(".pina-position code") == line
                assert server.session.game.scores == position.scores
                # a shared link opens the same position on another board
                page.locator(".pina-share").tap()
                link = page.locator(".pina-share-url").input_value()
                other = _serve(TableSession())
                there = context.new_page()
                there.goto(link.replace(f":{port}/", f":{other.port}/"))
                there.wait_for_selector(".pina-faces")
                assert there.inner_text(".pina-position code") == line
                assert "Ana" in there.inner_text(".pina-seats")
                there.close()
        assert server.session.is_over
        # one tap for each die rolled anew and one for the coaster (or the pass): nothing
        # is tapped twice; a three-roll turn in which the coach keeps 4 dice or more over its
        # two re-rolls takes at most 12 taps (re-rolling all five twice takes 16: a die a tap)
        for t in turns:
            assert t["taps"] == sum(t["faces"]) + 1, t
        three = [t for t in turns if t["rolls"] == 3]
        typical = [t for t in three if sum(t["faces"][1:]) <= 6]
        assert typical, turns  # such turns were played (how many follows the coach's keeps)
        assert all(t["taps"] <= 12 for t in typical), typical
        said = os.environ.get("PINASTATS_TAPS")
        if said:  # the measure, for the docs
            Path(said).write_text(repr(turns) + "\n", encoding="utf-8")

        # the review: every keep entered, and graded
        phone.tap(page.locator(".pina-review"), answered=True)
        text = page.inner_text(".pina-review-box")
        rerolls = sum(t["rolls"] - 1 for t in turns)
        assert f"({rerolls} of {rerolls} re-rolls)" in text
        assert "Ana — placements:" in text
        assert "Ben — placements:" in text
        labels = page.locator("svg.pina-chart text[data-turn]")
        assert labels.count() >= 2  # the chart's turns are numbered
        page.locator(".pina-review-box").scroll_into_view_if_needed()
        _shot(page, "table-game-review.png")
    finally:
        context.close()
        _stop(server)
        if other is not None:
            _stop(other)


def test_the_page_speaks_the_browser_language_and_follows_dark_mode(browser: Any) -> None:
    server = _serve(TableSession())
    try:
        seen = (("light", "nl-NL", "Mijn tafel: zet het spel op tafel klaar"),
                ("dark", "de-AT", "Mein Tisch: das Spiel auf dem Tisch eingeben"))  # fmt: skip
        for scheme, locale, title in seen:
            context = browser.new_context(viewport=PHONE, locale=locale, color_scheme=scheme)
            page = context.new_page()
            page.set_default_timeout(STEP)
            page.goto(f"http://127.0.0.1:{server.port}/")
            page.wait_for_selector(f'.pina-setup h3:has-text("{title}")')
            assert page.evaluate("document.querySelector('.pina-app').lang") == locale[:2]
            ink = page.evaluate("getComputedStyle(document.querySelector('.pina-app')).color")
            dark = scheme == "dark"
            assert (ink == "rgb(232, 232, 232)") == dark, ink  # light letters on dark, or not
            context.close()
    finally:
        _stop(server)
