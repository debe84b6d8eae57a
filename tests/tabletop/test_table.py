"""My table without a browser: setup, the dice entered, placements, passes, Happy Hour, undo."""

from __future__ import annotations

import pytest

from pinastats.game.notation import notation_of, parse_position
from pinastats.tabletop.commands import MessageError, carry_out, check_message
from pinastats.tabletop.session import PlayError, PlaySession
from pinastats.tabletop.table import TableSession, setup_line
from pinastats.tabletop.view import board_view, table_view

LINE = "pc1 P1,P2+2,P3+1,P4/P5+2,P6+1,T1+2,T2/T3+1,T4+2,T5,T6+1/FH+2,SS,LS,OD 1"
NAMES = ["P1", "P2", "P3", "P4", "P5", "P6", "T1", "T2", "T3", "T4", "T5", "T6", "FH", "SS",
         "LS", "OD"]  # fmt: skip


def test_setup_by_coasters_and_tokens_is_the_pasted_line() -> None:
    tokens: list[list[int]] = [[] for _ in range(16)]
    for cell in (2, 5, 8, 11):
        tokens[cell] = [0]
    for cell in (1, 4, 6, 9, 12):
        tokens[cell] = [1]
    named = ["Pair of 1s", "pair of 2s", *NAMES[2:]]  # names, ids or codes
    assert setup_line(named, tokens, 0, 2) == LINE
    with pytest.raises(PlayError, match="say who played first"):
        TableSession().setup(coasters=named, tokens=tokens, names=["Ana", "Ben"])
    t = TableSession().setup(coasters=named, tokens=tokens, names=["Ana", " Ben  "], first=0)
    assert notation_of(t.game) == notation_of(parse_position(LINE))
    assert t.labels == ("Ana", "Ben")
    view = table_view(t)
    assert view["mode"] == "table"
    assert [s["text"] for s in view["seats"]] == ["7 points · 2 tokens left",
                                                  "14 points · 1 token left"]  # fmt: skip
    with pytest.raises(PlayError, match=r"coaster 3 .* is not chosen yet"):
        TableSession().setup(coasters=["P1", "P2", "", *NAMES[3:]], first=0)
    with pytest.raises(PlayError, match="coaster 1: no coaster is named"):
        TableSession().setup(coasters=["nonsense", *NAMES[1:]], first=0)
    with pytest.raises(PlayError, match="cannot be set"):
        TableSession().setup(position="pc1 nonsense")
    assert table_view(TableSession())["mode"] == "setup"
    assert len(table_view(TableSession())["catalogue"]) == 25


def test_a_turn_entered_by_hand_placed_passed_and_undone() -> None:
    t = TableSession().setup(position=LINE, names=["Ana", "Ben"])
    with pytest.raises(PlayError, match="enter the dice rolled first"):
        t.place(13)
    t.enter_dice([6, 4, 3, 2, 1])
    view = table_view(t)
    assert view["table"] == {"roll": 1, "rolls": 3, "dice": [1, 2, 3, 4, 6], "legal": [13],
                             "ending": "place"}  # fmt: skip
    assert view["advice"]["keeps"][0]["best"]
    with pytest.raises(PlayError, match="placing is compulsory: 1 2 3 4 6 makes Small Straight"):
        t.pass_turn()
    with pytest.raises(PlayError, match="Pair of 4s cannot take 1 2 3 4 6"):
        t.place(3)
    t.enter_dice([1, 2, 3, 4, 4])
    t.enter_dice([1, 2, 3, 4, 4])
    with pytest.raises(PlayError, match="that was roll 3 of 3"):
        t.enter_dice([1, 2, 3, 4, 4])
    advice = table_view(t)["advice"]
    placements = {p["coaster"]: p for p in advice["placements"]}
    assert sorted(placements) == ["Pair of 4s", "Small Straight"]
    assert "blocks Ben's diagonal (3 of 4)" in placements["Pair of 4s"]["why"]
    t.place(13)
    assert t.log == ["Turn 11 · Ana: rolled 1 2 3 4 6, then 1 2 3 4 4, then 1 2 3 4 4 — placed "
                     "on Small Straight for 3 points."]  # fmt: skip
    for dice in ([2, 3, 3, 5, 6], [2, 2, 3, 6, 6]):
        t.enter_dice(dice)
    t.pass_turn()  # a stop after two rolls that make nothing: the turn passes
    assert t.log[-1].endswith("then 2 2 3 6 6 — nothing to place: the turn passes.")
    t.undo()
    assert t.roll == 2
    assert len(t.log) == 1
    t.undo()
    t.undo()
    t.undo()  # the two rolls, then the placement: Ana's three rolls showing again
    assert t.roll == 3
    assert t.game.to_move == 0
    assert t.log == []
    while t.can_undo:
        t.undo()
    with pytest.raises(PlayError, match="nothing to undo"):
        t.undo()


def test_the_happy_hour_die_at_the_table() -> None:
    t = TableSession().setup(position=f"{LINE} hh scores=7,14", names=["Ana", "Ben"])
    for dice in ([1, 3, 5, 5, 6], [1, 3, 5, 5, 6]):
        t.enter_dice(dice)
    with pytest.raises(PlayError, match="no Happy Hour die this turn"):
        t.happy(6)
    t.enter_dice([1, 3, 5, 5, 6])
    view = table_view(t)
    assert view["table"]["ending"] == "happy_hour"
    faces = view["table"]["faces"]
    assert faces[4]["effect_text"].startswith("turn a coaster over")
    assert faces[4]["labels"][0].startswith("flip ")
    assert len(faces[4]["advice"]) == len(faces[4]["options"])  # the coach's chance for each
    with pytest.raises(PlayError, match="nothing can be placed after the last roll"):
        t.pass_turn()
    with pytest.raises(PlayError, match="choose one of the"):
        t.happy(5)
    t.happy(5, faces[4]["options"][0])
    assert "Happy Hour die shows 5 (flip a coaster): flip Pair of 1s" in t.log[-1]
    t.undo()
    t.happy(6)
    assert t.game.scores == (11, 14)
    assert "shows 6 (gain 4)." in t.log[-1]


