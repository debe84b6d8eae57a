"""Scenario tests: every rule and example of the rulebook, one at a time."""

from __future__ import annotations

import pytest

from pinastats.dice.hands import dice_tables
from pinastats.game.game import Game, IllegalMoveError
from pinastats.game.rules import EndReason, HappyHourEffect, Rules, Trigger
from tests.game.scenarios import (
    BOARD,
    ROLL_EXAMPLE,
    cell,
    emptied,
    game,
    rulebook_scoring_example,
)

NOTHING = (1, 2, 4, 5, 6)  # matches no coaster of BOARD


def dice_for(g: Game, c: int) -> tuple[int, ...]:
    """Some final dice showing the combination of cell ``c``."""
    comb = g.coaster(c).combination
    t = dice_tables()
    for h in range(252):
        if comb.mask()[h]:
            return tuple(int(d) for d in t.hand_dice[h])
    raise AssertionError(comb)


def test_nothing_matches_no_coaster_of_the_board() -> None:
    g = game()
    assert g.legal_placements(NOTHING) == []


def test_roll_example_offers_pair_three_of_a_kind_and_full_house() -> None:
    # Rulebook, "Roll Examples": 2 2 5 4 1 -> ... -> 5 5 5 3 3 makes a pair,
    # three of a kind and a full house.
    g = game()
    names = {p.combination for p in g.legal_placements(ROLL_EXAMPLE)}
    assert {"Pair of 5s", "Pair of 3s", "Three 5s", "Full House"} <= names
    # and exactly the coasters whose definitions hold (double pair and odds too)
    assert names == {"Pair of 3s", "Pair of 5s", "Double Pair", "Three 5s", "Full House", "Odds"}


def test_scoring_example_second_full_house_space_with_three_neighbours() -> None:
    fh = cell(2, 2)
    g = rulebook_scoring_example()
    before = g.scores[0]
    assert g.coaster(fh).side_b == (4, 3)
    assert g.place(fh, ROLL_EXAMPLE) == 6
    assert g.scores[0] == before + 6
    assert g.tokens(fh) == (1, 0)


def test_first_space_on_side_b_takes_the_first_value() -> None:
    fh = cell(2, 2)
    g = game(players=4)
    assert g.place(fh, ROLL_EXAMPLE) == 4


@pytest.mark.parametrize("neighbour", [(1, 1), (1, 3), (3, 1), (3, 3)])
def test_diagonal_neighbours_count(neighbour: tuple[int, int]) -> None:
    fh = cell(2, 2)
    g = game(tokens={cell(*neighbour): [0]})
    assert g.place(fh, ROLL_EXAMPLE) == 3 + 1


def test_far_and_opponent_tokens_do_not_count() -> None:
    fh = cell(2, 2)
    g = game(tokens={cell(0, 0): [0], cell(2, 3): [1], cell(3, 3): [1]})
    assert g.place(fh, ROLL_EXAMPLE) == 3


def test_ten_lines_on_the_standard_grid() -> None:
    g = game()
    lines = g.config.layout.line_cells()
    assert len(lines) == 10


@pytest.mark.parametrize("line", range(10))
def test_each_line_is_a_pina_coladice(line: int) -> None:
    cells = game().config.layout.line_cells()[line]
    g = game(tokens={c: [0] for c in cells[:3]})
    g.place(cells[3], dice_for(g, cells[3]))
    assert g.is_over
    assert g.winner == 0
    assert g.end_reason is EndReason.PINA_COLADICE


def test_full_coaster_is_refused() -> None:
    g = game(tokens={cell(2, 2): [1]})
    with pytest.raises(IllegalMoveError, match="no free space"):
        g.place(cell(2, 2), ROLL_EXAMPLE)


def test_own_token_twice_is_refused() -> None:
    g = game(players=4, tokens={cell(2, 2): [0]})
    with pytest.raises(IllegalMoveError, match="already has a token"):
        g.place(cell(2, 2), ROLL_EXAMPLE)
    assert cell(2, 2) not in [p.cell for p in g.legal_placements(ROLL_EXAMPLE)]


