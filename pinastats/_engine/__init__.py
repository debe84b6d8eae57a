"""The engine: every game kernel of pinastats, and the one surface the rest of it calls.

The engine sits between the dice layer (:mod:`pinastats.dice`: hands, keeps, the
turn DP over a target) and the readable game (:mod:`pinastats.game`). It owns the
state, the random stream, the rules, Happy Hour, the turn in its phases, the
built-in agents' decisions and values, the memo of prepared turns, the play-out
loop and the game loop. Kernels are numba functions over the named tuples of
:mod:`~pinastats._engine.state` and take their random numbers from an
:class:`~pinastats._engine.stream.Rng`; no other package defines a game kernel.
Other packages import the names below from ``pinastats._engine`` and nothing
else of it.

Modules, from the bottom up (each imports only those above it in this list)::

    codes       EndReason, Trigger, PlacementRule, HappyHourEffect, TurnEnding + words
    state       Board (fixed), GameState (what a turn changes)
    stream      the random stream (_uniform, _seed_stream) and its Rng
    rules       _roll, legality, _place, _judge, _end_turn, _deal
    happy_hour  the die, each effect's options, encoding, reading and effect
    kinds       K_* agent kinds, PARAM_* parameter slots
    lines       line counts and potentials (strategic)
    net         the learned evaluator: position features, forward pass, position value
    values      placement values, _final_values (the turn's stop and final values)
    memo        prepared turns keyed by what they read
    decide      _prepare_turn (turn DP), _choose_keep, _pick_cell, _best_happy_hour,
                _win_values (the value agent's outcome positions by the network)
    search      _search: several plies of whole turns over the network (max-n,
                paranoid, best-reply), SearchSpace
    turn        _turn_dice -> _turn_ending -> _turn_finish; _finish_turn from Python
    playout     _policy_turn, _play_to_end, _rollout_cell, _agent_turn, _play_outs
                (to the end or truncated at the network), _label_positions
    loop        _play_games: chunks of whole games, logged, recorded and snapshot
    work        TurnTables, TurnMemo, Workspace: the tables and scratch memory kernels read
    solve       the exact two-player solver: boards by rank, each board's pass fixed point

The call graph of one turn in the game loop::

    loop._play_games
      -> turn._play_turn (one-turn agents) | playout._agent_turn (any agent)
           -> turn._turn_dice -> decide._prepare_turn -> values._final_values
                              -> rules._roll, decide._choose_keep
           -> turn._turn_ending -> rules._legal_cells, turn._happy_hour_due
           -> decide._pick_cell | playout._rollout_cell -> playout._play_to_end
           -> turn._turn_finish -> rules._place | turn._happy_hour -> happy_hour.*
                                -> rules._end_turn -> rules._judge

Python paths (:class:`~pinastats.game.Game`, ``play_turn``, replays, OpenSpiel,
the coach's outcomes) ask :func:`turn_ending` and apply :func:`finish_turn`.

Adding a rule, e.g. a Happy Hour effect "take 1 point from an opponent of your
choice":

1. ``codes.py``: the member of :class:`HappyHourEffect` and its words (the die
   gets a face per member: ``happy_hour.FACES``);
2. ``happy_hour.py``: its options and their encoding (``_happy_hour_options``,
   :func:`describe_option`, :func:`option_capacity` if it needs more room), its
   effect (``_apply_happy_hour``) and the roller's own points
   (``_roller_points``, which the agents value the die by);
3. ``docs/rules.md`` and a test in ``tests/`` of the rule. The agents, the memo,
   the game object, OpenSpiel and the reports read the effect through the
   functions above and need no edit.
"""

from __future__ import annotations