def test_the_messages_of_my_table() -> None:
    play = PlaySession(["human", "strategic"], seed=2)
    out = carry_out(play, {"cmd": "table"})
    table = out.session
    assert isinstance(table, TableSession)
    play.close()
    assert board_view(table)["mode"] == "setup"
    assert (
        "that is for a game at a real table"
        in carry_out(play, {"cmd": "dice", "dice": [1, 2, 3, 4, 5]}).text
    )
    assert carry_out(table, {"cmd": "setup", "position": LINE, "names": ["Ana", "Ben"]}).text == ""
    assert carry_out(table, {"cmd": "roll", "hold": []}).text.startswith("roll: at a real table")
    assert carry_out(table, {"cmd": "dice", "dice": [1, 2, 3, 4, 6]}).text == ""
    assert carry_out(table, {"cmd": "pass"}).text.startswith("placing is compulsory")
    assert carry_out(table, {"cmd": "place", "cell": 13}).text == ""
    assert carry_out(table, {"cmd": "undo"}).text == ""
    exported = carry_out(table, {"cmd": "export"})
    assert exported.download is not None
    from pinastats.records.format import parse_records
    from pinastats.records.replay import replay

    record = parse_records(exported.download["text"])[0]  # a record, at any time of the game
    assert record.start == LINE
    assert notation_of(replay(record)) == notation_of(table.game)
    fresh = carry_out(table, {"cmd": "new"}).session
    assert isinstance(fresh, TableSession)
    assert fresh.mode == "setup"
    back = carry_out(table, {"cmd": "play"}).session
    assert isinstance(back, PlaySession)
    assert back.names == ("you", "strategic")
    new = carry_out(back, {"cmd": "new"})
    assert isinstance(new.session, PlaySession)
    assert f"seed {new.session.seed}" in new.text
    back.close()
    new.session.close()


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ({"cmd": "dice", "dice": [1, 2, 3, 4]}, "dice must be a list of 5 faces 1 to 6"),
        ({"cmd": "dice", "dice": [1, 2, 3, 4, 7]}, "faces 1 to 6"),
        ({"cmd": "dice", "dice": [1, 2, 3, 4, True]}, "faces 1 to 6"),
        ({"cmd": "dice"}, "faces 1 to 6, got null"),
        ({"cmd": "happy", "face": 0}, "face must be a whole number 1 to 6"),
        ({"cmd": "happy", "face": 2, "option": -1}, "option must be a whole number"),
        ({"cmd": "pass", "x": 1}, "pass takes no field"),
        ({"cmd": "new", "seed": 1}, "new takes no field"),
        ({"cmd": "setup"}, "setup needs a position"),
        ({"cmd": "setup", "position": 5}, "position must be text"),
        ({"cmd": "setup", "position": "x" * 401}, "at most 400 characters"),
        ({"cmd": "setup", "coasters": ["P1"] * 15}, "coasters must be a list of 16 names"),
        ({"cmd": "setup", "coasters": [1] * 16}, "a coaster's name must be text"),
        ({"cmd": "setup", "position": "pc1", "tokens": [[0]] * 15}, "tokens must be a list"),
        ({"cmd": "setup", "position": "pc1", "tokens": [[4]] * 16}, "seats 0 to 3"),
        ({"cmd": "setup", "position": "pc1", "tokens": [[0, 1, 0]] * 16}, "at most 2 each"),
        ({"cmd": "setup", "position": "pc1", "to_move": 4}, "to_move must be a seat"),
        ({"cmd": "setup", "position": "pc1", "names": ["a"]}, "names must be a list of 2 to 4"),
        ({"cmd": "setup", "position": "pc1", "names": ["a", "b" * 41]}, "at most 40"),
        ({"cmd": "setup", "position": "pc1", "happy_hour": 1}, "happy_hour must be true"),
        ({"cmd": "setup", "position": "pc1", "path": "x"}, "setup takes only position"),
    ],
)
def test_a_malformed_table_message_names_the_field(message: dict[str, object], words: str) -> None:
    with pytest.raises(MessageError, match=words.replace("(", r"\(")):
        check_message(message, 16)


def test_the_notebook_board_at_a_real_table() -> None:
    from pinastats.tabletop.widget import play  # anywidget: the [play] extra, in [dev]

    board = play("human,strategic", seed=6, table=True)
    assert board.view["mode"] == "setup"
    board._handle_custom_msg({"cmd": "setup", "position": LINE, "names": ["Ana", "Ben"]}, [])
    assert board.view["mode"] == "table"
    board._handle_custom_msg({"cmd": "dice", "dice": [1, 2, 3, 4, 6]}, [])
    assert board.view["table"]["dice"] == [1, 2, 3, 4, 6]
    board._handle_custom_msg({"cmd": "dice", "dice": [9]}, [])
    assert "faces 1 to 6" in board.message
    board._handle_custom_msg({"cmd": "play"}, [])
    assert board.view["mode"] == "play"
    board.session.close()
