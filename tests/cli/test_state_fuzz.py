"""Random and mutated state files, states and agent names: a clear error or success, never a bug.

Property-based (hypothesis). The state files start from the example, the side-B example of
``docs/state-format.md`` and positions saved from simulated games; a mutation replaces,
removes or nests a value anywhere in them, or cuts or garbles the text. Each file goes
through ``pinastats advise --state FILE`` in process and through the position loader; a
game's arrays with one number changed through ``Game.from_state``; the agent names through
``pinastats simulate --agents X,ev --games 2``. Every run must end in success or in exit
status 2 with exactly one ``pinastats: error:`` line; the loaders must return a game (a
loaded position saves and loads back the same) or raise a ``PinastatsError``.
No example has a deadline on wall time (a loaded machine would fail a sound example): a hang
fails the test at the suite's per-test timeout (pytest-timeout, ``timeout`` in pyproject.toml);
in CI the examples are fixed (the ``pinastats`` profile of tests/conftest.py).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pinastats._engine import copy_state
from pinastats.errors import PinastatsError
from pinastats.game.game import Game
from pinastats.game.position import OPTIONAL, REQUIRED, game_from_position, position_of
from pinastats.game.rules import Rules
from tests.game.scenarios import mid_game

ROOT = Path(__file__).resolve().parents[2]


def fuzz(examples: int) -> settings:
    """A property's settings: ``examples`` examples, no deadline, the rest the profile's."""
    return settings(
        settings.get_profile("pinastats"),
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


Cli = Callable[..., Any]  # the ``cli`` fixture of tests/conftest.py


@cache
def seeds() -> list[dict[str, Any]]:
    """Positions to mutate: the two examples of the docs and positions of simulated games."""
    doc = (ROOT / "docs" / "state-format.md").read_text(encoding="utf-8")
    found = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", doc, re.DOTALL)]
    for players, happy_hour, turns in [(2, False, 9), (3, True, 14), (4, False, 20), (4, True, 7)]:
        found.append(position_of(mid_game(players, players + turns, turns, happy_hour)))
    return found


SCALARS: st.SearchStrategy[Any] = st.one_of(
    st.sampled_from([None, True, False, 0, 1, -1, 2, 3, 4, 5, 6, 7, 19, 20, 21, 2**31, 2**53,
                     2**63 - 1, 2**63, -(2**63), 10**30, -(10**30), 0.5, 1e30, -0.0, "", "A", "B",
                     "AB", "score", "tokens", "standard", "grid-5x5", "full-house", "ful house",
                     "x/none.json", "/", ".", "\x00"]),
    st.builds(list),  # a fresh empty list or dict each draw: a sampled one would be shared, and
    st.builds(dict),  # a mutation adding to it would change it for every later example
    st.integers(),
    st.floats(),
    st.text(max_size=12),
)  # fmt: skip
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=12,
)
FIELDS = list(REQUIRED + OPTIONAL)
KINDS = ["replace", "remove", "nest", "add", "deep"]
"""What a mutation does to the value it picks."""
DEEP = "__deep__"
"""A placeholder value replaced in the file's text by a deep nest of brackets."""


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path (keys and indices) of every value inside ``value``, ``value`` itself first."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths(item, (*prefix, index))
    return found


def mutate(data: st.DataObject, position: dict[str, Any]) -> dict[str, Any] | list[Any]:
    """``position`` (a fresh copy) with a few values replaced, removed, nested or added."""
    out: Any = json.loads(json.dumps(position))
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        every = paths(out)
        fields = [p for p in every if len(p) == 1] or every  # a field as often as anything
        where = data.draw(st.sampled_from(fields) | st.sampled_from(every), label="path")
        kind = data.draw(st.sampled_from(KINDS), label="kind")
        if not where:
            if kind == "add" and isinstance(out, dict):
                key = data.draw(st.sampled_from(FIELDS) | st.text(max_size=12), label="key")
                out[key] = data.draw(VALUES)
            elif kind == "replace":
                out = data.draw(VALUES, label="whole")
            continue
        parent = out
        for step in where[:-1]:
            parent = parent[step]
        last = where[-1]
        if kind == "remove":
            del parent[last]
        elif kind == "nest":
            for _ in range(data.draw(st.integers(1, 6), label="levels")):
                parent[last] = [parent[last]]
        elif kind == "deep":
            parent[last] = DEEP
        elif kind == "add" and isinstance(parent[last], dict | list):
            added = data.draw(VALUES, label="added")
            if isinstance(parent[last], dict):
                parent[last][data.draw(st.text(max_size=8), label="key")] = added
            else:
                parent[last].append(added)
        else:
            parent[last] = data.draw(VALUES, label="value")
    return out  # type: ignore[no-any-return]


