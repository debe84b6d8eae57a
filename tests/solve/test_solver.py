"""The exact solver against a brute force written from the rules, on every state of tiny games."""

from __future__ import annotations

import hashlib
import math

import numpy as np
import pytest

from pinastats import _engine as E
from pinastats.dice.hands import N_HANDS, N_KEEPS
from pinastats.game import Game, GameConfig, Layout, Rules
from pinastats.game.game import Game as GameType
from pinastats.solve import SolvedBoard, SolveError, solve, uncovered
from pinastats.solve.board import binomials, layer_offsets
from pinastats.solve.solver import solver_tables, turn_work
from tests.solve.brute import BruteForce


def _lines(cells: list[tuple[int, int]], length: int) -> list[list[tuple[int, int]]]:
    """Every straight run of ``length`` cells of the shape (across, down, both diagonals)."""
    shape = set(cells)
    runs = []
    for r, c in cells:
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            run = [(r + i * dr, c + i * dc) for i in range(length)]
            if all(x in shape for x in run):
                runs.append(run)
    return runs


def tiny(
    rows: int, cols: int, line: int, *, target_score: int, tokens: int, rolls: int
) -> GameConfig:
    """A ``rows`` × ``cols`` grid whose lines are its straight runs of ``line`` cells."""
    rules = Rules(target_score=target_score, tokens=tokens, rolls=rolls)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    layout = Layout.build(f"grid-{rows}x{cols}", cells, _lines(cells, line), {2: "A" * len(cells)})
    return GameConfig(layout=layout, rules=rules)


TINY_GAMES = {
    # name: (config, deal seed)
    "2x2, lines of 2, 3 tokens, 2 rolls": (tiny(2, 2, 2, target_score=6, tokens=3, rolls=2), 3),
    "2x3, lines of 3, 3 tokens, 1 roll": (tiny(2, 3, 3, target_score=8, tokens=3, rolls=1), 5),
    "3x3, lines of 3, 3 tokens, 1 roll": (tiny(3, 3, 3, target_score=9, tokens=3, rolls=1), 2),
    "2x2, lines of 2, 2 tokens, 3 rolls": (tiny(2, 2, 2, target_score=5, tokens=2, rolls=3), 11),
}


def _score(brute: BruteForce, cells: frozenset[int], start: int) -> int:
    """The score of a player's cells, the brute force's way: placement by placement."""
    score, placed = start, frozenset[int]()
    for c in sorted(cells):
        score += brute._points(c, placed)
        placed = placed | {c}
    return score


@pytest.mark.parametrize("name", TINY_GAMES)
def test_every_state_agrees_with_the_brute_force(name: str) -> None:
    config, seed = TINY_GAMES[name]
    game = Game.new(config=config, seed=seed)
    solution = solve(game, store=False)
    brute = BruteForce(game)
    board = solution.board
    n, offset = board.n_cells, board.layers[0]
    checked = unreached = 0
    for a in range(board.tokens):
        for b in range(board.tokens):
            if a + b > n:
                continue
            for i in range(math.comb(n, a) * math.comb(n - a, b)):
                fm, sm = E.solve_board_masks(i, a, b, n, board.binom)
                first = frozenset(c for c in range(n) if fm >> c & 1)
                second = frozenset(c for c in range(n) if sm >> c & 1)
                sf, ss = _score(brute, first, brute.start[0]), _score(brute, second, brute.start[1])
                u, w = solution.values[offset[a, b] + i]
                over = max(sf, ss) >= config.rules.target_score
                if over or brute._line(first) or brute._line(second):
                    assert np.isnan(u)
                    assert np.isnan(w)
                    unreached += 1
                    continue
                assert u == pytest.approx(brute.first_wins(first, second, sf, ss, 0), abs=1e-9)
                assert w == pytest.approx(1 - brute.first_wins(first, second, sf, ss, 1), abs=1e-9)
                checked += 1
    assert checked > 10
    assert solution.start_chance == pytest.approx(brute.start_chance(), abs=1e-9)


def _last_turn_game(config: GameConfig, seed: int) -> GameType:
    """A game played until the first player triggers the end: the second player's last turn."""
    from pinastats.agents import make_agent
    from pinastats.simulation.play import play_turn

    rng = np.random.default_rng(seed)
    agent = make_agent("random")
    for attempt in range(200):
        game = Game.new(config=config, seed=seed + attempt)
        while not game.is_over:
            if game.trigger.name != "NONE" and not game.is_over:
                return game
            play_turn(game, agent, rng)
    raise AssertionError("no game reached a last turn")


@pytest.mark.parametrize("name", list(TINY_GAMES)[1:3])
def test_last_turn_agrees_with_the_brute_force(name: str) -> None:
    config, seed = TINY_GAMES[name]
    game = _last_turn_game(config, seed)
    solution = solve(game, store=False)
    brute = BruteForce(game)
    pos = solution.position(game)
    assert pos.last_turn
    assert pos.mover == 1
    first = frozenset(c for c in range(game.config.layout.n_cells) if pos.first >> c & 1)
    second = frozenset(c for c in range(game.config.layout.n_cells) if pos.second >> c & 1)
    expected = brute.last_turn(first, second, *pos.scores)
    second_seat = 1 - pos.first_seat
    assert solution.chances(game)[second_seat] == pytest.approx(expected, abs=1e-9)


