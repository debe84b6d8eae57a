r"""The outcome positions of a turn and the mover's win probability from each, by play-outs.

Whatever the dice do, the mover's turn ends in one of few positions:

* a token on one of the cells still open to the mover (``place``, one per cell);
* no token, rolls stopped early or no Happy Hour played: ``pass``;
* with the Happy Hour variant, after the last roll with nothing to place: the
  die's face ``e`` (``happy_hour``, six positions), the mover's choice for that
  face being the ``strategic`` agent's Happy Hour choice.

For each outcome position ``o`` the mover's win probability ``W(o)`` is exact
when the game is over there (1 won, 0 lost, 1/2 no winner) and otherwise
estimated by ``N`` play-outs to the end, every seat played by one built-in
agent (the *policy*), or by play-outs cut after ``depth`` turns, where the
learned evaluator values the position (:mod:`pinastats._engine.net`).
Play-outs use common random numbers: play-out ``i`` of
every outcome draws from the same stream, seeded by a 64-bit word of
``SeedSequence`` child ``i`` (:func:`pinastats._engine.playout._play_outs`),
so the estimates of two outcomes are positively correlated and
their difference has a smaller (paired) standard error. With ``X[i, o]`` the
result of play-out ``i`` from ``o``,

.. math::

    \hat W(o) = \frac1N \sum_i X[i, o], \qquad
    \widehat{\mathrm{Cov}}(\hat W) = \frac{1}{N}\,\mathrm{cov}(X)\ \text{(sample covariance)}.
"""

from __future__ import annotations

import difflib
import itertools
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from pinastats import _engine as E
from pinastats._arrays import BoolArray, FloatArray, IntArray
from pinastats._engine import (
    Board,
    GameState,
    Rng,
    Workspace,
    copy_state,
    new_stream,
    stream_rng,
    turn_tables,
)
from pinastats.agents.builtin import MAX_PLAYOUTS, make_agent
from pinastats.agents.network import ValueNetworks, evaluate_states, fits, network_for
from pinastats.agents.tables import workspace
from pinastats.dice.errors import at_least_or_none, whole_number
from pinastats.errors import PinastatsError
from pinastats.game.game import Game
from pinastats.game.rules import EndReason, HappyHourEffect

POLICIES = ("random", "greedy", "ev", "strategic", "value")
"""The built-in agents that can play the play-outs (every seat; ``value`` where a network
fits the game)."""

_STRATEGIC = make_agent("strategic").param_vector()
_NO_RNG = np.random.default_rng(0)  # the strategic Happy Hour choice draws no number


class CoachError(PinastatsError):
    """A bad setting of the coach (policy, play-outs, seed); the message names it."""


