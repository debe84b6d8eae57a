"""Any agent from a name: built-in (``"ev"``), one's own by ``FILE.py:Class`` or ``module:Class``.

:func:`resolve_agent` is what :func:`~pinastats.simulation.simulate`, the
command line and the reports call on each seat's agent.

``load_agent("examples/corner_agent.py:CornerAgent")`` imports the file (or the
module ``package.agents`` for ``package.agents:Class``), takes the attribute
after the colon and, if it is a class or a factory, calls it with no arguments.
What comes back must meet :class:`~pinastats.agents.protocol.AgentProtocol`.

A file is imported under a module name of its own (``pinastats_user_<stem>``)
and registered in :data:`sys.modules`, so the agent pickles for process
workers that import the same file.

>>> resolve_agent("ev").name
'ev'
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import inspect
import re
import sys
from pathlib import Path
from types import ModuleType

from pinastats.agents.builtin import make_agent
from pinastats.agents.protocol import AgentProtocol, is_agent
from pinastats.errors import PinastatsError

_SPEC = re.compile(r"^(?P<source>[^:]+\.py|[A-Za-z_][\w.]*):(?P<attr>[A-Za-z_]\w*)$")


class AgentLoadError(PinastatsError):
    """An agent named ``FILE.py:Class`` or ``module:Class`` cannot be loaded."""


def is_agent_reference(text: str) -> bool:
    """Whether ``text`` names an agent by file or module (``x.py:Name``, ``pkg.mod:Name``)."""
    return ":" in text


def _import_file(path: Path) -> ModuleType:
    if not path.is_file():
        raise AgentLoadError(f"agent file {str(path)!r} not found")
    name = "pinastats_user_" + re.sub(r"\W", "_", path.stem)
    cached = sys.modules.get(name)
    if cached is not None and Path(getattr(cached, "__file__", "")) == path.resolve():
        return cached
    spec = importlib.util.spec_from_file_location(name, path.resolve())
    if spec is None or spec.loader is None:  # pragma: no cover - a .py file always has one
        raise AgentLoadError(f"agent file {str(path)!r} cannot be imported")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        del sys.modules[name]
        raise AgentLoadError(
            f"agent file {str(path)!r} failed to import: {type(error).__name__}: {error}"
        ) from error
    return module


def _import_module(name: str) -> ModuleType:
    try:
        return importlib.import_module(name)
    except ImportError as error:
        raise AgentLoadError(f"agent module {name!r} cannot be imported: {error}") from error


def load_agent(reference: str) -> AgentProtocol:
    """The agent named by ``FILE.py:Name`` or ``module:Name`` (a class, factory or object)."""
    match = _SPEC.match(reference.strip())
    if match is None:
        raise AgentLoadError(
            f"agent {reference!r}: name one's own agent as FILE.py:Class or module:Class"
        )
    source, attr = match["source"], match["attr"]
    module = _import_file(Path(source)) if source.endswith(".py") else _import_module(source)
    if not hasattr(module, attr):
        names = [n for n in vars(module) if not n.startswith("_")]
        close = difflib.get_close_matches(attr, names, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise AgentLoadError(f"agent {reference!r}: {source} has no {attr!r}{hint}")
    target = getattr(module, attr)
    if inspect.isclass(target) or (callable(target) and not is_agent(target)):
        try:
            target = target()
        except TypeError as error:
            raise AgentLoadError(
                f"agent {reference!r}: {attr} must be callable with no arguments ({error})"
            ) from error
    if not is_agent(target):
        raise AgentLoadError(
            f"agent {reference!r}: {attr} is not an agent (it needs name, start_turn, "
            "choose_keep, choose_placement and choose_happy_hour)"
        )
    return target


def resolve_agent(spec: str | AgentProtocol) -> AgentProtocol:
    """The agent ``spec`` names: built-in name, ``FILE.py:Class``, ``module:Class`` or an agent.

    >>> resolve_agent("strategic(line=4)").name
    'strategic(line=4)'
    """
    if isinstance(spec, str) and is_agent_reference(spec):
        return load_agent(spec)
    return make_agent(spec)
