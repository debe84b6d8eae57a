"""A ladder as one JSON-ready document (what ``pinastats ladder --format json`` prints).

Fields: ``schema``; ``command``, ``seed``, ``started``/``finished`` (UTC, ISO 8601),
``seconds`` (wall time of the games), ``workers``, ``cpu_count``,
``load_average`` (``start``/``end``: the 1, 5, 15-minute load averages;
``during``: the 1-minute one sampled about once a minute), ``version``;
``config`` (players, starting scores, Happy Hour); ``model`` (anchor, prior, how
draws count, the interval's method, the Elo scale); ``ratings`` (one row per
agent, strongest first: ``rank``, ``agent``, ``elo``, ``elo_low``, ``elo_high``,
``strength`` (log-odds), ``se``, ``games``, ``wins``, ``score``); ``pairs`` (one
row per pair that played: ``a``, ``b``, ``games``, ``a_wins``, ``b_wins``,
``draws``, ``a_score`` with its Wilson ``a_score_low``/``a_score_high``,
``fitted_a_score`` (the model's), ``a_first``, ``mover_wins``, ``seconds``);
``games`` (all played).
"""

from __future__ import annotations

import json
import math
from importlib.resources import files
from pathlib import Path
from typing import Any, TypedDict, Unpack

from pinastats import __version__
from pinastats.errors import MissingFileError, PinastatsError
from pinastats.game.config import GameConfig
from pinastats.ratings.bradley_terry import BradleyTerryFit
from pinastats.ratings.round_robin import PairResult, RoundRobin

SCHEMA = "pinastats-ladder/1"


class RunInfo(TypedDict, total=False):
    """How a ladder run went, as its document records it (each field may be left out)."""

    command: str | None
    started: str | None
    finished: str | None
    workers: int | None
    cpu_count: int | None
    load_start: tuple[float, float, float] | None
    load_end: tuple[float, float, float] | None


def data_path() -> Path:
    """The shipped ladder, ``data/strength-ladder.json`` (installed as ``pinastats.data``)."""
    return Path(str(files("pinastats.data") / "strength-ladder.json"))


def strength_ladder(path: str | Path | None = None) -> dict[str, Any]:
    """The ladder document at ``path`` (default: the shipped one), checked to have ratings.

    >>> [row["agent"] for row in strength_ladder()["ratings"]][:2]
    ['coach', 'value']
    """
    source = data_path() if path is None else Path(path)
    try:
        document = json.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MissingFileError(f"{source}: no strength-ladder file", str(source)) from None
    except json.JSONDecodeError as exc:
        raise PinastatsError(f"{source}: not a strength-ladder file ({exc})") from None
    if not isinstance(document, dict) or document.get("schema") != SCHEMA:
        raise PinastatsError(f"{source}: not a strength-ladder file (schema {SCHEMA!r} expected)")
    missing = {"ratings", "pairs", "model", "seed", "command"} - set(document)
    if missing:
        raise PinastatsError(f"{source}: a ladder without {sorted(missing)}")
    return document


def _number(x: Any) -> Any:
    """A JSON number: whole ones as ints, NaN as None, else 4 decimals (6 digits below 1)."""
    if isinstance(x, bool):
        return x
    if hasattr(x, "item"):
        x = x.item()
    if isinstance(x, float):
        if math.isnan(x):
            return None
        if x.is_integer() and abs(x) < 2**53:
            return int(x)
        return round(x, 4) if abs(x) >= 1 else float(f"{x:.6g}")  # p-values keep their digits
    return x


def games_document(
    result: RoundRobin,
    *,
    config: GameConfig,
    **run: Unpack[RunInfo],
) -> dict[str, Any]:
    """The document without ratings: the run and its games (no ``fitted_a_score``)."""
    scores = config.starting_scores
    load_start, load_end = run.get("load_start"), run.get("load_end")
    return {
        "schema": SCHEMA,
        "command": run.get("command"),
        "seed": result.seed,
        "agents": list(result.names),
        "started": run.get("started"),
        "finished": run.get("finished"),
        "seconds": round(result.seconds, 1),
        "workers": run.get("workers"),
        "cpu_count": run.get("cpu_count"),
        "load_average": {
            "start": None if load_start is None else [round(x, 2) for x in load_start],
            "end": None if load_end is None else [round(x, 2) for x in load_end],
            "during": list(result.load_samples),
        },
        "version": __version__,
        "config": {
            "players": config.players,
            "starting_scores": [int(x) for x in config.start_scores]
            if scores is None
            else list(scores),
            "happy_hour": bool(config.rules.happy_hour),
        },
        "pairs": [
            {k: _number(v) for k, v in row.items()} for row in result.table().to_dict("records")
        ],
        "games": int(sum(p.games for p in result.pairs)),
    }


