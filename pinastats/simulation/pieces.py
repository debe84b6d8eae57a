"""Very large runs: the per-game table written in pieces, the summary from streamed counts.

``simulate_pieces(agents, games, "runs/")`` plays the games like
:func:`~pinastats.simulation.simulate` (the same seed gives the same games), but the
per-game table is never held whole: the chunks' rows go, in game order, into files
of at most ``piece_games`` games each (``runs/games-00000.parquet``,
``runs/games-00001.parquet``, ...), each written whole or not at all
(:func:`~pinastats._files.written_whole`), and the summary is computed from
counts kept as the chunks arrive (seat and position wins, end reasons, a
histogram of the rounds).
Concatenated in name order, the pieces are the table ``simulate`` returns.

A run stopped before its end (Ctrl-C, SIGTERM, an error, a full disk) leaves
its complete pieces, and its error says that the run is incomplete and which
pieces (which games) it leaves. A rerun does not continue it: a place that
holds pieces is refused, so pieces of two runs are never mixed.
"""

from __future__ import annotations

import errno
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pinastats._arrays import IntArray
from pinastats._files import check_output, claimed
from pinastats.agents.loading import resolve_agent
from pinastats.agents.protocol import AgentProtocol
from pinastats.dice.errors import at_least
from pinastats.errors import OutputError, PinastatsError
from pinastats.game.config import GameConfig
from pinastats.game.rules import EndReason
from pinastats.simulation.chunk import CHUNK_FIELDS
from pinastats.simulation.progress import Interrupted, Stopped, stop_signal
from pinastats.simulation.result import SimulationResult, output_suffix, win_rate_row

PIECE_GAMES = 100_000
"""Default games per piece (about 65 MB of table for 2 players while it is written)."""
PLACEHOLDER = "{}"
"""Where the piece number goes in a pattern: ``runs/games-{}.csv``."""
DEFAULT_NAME = "games-{}.parquet"
"""The pieces' names in a folder given without a pattern."""
WIDTH = 5
"""Digits of a piece number (zero-padded, so that name order is game order)."""


@dataclass(frozen=True)
class PiecePlan:
    """Where the pieces of a run go: a pattern with one ``{}`` for the piece number."""

    pattern: str

    @property
    def suffix(self) -> str:
        """``.parquet`` or ``.csv``."""
        return output_suffix(self.path(0))

    def path(self, index: int) -> Path:
        """The file of piece ``index``: ``runs/games-00003.parquet`` for 3."""
        return Path(self.pattern.replace(PLACEHOLDER, f"{index:0{WIDTH}d}"))

    def matches(self, path: Path) -> bool:
        """Whether ``path`` is named like a piece of this plan (in its folder, any number)."""
        head, tail = Path(self.pattern).name.split(PLACEHOLDER)
        rule = re.compile(re.escape(head) + r"\d+" + re.escape(tail) + "$")
        same_folder = path.absolute().parent == Path(self.pattern).absolute().parent
        return same_folder and rule.match(path.name) is not None

    def existing(self) -> list[Path]:
        """Files already matching the pattern (pieces of an earlier run)."""
        folder = Path(self.pattern).parent
        if not folder.is_dir():
            return []
        return sorted(p for p in folder.iterdir() if self.matches(p))


def piece_plan(out: str, folder: bool = False) -> PiecePlan | None:
    """The pieces asked for by ``out``; None when ``out`` is one file (a table in memory).

    ``out`` is a pattern with one ``{}`` in its file name (``runs/g-{}.csv``), or a
    folder (an existing one, a name ending in ``/``, or with ``folder`` any name not
    ending in ``.parquet`` or ``.csv``), whose pieces are :data:`DEFAULT_NAME`.

    >>> piece_plan("runs/").path(2).as_posix()
    'runs/games-00002.parquet'
    >>> piece_plan("games.csv") is None
    True
    """
    if PLACEHOLDER not in out:
        named_file = Path(out).suffix.lower() in (".parquet", ".csv")
        if not (out.endswith(("/", "\\")) or Path(out).is_dir() or (folder and not named_file)):
            return None
        out = str(Path(out) / DEFAULT_NAME)
    if out.count(PLACEHOLDER) != 1 or PLACEHOLDER not in Path(out).name:
        raise PinastatsError(
            f"--out {out!r}: a pattern has exactly one {PLACEHOLDER} in its file name "
            f"(e.g. runs/games-{PLACEHOLDER}.parquet), for the piece number"
        )
    plan = PiecePlan(out)
    plan.suffix  # noqa: B018 - raises on a wrong suffix
    return plan


