"""A person who takes every starred move is never told those moves were mistakes.

In headless Chromium, one seat of a two-player base game and of a three-player game
follows the coach on every decision: it holds the dice of the starred keep (or stops),
places on the starred coaster, picks the starred Happy Hour option. The board's review
then says how it graded (an evaluator at least as strong as the coach's), and none of
those moves counts a loss beyond the two evaluators' measured disagreement or is marked.
"""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

import pytest

from pinastats.records import replay
from pinastats.tabletop.review import _grader, review_play
from pinastats.tabletop.server import BoardServer
from pinastats.tabletop.session import PlaySession
from pinastats.tabletop.view import board_view
from tests.tabletop.test_browser import _click, _dice, _page


def _hold(page: Any, kept: list[int]) -> None:
    """Hold exactly the dice of ``kept`` (a multiset of faces), by clicking the dice."""
    want = Counter(kept)
    for i, face in enumerate(_dice(page)):
        die = page.locator(f'.pina-die[data-die="{i}"]')
        held = die.get_attribute("aria-pressed") == "true"
        take = want[face] > 0
        if take:
            want[face] -= 1
        if take != held:
            die.click()
    assert not +want, f"the dice {_dice(page)} do not hold {kept}"


def _follow_the_coach(page: Any, server: BoardServer) -> int:
    """Play the person's seat by the starred options until the game ends; the moves made."""
    for moves in range(800):
        if page.locator(".pina-result").count():
            return moves
        starred_keep = page.locator(".pina-advice tr.best td")
        if page.locator(".pina-cell.legal").count():
            best = page.locator(".pina-cell.legal.best")
            _click(page, best.first if best.count() else page.locator(".pina-cell.legal").first)
        elif page.locator(".pina-option").count():
            best = page.locator(".pina-option.best")
            _click(page, best.first if best.count() else page.locator(".pina-option").first)
        elif page.locator(".pina-stop").count() and starred_keep.count():
            best = board_view(server.session)["advice"]["keeps"][0]  # the starred row's keep
            assert best["label"] in starred_keep.first.inner_text()
            if best["stop"]:
                _click(page, page.locator(".pina-stop"))
            else:
                _hold(page, list(best["keep"]))
                _click(page, page.locator(".pina-roll"))
        else:
            _click(page, page.locator(".pina-roll"))
    raise AssertionError("the game did not end in 800 moves")


@pytest.mark.parametrize(("seats", "seed"), [(["human", "strategic"], 5),
                                             (["human", "strategic", "strategic"], 6)])  # fmt: skip
@pytest.mark.timeout(1800)
def test_following_the_coach_is_never_marked_a_mistake(
    browser: Any, seats: list[str], seed: int
) -> None:
    session = PlaySession(seats, seed=seed)
    server = BoardServer(session, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        page = _page(browser, f"http://127.0.0.1:{server.server_address[1]}/")
        assert _follow_the_coach(page, server) > 5
        page.click(".pina-review")
        page.wait_for_function(
            "(document.querySelector('.pina-review-box') || {innerText: ''})"
            ".innerText.includes('Graded by')", timeout=900_000)  # fmt: skip
        text = page.inner_text(".pina-review-box")
    finally:
        server.shutdown()
        server.server_close()
    grader, advisor = _grader(replay(session.record))
    assert grader.strength >= advisor.strength
    assert grader.name == "exact" or "stronger than the network that advised you" in text
    review = review_play(session)  # the review the page showed, made once per game
    assert review["sentences"][0] in text  # how it was graded, as the page said
    bound = advisor.difference_error + grader.difference_error
    mine = [d for d in review["decisions"] if d["seat"] == 0]
    assert len(mine) > 5
    assert all(d["advised"] for d in mine), [d for d in mine if not d["advised"]][:3]
    assert all(d["loss"] <= bound + 1e-12 and d["mark"] == "" for d in mine)
    assert review["costliest"] == []
