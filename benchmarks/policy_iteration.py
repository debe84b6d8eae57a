"""Policy iteration for the learned evaluator: label by ``value``'s own play, train, play.

    python benchmarks/policy_iteration.py --players 2 3 4 --rounds 3 \
        --folder /tmp/pi --out data/policy-iteration.json

Round ``r`` for ``n`` players starts from the network of round ``r - 1``
(round 0: the weights the tools play with, ``PINASTATS_NETWORK`` or the
shipped file):

1. **Label.** ``value`` self-play games, Happy Hour off and on, each kept turn
   start replaced half the time by a random way the mover's turn can end
   (the positions ``value`` weighs), every position played out ``--playouts``
   times by ``value`` itself in every seat with round ``r - 1``'s network
   (:func:`~pinastats.value.data.make_positions`, ``policy="value"``; run in
   a child process whose ``PINASTATS_NETWORK`` names that network). Each
   setting is split in ``--parts`` runs of their own seeds, so that the
   play-outs' common random numbers are not one set of streams for all.
2. **Train.** The network of round ``r - 1`` trained further on those labels
   (:func:`~pinastats.value.train.fit` with ``init=``: a warm start, same
   standardisation), a tenth of the games held out to stop it.
3. **Play.** Round ``r`` against round ``r - 1`` (one seat against ``n - 1``
   of the previous network, the first player drawn each game;
   :class:`~pinastats.agents.weights.NetworkAgent` seats both in one game),
   and each against ``strategic`` in the same seat with the same seeds,
   ``--games`` games for each Happy Hour setting.

It stops for a player count when a round's head-to-head share over both
settings is less than one point above the fair share ``1/n``. The networks
(with their provenance: command, seed, data digests, metrics) stay in
``--folder``; every figure, with the seeds and the load average, goes to
``--out``. The label files are kept, so a run that stops is resumed.

Other steps:

    python benchmarks/policy_iteration.py table      # --out's rounds as docs/value.md shows them
    python benchmarks/policy_iteration.py match --players 2 --networks NEW.npz OLD.npz
    python benchmarks/policy_iteration.py exact --networks in-use ROUND.npz ...
    python benchmarks/policy_iteration.py ship --use 2=ROUND-1.npz,ROUND-2.npz
    python benchmarks/policy_iteration.py boards --games 200 --networks NET.npz ...

``match`` plays two weights files as a round is played; ``exact`` measures
two-player networks against the exact values of the solved boards of
``benchmarks/exact_labels.py``; ``ship`` writes ``data/value-net.npz`` with the
last round of each ``--use`` chain and the provenance of every round;
``boards`` plays ``value`` with each network against ``strategic`` on the
solved boards where ``perfect`` played its duels.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from pinastats.agents.network import load_networks, save_networks, weights_path
from pinastats.agents.weights import NetworkAgent
from pinastats.game.config import GameConfig
from pinastats.game.rules import Rules
from pinastats.simulation import simulate
from pinastats.simulation.stats import wilson_interval
from pinastats.solve.study import read_study
from pinastats.solve.survey import read_survey
from pinastats.value.data import make_positions, read_positions, write_positions
from pinastats.value.exact import decision_accuracy, exact_accuracy, exact_positions, on_boards
from pinastats.value.train import fit

LABEL_SEED = 37_000
"""Labelling seeds: ``LABEL_SEED + 1000 n + 100 r + 10 hh + part``."""
PLAY_SEED = 37_700_000
"""Seeds of the games that judge a round, apart from every labelling seed."""
GAMES = {2: (3600, 1800), 3: (2000, 1000), 4: (1200, 600)}
"""Labelled games per player count, (Happy Hour off, on): about ten minutes on two cores."""


def _load() -> float:
    return round(os.getloadavg()[0], 2)


def _label_files(folder: Path, n: int, r: int, parts: int) -> list[tuple[Path, bool, int]]:
    return [(folder / f"labels-{n}p-r{r}-{'hh' if hh else 'plain'}-{k}.parquet", hh,
             LABEL_SEED + 1000 * n + 100 * r + 10 * hh + k)
            for hh in (False, True) for k in range(parts)]  # fmt: skip


def label(args: argparse.Namespace) -> None:
    """(Child process) label round ``r``'s positions with ``value`` play-outs."""
    n, r = args.players[0], args.round
    off, on = GAMES[n]
    games = {False: max(1, round(off * args.scale)), True: max(1, round(on * args.scale))}
    for path, hh, seed in _label_files(args.folder, n, r, args.parts):
        if path.is_file():
            continue
        config = GameConfig(players=n, rules=Rules(happy_hour=hh))
        start = time.perf_counter()
        command = " ".join([Path(sys.argv[0]).name, *sys.argv[1:]])
        positions = make_positions(
            ["value"] * n, games[hh] // args.parts, seed=seed, config=config, sample=0.5,
            playouts=args.playouts, policy="value", outcomes=0.5, workers=args.workers,
            command=command,
        )  # fmt: skip
        write_positions(path, positions)
        print(f"  {path.name}: {len(positions):,} positions in {time.perf_counter() - start:.0f} s"
              f" (load {_load()})", file=sys.stderr, flush=True)  # fmt: skip


