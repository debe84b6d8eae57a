"""A brute-force expectimax of the two-player base game, written from the rules (docs/rules.md).

Independent of the solver: full states ``(first's cells, second's cells, first's
score, second's score, mover, last turn)`` with the scores carried and updated
by each placement's points (the space's value + 1 per own neighbouring token),
memoised in a dict; the turn is a plain expectimax over keeps and re-rolls
(:mod:`tests.dice.oracle`, floats); legality and the combinations from the
oracle's own predicates; the end of the game as the rules say it. A pass makes
the two movers of a board read each other: ``u = T_F(1 - w)``, ``w = T_S(1 - u)``;
the fixed point is found by regula falsi (Illinois) on ``u`` (``g(u) = T_F(1 - T_S(1 - u)) - u``
falls as ``u`` grows), a method the solver does not use.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from pinastats.game.game import Game
from tests.dice.oracle import Dice, all_hands, holds, merge, rerolls, sub_keeps

HANDS = all_hands()


@cache
def _keeps_of(hand: Dice) -> tuple[Dice, ...]:
    return tuple(sorted(sub_keeps(hand)))


@cache
def _first_roll() -> tuple[tuple[Dice, float], ...]:
    return tuple((h, w / 6**5) for h, w in rerolls(5))


def turn_value(final: dict[Dice, float], rolls: int) -> float:
    """Expectimax of one turn: stop (or the last roll) with hand ``h`` is worth ``final[h]``."""
    hand_memo: dict[tuple[Dice, int], float] = {}
    keep_memo: dict[tuple[Dice, int], float] = {}

    def hand(h: Dice, left: int) -> float:
        key = (h, left)
        if key not in hand_memo:
            hand_memo[key] = final[h] if left == 0 else max(keep(k, left) for k in _keeps_of(h))
        return hand_memo[key]

    def keep(k: Dice, left: int) -> float:
        if len(k) == 5:
            return final[k]
        key = (k, left)
        if key not in keep_memo:
            n = 5 - len(k)
            keep_memo[key] = sum(w * hand(merge(k, o), left - 1) for o, w in rerolls(n)) / 6**n
        return keep_memo[key]

    return sum(p * hand(h, rolls - 1) for h, p in _first_roll())


class BruteForce:
    """The first player's chance to win from any state of one dealt board, by brute force."""

    def __init__(self, game: Game) -> None:
        config = game.config
        self.cells = range(config.layout.n_cells)
        self.combination = [config.catalogue[int(c)].combination for c in game.state.cell_coaster]
        self.value = [config.catalogue[int(c)].points("A")[0] for c in game.state.cell_coaster]
        self.neighbours = [set(config.layout.neighbour_cells(c)) for c in self.cells]
        self.lines = [set(line) for line in config.layout.line_cells()]
        self.rules = config.rules
        self.start = tuple(int(s) for s in config.start_scores)
        self.memo: dict[tuple[object, ...], tuple[float, float]] = {}

    def start_chance(self) -> float:
        """The first player's chance at the empty board, her to move."""
        sf, ss = self.start
        return self.first_wins(frozenset(), frozenset(), sf, ss, 0)

    def _shows(self, hand: Dice, free: frozenset[int]) -> list[int]:
        return [c for c in sorted(free) if holds(self.combination[c], hand)]

    def _line(self, cells: frozenset[int]) -> bool:
        return any(line <= cells for line in self.lines)

    def _points(self, cell: int, own: frozenset[int]) -> int:
        return self.value[cell] + len(self.neighbours[cell] & own)

    def _mover_turn(
        self, own_place: Callable[[int], float], free: frozenset[int], y: float
    ) -> float:
        """The mover's best chance of a turn: place on the best shown free cell, else pass (y)."""
        final = {}
        for h in HANDS:
            shown = self._shows(h, free)
            final[h] = max(own_place(c) for c in shown) if shown else y
        return turn_value(final, self.rules.rolls)

    def last_turn(self, first: frozenset[int], second: frozenset[int], sf: int, ss: int) -> float:
        """The second player's chance on her last turn (the first player triggered the end)."""
        free = frozenset(self.cells) - first - second

        def place(c: int) -> float:
            mine = second | {c}
            if self._line(mine):
                return 1.0
            return 1.0 if ss + self._points(c, second) >= sf else 0.0  # a tie: latest placement

        return self._mover_turn(place, free, 1.0 if ss > sf else 0.0)

    def first_wins(
        self, first: frozenset[int], second: frozenset[int], sf: int, ss: int, mover: int
    ) -> float:
        """The first player's chance to win with ``mover`` (0 first, 1 second) to move."""
        key = (first, second, sf, ss)
        if key not in self.memo:
            self.memo[key] = self._solve_board(first, second, sf, ss)
        u, w = self.memo[key]
        return u if mover == 0 else 1.0 - w

    def _solve_board(
        self, first: frozenset[int], second: frozenset[int], sf: int, ss: int
    ) -> tuple[float, float]:
        free = frozenset(self.cells) - first - second
        tokens, target = self.rules.tokens, self.rules.target_score

        def first_places(c: int) -> float:
            mine, points = first | {c}, self._points(c, first)
            if self._line(mine):
                return 1.0
            if len(mine) == tokens or sf + points >= target:
                return 1.0 - self.last_turn(mine, second, sf + points, ss)
            return self.first_wins(mine, second, sf + points, ss, 1)

        def second_places(c: int) -> float:
            mine, points = second | {c}, self._points(c, second)
            if self._line(mine):
                return 1.0
            if len(mine) == tokens or ss + points >= target:
                return 1.0 if ss + points >= sf else 0.0  # the round ends with her turn
            return 1.0 - self.first_wins(first, mine, sf, ss + points, 0)

        first_finals = {c: first_places(c) for c in free}
        second_finals = {c: second_places(c) for c in free}

        def t_second(u: float) -> float:
            return self._mover_turn(second_finals.__getitem__, free, 1.0 - u)

        def t_first(w: float) -> float:
            return self._mover_turn(first_finals.__getitem__, free, 1.0 - w)

        if all(self._shows(h, free) for h in HANDS):  # no pass: one turn each
            w = t_second(0.0)
            return t_first(w), w
        # regula falsi with the Illinois rule on g(u) = T_F(1 - T_S(1 - u)) - u over [0, 1]
        lo, hi = 0.0, 1.0
        g_lo, g_hi = t_first(t_second(lo)) - lo, t_first(t_second(hi)) - hi
        u = lo
        side = 0
        for _ in range(200):
            u = (lo * g_hi - hi * g_lo) / (g_hi - g_lo) if g_hi != g_lo else (lo + hi) / 2
            g = t_first(t_second(u)) - u
            if abs(g) < 1e-14 or hi - lo < 1e-14:
                break
            if g > 0:
                lo, g_lo = u, g
                if side == 1:
                    g_hi /= 2
                side = 1
            else:
                hi, g_hi = u, g
                if side == -1:
                    g_lo /= 2
                side = -1
        return u, t_second(u)