def test_dice_must_show_the_combination() -> None:
    g = game()
    with pytest.raises(IllegalMoveError, match="do not show Large Straight"):
        g.place(cell(3, 3), ROLL_EXAMPLE)


def test_placement_is_compulsory() -> None:
    g = game()
    with pytest.raises(IllegalMoveError, match="compulsory"):
        g.end_turn_without_placement(ROLL_EXAMPLE)
    g.end_turn_without_placement(NOTHING)
    assert g.to_move == 1


def test_no_token_in_reserve_means_no_placement_but_turns_go_on() -> None:
    five = [cell(0, 0), cell(0, 1), cell(0, 2), cell(1, 0), cell(1, 1)]
    g = emptied(game(tokens={c: [0] for c in five}, first_player=1), 0)
    assert g.reserves[0] == 0
    assert g.trigger is Trigger.TOKENS
    assert g.legal_placements(ROLL_EXAMPLE) == []
    g.end_turn_without_placement(ROLL_EXAMPLE)  # seat 0 takes its turn, placing nothing
    assert g.is_over
    assert g.winner == 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_end_round_completes_for_every_first_player_and_trigger_seat(players: int) -> None:
    for first in range(players):
        for trigger_seat in range(players):
            scores = [19 if s == trigger_seat else 4 for s in range(players)]  # 4: no start above
            g = game(players=players, scores=scores, to_move=trigger_seat, first_player=first)
            g.place(cell(0, 0), (1, 1, 2, 3, 4))  # pair of 1s: +1 -> 20
            assert (g.trigger is Trigger.SCORE and not g.is_over) or (
                (trigger_seat - first) % players == players - 1
            )
            remaining = players - 1 - (trigger_seat - first) % players
            for _ in range(remaining):
                assert not g.is_over
                g.end_turn_without_placement(NOTHING)
            assert g.is_over, (players, first, trigger_seat)
            assert g.winner == trigger_seat
            assert g.end_reason is EndReason.SCORE


def test_last_token_triggers_the_end() -> None:
    five = [cell(0, 0), cell(0, 1), cell(0, 2), cell(1, 0), cell(3, 0)]
    g = game(tokens={c: [0] for c in five}, scores=[11, 16])  # seat 0: 14 after the Full House
    g.place(cell(2, 2), ROLL_EXAMPLE)
    assert g.trigger is Trigger.TOKENS
    assert not g.is_over
    g.end_turn_without_placement(NOTHING)
    assert g.is_over
    assert g.winner == 1
    assert g.end_reason is EndReason.TOKENS


def test_tie_goes_to_the_most_recent_placement() -> None:
    g = game(scores=[19, 18])
    g.place(cell(0, 0), (1, 1, 2, 3, 4))  # seat 0: 20, triggers
    g.place(cell(3, 3), (2, 3, 4, 5, 6))  # seat 1: large straight on side A = 3 -> 21
    assert g.is_over
    assert g.winner == 1
    assert g.end_reason is EndReason.SCORE
    g = game(scores=[19, 17])
    g.place(cell(0, 0), (1, 1, 2, 3, 4))  # 20
    g.place(cell(3, 3), (2, 3, 4, 5, 6))  # 20: tie, seat 1 placed last
    assert g.scores == (20, 20)
    assert g.winner == 1
    assert g.end_reason is EndReason.TIE_BREAK


def test_tie_among_players_who_never_placed_is_a_draw() -> None:
    g = game(scores=[16, 16], rules=Rules(happy_hour=True))
    g.end_turn_without_placement(NOTHING, happy_hour=6)  # +4 -> 20, triggers
    assert g.trigger is Trigger.SCORE
    g.end_turn_without_placement(NOTHING, happy_hour=3)  # seat 0 +1 -> 21
    assert g.is_over
    assert g.winner == 0
    g = game(scores=[16, 17], rules=Rules(happy_hour=True))
    g.end_turn_without_placement(NOTHING, happy_hour=6)
    g.end_turn_without_placement(NOTHING, happy_hour=6)  # seat 1 -> 21
    assert g.winner == 1
    g = game(scores=[16, 16], rules=Rules(happy_hour=True))
    g.end_turn_without_placement(NOTHING, happy_hour=6)
    g.end_turn_without_placement(NOTHING, happy_hour=6)  # 20 all, nobody ever placed
    assert g.scores == (20, 20)
    assert g.is_over
    assert g.winner is None
    assert g.end_reason is EndReason.DRAW