def _share(result: Any, name: str) -> dict[str, Any]:
    row = next(a for a in result.summary()["agent_win_rate"] if a["agent"] == name)
    wins, games = row["wins"], row["seat_games"]
    low, high = wilson_interval(wins, games)
    return {"wins": wins, "games": games, "share": wins / games, "low": low, "high": high}


def _pooled(rows: list[dict[str, Any]]) -> dict[str, Any]:
    wins, games = sum(r["wins"] for r in rows), sum(r["games"] for r in rows)
    low, high = wilson_interval(wins, games)
    return {"wins": wins, "games": games, "share": wins / games, "low": low, "high": high}


def play(new: NetworkAgent, others: list[Any], n: int, games: int, seed: int) -> dict[str, Any]:
    """``new`` in one seat against ``others``, Happy Hour off and on; its shares."""
    out: dict[str, Any] = {}
    for hh in (False, True):
        config = GameConfig(players=n, rules=Rules(happy_hour=hh))
        result = simulate([new, *others], games=games, seed=seed + hh, config=config)
        out["happy_hour" if hh else "plain"] = _share(result, new.name)
    out["both"] = _pooled([out["plain"], out["happy_hour"]])
    return out


def _fmt(s: dict[str, Any]) -> str:
    return f"{100 * s['share']:.1f}% [{100 * s['low']:.1f}, {100 * s['high']:.1f}]"