class GameCounts:
    """What the summary needs, counted chunk by chunk (no per-game row is kept)."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.games = 0
        self.seat_wins = np.zeros(players, dtype=np.int64)
        self.position_wins = np.zeros(players + 1, dtype=np.int64)  # 0: no winner
        self.reasons = np.zeros(max(EndReason) + 1, dtype=np.int64)
        self.rounds = np.zeros(1, dtype=np.int64)  # rounds[r]: games of r rounds

    def add(self, part: dict[str, IntArray]) -> None:
        """Count the games of one chunk."""
        p, winner = self.players, part["winner"]
        self.games += len(winner)
        self.seat_wins += np.bincount(winner[winner >= 0], minlength=p)[:p]
        position = np.where(winner >= 0, (winner - part["first"]) % p + 1, 0)
        self.position_wins += np.bincount(position, minlength=p + 1)
        self.reasons += np.bincount(part["reason"], minlength=len(self.reasons))
        rounds = np.bincount(-(-part["turns"] // p))
        if len(rounds) > len(self.rounds):
            self.rounds = np.pad(self.rounds, (0, len(rounds) - len(self.rounds)))
        self.rounds[: len(rounds)] += rounds

    def rounds_quantile(self, q: float) -> float:
        """The ``q`` quantile of the rounds, linear between order statistics (as pandas).

        With the sorted rounds x_0 <= ... <= x_{n-1} and h = (n - 1) q:
        x_⌊h⌋ + (h - ⌊h⌋)(x_⌊h⌋+1 - x_⌊h⌋); x_i is the first r whose cumulative count > i.
        """
        cum = np.cumsum(self.rounds)
        h = (self.games - 1) * q
        lo = int(np.floor(h))
        x_lo = float(np.searchsorted(cum, lo, side="right"))
        x_hi = float(np.searchsorted(cum, min(lo + 1, self.games - 1), side="right"))
        return x_lo + (h - lo) * (x_hi - x_lo)

    def summary(self, run: SimulationResult) -> dict[str, Any]:
        """The run's summary, with the keys and values of :meth:`SimulationResult.summary`."""
        n, agents = self.games, run.agents
        seats = [
            win_rate_row({"seat": s, "agent": a.name}, int(self.seat_wins[s]), n, None)
            for s, a in enumerate(agents)
        ]
        by_agent = []
        for name in dict.fromkeys(a.name for a in agents):
            held = [s for s, a in enumerate(agents) if a.name == name]
            labels = {"agent": name, "seats": len(held)}
            wins = int(self.seat_wins[held].sum())
            by_agent.append(win_rate_row(labels, wins, n * len(held), "seat_games"))
        positions = [
            win_rate_row({"position": pos}, int(self.position_wins[pos]), n, None)
            for pos in range(1, self.players + 1)
        ]
        reasons = {
            r.name.lower(): int(self.reasons[r]) for r in EndReason if r is not EndReason.ONGOING
        }
        rounds = np.arange(len(self.rounds))
        used = rounds[self.rounds > 0]
        rate = n / run.elapsed if run.elapsed > 0 else None
        return {
            "games": n,
            "seed": run.seed,
            "players": self.players,
            "layout": run.config.layout.name,
            "target_score": run.config.rules.target_score,
            "happy_hour": run.config.rules.happy_hour,
            "negative_scores": run.config.rules.negative_scores,
            "starting_scores": [int(x) for x in run.config.start_scores],
            "agents": [a.name for a in agents],
            "wins": [r["wins"] for r in seats],
            "draws": int(self.position_wins[0]),
            "win_rate": seats,
            "agent_win_rate": by_agent,
            "position_win_rate": positions,
            "first_player_win_rate": positions[0]["win_rate"],
            "end_reasons": {k: v / n for k, v in reasons.items()},
            "end_reason_games": reasons,
            "mean_rounds": float((rounds * self.rounds).sum() / n),
            "rounds": {
                "mean": float((rounds * self.rounds).sum() / n),
                "median": self.rounds_quantile(0.5),
                "q10": self.rounds_quantile(0.1),
                "q25": self.rounds_quantile(0.25),
                "q75": self.rounds_quantile(0.75),
                "q90": self.rounds_quantile(0.9),
                "min": float(used.min()),
                "max": float(used.max()),
            },
            "elapsed": run.elapsed,
            "games_per_second": rate,
            "workers": run.workers,
            "engine": run.engine,
            "chunk_size": run.chunk_size,
        }


class PieceWriter:
    """The chunk sink of a run in pieces: counts each chunk, writes full pieces in game order.

    Called as ``writer(index, arrays)`` for chunk ``index`` (chunks may come out of
    order from a cluster: they wait until the ones before them have come); returns
    the chunk's arrays cut to no game, which is what the run keeps.
    """

    def __init__(self, plan: PiecePlan, piece_games: int, config: GameConfig,
                 agents: tuple[AgentProtocol, ...]) -> None:  # fmt: skip
        self.plan, self.piece_games = plan, piece_games
        self.config, self.agents = config, agents
        self.counts = GameCounts(config.players)
        self.written: list[Path] = []
        self._waiting: dict[int, dict[str, IntArray]] = {}
        self._next = 0
        self._buffer: list[dict[str, IntArray]] = []
        self._buffered = 0
        self._first_game = 0

    def __call__(self, index: int, part: dict[str, IntArray]) -> dict[str, IntArray]:
        """Take chunk ``index``; write every piece it completes; keep none of its games."""
        self._waiting[index] = part
        while self._next in self._waiting:
            ready = self._waiting.pop(self._next)
            self._next += 1
            self.counts.add(ready)
            self._buffer.append(ready)
            self._buffered += len(ready["winner"])
            while self._buffered >= self.piece_games:
                self._write(self.piece_games)
        return {name: values[:0] for name, values in part.items()}

    def finish(self) -> list[Path]:
        """Write the last, shorter piece; the paths of all the pieces in order."""
        if self._waiting:
            raise AssertionError(f"chunks {sorted(self._waiting)} came without those before them")
        if self._buffered:
            self._write(self._buffered)
        return self.written

    def _write(self, games: int) -> None:
        arrays = {name: np.concatenate([b[name] for b in self._buffer]) for name in CHUNK_FIELDS}
        rest = {name: values[games:] for name, values in arrays.items()}
        piece = SimulationResult.from_arrays(
            {name: values[:games] for name, values in arrays.items()},
            config=self.config, agents=self.agents, seed=0, elapsed=0.0, workers=1,
            engine="local",
        )  # fmt: skip
        piece.games["game"] += self._first_game
        self.written.append(piece.save(self.plan.path(len(self.written))))
        self._first_game += games
        self._buffer = [rest] if len(rest["winner"]) else []
        self._buffered -= games