def test_three_player_sides_corners_and_centre_on_b() -> None:
    g = Game.new(players=3, seed=4)
    sides = "".join(g.side(c) for c in range(16))
    assert sides == "BAABABBAABBABAAB"
    assert "".join(Game.new(players=2, seed=4).side(c) for c in range(16)) == "A" * 16
    assert "".join(Game.new(players=4, seed=4).side(c) for c in range(16)) == "B" * 16


def test_setup_scores_and_reserves_follow_turn_order() -> None:
    for seed in range(20):
        g = Game.new(players=4, seed=seed)
        order = [(g.first_player + i) % 4 for i in range(4)]
        assert [g.scores[s] for s in order] == [1, 2, 3, 4]
        assert g.reserves == (6, 6, 6, 6)
        ids = [g.coaster(c).id for c in range(16)]
        assert len(set(ids)) == 16


# ---------------------------------------------------------------- Happy Hour

HH = Rules(happy_hour=True)


def test_happy_hour_needs_the_variant() -> None:
    with pytest.raises(ValueError, match="variant is off"):
        game().end_turn_without_placement(NOTHING, happy_hour=1)
    with pytest.raises(ValueError, match="give the die"):
        game(rules=HH).end_turn_without_placement(NOTHING)


def test_happy_hour_1_lose_three_not_below_zero() -> None:
    g = game(scores=[5, 2], rules=HH)
    g.end_turn_without_placement(NOTHING, happy_hour=1)
    assert g.scores == (2, 2)
    g.end_turn_without_placement(NOTHING, happy_hour=1)
    assert g.scores == (2, 0)
    neg = game(scores=[1, 2], rules=Rules(happy_hour=True, negative_scores=True))
    neg.end_turn_without_placement(NOTHING, happy_hour=1)
    assert neg.scores == (-2, 2)


def test_happy_hour_2_take_a_token_back_keeping_points() -> None:
    g = game(tokens={cell(0, 0): [0], cell(1, 1): [1]}, scores=[7, 2], rules=HH)
    assert g.happy_hour_options(HappyHourEffect.REMOVE_OWN_TOKEN) == [cell(0, 0)]
    g.end_turn_without_placement(NOTHING, happy_hour=2, option=cell(0, 0))
    assert g.tokens(cell(0, 0)) == ()
    assert g.reserves[0] == 6
    assert g.scores[0] == 7
    # cannot apply: seat 1 has a token, seat 0... now seat 1 to move with one token
    g2 = game(rules=HH)
    assert g2.happy_hour_options(HappyHourEffect.REMOVE_OWN_TOKEN) == []
    g2.end_turn_without_placement(NOTHING, happy_hour=2)
    assert g2.reserves == (6, 6)


def test_happy_hour_3_others_gain_one() -> None:
    g = game(players=4, scores=[1, 2, 3, 4], rules=HH)
    g.end_turn_without_placement(NOTHING, happy_hour=3)
    assert g.scores == (1, 3, 4, 5)


def test_happy_hour_4_moves_another_token_without_points() -> None:
    g = game(tokens={cell(0, 0): [1]}, scores=[1, 2], rules=HH)
    options = g.happy_hour_options(HappyHourEffect.MOVE_OTHER_TOKEN)
    assert len(options) == 15  # to any of the 15 other free coasters
    target = next(
        o
        for o in options
        if g.decode_happy_hour(HappyHourEffect.MOVE_OTHER_TOKEN, o)["to_cell"] == 5
    )
    g.end_turn_without_placement(NOTHING, happy_hour=4, option=target)
    assert g.tokens(cell(0, 0)) == ()
    assert g.tokens(5) == (1,)
    assert g.scores == (1, 2)
    assert g.reserves == (6, 5)


