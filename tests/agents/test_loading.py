"""One's own agent by reference: FILE.py:Class and module:Class, and the errors."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from pinastats.agents import make_agent
from pinastats.agents.loading import AgentLoadError, load_agent, resolve_agent
from pinastats.errors import PinastatsError
from pinastats.simulation import simulate

ROOT = Path(__file__).resolve().parents[2]
CORNER = f"{ROOT / 'examples' / 'corner_agent.py'}:CornerAgent"

AGENT_FILE = """
from pinastats.agents import PythonAgent

class FirstCell(PythonAgent):
    name = "first-cell"

    def choose_placement(self, game, dice, rng):
        return min(game.legal_cells(dice))

def factory():
    return FirstCell()

NOT_AN_AGENT = 3
"""


@pytest.fixture
def agent_file(tmp_path: Path) -> Path:
    path = tmp_path / "my_agents.py"
    path.write_text(AGENT_FILE)
    return path


def test_file_reference_loads_the_class(agent_file: Path) -> None:
    agent = load_agent(f"{agent_file}:FirstCell")
    assert agent.name == "first-cell"
    assert resolve_agent(f"{agent_file}:factory").name == "first-cell"


def test_a_loaded_agent_plays_and_pickles(agent_file: Path) -> None:
    agent = load_agent(f"{agent_file}:FirstCell")
    again = pickle.loads(pickle.dumps(agent))
    assert again.name == agent.name
    result = simulate([agent, "random"], 20, seed=3, workers=1)
    same = simulate([f"{agent_file}:FirstCell", "random"], 20, seed=3, workers=1)
    assert result.games.equals(same.games)
    assert result.agents[0].name == "first-cell"


def test_module_reference(monkeypatch: pytest.MonkeyPatch, agent_file: Path) -> None:
    monkeypatch.syspath_prepend(str(agent_file.parent))
    assert load_agent("my_agents:FirstCell").name == "first-cell"


def test_the_example_agent_by_reference() -> None:
    assert resolve_agent(CORNER).name == "corner"


@pytest.mark.parametrize(
    ("reference", "words"),
    [
        ("nowhere/agent.py:Agent", "not found"),
        ("{file}:FirstCel", "did you mean 'FirstCell'"),
        ("{file}:NOT_AN_AGENT", "is not an agent"),
        ("no_such_module_xyz:Agent", "cannot be imported"),
        ("{file}:", "FILE.py:Class or module:Class"),
        ("a b:c", "FILE.py:Class or module:Class"),
    ],
)
def test_bad_references_are_named(agent_file: Path, reference: str, words: str) -> None:
    with pytest.raises(AgentLoadError, match=words.replace("(", r"\(")) as info:
        resolve_agent(reference.format(file=agent_file))
    assert isinstance(info.value, PinastatsError)


def test_a_file_that_fails_to_import(tmp_path: Path) -> None:
    path = tmp_path / "broken.py"
    path.write_text("raise RuntimeError('boom')\n")
    with pytest.raises(AgentLoadError, match="failed to import: RuntimeError: boom"):
        load_agent(f"{path}:Agent")


def test_built_in_names_still_resolve() -> None:
    assert resolve_agent("ev") == make_agent("ev")


def test_the_cli_plays_an_agent_by_reference(cli, agent_file: Path) -> None:  # type: ignore[no-untyped-def]
    result = cli("simulate", "--agents", f"{agent_file}:FirstCell,random", "--games", "30",
                 "--seed", "2", "--workers", "1", "--format", "json", "--quiet")  # fmt: skip
    assert result.code == 0, result.err
    import json

    data = json.loads(result.out)
    assert data["agents"] == ["first-cell", "random"]
    assert sum(data["wins"]) + data["draws"] == 30


def test_the_cli_names_a_bad_reference(cli) -> None:  # type: ignore[no-untyped-def]
    line = cli("simulate", "--agents", "nowhere.py:X,ev", "--games", "3").one_error_line()
    assert "'nowhere.py' not found" in line
