"""The board's state machine without a browser: paths through a turn, refusals, undo, records."""

from __future__ import annotations

import json
import threading
import urllib.request
from typing import Any

import pytest

from pinastats.errors import PinastatsError
from pinastats.evaluation import advise
from pinastats.records.replay import replay
from pinastats.records.review import review_game
from pinastats.tabletop.commands import act
from pinastats.tabletop.server import BoardServer
from pinastats.tabletop.session import PlayError, PlaySession
from pinastats.tabletop.view import session_view


def _finish(s: PlaySession, policy: str = "first") -> list[str]:
    """Play the people's decisions to the end by a simple rule; the kinds asked, in order."""
    asked = []
    k = 0
    while not s.is_over:
        p = s.pending
        assert p is not None
        asked.append(p.kind)
        if p.kind == "roll":
            s.roll()
        elif p.kind == "keep":
            s.roll(hold=[0, 1]) if k % 3 == 0 else s.stop()
        elif p.kind == "place":
            s.place(p.legal[-1] if policy == "last" else p.legal[0])
        else:
            labels = session_view(s)["pending"]["labels"]
            assert len(labels) == len(p.options)
            s.choose(p.options[0])
        k += 1
    return asked


@pytest.mark.parametrize("happy_hour", [False, True])
def test_a_whole_game_by_clicks_records_and_replays(happy_hour: bool) -> None:
    s = PlaySession(["human", "strategic", "human"], seed=5, happy_hour=happy_hour)
    asked = _finish(s)
    assert {"roll", "keep", "place"} <= set(asked)
    record = s.record
    assert record.agents == ("you", "strategic", "you")
    game = replay(record)  # every roll, keep and placement checked again
    assert game.is_over
    assert review_game(record, evaluator="network", seats=[0]).seats == (0,)
    view = session_view(s)
    assert view["over"]
    assert "wins" in view["result"]["text"] or "nobody" in view["result"]["text"]


def test_the_same_seed_the_same_dice_and_undo_takes_one_decision_back() -> None:
    a, b = PlaySession(["human", "ev"], seed=11), PlaySession(["human", "ev"], seed=11)
    assert a.roll().pending == b.roll().pending
    before = a.pending
    assert before is not None
    assert before.kind == "keep"
    a.roll(hold=[4])
    assert a.pending != before
    a.undo()
    assert a.pending == before  # the same dice showing, the same re-rolls left
    a.stop()
    assert a.pending is not None
    assert a.pending.kind in ("place", "roll")
    with pytest.raises(PlayError, match="nothing to undo"):
        PlaySession(["human", "ev"], seed=1).undo()


def test_clicks_that_the_game_refuses_name_what_is_allowed() -> None:
    s = PlaySession(["human", "strategic"], seed=3)
    with pytest.raises(PlayError, match="asked to roll the dice, not to place"):
        s.place(0)
    with pytest.raises(PlayError, match="nothing to hold before the first roll"):
        s.roll(hold=[1])
    s.roll()
    with pytest.raises(PlayError, match=r"dice are numbered 0 to 4, got \[7\]"):
        s.roll(hold=[7])
    with pytest.raises(PlayError, match="every die is held: stop instead"):
        s.roll(hold=[0, 1, 2, 3, 4])
    while s.pending is not None and s.pending.kind == "keep":
        s.stop()
    p = s.pending
    assert p is not None
    if p.kind == "place":
        illegal = next(c for c in range(16) if c not in p.legal)
        with pytest.raises(PlayError, match=r"the legal cells are"):
            s.place(illegal)
        with pytest.raises(PlayError, match="asked to place a token, not to roll"):
            s.roll()  # a die clicked after the last roll
    with pytest.raises(PlayError, match="2 to 4 seats"):
        PlaySession(["human"])
    with pytest.raises(PinastatsError, match="unknown agent 'nonsense-agent'"):
        PlaySession(["human", "nonsense-agent"])


def test_the_coach_panel_shows_win_advice_for_the_position() -> None:
    s = PlaySession(["human", "strategic"], seed=8)
    s.roll()
    p = s.pending
    assert p is not None
    view = session_view(s, coach=True)
    advice = advise(s.game, p.dice, p.rolls_left, surface="board")  # the policy's evaluator
    shown = view["advice"]
    assert shown["win"] == pytest.approx(advice.win_probability)
    assert [k["keep"] for k in shown["keeps"]] == [list(k.keep) for k in advice.keeps][:6]
    assert shown["keeps"][0]["best"]
    assert "advice" not in session_view(s, coach=False)