def test_happy_hour_4_can_complete_the_owners_line() -> None:
    row = [cell(1, c) for c in range(4)]
    g = game(tokens={row[0]: [1], row[1]: [1], row[2]: [1], cell(3, 3): [1]}, rules=HH)
    move = next(
        o
        for o in g.happy_hour_options(4)
        if g.decode_happy_hour(4, o) == {"from_cell": cell(3, 3), "owner": 1, "to_cell": row[3]}
    )
    g.end_turn_without_placement(NOTHING, happy_hour=4, option=move)
    assert g.is_over
    assert g.winner == 1
    assert g.end_reason is EndReason.PINA_COLADICE


def test_happy_hour_4_cannot_apply_without_other_tokens() -> None:
    g = game(tokens={cell(0, 0): [0]}, rules=HH)
    assert g.happy_hour_options(4) == []
    g.end_turn_without_placement(NOTHING, happy_hour=4)
    assert g.tokens(cell(0, 0)) == (0,)


def test_happy_hour_5_flip_returns_tokens_keeps_points_and_trigger() -> None:
    fh = cell(2, 2)
    g = game(players=4, tokens={fh: [1, 2]}, scores=[1, 2, 3, 4], rules=HH)
    assert g.side(fh) == "B"
    g.end_turn_without_placement(NOTHING, happy_hour=5, option=fh)
    assert g.side(fh) == "A"
    assert g.tokens(fh) == ()
    assert g.reserves == (6, 6, 6, 6)
    assert g.scores == (1, 2, 3, 4)
    # an end already triggered stays triggered
    g = game(tokens={c: [0] for c in [0, 1, 2, 4, 12]}, scores=[3, 2], rules=HH)
    g.place(cell(2, 2), ROLL_EXAMPLE)  # sixth token: triggers
    assert g.trigger is Trigger.TOKENS
    g.end_turn_without_placement(NOTHING, happy_hour=5, option=cell(2, 2))
    assert g.is_over
    assert g.end_reason is EndReason.TOKENS


def test_happy_hour_6_gain_four() -> None:
    g = game(scores=[1, 2], rules=HH)
    g.end_turn_without_placement(NOTHING, happy_hour=6)
    assert g.scores == (5, 2)


def test_happy_hour_only_when_no_token_placed() -> None:
    g = game(rules=HH)
    with pytest.raises(IllegalMoveError, match="compulsory"):
        g.end_turn_without_placement(ROLL_EXAMPLE, happy_hour=6)


def test_board_constant_is_sixteen_distinct_coasters() -> None:
    assert len({n for row in BOARD for n in row}) == 16


# ---------------------------------------------------------------- positions


def test_position_with_a_full_line_is_won() -> None:
    g = game(tokens={cell(0, c): [0] for c in range(4)}, to_move=1)
    assert g.is_over
    assert g.winner == 0
    assert g.end_reason is EndReason.PINA_COLADICE


def test_position_past_the_target_is_triggered_then_over_at_round_end() -> None:
    g = game(scores=[25, 3], to_move=1)
    assert g.trigger is Trigger.SCORE
    assert not g.is_over
    g.end_turn_without_placement(NOTHING)
    assert g.is_over
    assert g.winner == 0
    over = game(scores=[25, 3], to_move=0)
    assert over.is_over
    assert over.winner == 0


def test_position_recency_decides_ties() -> None:
    g = game(tokens={cell(0, 0): [0], cell(3, 3): [1]}, scores=[20, 20], last_placed=[3, 5])
    assert g.is_over
    assert g.winner == 1
    assert g.end_reason is EndReason.TIE_BREAK


def test_position_round_trips() -> None:
    from pinastats.game.position import game_from_position, position_of

    g = game(players=3, tokens={cell(1, 1): [2, 0]}, scores=[4, 5, 6], to_move=2)
    again = game_from_position(position_of(g), config=g.config)
    for a, b in zip(g.state, again.state, strict=True):
        assert (a == b).all()


def test_position_unknown_coaster_is_a_position_error() -> None:
    from pinastats.game.position import PositionError

    board = [row[:] for row in BOARD]
    board[0][0] = "ful hose"
    with pytest.raises(PositionError, match="ful hose"):
        game(board=board)