def state_text(data: st.DataObject) -> str:
    """The text of a mutated state file: a seed, mutated, maybe deeply nested, cut or garbled."""
    position = data.draw(st.sampled_from(seeds()), label="seed")
    text = json.dumps(mutate(data, position))
    depth = data.draw(st.sampled_from([3, 60, 3000, 200_000]), label="depth")
    text = text.replace(json.dumps(DEEP), "[" * depth + "0" + "]" * depth)
    edit = data.draw(st.sampled_from(["none", "none", "cut", "insert"]), label="edit")
    if edit != "none" and text:
        at = data.draw(st.integers(0, len(text) - 1), label="at")
        junk = data.draw(st.text(max_size=4), label="junk")
        text = text[:at] if edit == "cut" else text[:at] + junk + text[at:]
    return text


def assert_clean(code: int, out: str, err: str) -> None:
    """Success, or exit status 2 with one ``pinastats: error:`` line and nothing else."""
    assert "Traceback" not in err, err
    assert code in (0, 2), err
    if code == 2:
        assert out == ""
        lines = err.splitlines()
        assert len(lines) == 1, err
        assert lines[0].startswith("pinastats: error: "), err


@fuzz(60)
@given(data=st.data())
def test_advise_on_a_mutated_state_file_succeeds_or_says_what_is_wrong(
    tmp_path: Path, cli: Cli, data: st.DataObject
) -> None:
    path = tmp_path / "state.json"
    path.write_text(state_text(data), encoding="utf-8")
    options = data.draw(st.sampled_from([[], ["--happy-hour"]]), label="options")
    rolls_left = data.draw(st.sampled_from(["0", "1"]), label="rolls left")
    dice = ["--dice", "5", "5", "5", "3", "3"]
    result = cli("advise", "--state", str(path), *dice, "--rolls-left", rolls_left, *options)
    assert_clean(result.code, result.out, result.err)


@fuzz(150)
@given(data=st.data(), happy_hour=st.booleans())
def test_the_loader_returns_a_game_or_a_pinastats_error(
    data: st.DataObject, happy_hour: bool
) -> None:
    position = mutate(data, data.draw(st.sampled_from(seeds()), label="seed"))
    try:
        game = game_from_position(position, rules=Rules(happy_hour=happy_hour))  # type: ignore[arg-type]
    except PinastatsError:
        return
    saved = position_of(game)
    assert position_of(game_from_position(saved, config=game.config)) == saved


RECORDS = [("players", "score"), ("players", "reserve"), ("players", "last_placed"),
           ("status", "turn"), ("status", "to_move"), ("status", "first"), ("status", "trigger"),
           ("status", "winner"), ("status", "reason"), ("status", "placements"), ("spaces", None),
           ("cell_side", None), ("cell_coaster", None)]  # fmt: skip


@cache
def played(seed: int) -> Game:
    """A game some turns in: 2 to 4 players, Happy Hour on for odd seeds."""
    return mid_game(2 + seed % 3, seed, 5 + seed, happy_hour=seed % 2 == 1)


@fuzz(150)
@given(
    at=st.sampled_from(RECORDS),
    value=st.integers(-(2**63), 2**63 - 1),
    index=st.integers(0, 15),
    seed=st.integers(0, 3),
)
def test_from_state_returns_a_game_or_a_pinastats_error(
    at: tuple[str, str | None], value: int, index: int, seed: int
) -> None:
    game = played(seed)
    state = copy_state(game.state)
    array = getattr(state, at[0])
    target = array[at[1]] if at[1] is not None else array.reshape(-1)
    target[index % len(target)] = value
    try:
        loaded = Game.from_state(game.config, state, judge=True)
    except PinastatsError:
        return
    dice = [5, 5, 5, 3, 3]
    assert not loaded.is_over or loaded.legal_cells(dice) == ()
    assert len(loaded.legal_placements(dice)) == len(loaded.legal_cells(dice))
    assert position_of(loaded)["scores"] == list(loaded.scores)


NAMES = ["random", "greedy", "ev", "strategic", "rollout", "coach", "evv", "strategc", "", "x"]
OWN = {"strategic": ["line", "block", "race", "win"],
       "rollout": ["line", "block", "race", "win", "rollouts", "policy"],
       "coach": ["playouts", "policy", "seed", "workers"]}  # fmt: skip