def run(args: argparse.Namespace) -> None:
    """Every round of every player count, as the module text says."""
    report: dict[str, Any] = {}
    if args.out.is_file():
        report = json.loads(args.out.read_text())
    report["about"] = {
        "command": " ".join(["python", "benchmarks/policy_iteration.py", *sys.argv[1:]]),
        "playouts": args.playouts, "parts": args.parts, "scale": args.scale,
        "games": args.games, "label_seed": LABEL_SEED, "play_seed": PLAY_SEED,
        "labelled_games": {str(n): GAMES[n] for n in args.players},
        "machine": f"{os.cpu_count()} cores",
    }  # fmt: skip
    args.folder.mkdir(parents=True, exist_ok=True)
    start_file = Path(args.start) if args.start else weights_path()
    for n in args.players:
        rounds = report.setdefault(str(n), {"rounds": []})["rounds"]
        prev = start_file
        strategic = ["strategic"] * (n - 1)
        for r in range(1, args.rounds + 1):
            new_file = args.folder / f"round-{r}-{n}p.npz"
            done = next((x for x in rounds if x["round"] == r), None)
            if done is not None:
                prev = new_file
                if done["head_to_head"]["both"]["share"] - 1 / n < 0.01:
                    break
                continue
            t0 = time.perf_counter()
            env = {**os.environ, "PINASTATS_NETWORK": str(prev)}
            child = [sys.executable, __file__, "label", "--players", str(n), "--round", str(r),
                     "--folder", str(args.folder), "--playouts", str(args.playouts),
                     "--parts", str(args.parts), "--scale", str(args.scale)]  # fmt: skip
            print(f"{n}p round {r}: labelling with {prev.name}", file=sys.stderr, flush=True)
            subprocess.run(child, env=env, check=True)
            labelled = time.perf_counter() - t0
            files = [p for p, _, _ in _label_files(args.folder, n, r, args.parts)]
            parts = [read_positions(p) for p in files]
            before = load_networks(prev)
            t1 = time.perf_counter()
            trained = fit(parts, init=before.for_players(n), seed=r, stream=sys.stderr)
            trained_s = time.perf_counter() - t1
            networks = {**before.networks, n: trained.network}
            provenance = {
                "command": report["about"]["command"], "seed": r, "round": r, "players": n,
                "init": {"file": prev.name, "sha256": _sha256(prev)},
                "labels": f"{args.playouts} value play-outs (policy iteration round {r})",
                "data": {str(n): [{"file": p.name, "digest": q.provenance.get("digest"),
                                   "positions": len(q)}
                                  for p, q in zip(files, parts, strict=True)]},
                "metrics": {str(n): trained.metrics},
                "others": f"the networks of other player counts are {prev.name}'s",
            }  # fmt: skip
            save_networks(new_file, networks, provenance)
            new, old = NetworkAgent(new_file, f"round {r}"), NetworkAgent(prev, f"round {r - 1}")
            t2 = time.perf_counter()
            seed = PLAY_SEED + 10_000 * n + 100 * r
            row: dict[str, Any] = {
                "round": r, "network": new_file.name, "positions": sum(len(p) for p in parts),
                "train": trained.metrics,
                "head_to_head": play(new, [old] * (n - 1), n, args.games, seed),
                "vs_strategic": play(new, strategic, n, args.games, seed + 10),
                "previous_vs_strategic": play(old, strategic, n, args.games, seed + 10),
            }  # fmt: skip
            row["seconds"] = {"label": round(labelled), "train": round(trained_s),
                              "play": round(time.perf_counter() - t2)}  # fmt: skip
            row["load"] = _load()
            rounds.append(row)
            args.out.write_text(json.dumps(report, indent=1) + "\n")
            h = row["head_to_head"]["both"]
            print(
                f"{n}p round {r}: vs round {r - 1} {_fmt(h)} (fair {100 / n:.1f}%); vs strategic "
                f"{_fmt(row['vs_strategic']['both'])} (round {r - 1}: "
                f"{_fmt(row['previous_vs_strategic']['both'])})",
                file=sys.stderr,
                flush=True,
            )
            prev = new_file
            if h["share"] - 1 / n < 0.01:
                break
    args.out.write_text(json.dumps(report, indent=1) + "\n")


TEST_BOARDS = (16, 17, 18, 19, 76, 77, 78, 79)
"""``benchmarks/exact_labels.py``'s test boards: no network was fitted or stopped on them."""
DECISION_BOARDS = (76, 77, 78, 79)


def exact(args: argparse.Namespace) -> None:
    """Two players: each of ``--networks`` against the exact values of boards it never saw.

    The test positions and the choices (100 turn starts on each of boards
    76-79, seed 37) of ``benchmarks/exact_labels.py``, so that its table and
    this one are of the same positions.
    """
    log, labels = Path("data/perfect/boards.jsonl"), Path("data/perfect/labels")
    held = on_boards(exact_positions(log, range(80), labels=labels), TEST_BOARDS)
    paths: list[Path | None] = [None if p == "in-use" else Path(p) for p in args.networks]
    rows: list[dict[str, Any]] = [
        {"network": str(p or "in use"), "test": exact_accuracy(held, p)} for p in paths
    ]
    choices = decision_accuracy(log, DECISION_BOARDS, labels=labels, paths=paths,
                                per_board=100, seed=37)  # fmt: skip
    for row, choice in zip(rows, choices.to_dict("records"), strict=True):
        row["decisions"] = choice
    out = {"command": " ".join(["python", "benchmarks/policy_iteration.py", *sys.argv[1:]]),
           "test_boards": list(TEST_BOARDS), "test_positions": len(held),
           "test_digest": held.digest(), "decision_boards": list(DECISION_BOARDS),
           "networks": rows, "load": _load()}  # fmt: skip
    args.exact_out.write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps(rows, indent=1))


