"""A slow search over whole turns, in plain Python: the oracle of :mod:`pinastats._engine.search`.

It shares with the kernels only the game's rules as applied from Python
(:func:`~pinastats._engine.finish_turn`, ``strategic``'s Happy Hour choice), the
network's forward pass (:func:`~pinastats.agents.network.evaluate_states`) and
the keeps' index order (the dice layer's keep rule scans it). Combinations are
tested with :mod:`tests.dice.oracle`'s own predicates, re-rolls are the
``6**n`` ordered outcomes grouped by sorted dice, and each turn is a memoised
expectimax over (criterion, vector) pairs: the mover's keep and placement
maximise the criterion, the vector (each seat's chance) follows those choices::

    V(x, 0) = net(x);  V(x, d) = E over the mover's rolls, played for its
    criterion, of V(outcome, d - 1)   (exact where the game is over)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np

from pinastats import _engine as E
from pinastats._engine import GameState, copy_state, stack_states
from pinastats.agents.builtin import make_agent
from pinastats.agents.network import PlayerNetwork, evaluate_states, kernel_net
from pinastats.dice.combinations import Combination
from pinastats.dice.hands import TIE_TOL, dice_tables
from pinastats.game.config import GameConfig
from pinastats.game.rules import HappyHourEffect
from tests.dice.oracle import Dice, holds, merge, rerolls, sub_keeps

_STRATEGIC = make_agent("strategic").param_vector()
_COMBINATIONS = list(Combination)  # by the kernels' combination index
_RNG = np.random.default_rng(0)  # strategic's Happy Hour choice draws nothing


@cache
def _keeps_in_order(hand: Dice) -> tuple[Dice, ...]:
    """The hand's distinct keeps in the dice layer's keep-index order."""
    t = dice_tables()
    return tuple(sorted(sub_keeps(hand), key=t.keep_index))


def _over(state: GameState) -> bool:
    return int(state.status[0]["reason"]) != 0


def _network(config: GameConfig, state: GameState, network: PlayerNetwork | None) -> np.ndarray:
    n = config.players
    if network is None:
        p = evaluate_states(config, stack_states([state]))[0]
    else:
        p = np.zeros((1, n + 1))
        E.evaluate(config.board, stack_states([state]), kernel_net(network, config.rules.rolls), p)
        p = p[0]
    m = int(state.status[0]["to_move"])
    return np.array([p[(s - m) % n] + 0.5 * p[n] for s in range(n)])


def _after(config: GameConfig, state: GameState, cell: int, effect: int = 0) -> GameState:
    """The position after the mover's turn ends on ``cell`` (or face ``effect``, or a pass)."""
    board, out = config.board, copy_state(state)
    m = int(state.status[0]["to_move"])
    option = -1
    if effect:
        options = np.array(E.happy_hour_options(board, out, m, effect), dtype=np.int64)
        if len(options):
            option = int(E.choose_happy_hour(E.K_STRATEGIC, _STRATEGIC, board, out, m, effect,
                                             options, len(options), _RNG))  # fmt: skip
    E.finish_turn(board, out, cell, effect, option)
    return out


def oracle(
    config: GameConfig,
    state: GameState,
    plies: int,
    variant: str = "max-n",
    root: int | None = None,
    network: PlayerNetwork | None = None,
) -> np.ndarray:
    """Each seat's chance from ``state`` by ``plies`` plies (module docstring)."""
    n = config.players
    root = int(state.status[0]["to_move"]) if root is None else root
    if _over(state):
        return np.array([float(E.seat_result(state, s)) for s in range(n)])
    if plies == 0:
        return _network(config, state, network)
    m = int(state.status[0]["to_move"])

    def deeper(s: GameState, d: int) -> np.ndarray:
        return oracle(config, s, d, variant, root, network)

    cells = [c for c in range(config.layout.n_cells) if E.open_to(state, m, c)]
    placed = {c: deeper(_after(config, state, c), plies - 1) for c in cells}
    passed = deeper(_after(config, state, -1), plies - 1)
    lottery = passed
    if config.rules.happy_hour:
        faces = [deeper(_after(config, state, -1, int(e)), plies - 1) for e in HappyHourEffect]
        lottery = sum(faces, np.zeros(n)) / len(faces)
    guarded = variant != "max-n" and m != root

    def criterion(v: np.ndarray) -> float:
        return float(-v[root] if guarded else v[m])

    combination = {
        c: _COMBINATIONS[int(config.board.coaster_combination[state.cell_coaster[c]])]
        for c in cells
    }

    def placement(hand: Dice) -> int | None:
        best: int | None = None
        for c in cells:  # the first cell that beats the running best by more than TIE_TOL
            shown = holds(combination[c], hand)
            if shown and (best is None or criterion(placed[c]) > criterion(placed[best]) + TIE_TOL):
                best = c
        return best

    def final(hand: Dice) -> np.ndarray:
        c = placement(hand)
        return lottery if c is None else placed[c]

    def stop(hand: Dice) -> np.ndarray:
        c = placement(hand)
        return passed if c is None else placed[c]

    turn = _Turn(final, stop, criterion)
    rolls = config.rules.rolls
    out = sum((w * turn.hand(h, rolls - 1) for h, w in rerolls(5)), np.zeros(n)) / 6**5
    skip = variant == "best-reply" and m != root and (m + 1) % n != root
    if skip:
        handed = deeper(_after(config, state, -1), plies)  # pass: the next seat takes the ply
        if handed[root] < out[root] - TIE_TOL:
            out = handed
    return np.asarray(out)


class _Turn:
    """The memoised expectimax of one turn, keeps chosen by the dice layer's keep rule."""

    def __init__(
        self,
        final: Callable[[Dice], np.ndarray],
        stop: Callable[[Dice], np.ndarray],
        criterion: Callable[[np.ndarray], float],
    ) -> None:
        self.final, self.stop, self.criterion = final, stop, criterion
        self._hand: dict[tuple[Dice, int], np.ndarray] = {}
        self._keep: dict[tuple[Dice, int], np.ndarray] = {}

    def hand(self, hand: Dice, rolls_left: int) -> np.ndarray:
        key = (hand, rolls_left)
        if key not in self._hand:
            if rolls_left == 0:
                self._hand[key] = self.final(hand)
            else:
                best_k: Dice | None = None
                best = 0.0
                for k in _keeps_in_order(hand):
                    v = self.criterion(self.keep(k, rolls_left))
                    more = best_k is not None and len(k) > len(best_k)
                    if best_k is None or v > best + TIE_TOL or (v > best - TIE_TOL and more):
                        best_k, best = k, v
                assert best_k is not None
                self._hand[key] = self.keep(best_k, rolls_left)
        return self._hand[key]

    def keep(self, keep: Dice, rolls_left: int) -> np.ndarray:
        if len(keep) == 5:
            return self.stop(keep)
        key = (keep, rolls_left)
        if key not in self._keep:
            n = 5 - len(keep)
            total = sum(w * self.hand(merge(keep, o), rolls_left - 1) for o, w in rerolls(n))
            self._keep[key] = np.asarray(total) / 6**n
        return self._keep[key]
