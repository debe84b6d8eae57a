"""The memo of prepared turns gives what solving the turn again gives, to the last bit.

The oracle is the workspace without a memo, which solves every turn. The key
(``_turn_key``) leaves out parts of the state; a test changes each of them and
checks that the solved turn does not move.
"""

from __future__ import annotations

import numpy as np
import pytest

from pinastats._engine import Workspace, turn_memo, turn_tables
from pinastats._engine.decide import _prepare_turn
from pinastats._engine.kinds import K_EV, K_STRATEGIC, K_VALUE
from pinastats._engine.playout import _play_outs
from pinastats._engine.state import copy_state
from pinastats._engine.stream import new_stream, stream_rng
from pinastats.agents.builtin import make_agent
from pinastats.agents.tables import workspace
from pinastats.game import Game, GameConfig
from pinastats.game.rules import Rules
from pinastats.simulation.chunk import ChunkSpec, play_chunk

CONFIG = GameConfig(players=3, rules=Rules(happy_hour=True))
PARAMS = make_agent("strategic").param_vector()


def _positions(seed: int, count: int = 10) -> list[Game]:
    """Positions along a ``strategic`` game of three players, Happy Hour played."""
    game = Game.new(seed=seed, config=CONFIG)
    rng = np.random.default_rng(seed)
    agent = make_agent("strategic")
    out: list[Game] = []
    from pinastats.simulation.play import play_turn_fast

    while not game.is_over and len(out) < count:
        play_turn_fast(game, agent, rng)
        if not game.is_over:
            out.append(Game.from_state(CONFIG, copy_state(game.state)))
    return out


def _prepared(game: Game, work: Workspace, kind: int = K_STRATEGIC, params=PARAMS):  # type: ignore[no-untyped-def]
    """``(K_r rows, value of each open cell)`` of the mover's prepared turn."""
    _prepare_turn(kind, params, CONFIG.board, game.state, turn_tables(), work, game.to_move)
    rows = work.keep_value[: CONFIG.rules.rolls - 1].copy()
    return rows, work.cell_value[_open_cells(game)].copy()


def _open_cells(game: Game) -> list[int]:
    """The cells the mover could place on with matching dice (a plain count of the rules)."""
    state, seat = game.state, game.to_move
    if state.players[seat]["reserve"] <= 0:
        return []
    out = []
    for c in range(CONFIG.layout.n_cells):
        spaces = state.spaces[c, : 1 + state.cell_side[c]]
        if (spaces < 0).any() and seat not in state.spaces[c]:
            out.append(c)
    return out


def _same(a, b) -> bool:  # type: ignore[no-untyped-def]
    return all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("kind", [K_EV, K_STRATEGIC])
def test_a_turn_read_back_is_the_turn_solved_again(kind: int) -> None:
    memo_work, plain = workspace(CONFIG, memo=True), workspace(CONFIG)
    positions = _positions(3) + _positions(4)
    for game in positions:  # first pass: solved and kept
        assert _same(_prepared(game, memo_work, kind), _prepared(game, plain, kind))
    hits = memo_work.memo.counts[0]
    for game in reversed(positions):  # second pass: read back
        assert _same(_prepared(game, memo_work, kind), _prepared(game, plain, kind))
    assert memo_work.memo.counts[0] - hits == len(positions)


def test_other_parameters_or_another_kind_solve_again() -> None:
    work = workspace(CONFIG, memo=True)
    game = _positions(5, 3)[-1]
    _prepared(game, work)
    bolder = PARAMS.copy()
    bolder[0] += 0.5
    assert _same(
        _prepared(game, work, params=bolder), _prepared(game, workspace(CONFIG), params=bolder)
    )
    assert _same(_prepared(game, work, K_EV), _prepared(game, workspace(CONFIG), K_EV))
    assert work.memo.counts.tolist() == [0, 3]


def test_keys_sharing_an_entry_replace_each_other() -> None:
    work = workspace(CONFIG)._replace(memo=turn_memo(CONFIG.layout.n_cells, CONFIG.rules.rolls, 1))
    a, b = _positions(6, 4)[-2:]
    for game in (a, b, a, b):
        assert _same(_prepared(game, work), _prepared(game, workspace(CONFIG)))
    assert work.memo.counts.tolist() == [0, 4]
    _prepared(b, work)
    assert work.memo.counts.tolist() == [1, 4]


@pytest.mark.parametrize(
    "change",
    ["other scores", "other reserves", "turn", "placements", "recency", "first", "winner"],
)
def test_what_the_key_leaves_out_does_not_change_the_turn(change: str) -> None:
    for game in _positions(7, 8)[::2]:
        before = _prepared(game, workspace(CONFIG))
        state = copy_state(game.state)
        seat = game.to_move
        others = [p for p in range(CONFIG.players) if p != seat]
        status = state.status[0]
        if change == "other scores":
            state.players["score"][others] += 7
        elif change == "other reserves":
            state.players["reserve"][others] = 0
        elif change == "turn":
            status["turn"] += 5
        elif change == "placements":
            status["placements"] += 3
        elif change == "recency":
            state.players["last_placed"][:] = np.arange(CONFIG.players)[::-1] + 40
        elif change == "first":
            status["first"] = (status["first"] + 1) % CONFIG.players
        else:
            status["winner"] = others[0]
        changed = Game.from_state(CONFIG, state) if change != "winner" else None
        if changed is None:  # a position with a winner is over: solve on the raw state
            work = workspace(CONFIG)
            _prepare_turn(K_STRATEGIC, PARAMS, CONFIG.board, state, turn_tables(), work, seat)
            assert np.array_equal(work.keep_value[:2], before[0])
        else:
            assert _same(_prepared(changed, workspace(CONFIG)), before)


