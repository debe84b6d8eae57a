"""A slow pure-Python engine written from the rules: the oracle of the kernel engine.

Everything a game does is written here again from ``docs/rules.md``, on plain
Python lists: the deal, which coasters are open, the points of a placement
(space + own neighbours), the Happy Hour variant, the end check and the
tie-break. Nothing of the engine runs while a game is played. The board's data
(the catalogue's combinations and points, the layout's cells, lines and sides,
the rule options) is read once from a :class:`GameConfig` into a :class:`Table`;
the neighbours of a cell are the cells around it on the grid, and whether five
dice show a combination is decided by the predicates of the dice oracle
(:mod:`tests.dice.oracle`), not by the engine's tables.

Shared with the engine are its words (:class:`EndReason`, :class:`Trigger`,
:class:`HappyHourEffect`) and the encoding of a Happy Hour choice
(``Game.happy_hour_options``), with ``C`` cells:

* effects 1, 3 and 6 (lose 3, others gain 1, gain 4): the single option ``0``;
* effect 2 (take back an own token): the cell of one of the mover's tokens;
* effect 4 (move another player's token): ``(cell * 2 + space) * C + to``, the
  token on ``space`` of ``cell`` going to the first free space of ``to``, a
  cell with a free space and no token of that token's owner;
* effect 5 (flip a coaster): any cell.

An effect without options cannot apply and does nothing; options are listed in
increasing order.

:func:`play_random_games` plays whole games of the ``random`` agent (one roll,
a uniformly drawn open coaster) with the engine's random draws, in the engine's
order: on the seed of a chunk it plays the very games the simulator plays
(:func:`check_same_games`). ``benchmarks/bench_sim.py`` times it against the
engine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import product

import numpy as np

from pinastats.game import EndReason, GameConfig, HappyHourEffect, Trigger
from pinastats.simulation import simulate
from tests.dice.oracle import all_hands, holds, minus

Dice = tuple[int, ...]
FREE = -1
"""A free token space."""
Draw = Callable[[], float]
"""A source of uniform floats in [0, 1), e.g. ``numpy.random.Generator.random``."""


class OracleError(Exception):
    """A move or a turn the rules forbid; the message names the rule."""


@dataclass(frozen=True)
class Table:
    """The fixed numbers of a config as lists."""

    ids: list[str]  # per catalogue coaster
    points: list[list[list[int]]]  # [coaster][side][space]
    shows: dict[Dice, list[bool]]  # sorted dice -> per catalogue coaster
    neighbours: list[list[int]]  # per cell: the cells around it, diagonals included
    lines: list[list[int]]
    sides: list[int]  # per cell at setup: 0 = side A, 1 = side B
    start_scores: list[int]  # in turn order
    players: int
    tokens: int
    target: int
    max_turns: int
    rolls: int
    happy_hour: bool
    negative_scores: bool

    @classmethod
    def of(cls, config: GameConfig) -> Table:
        """The table of a config."""
        coasters = config.catalogue.coasters
        layout, rules, n = config.layout, config.rules, config.players
        where = {cell: i for i, cell in enumerate(layout.cells)}
        around = [(dr, dc) for dr, dc in product((-1, 0, 1), repeat=2) if (dr, dc) != (0, 0)]
        return cls(
            ids=[c.id for c in coasters],
            points=[[[c.side_a], list(c.side_b)] for c in coasters],
            shows={d: [holds(c.combination, d) for c in coasters] for d in all_hands()},
            neighbours=[
                [where[(r + dr, c + dc)] for dr, dc in around if (r + dr, c + dc) in where]
                for r, c in layout.cells
            ],
            lines=[list(line) for line in layout.line_cells()],
            sides=[int(s) for s in layout.side_indices(n)],
            start_scores=list(config.starting_scores or range(1, n + 1)),
            players=n,
            tokens=rules.tokens,
            target=rules.target_score,
            max_turns=rules.max_turns,
            rolls=rules.rolls,
            happy_hour=rules.happy_hour,
            negative_scores=rules.negative_scores,
        )


def final_dice(rolls: Sequence[Dice], keeps: Sequence[Dice], allowed: int) -> Dice:
    """The final dice of a turn's rolls and keeps, checked against the rules of rolling.

    At most ``allowed`` rolls of five dice 1-6; before each re-roll the dice kept
    are part of the dice showing and not all five of them (keeping all five stops),
    and the new roll still shows them.
    """
    if not 1 <= len(rolls) <= allowed or len(keeps) != len(rolls) - 1:
        raise OracleError(f"{len(rolls)} rolls and {len(keeps)} keeps, {allowed} rolls allowed")
    for dice in rolls:
        if len(dice) != 5 or not all(1 <= d <= 6 for d in dice):
            raise OracleError(f"a roll shows five dice 1-6, got {dice}")
    for before, kept, after in zip(rolls, keeps, rolls[1:], strict=False):
        if len(kept) >= 5 or not _within(kept, before) or not _within(kept, after):
            raise OracleError(f"keep {kept} between the rolls {before} and {after}")
    return tuple(sorted(rolls[-1]))


def _within(part: Dice, dice: Dice) -> bool:
    """Whether ``part`` is a sub-multiset of ``dice``."""
    try:
        minus(dice, part)
    except ValueError:
        return False
    return True


@dataclass
class ReferenceGame:
    """One game: coasters and sides of the cells, the seat on each token space, the players.

    ``last[p]`` counts the placements of the game up to seat ``p``'s latest one
    (0: never placed), the clock of the tie-break; ``line`` is the winning line
    (the first in the layout's order). A game won by a PIÑA COLADICE reports
    ``Trigger.NONE``, as the engine's :class:`Trigger` defines it.
    """

    table: Table
    coaster: list[int]
    side: list[int]
    spaces: list[list[int]]
    first: int
    score: list[int]
    reserve: list[int]
    last: list[int]
    mover: int
    turn: int = 0
    placements: int = 0
    trigger: Trigger = Trigger.NONE
    reason: EndReason = EndReason.ONGOING
    winner: int | None = None
    line: int = -1

    @classmethod
    def deal(cls, table: Table, draw: Draw) -> ReferenceGame:
        """A new game: a partial Fisher-Yates shuffle of the catalogue, then the first player.

        Cell ``c`` gets the coaster at a uniform position ``c + floor(u (K - c))`` of
        the ``K`` coasters not yet dealt; the first seat is ``floor(u n)``.
        """
        n_cells, n = len(table.sides), table.players
        pool = list(range(len(table.ids)))
        for c in range(n_cells):
            j = c + int(draw() * (len(pool) - c))
            pool[c], pool[j] = pool[j], pool[c]
        first = int(draw() * n)
        score = [0] * n
        for i in range(n):
            score[(first + i) % n] = table.start_scores[i]
        return cls(
            table=table,
            coaster=pool[:n_cells],
            side=list(table.sides),
            spaces=[[FREE, FREE] for _ in range(n_cells)],
            first=first,
            score=score,
            reserve=[table.tokens] * n,
            last=[0] * n,
            mover=first,
        )

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.reason is not EndReason.ONGOING

    def owns(self, cell: int, seat: int) -> bool:
        """Whether ``seat`` has a token on ``cell``."""
        return seat in self.spaces[cell]

    def free_space(self, cell: int) -> int | None:
        """The first free token space of a cell (``None``: full)."""
        for space in range(1 + self.side[cell]):
            if self.spaces[cell][space] == FREE:
                return space
        return None

    def legal_cells(self, dice: Dice) -> list[int]:
        """The cells open to the mover whose combination the final dice show."""
        if self.is_over or self.reserve[self.mover] == 0:
            return []
        me, shows = self.mover, self.table.shows[tuple(sorted(dice))]
        return [
            c
            for c, k in enumerate(self.coaster)
            if shows[k] and self.free_space(c) is not None and not self.owns(c, me)
        ]

    def happy_hour_options(self, effect: HappyHourEffect) -> list[int]:
        """The mover's choices of a Happy Hour effect, encoded (empty: it cannot apply)."""
        n, me = len(self.coaster), self.mover
        if effect is HappyHourEffect.REMOVE_OWN_TOKEN:
            return [c for c in range(n) if self.owns(c, me)]
        if effect is HappyHourEffect.MOVE_OTHER_TOKEN:
            return [
                (cell * 2 + space) * n + to
                for cell in range(n)
                for space in range(2)
                if self.spaces[cell][space] not in (FREE, me)
                for to in range(n)
                if self.free_space(to) is not None and not self.owns(to, self.spaces[cell][space])
            ]
        if effect is HappyHourEffect.FLIP_COASTER:
            return list(range(n))
        return [0]

    def play_turn(
        self,
        dice: Dice,
        rolls_used: int,
        cell: int | None = None,
        happy_hour: HappyHourEffect | None = None,
        option: int | None = None,
    ) -> int:
        """The mover's turn ending on ``dice`` after ``rolls_used`` rolls; the points scored.

        The token goes on ``cell``, compulsory when a cell is open to the dice.
        Otherwise, with the Happy Hour variant and every roll used, the die shows
        ``happy_hour`` and the mover picks ``option`` (``None`` when the effect
        cannot apply). Then the end check.
        """
        if self.is_over:
            raise OracleError(f"the game is over: {self.reason.name}")
        if not 1 <= rolls_used <= self.table.rolls:
            raise OracleError(f"{rolls_used} rolls used, {self.table.rolls} allowed")
        legal = self.legal_cells(dice)
        due = not legal and self.table.happy_hour and rolls_used == self.table.rolls
        if (cell not in legal if legal else cell is not None) or due != (happy_hour is not None):
            raise OracleError(
                f"seat {self.mover} with {dice} after {rolls_used} rolls: legal cells {legal}, "
                f"Happy Hour die due: {due}; got cell {cell}, Happy Hour {happy_hour}"
            )
        points = 0
        if cell is not None:
            points = self._place(cell)
        elif happy_hour is not None:
            options = self.happy_hour_options(happy_hour)
            if option not in options if options else option is not None:
                raise OracleError(f"Happy Hour {happy_hour.name}: options {options}, got {option}")
            if option is not None:
                self._happy_hour(happy_hour, option)
        self._end_turn()
        return points

    def _place(self, cell: int) -> int:
        """Put the mover's token on the first free space of ``cell``; the points it scores."""
        me, space = self.mover, self.free_space(cell)
        assert space is not None
        points = self.table.points[self.coaster[cell]][self.side[cell]][space]
        points += sum(self.owns(m, me) for m in self.table.neighbours[cell])
        self.spaces[cell][space] = me
        self.score[me] += points
        self.reserve[me] -= 1
        self.placements += 1
        self.last[me] = self.placements
        return points

    def _happy_hour(self, effect: HappyHourEffect, option: int) -> None:
        """Apply an effect with one of its options."""
        me, n = self.mover, len(self.coaster)
        if effect is HappyHourEffect.LOSE_3:
            lower = self.score[me] - 3
            self.score[me] = lower if self.table.negative_scores else max(lower, 0)
        elif effect is HappyHourEffect.REMOVE_OWN_TOKEN:
            self.spaces[option][self.spaces[option].index(me)] = FREE
            self.reserve[me] += 1
        elif effect is HappyHourEffect.OTHERS_GAIN_1:
            for p in range(self.table.players):
                self.score[p] += p != me
        elif effect is HappyHourEffect.MOVE_OTHER_TOKEN:
            (cell, space), to = divmod(option // n, 2), option % n
            owner, self.spaces[cell][space] = self.spaces[cell][space], FREE
            free = self.free_space(to)
            assert free is not None
            self.spaces[to][free] = owner
        elif effect is HappyHourEffect.FLIP_COASTER:
            for owner in self.spaces[option]:
                if owner != FREE:
                    self.reserve[owner] += 1
            self.spaces[option] = [FREE, FREE]
            self.side[option] = 1 - self.side[option]
        else:
            self.score[me] += 4

    def _end_turn(self) -> None:
        """The end check: a full line wins; a score, else an empty reserve, triggers the end."""
        t, seat = self.table, self.mover
        n = t.players
        self.turn += 1
        self.mover = (seat + 1) % n
        for p in ((seat + i) % n for i in range(n)):  # the mover's lines first
            for k, line in enumerate(t.lines):
                if all(self.owns(c, p) for c in line):  # reported with no trigger
                    self.reason, self.winner, self.line = EndReason.PINA_COLADICE, p, k
                    self.trigger = Trigger.NONE
                    return
        if self.trigger is Trigger.NONE:
            if any(s >= t.target for s in self.score):
                self.trigger = Trigger.SCORE
            elif 0 in self.reserve:
                self.trigger = Trigger.TOKENS
        if self.trigger is not Trigger.NONE and self.turn % n == 0:
            best = max(self.score)
            leaders = [p for p in range(n) if self.score[p] == best]
            latest = max(self.last[p] for p in leaders)
            if len(leaders) == 1:
                self.winner = leaders[0]
                by_score = self.trigger is Trigger.SCORE
                self.reason = EndReason.SCORE if by_score else EndReason.TOKENS
            elif latest > 0:
                self.winner, self.reason = self.last.index(latest), EndReason.TIE_BREAK
            else:
                self.reason = EndReason.DRAW
        elif self.turn >= t.max_turns:
            self.reason = EndReason.TURN_LIMIT


def play_random_game(table: Table, draw: Draw) -> ReferenceGame:
    """One game of ``random`` agents from the deal, every draw from ``draw()``.

    Each turn rolls the five dice once (die ``i`` shows ``floor(6 u) + 1``) and
    stops; the token goes on the open cell at position ``floor(u m)`` of the
    ``m`` open cells in cell order.
    """
    if table.happy_hour and table.rolls == 1:
        raise OracleError(
            "the random agent's Happy Hour choices are not modelled: with rolls=1 every "
            "turn without a placement rolls the Happy Hour die (use rolls >= 2 or no Happy Hour)"
        )
    game = ReferenceGame.deal(table, draw)
    while not game.is_over:
        dice = tuple(sorted(int(draw() * 6.0) + 1 for _ in range(5)))
        legal = game.legal_cells(dice)
        game.play_turn(dice, 1, legal[int(draw() * len(legal))] if legal else None)
    return game


def play_random_games(
    config: GameConfig, games: int, seed: np.random.SeedSequence
) -> list[ReferenceGame]:
    """``games`` games in a row from one generator (as one chunk of the simulator)."""
    table = Table.of(config)
    draw = np.random.default_rng(seed).random
    return [play_random_game(table, draw) for _ in range(games)]


def check_same_games(config: GameConfig, games: int, seed: int = 7) -> bool:
    """Whether the reference plays the games ``simulate`` plays in one chunk with this seed.

    Compared per game: first seat, winner, end reason, trigger, turns, winning line
    and scores.
    """
    seats = ["random"] * config.players
    run = simulate(seats, games, seed=seed, config=config, workers=1, chunk_size=games)
    (chunk,) = np.random.SeedSequence(seed).spawn(1)
    engine = run.games
    scores = engine[[f"score_{p}" for p in range(config.players)]].to_numpy().tolist()
    ours = play_random_games(config, games, chunk)
    return bool(
        engine["first_seat"].tolist() == [g.first for g in ours]
        and engine["winner"].tolist() == [-1 if g.winner is None else g.winner for g in ours]
        and engine["end_reason"].astype(str).tolist() == [g.reason.name.lower() for g in ours]
        and engine["trigger"].astype(str).tolist() == [g.trigger.name.lower() for g in ours]
        and engine["turns"].tolist() == [g.turn for g in ours]
        and engine["line"].tolist() == [g.line for g in ours]
        and scores == [g.score for g in ours]
    )