from pinastats._engine.codes import (
    EndReason,
    HappyHourEffect,
    PlacementRule,
    Trigger,
    TurnEnding,
    end_clause,
    end_entry,
)
from pinastats._engine.decide import _choose_happy_hour as choose_happy_hour
from pinastats._engine.decide import _choose_keep as choose_keep
from pinastats._engine.decide import _pick_cell as pick_cell
from pinastats._engine.decide import _prepare_turn as prepare_turn
from pinastats._engine.happy_hour import (
    FACES,
    as_effect,
    describe_option,
    happy_hour_options,
    option_capacity,
)
from pinastats._engine.happy_hour import _draw_happy_hour as draw_happy_hour
from pinastats._engine.kinds import (
    K_EV,
    K_GREEDY,
    K_RANDOM,
    K_ROLLOUT,
    K_STRATEGIC,
    K_VALUE,
    KINDS,
    N_PARAMS,
    PARAM_BLOCK,
    PARAM_LINE,
    PARAM_POLICY,
    PARAM_RACE,
    PARAM_ROLLOUTS,
    PARAM_WIN,
)
from pinastats._engine.loop import _play_games as play_games
from pinastats._engine.memo import EMPTY, KEY_HEAD, KEY_PER_CELL
from pinastats._engine.net import NO_WINNER_SHARE, Net, empty_net, feature_count, seat_value
from pinastats._engine.net import _evaluate as evaluate
from pinastats._engine.net import _features_of as features_of
from pinastats._engine.net import _result as seat_result
from pinastats._engine.playout import _best_keeps as best_keeps
from pinastats._engine.playout import _label_positions as label_positions
from pinastats._engine.playout import _play_outs as play_outs
from pinastats._engine.playout import _policy_turn as policy_turn
from pinastats._engine.playout import _rollout_cell as rollout_cell
from pinastats._engine.rules import _deal as deal
from pinastats._engine.rules import _has_line as has_line
from pinastats._engine.rules import _judge as judge
from pinastats._engine.rules import _legal_cells as legal_cells
from pinastats._engine.rules import _open_to as open_to
from pinastats._engine.rules import _placement_error as placement_error
from pinastats._engine.rules import _placement_points as placement_points
from pinastats._engine.rules import _roll as roll
from pinastats._engine.rules import _start_game as start_game
from pinastats._engine.rules import _winning_line as winning_line
from pinastats._engine.search import BEST_REPLY as SEARCH_BEST_REPLY
from pinastats._engine.search import MAX_DEPTH as SEARCH_MAX_DEPTH
from pinastats._engine.search import MAXN as SEARCH_MAXN
from pinastats._engine.search import PARANOID as SEARCH_PARANOID
from pinastats._engine.search import VARIANTS as SEARCH_VARIANTS
from pinastats._engine.search import SearchSpace, new_search_space
from pinastats._engine.search import _search_batch as search_batch
from pinastats._engine.search import _search_position as search_position
from pinastats._engine.solve import LANES as SOLVE_LANES
from pinastats._engine.solve import MAX_STEPS as SOLVE_MAX_STEPS
from pinastats._engine.solve import TOLERANCE as SOLVE_TOLERANCE
from pinastats._engine.solve import _board_masks as solve_board_masks
from pinastats._engine.solve import _final_turn_of as solve_final_turn_mask
from pinastats._engine.solve import _final_turn_table as solve_final_turn_table
from pinastats._engine.solve import _index_of as solve_index_of
from pinastats._engine.solve import _mover_finals as solve_mover_finals
from pinastats._engine.solve import _query_turn as solve_turn
from pinastats._engine.solve import _score_of as solve_score
from pinastats._engine.solve import _solve_range as solve_range
from pinastats._engine.solve import _turn_lanes as solve_turn_lanes
from pinastats._engine.solve import _turn_lines as solve_turn_lines
from pinastats._engine.state import (
    NO_SEAT,
    SPACES,
    Board,
    GameState,
    StateBatch,
    copy_state,
    empty_state,
    stack_states,
    state_batch,
    states_equal,
)
from pinastats._engine.stream import Rng, generator_rng, new_stream, stream_rng
from pinastats._engine.turn import _finish_turn as finish_turn
from pinastats._engine.turn import turn_ending
from pinastats._engine.values import _final_values as final_values
from pinastats._engine.work import (
    DEFAULT_ROLLS,
    MEMO_SLOTS,
    TurnMemo,
    TurnTables,
    Workspace,
    new_workspace,
    turn_memo,
    turn_tables,
)
from pinastats.dice._kernels import _best_keep as best_keep
from pinastats.dice._kernels import _best_of_keeps as best_of_keeps
from pinastats.dice._kernels import _expect_keeps as expect_keeps

__all__ = [
    "DEFAULT_ROLLS",
    "EMPTY",
    "FACES",
    "KEY_HEAD",
    "KEY_PER_CELL",
    "KINDS",
    "K_EV",
    "K_GREEDY",
    "K_RANDOM",
    "K_ROLLOUT",
    "K_STRATEGIC",
    "K_VALUE",
    "MEMO_SLOTS",
    "NO_SEAT",
    "NO_WINNER_SHARE",
    "N_PARAMS",
    "PARAM_BLOCK",
    "PARAM_LINE",
    "PARAM_POLICY",
    "PARAM_RACE",
    "PARAM_ROLLOUTS",
    "PARAM_WIN",
    "SEARCH_BEST_REPLY",
    "SEARCH_MAXN",
    "SEARCH_MAX_DEPTH",
    "SEARCH_PARANOID",
    "SEARCH_VARIANTS",
    "SOLVE_LANES",
    "SOLVE_MAX_STEPS",
    "SOLVE_TOLERANCE",
    "SPACES",
    "Board",
    "EndReason",
    "GameState",
    "HappyHourEffect",
    "Net",
    "PlacementRule",
    "Rng",
    "SearchSpace",
    "StateBatch",
    "Trigger",
    "TurnEnding",
    "TurnMemo",
    "TurnTables",
    "Workspace",
    "as_effect",
    "best_keep",
    "best_keeps",
    "best_of_keeps",
    "choose_happy_hour",
    "choose_keep",
    "copy_state",
    "deal",
    "describe_option",
    "draw_happy_hour",
    "empty_net",
    "empty_state",
    "end_clause",
    "end_entry",
    "evaluate",
    "expect_keeps",
    "feature_count",
    "features_of",
    "final_values",
    "finish_turn",
    "generator_rng",
    "happy_hour_options",
    "has_line",
    "judge",
    "label_positions",
    "legal_cells",
    "new_search_space",
    "new_stream",
    "new_workspace",
    "open_to",
    "option_capacity",
    "pick_cell",
    "placement_error",
    "placement_points",
    "play_games",
    "play_outs",
    "policy_turn",
    "prepare_turn",
    "roll",
    "rollout_cell",
    "search_batch",
    "search_position",
    "seat_result",
    "seat_value",
    "solve_board_masks",
    "solve_final_turn_mask",
    "solve_final_turn_table",
    "solve_index_of",
    "solve_mover_finals",
    "solve_range",
    "solve_score",
    "solve_turn",
    "solve_turn_lanes",
    "solve_turn_lines",
    "stack_states",
    "start_game",
    "state_batch",
    "states_equal",
    "stream_rng",
    "turn_ending",
    "turn_memo",
    "turn_tables",
    "winning_line",
]
