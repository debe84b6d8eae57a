"""The game loop's allocation-free kernels against the straightforward versions they replace.

Each oracle below is the previous implementation (or a plain-Python count of the
rules), kept here: the roll that copied the keep's counts, the deal from a fresh
``arange`` pool, array copies of the state, the line potential recounted on the
position after each candidate placement.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

from pinastats._engine import turn_tables
from pinastats._engine.decide import (
    _best_happy_hour,
    _choose_cell,
)
from pinastats._engine.happy_hour import _apply_happy_hour as apply_happy_hour
from pinastats._engine.kinds import K_EV, K_STRATEGIC
from pinastats._engine.rules import _copy_game, _deal_into, _roll
from pinastats._engine.state import copy_state, empty_state, states_equal
from pinastats._engine.values import _final_values
from pinastats.agents.builtin import make_agent
from pinastats.agents.tables import workspace
from pinastats.game import Game, GameConfig
from pinastats.game.rules import HappyHourEffect, Rules
from pinastats.simulation.play import play_turn_fast


@numba.njit
def roll_by_copy(rng, keep_counts, key_to_hand, keep):  # type: ignore[no-untyped-def]
    """The roll as first written: copy the keep's counts, add each die, key the counts."""
    counts = keep_counts[keep].copy()
    for _ in range(5 - counts.sum()):
        counts[int(rng.random() * 6.0)] += 1
    key = 0
    for f in range(6):
        key = key * 6 + counts[f]
    return key_to_hand[key]


@numba.njit
def rolls(rng, keep_counts, key_to_hand, keeps, by_copy):  # type: ignore[no-untyped-def]
    out = np.empty(keeps.shape[0], dtype=np.int64)
    for i in range(keeps.shape[0]):
        if by_copy:
            out[i] = roll_by_copy(rng, keep_counts, key_to_hand, keeps[i])
        else:
            out[i] = _roll(rng, keep_counts, key_to_hand, keeps[i])
    return out


def test_roll_draws_the_same_hands_as_the_copying_roll() -> None:
    t = turn_tables()
    keeps = np.random.default_rng(5).integers(0, t.keep_counts.shape[0], 5_000)
    a, b = np.random.default_rng(9), np.random.default_rng(9)
    fast = rolls(a, t.keep_counts, t.key_to_hand, keeps, False)
    slow = rolls(b, t.keep_counts, t.key_to_hand, keeps, True)
    assert (fast == slow).all()
    assert a.random() == b.random()  # as many draws
    hand_counts = t.keep_counts[t.hand_as_keep[fast]]  # the kept dice stay in the hand
    assert (hand_counts >= t.keep_counts[keeps]).all()


@numba.njit
def deal_from_arange(rng, game, n_coasters):  # type: ignore[no-untyped-def]
    """The cells' coasters as first dealt: a partial shuffle of a fresh ``arange``."""
    pool = np.arange(n_coasters)
    for c in range(game.cell_coaster.shape[0]):
        j = c + int(rng.random() * (n_coasters - c))
        pool[c], pool[j] = pool[j], pool[c]
        game.cell_coaster[c] = pool[c]
    return int(rng.random() * game.players.shape[0])


@numba.njit
def deal(rng, game, pool, sides, scores, tokens):  # type: ignore[no-untyped-def]
    _deal_into(rng, game, pool, sides, scores, tokens)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deal_into_a_pool_deals_as_a_fresh_arange(players: int) -> None:
    config = GameConfig(players=players)
    n_cells, n_coasters = config.layout.n_cells, len(config.catalogue)
    pool = np.full(n_coasters, -7, dtype=np.int64)  # stale contents must not matter
    for seed in range(20):
        fast, slow = empty_state(n_cells, players), empty_state(n_cells, players)
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        deal(a, fast, pool, config.sides, config.start_scores, config.rules.tokens)
        first = deal_from_arange(b, slow, n_coasters)
        assert (fast.cell_coaster == slow.cell_coaster).all()
        assert len(set(fast.cell_coaster.tolist())) == n_cells
        assert fast.status[0]["first"] == first == fast.status[0]["to_move"]
        assert (fast.cell_side == config.sides).all()
        assert (fast.spaces == -1).all()
        assert a.random() == b.random()