def test_messages_and_the_served_page(tmp_path: Any) -> None:
    s = PlaySession(["human", "strategic"], seed=4)
    assert 'unknown command "fly"' in act(s, {"cmd": "fly"})
    assert "not to place" in act(s, {"cmd": "place", "cell": 0})
    assert act(s, {"cmd": "roll", "hold": []}) == ""
    server = BoardServer(s, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        port = server.server_address[1]
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/").read().decode()
        assert 'import app from "/app.js"' in page
        assert b"export default" in urllib.request.urlopen(f"http://127.0.0.1:{port}/app.js").read()
        headers = {"Content-Type": "application/json", "X-Pinastats-Token": server.token}
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api", headers=headers,
                                         data=json.dumps({"cmd": "stop"}).encode())  # fmt: skip
        answer = json.loads(urllib.request.urlopen(request).read())
        assert answer["view"]["pending"]["kind"] in ("place", "roll")
    finally:
        server.shutdown()
        server.server_close()
    while not s.is_over:
        _finish(s)
    assert "record written to" in act(s, {"cmd": "export"}, folder=tmp_path)
    assert (tmp_path / "pinastats-game-seed4.jsonl").read_text().startswith("{")
    assert "Graded by" in act(s, {"cmd": "review"})


def test_the_happy_hour_die_asks_its_choice_in_words() -> None:
    """Re-rolling every die to the last roll: hands that place nothing roll the Happy Hour die."""
    s = PlaySession(["human", "strategic"], seed=0, happy_hour=True)
    labels: list[str] = []
    while not s.is_over:
        p = s.pending
        assert p is not None
        if p.kind in ("roll", "keep"):
            s.roll()
        elif p.kind == "place":
            s.place(p.legal[0])
        else:
            pending = session_view(s)["pending"]
            shown = pending["labels"]
            assert len(shown) == len(p.options)
            assert pending["face"] in range(1, 7)
            assert pending["effect_text"]  # what the face does, in words
            assert len(pending["dice"]) == 5  # the dice that placed nothing
            assert s.game.legal_cells(pending["dice"]) == ()
            if len(p.options) > 1:
                assert len(pending["advice"]) == len(p.options)
            labels.extend(shown)
            with pytest.raises(PlayError, match="is not one of"):
                s.choose(-1)
            s.choose(p.options[0])
    assert labels
    assert any("'s token from " in x or x.startswith(("flip ", "take your token")) for x in labels)
    assert not any("cell " in x for x in labels)  # coasters by name
    replay(s.record)


def test_the_notebook_widget_answers_its_messages() -> None:
    from pinastats.tabletop.widget import play  # anywidget: the [play] extra, in [dev]

    board = play("human,strategic", seed=6)
    assert board.view["pending"]["kind"] == "roll"
    board._handle_custom_msg({"cmd": "roll", "hold": []}, [])  # what a click sends
    assert board.view["pending"]["kind"] in ("keep", "place", "roll")
    board._handle_custom_msg({"cmd": "place", "cell": 99}, [])
    assert board.message  # a refusal, shown in the board
    board.coach = False
    assert "advice" not in board.view
    board.session.close()


def test_every_turn_is_logged_with_its_dice_and_an_undo_keeps_them() -> None:
    s = PlaySession(["human", "strategic"], seed=5)
    s.roll()
    s.stop()
    p = s.pending
    assert p is not None
    s.place(p.legal[0])
    log = s.log
    assert len(log) == 2
    assert log[0].startswith("Turn 1 · Seat 1 (you): rolled ")
    assert " — placed on " in log[0]
    assert "cell" not in log[0]  # coasters by name
    assert log[1].startswith("Turn 2 · Seat 2 (strategic): rolled ")
    s.roll()
    s.roll(hold=[0])
    s.undo()
    assert s.log == log  # the person's turns stay after an undo
    while not s.is_over:  # stop after the first roll; a hand that makes nothing passes
        p = s.pending
        assert p is not None
        if p.kind == "roll":
            s.roll()
        elif p.kind == "keep":
            s.stop()
        else:
            s.place(p.legal[0])
    passes = [line for line in s.log if "nothing to place: the turn passes" in line]
    assert passes
    assert passes[0].split(": rolled ")[1][:1].isdigit()  # with its dice
    assert any("the end is triggered — last round" in line for line in s.log)
    assert len(s.log) == len(s.record.turns)


def test_the_last_round_and_the_last_turn_are_announced() -> None:
    line = (
        "pc1 P1,P2+2,P3+1,P4/P5+2,P6+1,T1+2,T2/T3+1,T4+2,T5,T6+1/FH+2,SS,LS,OD 1 first=2 tokens=5"
    )
    s = PlaySession(["human:Ana", "strategic"], position=line, seed=1)
    view = session_view(s)
    assert view["announce"] == [
        "End triggered — this is the last round.",
        "This is your last turn.",
    ]
    assert [seat["name"] for seat in view["seats"]] == ["Ana", "Seat 2 (strategic)"]
    assert view["seats"][1]["text"].endswith(" points · 0 tokens left")
    s.close()
