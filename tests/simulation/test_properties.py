"""Invariants checked after every turn of games played in the Python path."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.game.rules import EndReason, Rules, Trigger
from pinastats.simulation.play import play_turn

ONE_TURN_AGENTS = ["random", "greedy", "ev", "strategic"]


def owns_a_line(game: Game, seat: int) -> bool:
    return any(
        all(seat in game.tokens(c) for c in line) for line in game.config.layout.line_cells()
    )


def tokens_on_board(game: Game, seat: int) -> int:
    return int((game.state.spaces == seat).sum())


def check_winner(game: Game) -> None:
    """The winner agrees with the way the game ended."""
    scores, winner, reason = game.scores, game.winner, game.end_reason
    best = max(scores)
    leaders = [s for s in range(game.players) if scores[s] == best]
    assert reason is not EndReason.TURN_LIMIT
    if reason is EndReason.PINA_COLADICE:
        assert winner is not None
        assert owns_a_line(game, winner)
        return
    # ended on score: only after a full round, once the end was triggered
    assert game.turn % game.players == 0
    assert game.trigger is not Trigger.NONE
    if reason in (EndReason.SCORE, EndReason.TOKENS):
        assert leaders == [winner]
        assert (reason is EndReason.SCORE) == (game.trigger is Trigger.SCORE)
    elif reason is EndReason.TIE_BREAK:
        assert len(leaders) > 1
        assert winner in leaders
        assert game.last_placed[winner] == max(game.last_placed[s] for s in leaders) > 0
    else:
        assert reason is EndReason.DRAW
        assert winner is None
        assert len(leaders) > 1
        assert all(game.last_placed[s] == 0 for s in leaders)


@settings(max_examples=40)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 4),
    happy_hour=st.booleans(),
    negative=st.booleans(),
    kinds=st.lists(st.sampled_from(ONE_TURN_AGENTS), min_size=4, max_size=4),
)
def test_every_turn_keeps_the_invariants(
    seed: int, players: int, happy_hour: bool, negative: bool, kinds: list[str]
) -> None:
    from pinastats.agents.builtin import make_agent

    rules = Rules(happy_hour=happy_hour, negative_scores=negative and happy_hour)
    config = GameConfig(players=players, rules=rules)
    game = Game.new(seed=seed, config=config)
    agents = [make_agent(k) for k in kinds[:players]]
    rng = np.random.default_rng(seed)
    tokens = config.rules.tokens
    while not game.is_over:
        before, seat_to_move = game.scores, game.to_move
        record = play_turn(game, agents[seat_to_move], rng)
        assert record.player == seat_to_move
        for seat in range(players):
            # every token is on the board or in the reserve
            assert tokens_on_board(game, seat) + game.reserves[seat] == tokens
            assert 0 <= game.reserves[seat] <= tokens
            if not happy_hour:
                assert game.scores[seat] >= before[seat]
            elif not rules.negative_scores:
                assert game.scores[seat] >= 0
        # a coaster never holds two tokens of one player, nor more than its spaces
        for cell in range(config.layout.n_cells):
            seats = game.tokens(cell)
            assert len(set(seats)) == len(seats) <= (1 if game.side(cell) == "A" else 2)
        if record.cell is not None:
            assert seat_to_move in game.tokens(record.cell)
            assert game.scores[seat_to_move] == before[seat_to_move] + record.points
        assert game.turn <= 200
    check_winner(game)