def simulate_pieces(
    agents: Sequence[AgentProtocol | str],
    games: int,
    out: str | PiecePlan,
    *,
    piece_games: int = PIECE_GAMES,
    config: GameConfig | None = None,
    play: Callable[..., SimulationResult] | None = None,
    **options: Any,
) -> tuple[dict[str, Any], list[Path]]:
    """Play like :func:`simulate` (same ``options``), writing the table in pieces.

    ``play`` plays the run instead of ``simulate``, with its arguments and a
    ``chunk_sink`` (e.g. :func:`pinastats.records.record_run` with its ``path``).
    Returns the summary (as :meth:`SimulationResult.summary`) and the pieces' paths.

    The first piece's path is checked before any game is played
    (:func:`~pinastats._files.check_output`), and the pattern is held while the
    run plays (a lock file, ``runs/games-{}.parquet.lock``): a second run writing
    the same pieces is refused. A place that already holds pieces is refused too
    (an earlier run's, complete or not, would mix with these): pieces of two runs
    are never mixed. Stopped (Ctrl-C, SIGTERM, an error, a full disk), the run
    leaves its complete pieces (games 0 to k - 1, in order) and no partly
    written file, and its error says the run is incomplete and which pieces are left.
    """
    from pinastats.simulation.runner import simulate

    plan = out if isinstance(out, PiecePlan) else piece_plan(out, folder=True)
    if plan is None:
        raise PinastatsError(
            f"out {out!r} is one file: give a folder or a pattern with {PLACEHOLDER} "
            "(or save a whole table with simulate(...).save)"
        )
    piece_games = at_least(piece_games, "games per piece", 1)
    _refuse_earlier(plan)
    check_output(plan.path(0))
    seats = tuple(resolve_agent(a) for a in agents)
    if config is None:
        config = GameConfig(players=options.get("players") or len(seats))
    with claimed(plan.pattern):
        _refuse_earlier(plan)  # again, now that no other run can start writing them
        writer = PieceWriter(plan, piece_games, config, seats)
        try:
            run = (simulate if play is None else play)(
                seats, games, config=config, chunk_sink=writer, **options
            )
            paths = writer.finish()
        except BaseException as exc:
            _raise_incomplete(exc, writer.written, piece_games, games)
            raise
    return writer.counts.summary(run), paths


def _refuse_earlier(plan: PiecePlan) -> None:
    """Refuse a place that already holds pieces of the plan's pattern."""
    old = plan.existing()
    if old:
        raise PinastatsError(
            f"{old[0].parent} already holds {len(old)} piece(s) like {old[0].name} "
            f"({old[0].name} to {old[-1].name}), perhaps of an incomplete run: pieces of "
            "two runs are never mixed, so remove them or write to another place"
        )


def _raise_incomplete(
    exc: BaseException, written: list[Path], piece_games: int, games: int
) -> None:
    """Raise ``exc`` again, saying the run is incomplete and which pieces it leaves.

    Nothing is said when no piece was written (nothing is left). A stop stays a
    stop (:class:`Stopped`), a bad input or a full disk a :class:`PinastatsError`;
    any other error gets the words as a note.
    """
    if not written:
        return
    done = len(written) * piece_games
    left = (
        f"the run is incomplete: it leaves {len(written)} piece(s), {written[0]} to "
        f"{written[-1].name} (games 0 to {done - 1:,} of {games:,}); a rerun to the same "
        "place refuses them: remove them, or write to another place"
    )
    if isinstance(exc, Interrupted):
        raise Interrupted(exc.done, exc.total, exc.signum, then=left) from None
    if isinstance(exc, KeyboardInterrupt):
        raise Stopped(f"{str(exc) or 'interrupted'}; {left}", stop_signal(exc)) from None
    if isinstance(exc, OutputError):
        raise OutputError(f"{exc}; {left}", exc.path, exc.errno or errno.EIO) from exc
    if isinstance(exc, PinastatsError):
        raise PinastatsError(f"{exc}; {left}") from exc
    exc.add_note(left)