def match(args: argparse.Namespace) -> None:
    """``--networks NEW OLD``: NEW in one seat against OLD (seed ``PLAY_SEED + 90,000``)."""
    n = args.players[0]
    new_path, old_path = (Path(p) for p in args.networks)
    new, old = NetworkAgent(new_path, new_path.stem), NetworkAgent(old_path, old_path.stem)
    result = play(new, [old] * (n - 1), n, args.games, PLAY_SEED + 90_000)
    print(json.dumps({"players": n, "new": new_path.name, "old": old_path.name,
                      "seed": PLAY_SEED + 90_000, **result}, indent=1))  # fmt: skip


BOARDS_SEED = 37_800_000
"""Seeds of the games of ``boards`` (game ``g`` of board ``b``: ``BOARDS_SEED + 1000 b + g``)."""


def boards(args: argparse.Namespace) -> None:
    """``value`` with each of ``--networks`` against ``strategic`` on the studied solved boards.

    The boards on which ``perfect`` played its duels against ``strategic``
    (``data/perfect/boards.jsonl``, seed 36): ``--games`` games a board, seats
    swapped every other game, the same games for every network. Beside
    ``perfect``'s score over its duels there (``data/perfect-play.json``).
    """
    from pinastats.game.config import GameConfig as Config
    from pinastats.game.game import Game
    from pinastats.simulation.play import play_game

    rows = read_survey("data/perfect/boards.jsonl").to_dict("records")
    studied = [r for r in rows if read_study(r["study"]).duels.get("strategic")]
    out: dict[str, Any] = {"boards": [r["board"] for r in studied], "games_a_board": args.games,
                           "seed": BOARDS_SEED, "networks": {}}  # fmt: skip
    for name in args.networks:
        agent = NetworkAgent(Path(name))
        score = 0.0
        for r in studied:
            for g in range(args.games):
                seat = g % 2
                seats: list[Any] = [agent, "strategic"] if seat == 0 else ["strategic", agent]
                game = Game.new(config=Config(players=2), seed=int(r["seed"]))
                play_game(game, seats, seed=BOARDS_SEED + 1000 * int(r["board"]) + g)
                winner = game.winner
                score += 0.5 if winner is None else float(winner == seat)
        games = len(studied) * args.games
        low, high = wilson_interval(score, games)
        out["networks"][Path(name).name] = {"share": score / games, "low": low, "high": high,
                                            "games": games}  # fmt: skip
        print(f"{Path(name).name}: {_fmt(out['networks'][Path(name).name])} over {games} games "
              f"(load {_load()})", flush=True)  # fmt: skip
    perfect = json.loads(Path("data/perfect-play.json").read_text())["head_to_head"]
    out["perfect"] = next(h for h in perfect if h["opponent"] == "strategic")
    out["command"] = " ".join(["python", "benchmarks/policy_iteration.py", *sys.argv[1:]])
    args.exact_out.write_text(json.dumps(out, indent=1) + "\n")


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def ship(args: argparse.Namespace) -> None:
    """Write ``--to``: the start weights, with each ``--use N=ROUND1,ROUND2,...`` network instead.

    The provenance keeps the start file's (its ``pinastats train`` command, data
    and metrics) and adds, for each player count replaced, every round of the
    chain (its command, seed, label files and digests, the weights' SHA-256),
    the label files to its data, the last round's metrics, and what each
    network learned from (``labels``).
    """
    start = Path(args.start) if args.start else weights_path()
    base = load_networks(start)
    networks = dict(base.networks)
    provenance = json.loads(json.dumps(base.provenance))
    first = "strategic play-outs, 64 a position (pinastats value-data rounds 1-2)"
    provenance["labels"] = {str(n): first for n in networks}
    provenance["policy_iteration"] = {}
    for item in args.use:
        count, _, files = item.partition("=")
        n, chain = int(count), [Path(f) for f in files.split(",")]
        rounds = []
        for path in chain:
            made = load_networks(path)
            rounds.append({**made.provenance, "file": path.name, "sha256": _sha256(path)})
        networks[n] = load_networks(chain[-1]).for_players(n)
        provenance["data"][str(n)] += [d for r in rounds for d in r["data"][str(n)]]
        provenance["metrics"][str(n)] = rounds[-1]["metrics"][str(n)]
        provenance["labels"][str(n)] = (
            f"{first}; then {len(chain)} round(s) of policy iteration, each trained on from the "
            "last on positions labelled by 32 play-outs of value with the last round's network"
        )
        provenance["policy_iteration"][str(n)] = {"start_sha256": _sha256(start), "rounds": rounds}
    provenance["shipped_by"] = " ".join(["python", "benchmarks/policy_iteration.py", *sys.argv[1:]])
    save_networks(args.to, networks, provenance)
    print(f"wrote {args.to}: " + json.dumps(provenance["labels"], indent=1))