@numba.njit
def copy_game(source, target):  # type: ignore[no-untyped-def]
    _copy_game(source, target)


def test_copy_game_copies_every_field() -> None:
    rng = np.random.default_rng(3)
    source, target = empty_state(16, 3), empty_state(16, 3)
    for array in source:
        if array.dtype.names:  # every field of the records, whatever they are
            for name in array.dtype.names:
                array[name] = rng.integers(-5, 50, array.shape)  # type: ignore[call-overload]
        else:
            array[...] = rng.integers(-1, 3, array.shape)
    copy_game(source, target)
    assert states_equal(source, target)


# ---------------------------------------------------------------- strategic values


def python_potential(lines: np.ndarray, spaces: np.ndarray, sides: np.ndarray, seat: int) -> float:
    """``sum over lines open to seat of (own / length)**2``, counted on the position."""
    total = 0.0
    for line in lines:
        cells = [int(c) for c in line if c >= 0]
        owned = [seat in spaces[c, : 1 + sides[c]] for c in cells]
        room = [bool((spaces[c, : 1 + sides[c]] < 0).any()) for c in cells]
        if all(o or r for o, r in zip(owned, room, strict=True)) and cells:
            total += (sum(owned) * sum(owned)) / (len(cells) * len(cells))
    return total


def python_strategic_values(game: Game, params: np.ndarray) -> dict[int, float]:
    """The ``strategic`` value of each cell open to the mover, recounting every line."""
    board, state, seat = game.config.board, game.state, game.to_move
    n = game.players
    values = {}
    for cell in range(game.config.layout.n_cells):
        free = [s for s in range(1 + state.cell_side[cell]) if state.spaces[cell, s] < 0]
        mine = seat in state.spaces[cell]
        if not free or mine or state.players[seat]["reserve"] <= 0:
            continue
        after = copy_state(state)
        after.spaces[cell, free[0]] = seat

        def potentials(s: np.ndarray, p: int) -> tuple[float, float]:
            own = python_potential(board.lines, s, state.cell_side, p)
            opp = 0.0
            for q in range(n):
                if q != p:
                    opp += python_potential(board.lines, s, state.cell_side, q)
            return own, opp

        own0, opp0 = potentials(state.spaces, seat)
        own1, opp1 = potentials(after.spaces, seat)
        points = int(board.coaster_points[state.cell_coaster[cell], state.cell_side[cell], free[0]])
        points += sum(seat in state.spaces[m] for m in board.neighbours[cell] if m >= 0)
        wins = any(all(seat in after.spaces[c] for c in line if c >= 0) for line in board.lines)
        if wins:
            values[cell] = float(params[3])
            continue
        v = points + params[0] * (own1 - own0)
        v += params[1] * (opp0 - opp1)
        me = state.players[seat]
        if (
            state.status[0]["trigger"] != 0
            or me["reserve"] <= 2
            or (me["score"] + points >= board.target_score)
        ):
            v += params[2] * points
        values[cell] = v
    return values


