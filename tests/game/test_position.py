"""Positions: side-B spaces, recency without ``last_placed``, and impossible positions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pinastats.agents import make_agent
from pinastats.errors import PinastatsError
from pinastats.game.catalogue import Catalogue, load_catalogue
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.game.position import (
    OTHERS_GAIN,
    ROLLER_GAIN,
    PositionError,
    game_from_position,
    position_of,
)
from pinastats.game.rules import EndReason, HappyHourEffect, Rules, Trigger
from pinastats.simulation import play_turn
from tests.game.scenarios import cell, explaining_config, position

HH = Rules(happy_hour=True)
NOTHING = (1, 2, 4, 5, 6)  # matches no coaster of the scenario board
FULL_HOUSE = (5, 5, 5, 3, 3)
FH = cell(2, 2)  # the Full House: side B scores 4 on the first space, 3 on the second
SIX = [cell(0, 0), cell(0, 1), cell(0, 2), cell(1, 0), cell(3, 0), cell(2, 1)]  # no line
CLUSTER = [cell(2, 2), cell(2, 3), cell(3, 1), cell(3, 2), cell(3, 3)]  # 8 neighbouring pairs


def with_tokens(data: dict[str, Any], at: int, entry: list[int | None]) -> dict[str, Any]:
    """``data`` with the token list ``entry`` on cell ``at`` (may hold null)."""
    data["tokens"][at // 4][at % 4] = entry
    return data


def points_on(game: Any, at: int, dice: tuple[int, ...] = FULL_HOUSE) -> int:
    (placement,) = [p for p in game.legal_placements(dice) if p.cell == at]
    return int(placement.points)


# ---------------------------------------------------------------- side-B spaces


def test_a_space_freed_by_happy_hour_survives_saving_and_loading() -> None:
    g = game_from_position(position(players=4, tokens={FH: [1, 2]}), rules=HH)
    effect = HappyHourEffect.MOVE_OTHER_TOKEN
    (option,) = [
        o
        for o in g.happy_hour_options(effect)
        if g.decode_happy_hour(effect, o) == {"from_cell": FH, "owner": 1, "to_cell": 0}
    ]
    g.end_turn_without_placement(NOTHING, happy_hour=4, option=option)  # seat 0 moves seat 1
    assert g.tokens(FH) == (2,)
    # the first space is free again: seat 1 scores its 4 (no own neighbour of the Full House)
    assert points_on(g, FH) == 4
    saved = position_of(g)
    assert saved["tokens"][2][2] == [None, 2]
    again = game_from_position(saved, rules=HH)
    assert again.state.spaces[FH].tolist() == [-1, 2]
    assert points_on(again, FH) == 4


def test_null_marks_a_free_first_space() -> None:
    g = game_from_position(with_tokens(position(players=4), FH, [None, 2]), rules=HH)
    assert g.state.spaces[FH].tolist() == [-1, 2]
    assert points_on(g, FH) == 4
    g2 = game_from_position(with_tokens(position(players=4), FH, [2, None]), rules=HH)
    assert g2.state.spaces[FH].tolist() == [2, -1]
    assert points_on(g2, FH) == 3  # the second space's value


@pytest.mark.parametrize("rules", [Rules(), HH], ids=["plain", "happy hour"])
def test_a_list_without_null_fills_the_spaces_in_order(rules: Rules) -> None:
    g = game_from_position(position(players=4, tokens={FH: [2, 1]}), rules=rules)
    assert g.state.spaces[FH].tolist() == [2, 1]
    one = game_from_position(position(players=4, tokens={FH: [2]}))
    assert one.state.spaces[FH].tolist() == [2, -1]  # without Happy Hour: the first space


def test_one_token_on_side_b_must_say_its_space_with_happy_hour() -> None:
    with pytest.raises(
        PositionError, match=r"cell 10 \(full-house, side B\).*\[2, null\].*\[null, 2\]"
    ):
        game_from_position(position(players=4, tokens={FH: [2]}), rules=HH)


def test_a_free_first_space_needs_happy_hour() -> None:
    data = with_tokens(position(players=4), FH, [None, 2])
    with pytest.raises(PositionError, match="first space is free but seat 2 is on the second"):
        game_from_position(data)


def test_position_of_writes_every_space_of_side_b() -> None:
    data = position(players=3, tokens={cell(0, 0): [1], cell(0, 1): [2], FH: [1]})
    g = game_from_position(data)  # 3 players: corners and centre on side B, (0, 1) on side A
    tokens = position_of(g)["tokens"]
    assert tokens[0][0] == [1, None]  # corner, side B
    assert tokens[0][1] == [2]  # side A: one space
    assert tokens[2][2] == [1, None]  # centre, side B
    assert tokens[3][3] == []  # free coaster


def test_side_a_takes_one_token() -> None:
    assert game_from_position(with_tokens(position(), 0, [None])).tokens(0) == ()
    with pytest.raises(PositionError, match=r"cell 0 \(pair-1, side A\): the coaster has 1 space "):
        game_from_position(position(tokens={0: [0, 1]}))


def test_a_seat_on_two_spaces_of_a_coaster_is_refused() -> None:
    with pytest.raises(PositionError, match="two tokens on one coaster"):
        game_from_position(position(players=4, tokens={FH: [3, 3]}))


# ---------------------------------------------------------------- recency


def tied_at_the_end(holders: dict[int, list[int]]) -> dict[str, Any]:
    """Two players tied at 20, the round complete: the end is decided on loading."""
    return position(tokens=holders, scores=[20, 20], to_move=0)


def explained(data: dict[str, Any], **changes: Any) -> Any:
    """Load ``data`` with starting scores that explain its scores without Happy Hour."""
    return game_from_position({**data, **changes}, config=explaining_config(data))


def test_tied_leaders_who_both_placed_need_last_placed() -> None:
    data = tied_at_the_end({cell(0, 0): [0], cell(3, 3): [1]})
    with pytest.raises(PositionError, match=r"last_placed is needed: seats \[0, 1\] tie at 20"):
        explained(data)
    given = explained(data, last_placed=[2, 1])
    assert (given.winner, given.end_reason) == (0, EndReason.TIE_BREAK)


def test_a_tied_leader_with_tokens_beats_one_who_never_placed() -> None:
    g = explained(tied_at_the_end({cell(3, 3): [1]}))
    assert (g.winner, g.end_reason) == (1, EndReason.TIE_BREAK)


def test_tied_leaders_without_tokens_draw_when_happy_hour_is_off() -> None:
    g = explained(tied_at_the_end({}))
    assert (g.winner, g.end_reason) == (None, EndReason.DRAW)


@pytest.mark.parametrize("holders", [{}, {cell(3, 3): [1]}], ids=["no tokens", "one holder"])
def test_with_happy_hour_every_tie_needs_last_placed(holders: dict[int, list[int]]) -> None:
    # a token taken back or flipped off leaves no trace: who placed last is unknown
    with pytest.raises(PositionError, match=r"last_placed is needed.*Happy Hour"):
        game_from_position(tied_at_the_end(holders), rules=HH)


def test_a_single_leader_needs_no_recency() -> None:
    data = position(tokens={cell(0, 0): [0], cell(3, 3): [1]}, scores=[21, 20], to_move=0)
    g = explained(data)
    assert (g.winner, g.end_reason) == (0, EndReason.SCORE)


def test_missing_recency_follows_turn_order_for_a_running_game() -> None:
    data = position(players=3, tokens={cell(0, 0): [0], cell(3, 3): [2]}, to_move=1)
    g = game_from_position(data)
    # seat 0 played just before seat 1, seat 2 before it; seat 1 has never placed
    assert g.last_placed[1] == 0
    assert g.last_placed[0] > g.last_placed[2] > 0
    g.place(cell(1, 1), (6, 6, 1, 2, 3))  # pair of 6s: a new placement is the most recent
    assert g.last_placed[1] > max(g.last_placed[0], g.last_placed[2])


def test_last_placed_must_agree_with_the_board() -> None:
    data = position(tokens={cell(0, 0): [0]}, last_placed=[0, 0])
    with pytest.raises(PositionError, match="seat 0 has tokens on the board, so it has placed"):
        game_from_position(data)
    data = position(tokens={cell(0, 0): [0], cell(3, 3): [1]}, last_placed=[3, 3])
    with pytest.raises(PositionError, match="seats 0 and 1 both give 3"):
        game_from_position(data)


# ---------------------------------------------------------------- impossible positions


def test_position_error_is_a_pinastats_error() -> None:
    assert issubclass(PositionError, PinastatsError)


@pytest.mark.parametrize(
    "rules", [Rules(), Rules(happy_hour=True), Rules(negative_scores=True)], ids=str
)
def test_a_negative_score_needs_happy_hour_and_negative_scores(rules: Rules) -> None:
    with pytest.raises(PositionError, match="seat 1 has -2; a score goes below 0 only with"):
        game_from_position(position(scores=[3, -2]), rules=rules)


def test_a_negative_score_with_happy_hour_and_negative_scores_is_allowed() -> None:
    rules = Rules(happy_hour=True, negative_scores=True)
    assert game_from_position(position(scores=[3, -2]), rules=rules).scores == (3, -2)


def test_a_score_below_the_start_needs_happy_hour() -> None:
    data = position(scores=[1, 1], first_player=1)  # seat 1 starts on 1, seat 0 on 2
    with pytest.raises(PositionError, match="seat 0 has 1, below its starting score 2"):
        game_from_position(data)
    assert game_from_position(data, rules=HH).scores == (1, 1)
    assert game_from_position(position(scores=[2, 1], first_player=1)).scores == (2, 1)


def test_more_tokens_than_a_player_has_is_refused() -> None:
    data = position(tokens={c: [0] for c in [*SIX, cell(3, 3)]})
    with pytest.raises(PositionError, match="seat 0 has 7 tokens on the board; each player has 6"):
        game_from_position(data)


def test_more_tokens_than_spaces_on_side_b_is_refused() -> None:
    with pytest.raises(PositionError, match="has 2 spaces but the list"):
        game_from_position(position(players=4, tokens={FH: [0, 1, 2]}, scores=[1, 2, 3, 4]))


def test_end_trigger_tokens_is_kept_when_a_score_reaches_the_target_later() -> None:
    data = position(tokens={**{c: [0] for c in SIX}, **{c: [1] for c in CLUSTER}}, to_move=0)
    assert data["scores"][0] < 20 <= data["scores"][1]  # seat 1's five tokens: 21 points
    g = game_from_position({**data, "end_trigger": "tokens"})
    assert (g.winner, g.trigger, g.end_reason) == (1, Trigger.TOKENS, EndReason.TOKENS)
    derived = game_from_position(data)  # not given: the score shows first
    assert (derived.trigger, derived.end_reason) == (Trigger.SCORE, EndReason.SCORE)


def test_end_trigger_with_happy_hour_may_outlive_the_board() -> None:
    data = {**position(scores=[17, 5], to_move=1), "end_trigger": "score"}
    g = game_from_position(data, rules=HH)  # seat 0 reached 20, then lost 3
    assert g.trigger is Trigger.SCORE
    assert not g.is_over
    with pytest.raises(PositionError, match=r'"score" but no score reaches 20.*Happy Hour'):
        explained(data)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({**position(scores=[20, 5], to_move=1), "end_trigger": None}, "seat 0 has 20 points"),
        ({**position(to_move=1), "end_trigger": "tokens"}, "every seat has a token in reserve"),
        ({**position(), "end_trigger": "line"}, 'must be "score", "tokens" or null'),
    ],
    ids=["null while triggered", "tokens while in reserve", "unknown"],
)
def test_end_trigger_must_agree_with_the_board(data: dict[str, Any], message: str) -> None:
    with pytest.raises(PositionError, match=message):
        explained(data)


def test_a_catalogue_smaller_than_the_layout_is_blamed() -> None:
    small = Catalogue(coasters=load_catalogue().coasters[:10])
    with pytest.raises(PinastatsError) as info:
        game_from_position(position(), catalogue=small)
    assert not isinstance(info.value, PositionError)
    assert "the coaster catalogue has 10 coasters, fewer than the 16 cells" in str(info.value)


def test_a_config_must_match_the_position() -> None:
    config = GameConfig(players=3)
    assert game_from_position(position(players=3), config=config).config is config
    with pytest.raises(PositionError, match="disagrees with the config"):
        game_from_position(position(players=2), config=config)
    with pytest.raises(TypeError, match="either a config or"):
        game_from_position(position(players=3), config=config, rules=HH)


# ---------------------------------------------------------------- positions the rules cannot reach

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "state.json"


def example(**changes: Any) -> dict[str, Any]:
    """The example state file (scores 7 and 11, seat 0 to move), with ``changes``."""
    return {**json.loads(EXAMPLE.read_text(encoding="utf-8")), **changes}


def nested(depth: int) -> list[Any]:
    """A list nested ``depth`` deep: ``[[[...]]]``."""
    value: list[Any] = []
    for _ in range(depth - 1):
        value = [value]
    return value


@pytest.mark.parametrize(
    ("changes", "rules", "message"),
    [
        ({"scores": [10**30, 11]}, Rules(), r"seat 0 has 10{30}, more than this position allows"),
        ({"scores": [2**63 - 1, 11]}, HH, r"seat 0 has 9223372036854775807, more than"),
        ({"scores": [7, -(10**30)]}, Rules(happy_hour=True, negative_scores=True),
         r"seat 1 has -10{30}; pinastats takes scores from -1,000,000,000,000"),
        ({"last_placed": [10**30, 7]}, Rules(), r"last_placed must list 2 whole numbers from 0 "
         r"to 1,000,000,000,000 \(one per seat\), got \[10{30}, 7\]"),
        ({"last_placed": [6, 2**63 - 1]}, HH, r"from 0 to 1,000,000,000,000 .*9223372036854775807"),
    ],
    ids=["10**30", "2**63-1", "-10**30", "last_placed 10**30", "last_placed 2**63-1"],
)  # fmt: skip
def test_numbers_past_any_game_are_refused(
    changes: dict[str, Any], rules: Rules, message: str
) -> None:
    with pytest.raises(PositionError, match=message):
        game_from_position(example(**changes), rules=rules)


def test_the_bound_is_the_target_less_1_plus_the_turns_of_the_round() -> None:
    # Happy Hour, round complete: 19 + 11 (Five of a Kind's 6 on side B and 5 neighbours)
    # for seat 0's turn + 1 ("others gain 1") for seat 1's
    assert game_from_position(example(scores=[31, 11]), rules=HH).scores == (31, 11)
    with pytest.raises(
        PositionError,
        match=r"seat 0 has 32, more than this position allows "
        r"\(31 at most\)",
    ):
        game_from_position(example(scores=[32, 11]), rules=HH)  # fmt: skip


def test_lists_nested_too_deeply_are_refused_without_recursing() -> None:
    tokens = example()["tokens"]
    tokens[0][0] = nested(200_000)
    with pytest.raises(PositionError, match=r"tokens\[0\]\[0\]\[0\] nests too deeply"):
        game_from_position(example(tokens=tokens))
    with pytest.raises(PositionError, match=r"first_player\[0\]\[0\]\[0\] nests too deeply"):
        game_from_position(example(first_player=nested(5)))


def test_a_score_past_the_end_is_refused_without_happy_hour() -> None:
    # seat 1, yet to play in the round, has 20 points its tokens explain: it reached
    # the target in an earlier round, whose end would have ended the game
    cells = [cell(1, 2), cell(2, 2), cell(3, 1), cell(3, 2), cell(3, 3)]
    data = position(tokens={c: [1] for c in cells}, to_move=1)
    assert data["scores"] == [1, 20]
    with pytest.raises(
        PositionError,
        match=r"seat 1 has 20, more than this position allows "
        r"\(19 at most\): every score was at most 19 when this round began",
    ):
        game_from_position(data)  # fmt: skip
    # with Happy Hour, seat 0's "others gain 1" this round may have given it the 20th point
    assert game_from_position(data, rules=HH).scores == (1, 20)
    # played this round, seat 1 may have reached 20 in it
    assert game_from_position({**data, "to_move": 0}).is_over


@pytest.mark.parametrize("rules", [Rules(), HH], ids=["plain", "happy hour"])
def test_an_empty_reserve_for_a_seat_yet_to_play_is_refused(rules: Rules) -> None:
    data = position(tokens={c: [1] for c in SIX}, to_move=1)
    with pytest.raises(
        PositionError,
        match="seat 1 has all its 6 tokens on the board but has yet to play in this round",
    ):
        game_from_position(data, rules=rules)  # fmt: skip
    over = game_from_position({**data, "to_move": 0}, rules=rules)  # the round complete
    assert (over.end_reason, over.reserves) == (EndReason.TOKENS, (6, 0))


@pytest.mark.parametrize(
    ("scores", "message"),
    [([15, 11], "seat 0 has 15, but its tokens explain exactly 7"),
     ([1, 11], "seat 0 has 1, but its tokens explain exactly 7"),
     ([7, 12], "seat 1 has 12, but its tokens explain exactly 11")],
    ids=["15 for 7", "three tokens on the start", "one too many"],
)  # fmt: skip
def test_a_score_the_tokens_do_not_explain_needs_happy_hour(
    scores: list[int], message: str
) -> None:
    assert game_from_position(example()).scores == (7, 11)
    with pytest.raises(PositionError, match=message + r" \(its starting score"):
        game_from_position(example(scores=scores))
    assert game_from_position(example(scores=scores), rules=HH).scores == tuple(scores)


def test_scenario_scores_are_the_scores_the_tokens_explain() -> None:
    """The engine's placements, in another order, agree with the loader's count."""
    data = position(tokens={**{c: [0] for c in SIX}, **{c: [1] for c in CLUSTER}})
    assert data["scores"] == [1 + 7 + 6, 2 + 11 + 8]
    assert game_from_position(data).scores == (14, 21)


def test_a_flipped_coaster_needs_happy_hour() -> None:
    data = position(sides=["BAAA", "AAAA", "AAAA", "AAAA"])
    with pytest.raises(
        PositionError,
        match=r"sides: cell 0 \(pair-1\) shows side B, but 2 "
        "players set it up on side A; only Happy Hour flips a coaster",
    ):
        game_from_position(data)  # fmt: skip
    assert game_from_position(data, rules=HH).side(0) == "B"


def test_last_placed_for_a_seat_without_tokens_needs_happy_hour() -> None:
    data = position(tokens={cell(0, 0): [0]}, last_placed=[2, 1])
    with pytest.raises(
        PositionError,
        match="last_placed: seat 1 gives 1 but has no token on "
        "the board; without Happy Hour no token leaves the board",
    ):
        game_from_position(data)  # fmt: skip
    assert game_from_position(data, rules=HH).last_placed == (2, 1)  # its token was taken back


def test_happy_hour_gains_are_the_rules() -> None:
    """The gains the score bound counts are those Happy Hour gives (effects 6 and 3)."""
    for face, seat, gain in [(6, 0, ROLLER_GAIN), (3, 1, OTHERS_GAIN)]:
        g = game_from_position(position(), rules=HH)
        before = g.scores[seat]
        g.end_turn_without_placement(NOTHING, happy_hour=face)
        assert g.scores[seat] - before == gain


def test_starting_scores_are_whole_numbers_from_0() -> None:
    for bad in [(-1, 2), (1, 10**30), (1.0, 2), [1, 2], (1, 2, 3)]:
        with pytest.raises(
            PinastatsError,
            match=r"starting scores must be a tuple of 2 whole "
            r"numbers from 0 to 1,000,000,000,000",
        ):
            GameConfig(starting_scores=bad)  # type: ignore[arg-type]  # fmt: skip


def test_a_config_with_other_starting_scores_loads_its_own_positions() -> None:
    config = GameConfig(starting_scores=(0, 7))
    g, rng, agent = Game.new(config=config, seed=4), np.random.default_rng(4), make_agent("greedy")
    for _ in range(6):
        play_turn(g, agent, rng)
        again = game_from_position(position_of(g), config=config)
        assert (again.scores, again.to_move) == (g.scores, g.to_move)