def round_robin_from(document: dict[str, Any]) -> tuple[RoundRobin, RunInfo]:
    """The games of a saved document, and its run's details (for :func:`ladder_document`)."""
    if document.get("schema") != SCHEMA:
        raise ValueError(f"schema {document.get('schema')!r}, expected {SCHEMA!r}")
    pairs = tuple(_pair(p) for p in document["pairs"])
    load = document.get("load_average") or {}
    result = RoundRobin(
        tuple(document["agents"]),
        pairs,
        int(document["seed"]),
        float(document["seconds"]),
        tuple(load.get("during") or ()),
    )
    info: RunInfo = {
        "command": document.get("command"),
        "started": document.get("started"),
        "finished": document.get("finished"),
        "workers": document.get("workers"),
        "cpu_count": document.get("cpu_count"),
        "load_start": None if load.get("start") is None else tuple(load["start"]),
        "load_end": None if load.get("end") is None else tuple(load["end"]),
    }
    return result, info


def _pair(p: dict[str, Any]) -> PairResult:
    return PairResult(
        a=str(p["a"]),
        b=str(p["b"]),
        games=int(p["games"]),
        a_wins=int(p["a_wins"]),
        b_wins=int(p["b_wins"]),
        draws=int(p["draws"]),
        a_first=int(p["a_first"]),
        mover_wins=int(p["mover_wins"]),
        seconds=float(p["seconds"]),
    )


def ladder_document(
    result: RoundRobin,
    fit: BradleyTerryFit,
    *,
    config: GameConfig,
    **run: Unpack[RunInfo],
) -> dict[str, Any]:
    """The ladder's document (module docstring) from its games and their fit."""
    ratings = fit.ratings()
    rows = []
    for rank, row in enumerate(ratings.to_dict("records"), start=1):
        rows.append({"rank": rank} | {k: _number(v) for k, v in row.items()})
    document = games_document(result, config=config, **run)
    for pair in document["pairs"]:
        pair["fitted_a_score"] = _number(fit.win_probability(pair["a"], pair["b"]))
    games = document.pop("games")
    document["model"] = {
        "name": "Bradley-Terry, maximum likelihood",
        "anchor": fit.anchor,
        "anchor_meaning": "rated 0" if fit.anchor else "the ratings average 0",
        "prior": fit.prior,
        "draws": "half a win to each side",
        "interval": "95% Wald: estimate +- 1.96 standard errors from the observed Fisher "
        "information, relative to the anchor",
        "scale": "elo = 400 * log10(odds of winning); strength = natural log of the odds",
    }
    deviance, df, p_value = fit.goodness_of_fit()
    document["model"]["fit"] = {
        "deviance": _number(deviance),
        "df": df,
        "p_value": _number(p_value),
        "meaning": "deviance of the pairs' results from the model (chi-squared with df "
        "degrees of freedom when it holds): a small p-value says the ladder is not one scale",
    }
    document["ratings"] = rows
    document["pairs"] = document.pop("pairs")
    document["games"] = games
    return document


def ratings_markdown(document: dict[str, Any]) -> str:
    """The ratings of a ladder document as a Markdown table (strongest first)."""
    lines = [
        "| # | agent | Elo | 95% interval | games | score |",
        "|--:|---|--:|--:|--:|--:|",
    ]
    anchor = document["model"]["anchor"]
    for r in document["ratings"]:
        interval = (
            "(anchor)" if r["agent"] == anchor else f"{r['elo_low']:+.0f} to {r['elo_high']:+.0f}"
        )
        lines.append(
            f"| {r['rank']} | `{r['agent']}` | {r['elo']:+.0f} | {interval} | {r['games']:,} "
            f"| {100 * r['score']:.1f}% |"
        )
    return "\n".join(lines)


def pairs_markdown(document: dict[str, Any]) -> str:
    """The pairs of a ladder document as a Markdown table, with the model's fitted score."""
    lines = [
        "| a | b | games | a–b (draws) | a's score, 95% interval | fitted | time |",
        "|---|---|--:|--:|--:|--:|--:|",
    ]
    for p in document["pairs"]:
        draws = f" ({p['draws']})" if p["draws"] else ""
        fitted = "" if "fitted_a_score" not in p else f"{100 * p['fitted_a_score']:.1f}%"
        lines.append(
            f"| `{p['a']}` | `{p['b']}` | {p['games']:,} | {p['a_wins']}–{p['b_wins']}{draws} "
            f"| {100 * p['a_score']:.1f}% ({100 * p['a_score_low']:.1f}–"
            f"{100 * p['a_score_high']:.1f}) | {fitted} | {p['seconds']:.0f} s |"
        )
    return "\n".join(lines)
