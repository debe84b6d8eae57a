"""Policy iteration: ``value`` labels its own play, is trained on from there, and plays.

Round ``r`` for ``n`` players starts from the network ``N[r-1]`` (round 0: the
weights the tools play with, or a file given):

1. **Label** (:func:`label_round`). ``value`` self-play games, Happy Hour off
   and on, each kept turn start replaced half the time by a random way the
   mover's turn can end (the positions ``value`` weighs), every position played
   out ``playouts`` times by ``value`` with ``N[r-1]`` in every seat
   (:func:`~pinastats.value.data.make_positions`, ``policy="value"``). Each
   setting is split in ``parts`` runs of their own seeds (:data:`LABEL_SEED`
   ``+ 1000 n + 100 r + 10 hh + part``), so that the play-outs' common random
   numbers are not one set of streams for all.
2. **Train** (:func:`train_round`). ``N[r-1]`` trained further on those labels
   (:func:`~pinastats.value.train.fit` with ``init=``: a warm start, the same
   standardisation), a tenth of the games held out to stop it: ``N[r]``.
3. **Duel** (:func:`duel`). ``N[r]`` in one seat against ``n - 1`` seats of
   ``N[r-1]``, the first player drawn each game, and each of them against
   ``strategic`` with the same seeds, ``games`` games for each Happy Hour
   setting; the simulator plays them and counts each agent's wins.

**Stop rule** (:func:`stops`): with ``s`` the share of games ``N[r]`` wins
against ``N[r-1]`` over both settings, the rounds for ``n`` players stop when
``s - 1/n <`` :data:`STOP_MARGIN` (less than one point above the fair share).

Each share comes with its 95% Wilson interval; two settings are pooled by
adding their wins and games (:func:`pooled`).

:func:`ship_networks` writes the weights file the tools play with from the
last round of each chain, with the provenance of every round.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TextIO

from pinastats.agents.network import PlayerNetwork, load_networks, save_networks, weights_path
from pinastats.agents.weights import NetworkAgent
from pinastats.errors import PinastatsError
from pinastats.game.config import GameConfig
from pinastats.game.rules import Rules
from pinastats.simulation import simulate
from pinastats.simulation.stats import wilson_interval
from pinastats.value.data import make_positions, read_positions, write_positions
from pinastats.value.train import fit

LABEL_SEED = 37_000
"""Labelling seeds: ``LABEL_SEED + 1000 n + 100 r + 10 hh + part``."""
PLAY_SEED = 37_700_000
"""Seeds of the games that judge a round (``PLAY_SEED + 10,000 n + 100 r``), apart from labels."""
GAMES = {2: (3600, 1800), 3: (2000, 1000), 4: (1200, 600)}
"""Labelled games per player count, (Happy Hour off, on): about ten minutes on two cores."""
STOP_MARGIN = 0.01
"""The rounds stop when a round beats the one before by less than this above the fair share."""
SAMPLE = 0.5
"""The chance that a turn's starting position is kept for labelling."""
OUTCOMES = 0.5
"""The share of kept positions replaced by a random way the mover's turn can end."""

interval: Callable[[float, int], tuple[float, float]] = wilson_interval
"""The 95% interval of a share (wins, games): the project's Wilson interval."""


class RoundsError(PinastatsError):
    """Settings of policy iteration that cannot be used."""


