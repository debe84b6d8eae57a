r"""Playing for points or playing to win: where the two objectives pick different cells.

:func:`compare_objectives` samples placement decisions from ``strategic``
self-play: position ``i`` plays a game to the end with child ``i`` of
``SeedSequence(seed)``, draws one of its turn starts uniformly, plays that turn
with ``strategic`` and keeps its final dice when at least two cells are legal
for them (else it draws again). For each decision it asks

- the points advice (:func:`pinastats.agents.advice.advise`): the legal cell
  that scores the most now (the first on a tie), ``points_cell``;
- the coach (:func:`pinastats.coach.win_advice`): the legal cell of highest
  estimated win probability ``W``, ``win_cell`` (the points' cell when it is
  tied for the highest: the coach then has no reason to differ).

Both cells are valued by the same play-outs, so the *win gain*
``W(win_cell) - W(points_cell)`` is never negative; its standard error is the
conservative ``sqrt(se_w^2 + se_p^2)`` (the common random numbers of the
play-outs make the paired error smaller, never larger).

Each decision gets a *situation* read from the position and the dice only
(not from either choice), the first that applies:

1. ``"block"``: an opponent holds every cell of a line but one, and that cell
   is legal for these dice (taking it may stop a PIÑA COLADICE);
2. ``"race"``: some player's score is within :data:`RACE_MARGIN` points of the target;
3. ``"last token"``: the mover places its last token (the end is triggered);
4. ``"other"``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import pandas as pd

from pinastats._stats import mean_interval
from pinastats.agents.advice import advise
from pinastats.agents.builtin import Agent, AgentKind
from pinastats.coach.advice import win_advice
from pinastats.coach.outcomes import check_playouts, check_policy
from pinastats.dice.errors import at_least, at_least_or_none
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.game.rules import check_players
from pinastats.simulation.play import play_turn, play_turn_fast
from pinastats.simulation.stats import wilson_interval

RACE_MARGIN = 5
"""A score at least ``target - RACE_MARGIN`` makes a race."""
SITUATIONS = ("block", "race", "last token", "other")
"""The situations, in order of precedence."""
COLUMNS = (
    "game",
    "turn",
    "seat",
    "dice",
    "options",
    "situation",
    "points_cell",
    "win_cell",
    "agree",
    "points_cell_win",
    "win_cell_win",
    "win_gain",
    "win_gain_se",
)
"""The columns of :attr:`ObjectiveComparison.frame`, in order."""
MAX_DRAWS = 200
"""Turn starts drawn from one game before a new game is played for the position."""


def situation(game: Game, dice: Sequence[int]) -> str:
    """The situation of the mover with these final dice (see the module docstring)."""
    mover = game.to_move
    legal = set(game.legal_cells(dice))
    holders = [set(c.tokens) for c in game.cells]
    for line in game.config.layout.lines:
        cells = [int(c) for c in line if c >= 0]
        for seat in range(game.players):
            if seat == mover:
                continue
            missing = [c for c in cells if seat not in holders[c]]
            if len(missing) == 1 and len(cells) > 1 and missing[0] in legal:
                return "block"
    target = game.config.rules.target_score
    if max(game.scores) >= target - RACE_MARGIN:
        return "race"
    if game.reserves[mover] == 1:
        return "last token"
    return "other"


def _sample(
    child: np.random.SeedSequence, players: int, config: GameConfig | None = None
) -> tuple[Game, tuple[int, ...]]:
    """A placement decision of ``strategic`` self-play: the turn start and its final dice."""
    strategic = Agent(AgentKind.STRATEGIC)
    game_seed, pick_seed = child.spawn(2)
    pick = np.random.default_rng(pick_seed)
    while True:
        game = Game.new(players, seed=np.random.default_rng(game_seed), config=config)
        rng = np.random.default_rng(game_seed.spawn(1)[0])
        starts = []
        while not game.is_over:
            starts.append(game.copy())
            play_turn_fast(game, strategic, rng)
        for _ in range(MAX_DRAWS):
            start = starts[int(pick.integers(len(starts)))]
            played = start.copy()
            turn = play_turn(played, strategic, pick)
            dice = turn.rolls[-1]
            if len(start.legal_cells(dice)) >= 2:
                return start, dice
        game_seed = game_seed.spawn(1)[0]


def _decide(
    index: int, child: np.random.SeedSequence, players: int, playouts: int, policy: str,
    config: GameConfig | None = None,
) -> dict[str, object]:  # fmt: skip
    """One row of the comparison: the sampled decision and both objectives' cells."""
    game, dice = _sample(child, players, config)
    points = advise(game, dice, 0)
    win_seed = int(child.generate_state(1)[0])
    coach = win_advice(game, dice, 0, playouts=playouts, policy=policy, seed=win_seed, workers=1)
    by_cell = {p.cell: p for p in coach.placements}
    mine = by_cell[points.placements[0].cell]
    best = mine if mine.best else coach.placements[0]
    gain = max(best.win_probability - mine.win_probability, 0.0)
    se = (
        0.0
        if best.cell == mine.cell
        else math.hypot(best.win_probability_se, mine.win_probability_se)
    )
    return {
        "game": index,
        "turn": game.turn,
        "seat": game.to_move,
        "dice": " ".join(map(str, dice)),
        "options": len(coach.placements),
        "situation": situation(game, dice),
        "points_cell": mine.cell,
        "win_cell": best.cell,
        "agree": best.cell == mine.cell,
        "points_cell_win": mine.win_probability,
        "win_cell_win": best.win_probability,
        "win_gain": gain,
        "win_gain_se": se,
    }