@pytest.mark.parametrize("change", ["score", "reserve", "trigger", "token", "side", "coaster"])
def test_each_part_of_the_key_tells_turns_apart(change: str) -> None:
    """Change one part of the key: the memo solves the new turn, which differs from the old."""
    game = _positions(8, 6)[-1]
    work = workspace(CONFIG, memo=True)
    before = _prepared(game, work)
    state = copy_state(game.state)
    seat = game.to_move
    free = [c for c in range(CONFIG.layout.n_cells) if (state.spaces[c] < 0).all()]
    if change == "score":
        state.players["score"][seat] = 19
    elif change == "reserve":
        state.players["reserve"][seat] = 1
    elif change == "trigger":
        state.status[0]["trigger"] = 1
    elif change == "token":
        state.spaces[free[0], 0] = (seat + 1) % CONFIG.players
    elif change == "side":
        state.cell_side[free[0]] = 1 - state.cell_side[free[0]]
    else:
        state.cell_coaster[free[0]], state.cell_coaster[free[1]] = (
            state.cell_coaster[free[1]],
            state.cell_coaster[free[0]],
        )
    changed = Game.from_state(CONFIG, state)
    after = _prepared(changed, work)
    assert _same(after, _prepared(changed, workspace(CONFIG)))
    assert not _same(after, before)
    assert work.memo.counts.tolist() == [0, 2]


def test_rollout_games_do_not_depend_on_the_memo(monkeypatch: pytest.MonkeyPatch) -> None:
    agents = (make_agent("rollout(rollouts=6)"), make_agent("rollout(rollouts=6,policy=ev)"))
    spec = ChunkSpec(0, 3, np.random.SeedSequence(11), GameConfig(players=2), agents, -1)
    with_memo = play_chunk(spec, log=True)

    def no_memo(config: GameConfig, *, memo: bool = False) -> Workspace:
        return workspace(config)

    monkeypatch.setattr("pinastats.simulation.chunk.workspace", no_memo)
    without = play_chunk(spec, log=True)
    for a, b in zip(with_memo, without, strict=True):
        assert _same(a, b)


def test_coach_play_outs_do_not_depend_on_the_memo() -> None:
    game = _positions(9, 6)[-1]
    seeds = np.arange(1, 25, dtype=np.uint64) * np.uint64(7919)
    policy = make_agent("strategic")
    results = []
    for work in (workspace(CONFIG, memo=True), workspace(CONFIG)):
        out = np.empty(seeds.shape[0])
        _play_outs(policy.code, policy.param_vector(), CONFIG.board, game.state, turn_tables(),
                   work, stream_rng(new_stream()), seeds, game.to_move, 0, out)  # fmt: skip
        results.append(out)
    assert np.array_equal(results[0], results[1])
    assert 0.0 < results[0].mean() < 1.0


def test_a_value_turn_is_never_read_back_for_another_position() -> None:
    """``value`` reads the whole position (every seat's score and reserve, the turn count).

    Two positions with the same key (the mover's score and reserve, the trigger,
    the cells) but other seats' scores apart give the network other win chances:
    the memo must not hand the second the turn prepared on the first.
    """
    value = make_agent("value").param_vector()
    game = _positions(10, 6)[-1]
    work = workspace(CONFIG, memo=True)
    _prepared(game, work, K_VALUE, value)
    state = copy_state(game.state)
    others = [p for p in range(CONFIG.players) if p != game.to_move]
    state.players["score"][others] += 9
    state.status[0]["turn"] += 4
    changed = Game.from_state(CONFIG, state)
    fresh = _prepared(changed, workspace(CONFIG), K_VALUE, value)
    assert not _same(fresh, _prepared(game, workspace(CONFIG), K_VALUE, value))
    assert _same(_prepared(changed, work, K_VALUE, value), fresh)


ALL_KINDS = ["random", "greedy", "ev", "strategic", "value", "rollout(rollouts=4)"]


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_games_of_every_kind_do_not_depend_on_the_memo(
    kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Happy Hour games of three, each kind against ``rollout`` (which switches the memo on)."""
    agents = (make_agent(kind), make_agent("rollout(rollouts=4)"), make_agent(kind))
    spec = ChunkSpec(0, 2, np.random.SeedSequence(23), CONFIG, agents, -1)
    with_memo = play_chunk(spec, log=True)

    def no_memo(config: GameConfig, *, memo: bool = False) -> Workspace:
        return workspace(config)

    monkeypatch.setattr("pinastats.simulation.chunk.workspace", no_memo)
    without = play_chunk(spec, log=True)
    for a, b in zip(with_memo, without, strict=True):
        assert _same(a, b)
