"""Why a placement matters, worked out from constructed positions (pinastats.game.why)."""

from __future__ import annotations

from pinastats.game.notation import parse_position
from pinastats.game.why import best_line, open_count, placement_reasons, threats, why_text

# seat 1 holds three of the top row, seat 2 three of the second row; Pair of 4s ends row 1
ROWS = "pc1 P1+1,P2+1,P3+1,P4/P5+2,P6+2,T1+2,T2/T3,T4,T5,T6/FH,SS,LS,OD"
DICE = (1, 2, 3, 4, 4)  # Pair of 4s and the Small Straight


def _kinds(line: str, cell: int, dice: tuple[int, ...] = DICE) -> dict[str, str]:
    game = parse_position(line)
    return {r.kind: r.text for r in placement_reasons(game, cell, dice)}


def test_completing_a_line_wins_and_says_so() -> None:
    reasons = _kinds(f"{ROWS} 1", 3)
    assert reasons == {"wins": "completes a line of 4: wins the game"}


def test_taking_the_last_coaster_of_an_opponents_line_blocks_it() -> None:
    game = parse_position(f"{ROWS} 2")
    assert [missing for _, missing in threats(game, 0)] == [3]
    reasons = _kinds(f"{ROWS} 2", 3)
    assert reasons["blocks"] == "blocks Seat 1's row (3 of 4)"
    assert "blocks" not in _kinds(f"{ROWS} 2", 13)  # the Small Straight blocks nothing


def test_building_a_line_points_and_neighbours() -> None:
    # seat 2 on Pair of 4s: its Three 1s below-left makes 2 of 4 on the anti-diagonal
    reasons = _kinds(f"{ROWS} 2", 3)
    assert reasons["builds"] == "builds a diagonal: 2 of 4"
    assert reasons["points"] == "2 points (1 from neighbours)"
    game = parse_position(f"{ROWS} 2")
    after = game.copy()
    after.place(3, DICE)
    assert best_line(after, 1, 3) == (2, 4, "diagonal")


def test_the_end_triggered_and_the_coasters_left_open() -> None:
    # one token left for seat 1 (tokens=4): placing it triggers the end
    line = "pc1 P1+1,P2+1,DP+1,P4/P5+2,P6+2,T1+2,T2/T3,T4,T5,T6/FH,SS,LS,OD 1 tokens=4"
    reasons = _kinds(line, 13)
    assert reasons["triggers"] == "triggers the end: last round"
    assert "open" not in reasons  # no token left to place
    game = parse_position(f"{ROWS} 1")
    assert open_count(game, 0) == 10  # 16, less its 3 and the 3 full ones of seat 2
    text = why_text(placement_reasons(game, 13, DICE))
    assert text == "2 points; 9 coasters stay open to you"


def test_a_placement_that_keeps_the_end_away() -> None:
    # seat 1 at 18 points (starting at 15): the Small Straight's 2 points reach 20
    line = "pc1 P1+1,P2+1,DP,P4/P5+2,P6+2,T1+2,T2/T3,T4,T5,T6/FH,SS,LS,OD 1 start=15,2"
    assert parse_position(line).scores == (18, 7)
    straight = _kinds(line, 13)
    assert straight["triggers"] == "triggers the end: last round"
    assert "open" not in straight  # no turn of the mover's to come
    pair = _kinds(line, 3)
    assert pair["avoids"] == "keeps the end away (another coaster would trigger it)"
    assert pair["builds"] == "sets up a row: 3 of 4"