@dataclass(frozen=True)
class ObjectiveComparison:
    """The sampled decisions, each with the points' cell and the coach's cell.

    Attributes:
        frame: one row per decision, the columns of :data:`COLUMNS`.
        playouts, policy, players, seed: the settings.
    """

    frame: pd.DataFrame
    playouts: int
    policy: str
    players: int
    seed: int

    def by_situation(self) -> pd.DataFrame:
        """Per situation (and ``all``): how often the objectives disagree and what it is worth.

        Columns: ``situation``, ``positions``, ``disagreements``, ``share`` with its
        95% Wilson interval ``share_low``/``share_high``; the mean win gain over
        the positions with its 95% normal interval ``gain_low``/``gain_high`` (the
        spread over positions includes the play-outs' noise); and the same over the
        disagreements only, ``differ_gain`` with ``differ_gain_low``/``differ_gain_high``.
        An interval needs two values (NaN otherwise).
        """
        rows = []
        groups = [(s, self.frame[self.frame["situation"] == s]) for s in SITUATIONS]
        for name, part in [*groups, ("all", self.frame)]:
            n = len(part)
            if not n:
                continue
            differ = ~part["agree"].astype(bool)
            k = int(differ.sum())
            low, high = wilson_interval(k, n)
            gain = mean_interval(part["win_gain"].to_numpy(dtype=float))
            differ_gain = mean_interval(part.loc[differ, "win_gain"].to_numpy(dtype=float))
            rows.append(
                {"situation": name, "positions": n, "disagreements": k, "share": k / n,
                 "share_low": low, "share_high": high, "mean_gain": gain[0],
                 "gain_low": gain[1], "gain_high": gain[2], "differ_gain": differ_gain[0],
                 "differ_gain_low": differ_gain[1], "differ_gain_high": differ_gain[2]}
            )  # fmt: skip
        return pd.DataFrame(rows)


def compare_objectives(
    positions: int,
    *,
    players: int = 2,
    playouts: int = 64,
    policy: str = "strategic",
    seed: int = 0,
    workers: int | None = None,
    config: GameConfig | None = None,
) -> ObjectiveComparison:
    """Sample ``positions`` placement decisions and compare the two objectives' cells.

    Decision ``i`` uses child ``i`` of ``SeedSequence(seed)`` (its game, its turn
    and its play-outs), so the frame does not depend on ``workers`` (threads, the
    kernels release the GIL; ``None``: one). ``config``: the game played (its
    catalogue, layout and rules; ``None``: the standard game of ``players``).
    """
    positions = at_least(positions, "positions", 1)
    playouts = check_playouts(playouts)
    policy = check_policy(policy)
    check_players(players)
    seed = at_least(seed, "seed", 0)
    threads = at_least_or_none(workers, "workers", 1) or 1
    children = np.random.SeedSequence(seed).spawn(positions)
    with ThreadPoolExecutor(max_workers=threads) as pool:
        rows = list(
            pool.map(
                lambda i: _decide(i, children[i], players, playouts, policy, config),
                range(positions),
            )
        )
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    return ObjectiveComparison(frame, playouts, policy, players, seed)