"""The parameters of each agent that takes some; others get any of :data:`JUNK`."""
JUNK = ["lin", "rollout", "", "x y", "line ", "LINE"]
NUMBERS = ["nan", "inf", "-inf", "1e400", "-1e400", "-1", "0", "1", "2", "0.5", "1.5", "-0",
           "1e-9", "abc", "", "ev", "strategic", "random", "1,2", "(", ")", "=", "1_0", "0x10",
           "١"]  # fmt: skip
"""Parameter values: odd numbers and words (no large whole number, which asks for real work)."""


@st.composite
def agent_specs(draw: st.DrawFn) -> str:
    """An agent name, maybe with parameters: real and misspelt names, odd values, or any text."""
    if draw(st.integers(0, 4)) == 0:
        return draw(st.text(max_size=20))
    name = draw(st.sampled_from(NAMES))
    keys = st.sampled_from(OWN.get(name, []) + JUNK)
    pairs = draw(st.lists(st.tuples(keys, st.sampled_from(NUMBERS)), max_size=3))
    if name == "coach" and all(key != "playouts" for key, _ in pairs):
        pairs.append(("playouts", "2"))
    if not pairs and draw(st.booleans()):
        return name
    inside = ",".join(f"{k}={v}" for k, v in pairs)
    return f"{name}({inside}" + draw(st.sampled_from([")", ")", "", "))"]))


@fuzz(100)
@given(spec=agent_specs())
@example(spec="rollout(rollouts=inf)")  # once an OverflowError in make_agent
@example(spec="rollout(rollouts=nan)")  # once a ValueError
@example(spec="rollout(rollouts=1e400)")
def test_simulate_with_any_agent_name_plays_or_says_what_is_wrong(cli: Cli, spec: str) -> None:
    result = cli("simulate", "--agents", f"{spec},ev", "--games", "2", "--seed", "1",
                 "--workers", "1", "--no-progress")  # fmt: skip
    assert_clean(result.code, result.out, result.err)


COMMANDS: dict[str, list[str]] = {
    "optimal-hold": ["--target", "--rolls", "--sticky", "--all", "--dice", "--rolls-left",
                     "--format"],
    "targets": ["--coasters", "--rolls", "--format"],
    "advise": ["--state", "--dice", "--rolls-left", "--objective", "--playouts", "--seed",
               "--players", "--happy-hour", "--format"],
    "simulate": ["--agents", "--games", "--seed", "--players", "--workers", "--chunk-size",
                 "--happy-hour", "--first-seat", "--format", "--no-progress", "--out",
                 "--record"],
}  # fmt: skip
"""Each command's options that a random command line draws from (with junk options too)."""
WORDS = ["0", "1", "2", "3", "5", "-1", "7", "1.5", "nan", "inf", "1e9", "", "x", "full house",
         "yahtzee", "ev", "strategic,ev", "random,ev,ev,ev,ev", "json", "csv", "text", "win",
         "points", "--", "-", "--help", "--games", "5 5 5 3 3"]  # fmt: skip
"""Values of options: small numbers, odd numbers, names, formats and junk (no large count)."""


@st.composite
def command_lines(draw: st.DrawFn, tmp: Path) -> list[str]:
    """A random command line of one command: its options and junk ones, in any order."""
    command = draw(st.sampled_from(sorted(COMMANDS)))
    options = st.sampled_from([*COMMANDS[command], "--nope", "-x"])
    argv = [command]
    for option in draw(st.lists(options, max_size=6)):
        argv.append(option)
        if option in ("--out", "--record"):
            argv.append(str(tmp / draw(st.sampled_from(["a.csv", "b.jsonl", "no/c.csv", ""]))))
        elif option == "--state":
            argv.append(draw(st.sampled_from([str(ROOT / "examples" / "state.json"), "none"])))
        else:
            argv.extend(draw(st.lists(st.sampled_from(WORDS), max_size=5)))
    if command == "simulate" and "--games" not in argv:
        argv += ["--games", "3"]  # a default-sized run is real work, not a check
    return argv


def test_random_command_lines_succeed_or_say_what_is_wrong(tmp_path: Path, cli: Cli) -> None:
    """Any command line of these commands succeeds or fails with one clear line (argparse's own
    usage error included: its message is the ``pinastats: error:`` line, after the usage)."""

    @fuzz(120)
    @given(argv=command_lines(tmp_path))
    def check(argv: list[str]) -> None:
        result = cli(*argv)
        if result.code == 0:
            return
        assert result.code == 2, (argv, result.err)
        assert "Traceback" not in result.err, (argv, result.err)
        errors = [line for line in result.err.splitlines() if line.startswith("pinastats")]
        assert len(errors) == 1, (argv, result.err)
        assert errors[0].startswith("pinastats: error: ") or " error: " in errors[0], result.err

    check()