def check_policy(policy: str) -> str:
    """The play-out policy's name, checked (suggests the closest on a typo)."""
    if not isinstance(policy, str) or policy.strip().lower() not in POLICIES:
        close = difflib.get_close_matches(str(policy).strip().lower(), POLICIES, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise CoachError(
            f"unknown play-out policy {policy!r}{hint} (policies: {', '.join(POLICIES)})"
        )
    return policy.strip().lower()


def check_playouts(playouts: int) -> int:
    """A number of play-outs, checked: a whole number from 1 to :data:`MAX_PLAYOUTS`."""
    return whole_number(playouts, "play-outs", 1, MAX_PLAYOUTS, CoachError)


MAX_DEPTH = 100
"""Most turns a play-out cut at the network may play before the network values it."""


def check_depth(depth: int) -> int:
    """Turns a play-out plays before the network values it: 0 (to the end) .. :data:`MAX_DEPTH`."""
    return whole_number(depth, "depth", 0, MAX_DEPTH, CoachError)


def check_seed(seed: int | None) -> int | None:
    """A play-out seed, checked: a whole number >= 0, or ``None`` (fresh entropy)."""
    return at_least_or_none(seed, "seed", 0, CoachError)


def check_workers(workers: int | None) -> int | None:
    """A number of play-out threads, checked: a whole number >= 1, or ``None`` (automatic)."""
    return at_least_or_none(workers, "workers", 1, CoachError)


@dataclass(frozen=True)
class Outcome:
    """One way the mover's turn can end.

    Attributes:
        kind: ``"place"``, ``"pass"`` or ``"happy_hour"``.
        cell: the cell of the token (``place``), else -1.
        effect: the Happy Hour face 1-6 (``happy_hour``), else 0.
        option: the choice made for that face (-1: none, or the effect cannot apply).
    """

    kind: str
    cell: int = -1
    effect: int = 0
    option: int = -1

    @property
    def label(self) -> str:
        """A short readable name: ``cell 5``, ``pass``, ``happy hour GAIN_4``."""
        if self.kind == "place":
            return f"cell {self.cell}"
        if self.kind == "pass":
            return "pass"
        return f"happy hour {HappyHourEffect(self.effect).name}"


@dataclass(frozen=True)
class OutcomeSet:
    """The outcome positions of the mover's turn (columns ``0 .. M-1``).

    Attributes:
        game: the position at the start of the turn (a copy).
        seat: the mover.
        outcomes: the outcome of each column: first the open cells, then
            ``pass`` and the six Happy Hour faces when some hand places nothing.
        states: the position after each outcome.
        exact: the mover's win probability where the game is over after the
            outcome, NaN where it needs play-outs.
        cells: ``(n_open,)`` the open cells (the first ``n_open`` columns).
        shows: ``(252, n_open)`` whether a hand shows the combination of each open cell.
        pass_column: the column of ``pass`` (-1 when every hand places a token).
        happy_columns: the six Happy Hour columns (empty without the variant).
    """

    game: Game
    seat: int
    outcomes: tuple[Outcome, ...]
    states: tuple[GameState, ...]
    exact: FloatArray
    cells: IntArray
    shows: BoolArray
    pass_column: int
    happy_columns: IntArray

    @property
    def size(self) -> int:
        """Number of outcome positions ``M``."""
        return len(self.outcomes)

    @property
    def undecided(self) -> IntArray:
        """The columns whose win probability needs play-outs."""
        return np.flatnonzero(np.isnan(self.exact))


def _exact_value(state: GameState, seat: int) -> float:
    """The mover's result where the game is over, NaN while it runs."""
    if int(state.status[0]["reason"]) == int(EndReason.ONGOING):
        return float("nan")
    return float(E.seat_result(state, seat))


def _strategic_choice(
    board: Board, state: GameState, seat: int, effect: int, options: IntArray, n: int
) -> int:
    """The ``strategic`` agent's choice among ``n`` Happy Hour options."""
    return int(
        E.choose_happy_hour(
            E.K_STRATEGIC, _STRATEGIC, board, state, seat, effect, options, n, _NO_RNG
        )
    )


def outcome_positions(game: Game) -> OutcomeSet:
    """Every outcome position of the turn of the player to move in ``game``."""
    if game.is_over:
        raise PinastatsError(f"the game is over ({game.end_reason.name}); there is no turn")
    board, seat = game.config.board, game.to_move
    start = game.state
    cells = np.array(
        [c for c in range(game.config.layout.n_cells) if E.open_to(start, seat, c)],
        dtype=np.int64,
    )
    combos = board.coaster_combination[start.cell_coaster[cells]]
    shows = np.ascontiguousarray(board.shows[combos].T)
    outcomes: list[Outcome] = []
    states: list[GameState] = []
    for c in cells:
        state = copy_state(start)
        E.finish_turn(board, state, int(c), 0, -1)
        outcomes.append(Outcome("place", cell=int(c)))
        states.append(state)
    pass_column = -1
    happy: list[int] = []
    if not shows.any(axis=1).all():  # some hand places nothing
        pass_column = len(outcomes)
        state = copy_state(start)
        E.finish_turn(board, state, -1, 0, -1)
        outcomes.append(Outcome("pass"))
        states.append(state)
        if game.config.rules.happy_hour:
            for effect in HappyHourEffect:
                state = copy_state(start)
                options = np.array(E.happy_hour_options(board, state, seat, effect), dtype=np.int64)
                option = -1
                if len(options) > 0:
                    n = len(options)
                    option = _strategic_choice(board, state, seat, int(effect), options, n)
                E.finish_turn(board, state, -1, int(effect), option)
                happy.append(len(outcomes))
                outcomes.append(Outcome("happy_hour", effect=int(effect), option=option))
                states.append(state)
    exact = np.array([_exact_value(s, seat) for s in states], dtype=np.float64)
    return OutcomeSet(
        game=game.copy(),
        seat=seat,
        outcomes=tuple(outcomes),
        states=tuple(states),
        exact=exact,
        cells=cells,
        shows=shows,
        pass_column=pass_column,
        happy_columns=np.array(happy, dtype=np.int64),
    )


def network_values(
    outcomes: OutcomeSet, networks: ValueNetworks | str | Path | None = None
) -> FloatArray:
    """``W`` of every outcome position by the learned evaluator (:mod:`pinastats.value`).

    Exact where the game is over; else the network's chance that the mover wins
    plus half its chance that nobody does. ``networks``: loaded networks or a weights
    file (default: :func:`~pinastats.agents.network.default_networks`).
    Raises :class:`CoachError` when those networks do not fit the game
    (:func:`~pinastats.agents.network.fits`).
    """
    config = outcomes.game.config
    why = fits(config, networks)
    if why is not None:
        raise CoachError(f"{why}; ask for play-outs instead (--playouts N)")
    w = outcomes.exact.copy()
    todo = outcomes.undecided
    if todo.size:
        states = E.stack_states([outcomes.states[j] for j in todo])
        p = evaluate_states(config, states, networks)
        n = config.players
        for row, j in enumerate(todo):
            r = (outcomes.seat - int(outcomes.states[j].status[0]["to_move"])) % n
            w[j] = E.seat_value(p[row, r], p[row, n])
    return w


@dataclass
class _Slot:
    """The scratch memory of one play-out thread."""

    work: Workspace
    rng: Rng


@dataclass
class Playouts:
    """Play-outs from every undecided outcome position, with common random numbers.

    ``results[i, o]`` is play-out ``i`` from outcome ``o`` (the exact value in a
    decided column). :meth:`extend` plays more; the first ``n`` rows never change,
    whatever the batches or the number of threads. ``networks``: the networks of the
    ``value`` seats and of the cut play-outs (default: the default networks), so one
    process can label with any network.
    """

    outcomes: OutcomeSet
    policy: str = "strategic"
    seed: int | None = None
    workers: int | None = None
    depth: int = 0
    networks: ValueNetworks | str | Path | None = None
    results: FloatArray = field(init=False)
    entropy: int = field(init=False)
    _seeds: list[int] = field(init=False, default_factory=list)
    _slots: list[_Slot] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        self.policy = check_policy(self.policy)
        self.seed, self.workers = check_seed(self.seed), check_workers(self.workers)
        self.depth = check_depth(self.depth)
        if self.depth or self.policy == "value":
            why = fits(self.outcomes.game.config, self.networks)
            if why is not None:
                use = "play-outs cut at the network" if self.depth else "play-outs by value"
                raise CoachError(f"{use}: {why}")
        root = np.random.SeedSequence(self.seed)
        self.entropy = int(root.entropy)  # type: ignore[arg-type]
        self._root = root
        self.results = np.zeros((0, self.outcomes.size))
        if self.workers is None:
            self.workers = max(1, min(2, os.cpu_count() or 1))

    @property
    def n(self) -> int:
        """Play-outs made from each undecided outcome."""
        return int(self.results.shape[0])

    def mean(self) -> FloatArray:
        """``W``: the exact value or the play-outs' mean of each outcome (NaN before any)."""
        exact = self.outcomes.exact
        if self.n == 0:
            return exact.copy()
        return np.where(np.isnan(exact), self.results.mean(axis=0), exact)

    def covariance(self) -> FloatArray:
        """Estimated covariance matrix of the means ``W`` (zero rows for exact outcomes)."""
        m = self.outcomes.size
        if self.n < 2:
            return np.zeros((m, m))
        return np.atleast_2d(np.cov(self.results, rowvar=False)) / self.n

    def _child_seed(self, i: int) -> int:
        """The stream seed of play-out ``i``: a word of ``SeedSequence`` child ``i``."""
        while len(self._seeds) <= i:
            root = self._root
            child = np.random.SeedSequence(
                root.entropy, spawn_key=(*root.spawn_key, len(self._seeds))
            )
            self._seeds.append(int(child.generate_state(1, dtype=np.uint64)[0]))
        return self._seeds[i]

    def _slot(self, k: int) -> _Slot:
        config = self.outcomes.game.config
        while len(self._slots) <= k:
            self._slots.append(
                _Slot(
                    workspace(config, memo=True, net=network_for(config, self.networks)),
                    stream_rng(new_stream()),
                )
            )
        return self._slots[k]

    def _play(self, slot: _Slot, rows: range, out: FloatArray) -> None:
        game = self.outcomes.game
        board, tables = game.config.board, turn_tables(game.config.rules.rolls)
        agent = make_agent(self.policy)
        kind, params = agent.code, agent.param_vector()
        seeds = np.array(self._seeds[rows.start : rows.stop], dtype=np.uint64)
        column = np.empty(len(rows))
        for o in self.outcomes.undecided:
            E.play_outs(kind, params, board, self.outcomes.states[o], tables, slot.work,
                       slot.rng, seeds, self.outcomes.seat, self.depth, column)  # fmt: skip
            out[:, o] = column

    def extend(self, n: int) -> None:
        """Play until every undecided outcome has ``n`` play-outs."""
        first = self.n
        if n <= first:
            return
        for i in range(first, n):
            self._child_seed(i)
        more = np.tile(self.outcomes.exact, (n - first, 1))
        workers = min(int(self.workers or 1), n - first)
        if self.outcomes.undecided.size:
            bounds = np.linspace(first, n, workers + 1).astype(int)
            parts = [range(int(a), int(b)) for a, b in itertools.pairwise(bounds)]
            views = [more[r.start - first : r.stop - first] for r in parts]
            slots = [self._slot(k) for k in range(workers)]
            if workers == 1:
                self._play(slots[0], parts[0], views[0])
            else:
                with ThreadPoolExecutor(max_workers=workers) as pool:
                    jobs = zip(slots, parts, views, strict=True)
                    done = [pool.submit(self._play, s, r, v) for s, r, v in jobs]
                    for future in done:
                        future.result()
        self.results = np.vstack([self.results, more])