def _positions(players: int, seed: int) -> list[Game]:
    """Positions along random games, some with side-B coasters holding a token on space 1 only."""
    config = GameConfig(players=players, rules=Rules(happy_hour=True))
    game = Game.new(seed=seed, config=config)
    rng = np.random.default_rng(seed)
    agent = make_agent("random")
    out: list[Game] = []
    while not game.is_over and len(out) < 12:
        play_turn_fast(game, agent, rng)
        if game.is_over:
            break
        if rng.random() < 0.3:  # Happy Hour "remove own token" leaves space 1 alone
            for c in np.flatnonzero(
                (game.state.spaces[:, 0] >= 0) & (game.state.spaces[:, 1] >= 0)
            ):
                owner = game.state.spaces[c, 0]
                game.state.spaces[c, 0] = -1
                game.state.players[owner]["reserve"] += 1
                break
        out.append(Game.from_state(config, copy_state(game.state)))
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_counted_strategic_values_equal_a_recount(players: int) -> None:
    params = make_agent("strategic").param_vector()
    checked = 0
    for seed in range(6):
        for game in _positions(players, seed):
            work = workspace(game.config)
            work.cell_value[:] = np.nan
            _final_values(K_STRATEGIC, params, game.config.board, game.state, game.to_move, work)
            expected = python_strategic_values(game, params)
            for cell, value in expected.items():
                assert work.cell_value[cell] == value, (seed, cell)  # to the last bit
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("kind", [K_EV, K_STRATEGIC])
def test_chosen_cell_has_the_best_recounted_value(kind: int) -> None:
    """Valued on the spot or read from the prepared turn, the choice is the plain scan's."""
    params = make_agent("strategic").param_vector()
    rng = np.random.default_rng(8)
    for seed in range(4):
        for game in _positions(3, seed):
            values = python_strategic_values(game, params)
            work = workspace(game.config)
            _final_values(kind, params, game.config.board, game.state, game.to_move, work)
            if kind == K_EV:
                values = {c: float(work.cell_value[c]) for c in values}
            if not values:
                continue
            board, state = game.config.board, game.state
            for cells in (sorted(values), sorted(rng.permutation(sorted(values))[:2].tolist())):
                legal = np.zeros(game.config.layout.n_cells, dtype=np.bool_)
                legal[cells] = True
                best_c = -1  # the scan of the straightforward choice: ties go to the first cell
                for c in cells:
                    if best_c < 0 or values[c] > values[best_c] + 1e-12:
                        best_c = c
                unused = np.full(game.config.layout.n_cells, np.nan)
                assert _choose_cell(kind, params, board, state, game.to_move, legal, 0.0, unused,
                                    False) == best_c  # fmt: skip
                assert _choose_cell(kind, params, board, state, game.to_move, legal, 0.0,
                                    work.cell_value, True) == best_c  # fmt: skip


@numba.njit
def best_happy_hour(kind, params, board, game, seat, effect, options, n, u, saved):  # type: ignore[no-untyped-def]
    return _best_happy_hour(kind, params, board, game, seat, effect, options, n, u, saved)


def python_happy_hour_choice(game: Game, effect: int, options: list[int]) -> int:
    """Each option tried on a copy of the position, valued by recounted potentials."""
    board, seat = game.config.board, game.to_move
    best_i, best = 0, -1e300
    for i, option in enumerate(options):
        trial = Game.from_state(game.config, copy_state(game.state))
        apply_happy_hour(board, trial.state, seat, effect, option)
        s, sides = trial.state.spaces, trial.state.cell_side
        value = python_potential(board.lines, s, sides, seat)
        others = [p for p in range(game.players) if p != seat]
        value -= sum(python_potential(board.lines, s, sides, p) for p in others)
        for p in range(game.players):
            if p != seat and any(all(p in s[c] for c in line if c >= 0) for line in board.lines):
                value -= 1e6
        if value > best + 1e-12:
            best_i, best = i, value
    return options[best_i]


def test_happy_hour_choice_restores_the_position() -> None:
    params = make_agent("strategic").param_vector()
    tried = 0
    for seed in range(6):
        for game in _positions(2, seed):
            for effect in (HappyHourEffect.MOVE_OTHER_TOKEN, HappyHourEffect.FLIP_COASTER):
                options = game.happy_hour_options(effect)
                if len(options) < 2:
                    continue
                before = copy_state(game.state)
                saved = empty_state(game.config.layout.n_cells, game.players)
                arr = np.array(options, dtype=np.int64)
                board = game.config.board
                fast = best_happy_hour(K_STRATEGIC, params, board, game.state, game.to_move,
                                       int(effect), arr, len(arr), 0.0, saved)  # fmt: skip
                assert states_equal(before, game.state)
                assert fast == python_happy_hour_choice(game, int(effect), options)
                tried += 1
    assert tried > 10