@dataclass(frozen=True)
class Settings:
    """How big a round is.

    Attributes:
        playouts: ``value`` play-outs labelling each position.
        parts: runs (seeds) per Happy Hour setting.
        scale: times the labelled games of :data:`GAMES`.
        games: games of each duel, per Happy Hour setting.
        epochs: the most epochs of training a round.
        workers: threads of the labelling and the duels (default: the cores).
    """

    playouts: int = 32
    parts: int = 2
    scale: float = 1.0
    games: int = 2000
    epochs: int = 200
    workers: int | None = None
    labelled: Mapping[int, tuple[int, int]] = field(default_factory=lambda: dict(GAMES))

    def __post_init__(self) -> None:
        for name in ("playouts", "parts", "games", "epochs"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise RoundsError(f"{name} must be a whole number of at least 1, got {value!r}")
        if not (isinstance(self.scale, int | float) and 0 < self.scale < 1e6):
            raise RoundsError(f"scale must be a number above 0, got {self.scale!r}")

    def labelled_games(self, players: int) -> tuple[int, int]:
        """Games of each part, (Happy Hour off, on): :data:`GAMES` times ``scale``, split."""
        if players not in self.labelled:
            have = ", ".join(map(str, sorted(self.labelled)))
            raise RoundsError(f"no labelled games for {players!r} players (player counts: {have})")
        off, on = self.labelled[players]
        return (max(1, round(off * self.scale) // self.parts),
                max(1, round(on * self.scale) // self.parts))  # fmt: skip

    def record(self) -> dict[str, Any]:
        """JSON-ready, for a report's ``about``."""
        out = asdict(self)
        out["labelled"] = {str(n): list(g) for n, g in self.labelled.items()}
        return out


@dataclass(frozen=True)
class LabelPart:
    """One labelling run of a round: its file, Happy Hour setting, seed and games."""

    path: Path
    happy_hour: bool
    seed: int
    games: int


def label_parts(
    folder: str | Path, players: int, round_: int, settings: Settings
) -> list[LabelPart]:
    """The labelling runs of round ``round_`` for ``players`` players, each with its file."""
    games = settings.labelled_games(players)
    return [LabelPart(Path(folder) / f"labels-{players}p-r{round_}-{'hh' if hh else 'plain'}-{k}"
                      ".parquet", hh, LABEL_SEED + 1000 * players + 100 * round_ + 10 * hh + k,
                      games[hh])
            for hh in (False, True) for k in range(settings.parts)]  # fmt: skip


def label_round(
    network: str | Path | None,
    players: int,
    round_: int,
    folder: str | Path,
    settings: Settings,
    *,
    command: str = "",
    stream: TextIO | None = None,
) -> list[Path]:
    """Label round ``round_``'s positions by ``value`` play-outs with ``network``; the files.

    ``network``: a weights file, or None for the weights the tools play with.
    A part whose file is there is kept (a run that stopped resumes).
    """
    if network is not None and Path(network).resolve() != weights_path().resolve():
        return _label_in_child(Path(network), players, round_, folder, settings, command)
    Path(folder).mkdir(parents=True, exist_ok=True)
    files = []
    for part in label_parts(folder, players, round_, settings):
        files.append(part.path)
        if part.path.is_file():
            continue
        start = time.perf_counter()
        config = GameConfig(players=players, rules=Rules(happy_hour=part.happy_hour))
        positions = make_positions(
            ["value"] * players, part.games, seed=part.seed, config=config, sample=SAMPLE,
            playouts=settings.playouts, policy="value", outcomes=OUTCOMES,
            workers=settings.workers, command=command,
        )  # fmt: skip
        write_positions(part.path, positions)
        if stream is not None:
            print(f"  {part.path.name}: {len(positions):,} positions in "
                  f"{time.perf_counter() - start:.0f} s (load {load()})", file=stream,
                  flush=True)  # fmt: skip
    return files


def _label_in_child(
    network: Path, players: int, round_: int, folder: str | Path, settings: Settings, command: str
) -> list[Path]:
    """:func:`label_round` in a child process whose weights are ``network``.

    The one place the weights are switched by the environment: the play-outs'
    ``value`` policy reads the weights the tools play with (``PINASTATS_NETWORK``).
    """
    if not network.is_file():
        raise RoundsError(f"no weights file at {str(network)!r}")
    job = {"players": players, "round_": round_, "folder": str(folder),
           "settings": settings.record(), "command": command}  # fmt: skip
    code = "import sys; from pinastats.value.rounds import _child; _child(sys.argv[1])"
    env = {**os.environ, "PINASTATS_NETWORK": str(network.resolve())}
    done = subprocess.run([sys.executable, "-c", code, json.dumps(job)], env=env, check=False)
    if done.returncode != 0:
        raise RoundsError(
            f"labelling round {round_} ({players} players) with {network} failed "
            f"(exit status {done.returncode}; the error is above)"
        )
    return [p.path for p in label_parts(folder, players, round_, settings)]


def _child(job_text: str) -> None:
    """The child process of :func:`_label_in_child`: label with this process's weights."""
    job = json.loads(job_text)
    raw = job.pop("settings")
    raw["labelled"] = {int(n): tuple(g) for n, g in raw["labelled"].items()}
    label_round(None, settings=Settings(**raw), stream=sys.stderr, **job)


@dataclass(frozen=True)
class Trained:
    """A round's network: its file, the label files and how the fit went."""

    path: Path
    positions: int
    metrics: dict[str, Any]
    seconds: float


def train_round(
    previous: str | Path,
    files: Sequence[Path],
    players: int,
    round_: int,
    to: str | Path,
    settings: Settings,
    *,
    command: str = "",
    stream: TextIO | None = None,
) -> Trained:
    """``previous``'s network for ``players`` trained on from there on ``files``; written to ``to``.

    The file keeps ``previous``'s networks of the other player counts; its
    provenance names the command, the seed (the round), the start file and its
    SHA-256, every label file with its digest, and the fit's metrics.
    """
    previous, to = Path(previous), Path(to)
    parts = [read_positions(p) for p in files]
    before = load_networks(previous)
    start = time.perf_counter()
    trained = fit(parts, init=before.for_players(players), seed=round_, epochs=settings.epochs,
                  stream=stream)  # fmt: skip
    seconds = time.perf_counter() - start
    provenance = {
        "command": command, "seed": round_, "round": round_, "players": players,
        "init": {"file": previous.name, "sha256": sha256(previous)},
        "labels": f"{settings.playouts} value play-outs (policy iteration round {round_})",
        "data": {str(players): [{"file": p.name, "digest": q.provenance.get("digest"),
                                 "positions": len(q)} for p, q in zip(files, parts, strict=True)]},
        "metrics": {str(players): trained.metrics},
        "others": f"the networks of other player counts are {previous.name}'s",
    }  # fmt: skip
    save_networks(to, {**before.networks, players: trained.network}, provenance)
    return Trained(to, sum(len(p) for p in parts), trained.metrics, seconds)


def share(wins: float, games: int) -> dict[str, Any]:
    """``wins`` of ``games``: the share with its 95% interval."""
    if games < 1:
        raise RoundsError(f"a share needs at least 1 game, got {games!r}")
    low, high = interval(wins, games)
    return {"wins": wins, "games": games, "share": wins / games, "low": low, "high": high}


def pooled(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The share of several rows of :func:`share` together: their wins over their games."""
    return share(sum(r["wins"] for r in rows), sum(r["games"] for r in rows))


def duel(
    agent: NetworkAgent,
    others: Sequence[NetworkAgent | str],
    games: int,
    seed: int,
    *,
    workers: int | None = None,
) -> dict[str, Any]:
    """``agent`` in one seat against ``others``, Happy Hour off and on; its shares.

    ``{"plain": ..., "happy_hour": ..., "both": ...}``, each a :func:`share` of
    the games ``agent`` wins (the simulator's count, the first player drawn each
    game); Happy Hour on plays from ``seed + 1``.
    """
    players = 1 + len(others)
    out: dict[str, Any] = {}
    for hh in (False, True):
        config = GameConfig(players=players, rules=Rules(happy_hour=hh))
        result = simulate([agent, *others], games=games, seed=seed + hh, config=config,
                          workers=workers)  # fmt: skip
        rates = result.agent_win_rates()
        row = rates.loc[rates["agent"] == agent.name].iloc[0]
        out["happy_hour" if hh else "plain"] = share(int(row["wins"]), int(row["seat_games"]))
    out["both"] = pooled([out["plain"], out["happy_hour"]])
    return out


BOARDS_SEED = 37_800_000
"""Seeds of :func:`duel_on_boards` (game ``g`` of board ``b``: ``BOARDS_SEED + 1000 b + g``)."""


def studied_boards(survey: str | Path) -> dict[int, int]:
    """The boards of a survey's log on which ``perfect`` played ``strategic``: board → deal seed."""
    from pinastats.solve.study import read_study
    from pinastats.solve.survey import read_survey

    frame = read_survey(survey)
    return {int(r["board"]): int(r["seed"]) for r in frame.to_dict("records")
            if read_study(r.get("study") or {}).duels.get("strategic")}  # fmt: skip


def duel_on_boards(
    agent: NetworkAgent | str, opponent: str, boards: Mapping[int, int], games: int
) -> dict[str, Any]:
    """``agent`` against ``opponent`` on given deals, ``games`` a board, seats swapped each game.

    ``boards``: board number → the seed that deals it (:func:`studied_boards`);
    game ``g`` of board ``b`` is played from :data:`BOARDS_SEED` ``+ 1000 b + g``
    with ``agent`` in seat ``g mod 2``. Its :func:`share` of the games, a game
    without a winner counting half.
    """
    from pinastats.game.game import Game
    from pinastats.simulation.play import play_game

    if not isinstance(games, int) or games < 1:
        raise RoundsError(f"games must be a whole number of at least 1, got {games!r}")
    score = 0.0
    for board, deal in sorted(boards.items()):
        for g in range(games):
            seat = g % 2
            seats: list[Any] = [agent, opponent] if seat == 0 else [opponent, agent]
            game = Game.new(config=GameConfig(players=2), seed=deal)
            play_game(game, seats, seed=BOARDS_SEED + 1000 * board + g)
            score += 0.5 if game.winner is None else float(game.winner == seat)
    return share(score, len(boards) * games)


def stops(row: Mapping[str, Any], players: int) -> bool:
    """The stop rule: the round's share against the one before is < 1/n + :data:`STOP_MARGIN`."""
    return bool(row["head_to_head"]["both"]["share"] - 1 / players < STOP_MARGIN)


def play_round(
    players: int,
    round_: int,
    previous: str | Path,
    folder: str | Path,
    settings: Settings,
    *,
    command: str = "",
    stream: TextIO | None = None,
) -> dict[str, Any]:
    """One round (label, train, duel) from the network of ``previous``; its row of figures.

    The network goes to ``folder/round-<r>-<n>p.npz``; the row holds the round,
    the file, the positions, the fit's metrics, the three duels of the module
    text (``head_to_head``, ``vs_strategic``, ``previous_vs_strategic``), the
    seconds of each step and the load average.
    """
    previous, folder = Path(previous), Path(folder)
    started = time.perf_counter()
    if stream is not None:
        print(f"{players}p round {round_}: labelling with {previous.name}", file=stream,
              flush=True)  # fmt: skip
    files = label_round(previous, players, round_, folder, settings, command=command,
                        stream=stream)  # fmt: skip
    labelled = time.perf_counter() - started
    to = folder / f"round-{round_}-{players}p.npz"
    trained = train_round(previous, files, players, round_, to, settings, command=command,
                          stream=stream)  # fmt: skip
    new, old = NetworkAgent(to, f"round {round_}"), NetworkAgent(previous, f"round {round_ - 1}")
    begun = time.perf_counter()
    seed = PLAY_SEED + 10_000 * players + 100 * round_
    strategic = ["strategic"] * (players - 1)
    g, w = settings.games, settings.workers
    row: dict[str, Any] = {
        "round": round_, "network": to.name, "positions": trained.positions,
        "train": trained.metrics,
        "head_to_head": duel(new, [old] * (players - 1), g, seed, workers=w),
        "vs_strategic": duel(new, strategic, g, seed + 10, workers=w),
        "previous_vs_strategic": duel(old, strategic, g, seed + 10, workers=w),
    }  # fmt: skip
    row["seconds"] = {"label": round(labelled), "train": round(trained.seconds),
                      "play": round(time.perf_counter() - begun)}  # fmt: skip
    row["load"] = load()
    return row


def run_rounds(
    players: int,
    rounds: int,
    start: str | Path | None,
    folder: str | Path,
    done: list[dict[str, Any]],
    settings: Settings,
    *,
    command: str = "",
    stream: TextIO | None = None,
    saved: Callable[[], None] | None = None,
) -> list[dict[str, Any]]:
    """Rounds ``1..rounds`` for ``players`` players until :func:`stops`; ``done`` grows by each.

    ``done``: the rows of rounds already played (from a report), which are not
    played again; ``start``: round 0's weights (None: the tools'). ``saved`` is
    called after each new row (to write the report).
    """
    if not isinstance(rounds, int) or rounds < 1:
        raise RoundsError(f"rounds must be a whole number of at least 1, got {rounds!r}")
    folder = Path(folder)
    previous = weights_path() if start is None else Path(start)
    for r in range(1, rounds + 1):
        row = next((x for x in done if x["round"] == r), None)
        if row is None:
            row = play_round(players, r, previous, folder, settings, command=command,
                             stream=stream)  # fmt: skip
            done.append(row)
            if saved is not None:
                saved()
            if stream is not None:
                print(round_line(players, row), file=stream, flush=True)
        previous = folder / f"round-{r}-{players}p.npz"
        if stops(row, players):
            break
    return done


def percent(s: Mapping[str, Any]) -> str:
    """A share as ``62.1% [60.5, 63.5]``."""
    return f"{100 * s['share']:.1f}% [{100 * s['low']:.1f}, {100 * s['high']:.1f}]"


def round_line(players: int, row: Mapping[str, Any]) -> str:
    """One line saying how a round did."""
    r = row["round"]
    return (f"{players}p round {r}: vs round {r - 1} {percent(row['head_to_head']['both'])} "
            f"(fair {100 / players:.1f}%); vs strategic {percent(row['vs_strategic']['both'])} "
            f"(round {r - 1}: {percent(row['previous_vs_strategic']['both'])})")  # fmt: skip


def rounds_table(report: Mapping[str, Any]) -> str:
    """The rounds of a report (player count → ``{"rounds": [...]}``) as a Markdown table."""
    lines = [
        "| players | round | positions | against the round before: Happy Hour off | on "
        "| both (fair share) | against `strategic` | the round before, same games |",
        "|---:|---:|---:|---|---|---|---|---|",
    ]
    for n in sorted(k for k in report if k.isdigit()):
        for row in report[n]["rounds"]:
            h, s, p = row["head_to_head"], row["vs_strategic"], row["previous_vs_strategic"]
            lines.append(f"| {n} | {row['round']} | {row['positions']:,} | {percent(h['plain'])} "
                         f"| {percent(h['happy_hour'])} | {percent(h['both'])} "
                         f"({100 / int(n):.1f}%) | {percent(s['both'])} "
                         f"| {percent(p['both'])} |")  # fmt: skip
    return "\n".join(lines) + "\n"


def sha256(path: str | Path) -> str:
    """The SHA-256 of a file's bytes."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def weights_digest(network: PlayerNetwork) -> str:
    """The SHA-256 of a network's arrays (layers, then mean and scale, as float64 bytes)."""
    import numpy as np

    digest = hashlib.sha256()
    for w, b in network.layers:
        for a in (w, b):
            digest.update(np.ascontiguousarray(a, dtype=np.float64).tobytes())
    for a in (network.mean, network.scale):
        digest.update(np.ascontiguousarray(a, dtype=np.float64).tobytes())
    return digest.hexdigest()


FIRST_LABELS = "strategic play-outs, 64 a position (pinastats value-data rounds 1-2)"
"""What the networks of the start file learned from (``pinastats train``'s)."""


def ship_networks(
    start: str | Path,
    chains: Mapping[int, Sequence[str | Path]],
    to: str | Path,
    *,
    command: str,
) -> dict[str, Any]:
    """Write ``to``: ``start``'s networks, those of ``chains``' player counts by their last round.

    The provenance keeps ``start``'s (its ``pinastats train`` command, seed,
    data and metrics) and adds, for each player count replaced, every round of
    the chain (its command, seed, label files and digests, the file's SHA-256),
    the label files to its data, the last round's metrics and what each network
    learned from (``labels``); ``weights_sha256`` holds the SHA-256 of every
    network's arrays (:func:`weights_digest`), ``shipped_by`` the command.
    Returns the provenance written.
    """
    start = Path(start)
    base = load_networks(start)
    networks = dict(base.networks)
    provenance: dict[str, Any] = json.loads(json.dumps(base.provenance))
    provenance.setdefault("data", {})
    provenance.setdefault("metrics", {})
    provenance["labels"] = {str(n): FIRST_LABELS for n in networks}
    provenance["policy_iteration"] = {}
    for n, chain in sorted(chains.items()):
        files = [Path(f) for f in chain]
        if not files:
            raise RoundsError(f"no round files given for {n} players")
        rounds = []
        for path in files:
            made = load_networks(path)
            if str(n) not in made.provenance.get("data", {}):
                raise RoundsError(f"{path} is not a round of policy iteration for {n} players "
                                  "(its provenance has no label files for them)")  # fmt: skip
            rounds.append({**made.provenance, "file": path.name, "sha256": sha256(path)})
        networks[n] = load_networks(files[-1]).for_players(n)
        data = list(provenance["data"].get(str(n), []))
        data += [d for r in rounds for d in r["data"][str(n)] if d not in data]
        provenance["data"][str(n)] = data
        provenance["metrics"][str(n)] = rounds[-1]["metrics"][str(n)]
        provenance["labels"][str(n)] = (
            f"{FIRST_LABELS}; then {len(files)} round(s) of policy iteration, each trained on "
            "from the last on positions labelled by play-outs of value with the last round's "
            "network"
        )
        provenance["policy_iteration"][str(n)] = {"start_sha256": sha256(start), "rounds": rounds}
    provenance["weights_sha256"] = {str(n): weights_digest(net) for n, net in networks.items()}
    provenance["shipped_by"] = command
    save_networks(to, networks, provenance)
    return provenance


def load() -> float:
    """The one-minute load average (0 where the system has none)."""
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return 0.0