def table(args: argparse.Namespace) -> None:
    """Print the rounds of ``--out`` as the Markdown table of ``docs/value.md``."""
    report = json.loads(args.out.read_text())
    print(
        "| players | round | positions | against the round before: Happy Hour off | on "
        "| both (fair share) | against `strategic` | the round before, same games |"
    )
    print("|---:|---:|---:|---|---|---|---|---|")
    for n in sorted(k for k in report if k.isdigit()):
        for row in report[n]["rounds"]:
            h, s, p = row["head_to_head"], row["vs_strategic"], row["previous_vs_strategic"]
            print(f"| {n} | {row['round']} | {row['positions']:,} | {_fmt(h['plain'])} "
                  f"| {_fmt(h['happy_hour'])} | {_fmt(h['both'])} ({100 / int(n):.1f}%) "
                  f"| {_fmt(s['both'])} | {_fmt(p['both'])} |")  # fmt: skip


STEPS = {"run": run, "label": label, "table": table, "exact": exact, "ship": ship,
         "match": match, "boards": boards}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument(
        "step",
        nargs="?",
        default="run",
        choices=tuple(STEPS),
    )
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--rounds", type=int, default=3, help="at most this many rounds")
    parser.add_argument("--round", type=int, default=1, help="(label) the round to label")
    parser.add_argument(
        "--folder", type=Path, default=Path("policy-iteration"), help="labels and networks"
    )
    parser.add_argument("--out", type=Path, default=Path("data/policy-iteration.json"))
    parser.add_argument("--start", default="", help="round 0's weights (default: the tools')")
    parser.add_argument("--playouts", type=int, default=32, help="value play-outs a label")
    parser.add_argument("--parts", type=int, default=2, help="runs (seeds) per setting")
    parser.add_argument("--scale", type=float, default=1.0, help="times the labelled games")
    parser.add_argument("--games", type=int, default=2000, help="games per setting and match")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--use", nargs="*", default=[], help="(ship) N=ROUND1.npz,ROUND2.npz")
    parser.add_argument("--to", type=Path, default=Path("data/value-net.npz"), help="(ship)")
    parser.add_argument(
        "--networks", nargs="*", default=["in-use"], help="(exact) weights files, or in-use"
    )
    parser.add_argument("--exact-out", type=Path, default=Path("policy-iteration-exact.json"),
                        help="(exact, boards) where their figures go")  # fmt: skip
    args = parser.parse_args()
    STEPS[args.step](args)


if __name__ == "__main__":
    main()
