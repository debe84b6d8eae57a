"""The board starts from a position line and shows the position as a line."""

from __future__ import annotations

import pytest

from pinastats.game import notation_of, parse_position
from pinastats.records.format import parse_records
from pinastats.records.replay import replay
from pinastats.tabletop.session import PlayError, PlaySession
from pinastats.tabletop.view import session_view

START = "pc1 OD,T3,T4,T5/5K,S21+1,S26,T6+1/SS+2,P3,P2,FH+2/T1,P5+2,AD+1,P4+2 1 turns=10"
HAPPY = "pc1 T4,EV+2,P6+3,P5+21/AD,DP+31,LS,T5/FH+3,4K,T1,T6+1/OD+2,5K,S9,S21+.2 1 players=3 first=2 scores=9,9,11 hh"  # noqa: E501


def test_the_board_shows_the_position_it_starts_from() -> None:
    s = PlaySession(["human", "strategic"], seed=3, position=START)
    try:
        view = session_view(s, coach=False)
        assert view["position"] == START
        assert view["turn"] == 10
        assert [c["spaces"] for c in view["board"]][5] == [0]  # S21+1
    finally:
        s.close()


@pytest.mark.parametrize("line", [START, HAPPY])
def test_a_game_from_a_position_records_it_and_replays(line: str) -> None:
    players = parse_position(line).players
    s = PlaySession(["strategic", "greedy", "ev"][:players], seed=4, position=line)
    try:
        assert s.is_over  # agents only: played to the end
        record = s.record
        assert record.start == line
        again = parse_records(record.to_json())[0]
        assert again == record
        final = replay(again)
        assert final.is_over
        visited: list[str] = []
        replay(record, visit=lambda k, g, t: visited.append(notation_of(g)))
        assert visited[0] == line
        assert session_view(s)["position"] == notation_of(final)
    finally:
        s.close()


def test_a_dealt_game_records_no_start() -> None:
    s = PlaySession(["greedy", "greedy"], seed=2)
    try:
        assert s.record.start is None
        assert '"start"' not in s.record.to_json()
    finally:
        s.close()


def test_a_position_that_is_over_or_of_other_seats_is_refused() -> None:
    over = (
        "pc1 DP+1,T2+2,LS+2,P6+1/S12+2,SS+2,T3+2,T1/T6,P4+2,S26+1,OD+1/S21+1,4K+1,T4,T5 2 first=2"
    )
    with pytest.raises(PlayError, match="the position is over"):
        PlaySession(["human", "greedy"], position=over)
    with pytest.raises(PlayError, match="3 players, got 2 seats"):
        PlaySession(["human", "greedy"], position=HAPPY)