def test_the_index_ranks_every_board_once() -> None:
    n, tokens = 6, 3
    binom = binomials(n)
    offset, total = layer_offsets(n, tokens)
    seen = set()
    for a in range(tokens):
        for b in range(tokens):
            for i in range(math.comb(n, a) * math.comb(n - a, b)):
                first, second = E.solve_board_masks(i, a, b, n, binom)
                assert bin(first).count("1") == a
                assert bin(second).count("1") == b
                assert first & second == 0
                assert E.solve_index_of(first, second, a, b, n, binom, offset) == offset[a, b] + i
                seen.add((first, second))
    assert len(seen) == total


def test_a_full_size_solve_is_pinned() -> None:
    """The 4x4 grid with 3 tokens a player (every layer shape of the full solve, 14,793
    boards): the digest of its table rounded to 1e-9, computed once and pinned."""
    game = Game.new(config=GameConfig(rules=Rules(tokens=3)), seed=2026)
    solution = solve(game, store=False)
    rounded = np.round(np.nan_to_num(solution.values, nan=-1.0), 9)
    digest = hashlib.sha256(rounded.tobytes()).hexdigest()[:16]
    assert solution.board.positions == 14_793
    assert round(solution.start_chance, 9) == PINNED_START
    assert digest == PINNED_DIGEST


PINNED_START = 0.281948358
PINNED_DIGEST = "19960f47d2bbe459"


@pytest.mark.parametrize(
    ("config", "why"),
    [
        (GameConfig(players=3), "two players, not 3"),
        (GameConfig(rules=Rules(happy_hour=True)), "not Happy Hour"),
    ],
)
def test_uncovered_games_are_refused_with_the_reason(config: GameConfig, why: str) -> None:
    assert why in (uncovered(config) or "")
    with pytest.raises(SolveError, match=why):
        SolvedBoard.of(Game.new(config=config, seed=1))


def test_a_position_of_another_board_is_refused() -> None:
    config, seed = TINY_GAMES["2x2, lines of 2, 3 tokens, 2 rolls"]
    solution = solve(Game.new(config=config, seed=seed), store=False)
    other = next(
        g
        for s in range(50)
        if (g := Game.new(config=config, seed=s)).state.cell_coaster.tolist()
        != list(solution.board.coasters)
    )
    with pytest.raises(SolveError, match="another board"):
        solution.chances(other)


def test_each_placement_reads_the_index_of_the_board_it_makes() -> None:
    # a table whose entries name their own index: each child's value says where it was read
    config = GameConfig(players=2, rules=Rules(target_score=99, tokens=6))
    board = SolvedBoard.of(Game.new(config=config, seed=4))
    n, offset = board.n_cells, board.layers[0]
    values = np.stack([np.arange(board.positions), -np.arange(board.positions)], axis=1) * 1.0
    game = board.game_tuple(np.zeros(1 << n))
    ptr, cells, _ = board.hand_cells
    rng = np.random.default_rng(7)
    final, passes = np.zeros(N_HANDS), np.zeros(N_HANDS, dtype=np.bool_)

    def lined(cells: int) -> bool:  # a line wins at once: no board is read
        return any(cells & int(line) == int(line) for line in board.line_masks)

    for _ in range(300):
        a, b = (int(t) for t in rng.integers(0, 5, size=2))
        order = rng.permutation(n)
        first = sum(1 << int(c) for c in order[:a])
        second = sum(1 << int(c) for c in order[a : a + b])
        child_first, child_second = np.zeros(n), np.zeros(n)
        open_cells = E.solve_mover_finals(first, second, a, b, game, (ptr, cells), values, 0,
                                          final, passes, child_first, child_second)  # fmt: skip
        assert open_cells == ((1 << n) - 1) & ~(first | second)
        for c in range(n):
            if (open_cells >> c) & 1:
                bit = 1 << c
                j = E.solve_index_of(first | bit, second, a + 1, b, n, board.binom, offset)
                assert child_first[c] == (1.0 if lined(first | bit) else 1.0 + j)  # 1 - V[j, 1]
                j = E.solve_index_of(first, second | bit, a, b + 1, n, board.binom, offset)
                assert child_second[c] == (1.0 if lined(second | bit) else 1.0 - j)


@pytest.mark.parametrize("rolls", [1, 2, 3, 4])
def test_the_turns_of_boards_side_by_side_are_each_boards_own_turn(rolls: int) -> None:
    lanes = E.SOLVE_LANES
    rng = np.random.default_rng(rolls)
    final = rng.random((N_HANDS, lanes))
    passes = rng.random((N_HANDS, lanes)) < rng.random(lanes)  # from few passes to many
    final[passes] = -1.0
    y = rng.random(lanes)
    tables = solver_tables()
    fixed, per_pass = np.zeros(N_KEEPS * lanes), np.zeros(N_KEEPS * lanes)
    E.solve_turn_lines(final.ravel(), passes.ravel(), tables, fixed, per_pass,
                       np.zeros(2 * N_HANDS * lanes))  # fmt: skip
    out = np.zeros(lanes)
    E.solve_turn_lanes(fixed, per_pass, y, rolls, tables, np.zeros(N_HANDS * lanes),
                       np.zeros(2 * N_HANDS * lanes), np.zeros(N_KEEPS * lanes), out)  # fmt: skip
    for lane in range(lanes):
        alone, _ = E.solve_turn(np.ascontiguousarray(final[:, lane]),
                                np.ascontiguousarray(passes[:, lane]), y[lane], rolls, tables,
                                *turn_work(rolls))  # fmt: skip
        assert out[lane] == pytest.approx(alone, abs=1e-14)
