"""Shared pieces of the command line: errors, output formats, tables, number formats, positions.

Every command that takes a game position offers ``--state FILE`` and
``--position TEXT`` (:func:`add_position_options`) and reads them with
:func:`load_position`: a state file or a line of the position notation, any
mistake one line naming the file or the option.

Every user error (a :class:`~pinastats.errors.PinastatsError` from the engine,
a :class:`CliError`, a file that cannot be read, or a bad option) ends the same
way: one line on stderr starting ``pinastats: error:`` and exit status 2. One's
own agent raising (:class:`~pinastats.errors.AgentFailedError`) prints the
agent's traceback and a ``pinastats: error:`` line naming the agent and the
decision, exit status 3. Any other exception is a bug: its traceback is
printed, with a line saying so, and the exit status is 1. Ctrl-C and SIGTERM
stop a command the same way (SIGTERM is raised as a ``KeyboardInterrupt``, so
the temporary files are removed): one line ``pinastats: interrupted ...`` and
exit status 128 + the signal number (130 for Ctrl-C, 143 for SIGTERM).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import signal
import sys
import threading
import traceback
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, NoReturn

from pinastats import __version__

# the subcommands' number formats, shared with the reports
from pinastats._format import percent as percent
from pinastats._format import percent_range as percent_range
from pinastats.errors import AgentFailedError, PinastatsError

if TYPE_CHECKING:
    from pinastats.agents.network import ValueNetworks
    from pinastats.agents.protocol import AgentProtocol
    from pinastats.game.catalogue import Catalogue
    from pinastats.game.game import Game
    from pinastats.game.rules import Rules

PROG = "pinastats"
FORMATS = ("table", "json", "csv")
EXIT_USAGE = 2
EXIT_BUG = 1
EXIT_AGENT = 3
EVALUATOR_CHOICES = ("exact", "search", "network", "playouts")
"""The names ``--evaluator`` takes: those of :data:`pinastats.evaluation.EVALUATORS`, written
here so that parsing arguments loads no engine (a test holds the two equal)."""

Handler = Callable[[argparse.Namespace], int | None]


class CliError(Exception):
    """A mistake in what the user asked for (reported on one line, exit status 2)."""


class ArgumentParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose usage errors are one ``pinastats: error:`` line."""

    def error(self, message: str) -> NoReturn:
        """Report a bad command line on one line and exit with status 2."""
        self.exit(EXIT_USAGE, f"{PROG}: error: {message} (see '{self.prog} --help')\n")


def fail(message: str) -> NoReturn:
    """Stop the command with a user error."""
    raise CliError(message)


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    if isinstance(exc, OSError) and exc.filename is not None:
        text = f"{exc.strerror or text}: {exc.filename}"
    return text or type(exc).__name__


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread like Ctrl-C so that the cleanup code runs."""

    signum = signal.SIGTERM

    def __init__(self) -> None:
        super().__init__("interrupted (terminated)")


def _terminate(signum: int, frame: FrameType | None) -> NoReturn:
    raise Terminated


def run_command(args: argparse.Namespace) -> int:
    """Run the handler chosen by the parser, turning user errors into exit status 2."""
    handler: Handler = args.func
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminate) if main else None
    try:
        return _run(handler, args)
    finally:
        if main:
            signal.signal(signal.SIGTERM, previous)


def interrupted(exc: KeyboardInterrupt) -> int:
    """Say that Ctrl-C (or SIGTERM) stopped the command, in one line; its exit status."""
    print(f"{PROG}: {str(exc) or 'interrupted'}", file=sys.stderr, flush=True)
    return 128 + int(getattr(exc, "signum", signal.SIGINT))


def _run(handler: Handler, args: argparse.Namespace) -> int:
    try:
        status = handler(args)
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. `pinastats targets | head`: not an error
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM (Terminated)
        return interrupted(exc)
    except AgentFailedError as exc:  # one's own agent raised: its traceback, then what it was asked
        print(exc.details.rstrip("\n"), file=sys.stderr)
        print(
            f"{PROG}: error: {_one_line(exc)}; the traceback above is the agent's own",
            file=sys.stderr,
        )
        return EXIT_AGENT
    except (CliError, PinastatsError, OSError) as exc:
        print(f"{PROG}: error: {_one_line(exc)}", file=sys.stderr)
        return EXIT_USAGE
    except Exception:  # a bug: show where it is
        traceback.print_exc()
        print(
            f"{PROG}: internal error: this is a bug in pinastats {__version__}, not in what you "
            "asked; please report it with the command line and the traceback above",
            file=sys.stderr,
        )
        return EXIT_BUG
    return status or 0


# ---------------------------------------------------------------- options


def add_format_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--format table|json|csv`` (default ``table``)."""
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="table",
        help="output: a readable table (default), JSON, or CSV",
    )


def _whole_number(text: str, minimum: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < minimum:
        raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
    return value


def positive_int(text: str) -> int:
    """Argparse type: a whole number >= 1."""
    return _whole_number(text, 1)


def non_negative_int(text: str) -> int:
    """Argparse type: a whole number >= 0 (a seed)."""
    return _whole_number(text, 0)


def die(text: str) -> int:
    """Argparse type: one die value (range checked later, with the whole hand)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"dice are whole numbers 1-6, got {text!r}") from None


# ---------------------------------------------------------------- formatting


def dice_text(dice: Sequence[int]) -> str:
    """``(2, 2, 5)`` -> ``'2 2 5'``."""
    return " ".join(str(d) for d in dice)


def fraction_text(value: Fraction | None) -> str:
    """``Fraction(1, 6)`` -> ``'1/6'`` (``''`` when there is no exact value)."""
    if value is None:
        return ""
    return f"{value.numerator}/{value.denominator}"


def render_table(
    header: Sequence[str], rows: Sequence[Sequence[str]], align: str = "", indent: int = 2
) -> str:
    """Plain-text table: a header, a rule, and columns padded to their widths.

    ``align`` has one letter per column, ``l`` or ``r`` (default ``l``).

    >>> print(render_table(["keep", "p"], [["2 2", "27.47%"], ["stop", "9.72%"]], "lr"))
      keep       p
      ----  ------
      2 2   27.47%
      stop   9.72%
    """
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(header)]
    align = align[: len(header)].ljust(len(header), "l")

    def line(cells: Sequence[str]) -> str:
        padded = [
            c.rjust(w) if a == "r" else c.ljust(w)
            for c, w, a in zip(cells, widths, align, strict=True)
        ]
        return (" " * indent + "  ".join(padded)).rstrip()

    out = [line(header), line(["-" * w for w in widths])]
    out.extend(line(r) for r in rows)
    return "\n".join(out)


def json_text(obj: Any, indent: int = 0, width: int = 100) -> str:
    """Indented JSON that keeps short lists and objects on one line.

    >>> print(json_text({"keep": [2, 2], "hands": [{"hand": [1, 2, 2, 4, 5]}]}, width=30))
    {
      "keep": [2, 2],
      "hands": [{"hand": [1, 2, 2, 4, 5]}]
    }
    """
    flat = json.dumps(obj, ensure_ascii=False)
    if not isinstance(obj, dict | list) or not obj or indent + len(flat) <= width:
        return flat
    pad = " " * (indent + 2)
    if isinstance(obj, dict):
        items = [
            f"{pad}{json.dumps(str(k), ensure_ascii=False)}: "
            f"{json_text(v, indent + 2, width).lstrip()}"
            for k, v in obj.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + json_text(v, indent + 2, width).lstrip() for v in obj]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def write_json(obj: Any) -> None:
    """Print ``obj`` as JSON, indented, short lists on one line (UTF-8 names readable)."""
    print(json_text(obj))


def write_csv(columns: Sequence[str], records: Sequence[Mapping[str, Any]]) -> None:
    """Print records as CSV with a header row."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(columns), lineterminator="\n")
    writer.writeheader()
    writer.writerows(records)
    sys.stdout.write(buffer.getvalue())


# ---------------------------------------------------------------- positions

STATE_HELP = "JSON state file of the position (docs/state-format.md)"
POSITION_HELP = 'the position as one line, "pc1 BOARD SEAT ..." (docs/notation.md)'


def add_position_options(parser: argparse.ArgumentParser, *, required: bool = True) -> None:
    """Add ``--state FILE`` and ``--position TEXT``, one of them (``required``) or neither."""
    group = parser.add_mutually_exclusive_group(required=required)
    group.add_argument("--state", metavar="FILE", help=STATE_HELP)
    group.add_argument("--position", metavar="TEXT", help=POSITION_HELP)


def load_position(
    args: argparse.Namespace, *, catalogue: Catalogue | None = None, happy_hour: bool = False
) -> Game:
    """The game of ``--state`` or ``--position``; any problem is one line naming the option.

    ``happy_hour`` turns the Happy Hour variant on whatever the position says.
    """
    if getattr(args, "position", None) is not None:
        return read_notation(args.position, catalogue=catalogue, happy_hour=happy_hour)
    if getattr(args, "state", None) is None:
        fail("give the position: --state FILE or --position TEXT")
    return read_state(args.state, catalogue=catalogue, happy_hour=happy_hour)


def read_notation(
    text: str, *, catalogue: Catalogue | None = None, happy_hour: bool = False
) -> Game:
    """The game of a position line (``--position``); any problem is one line."""
    from pinastats.game.notation import position_data

    try:
        data = position_data(text, catalogue=catalogue)
    except PinastatsError as exc:
        fail(f"--position: {_one_line(exc)}")
    return _position_game(data, "--position", catalogue, None, happy_hour)


def read_state(
    path: str | Path,
    *,
    catalogue: Catalogue | None = None,
    rules: Rules | None = None,
    happy_hour: bool = False,
) -> Game:
    """Read a state file and build its game; any problem is a one-line error naming the file.

    A ``layout`` that names a file is looked up next to the state file first.
    ``rules`` are the rules of a file that gives none; ``happy_hour`` turns the
    Happy Hour variant on whatever the file says.
    """
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except FileNotFoundError:
        fail(f"{path}: no such file")
    except OSError as exc:
        fail(f"{path}: {exc.strerror or exc}")
    except UnicodeDecodeError as exc:
        fail(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})")
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except json.JSONDecodeError as exc:
        fail(f"{path}: not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})")
    except _DuplicateKeyError as exc:
        fail(f"{path}: {exc}")
    except RecursionError:
        fail(f"{path}: not a state file: its lists or objects nest too deeply to read")
    except ValueError as exc:  # a number of more digits than Python converts
        fail(f"{path}: not a state file: {str(exc).split(';')[0]}")
    if isinstance(data, dict) and isinstance(data.get("layout"), str):
        beside = path.parent / data["layout"]
        if beside.is_file():
            data["layout"] = str(beside)
    return _position_game(data, str(path), catalogue, rules, happy_hour)


def _position_game(
    data: Any, where: str, catalogue: Catalogue | None, rules: Rules | None, happy_hour: bool
) -> Game:
    from pinastats.game.catalogue import UnknownCoasterError
    from pinastats.game.position import CatalogueTooSmallError, game_from_position

    if happy_hour and isinstance(data, dict):
        own = data.get("rules")
        if own is None and rules is not None:
            own, rules = rules_options(rules), None
        if own is None or isinstance(own, Mapping):
            data["rules"] = {**(own or {}), "happy_hour": True}
    try:
        return game_from_position(data, catalogue=catalogue, rules=rules)
    except UnknownCoasterError as exc:
        fail(f"{where}: board: {exc}")
    except CatalogueTooSmallError as exc:  # the catalogue's fault, not the position's
        fail(f"--coasters: {exc}")
    except (PinastatsError, OSError) as exc:
        fail(f"{where}: {' '.join(str(exc).split())}")


def rules_options(rules: Rules) -> dict[str, Any]:
    """The options of ``rules`` that differ from the defaults."""
    from pinastats.game.position import rules_record

    return rules_record(rules)


class _DuplicateKeyError(ValueError):
    """A JSON object that names the same key twice."""


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise _DuplicateKeyError(f"the field {key!r} appears twice in one object")
        seen.add(key)
    return dict(pairs)


def surface_networks() -> ValueNetworks:
    """The networks a command plays and advises with.

    ``$PINASTATS_NETWORK``'s file where set, else the shipped one; a file that cannot be
    used ends the command with one line.
    """
    from pinastats.agents.network import NetworkError, default_networks

    try:
        return default_networks()
    except NetworkError as exc:
        fail(f"PINASTATS_NETWORK: {exc}")


def keep_label(keep: Sequence[int], hand: Sequence[int]) -> str:
    """``'stop'`` for the whole hand, ``'re-roll all'`` for nothing, else the dice."""
    if len(keep) == len(hand):
        return "stop"
    return dice_text(keep) if keep else "re-roll all"


def rank_texts(ranks: Sequence[int]) -> list[str]:
    """``[1, 2, 2, 4] -> ['1', '2=', '2=', '4']``: ``=`` marks a shared rank."""
    return [f"{r}{'=' * (ranks.count(r) > 1)}" for r in ranks]


def rank_labels(values: Sequence[float | Fraction]) -> list[str]:
    """Competition ranks of values, ``=`` marking ties, by the keep rule's tie test.

    Fractions tie only when equal, floats within :data:`pinastats.dice.TIE_TOL`
    (see :func:`pinastats.dice.tie_ranks`).

    >>> rank_labels([3, 2, 2, 1])
    ['1', '2=', '2=', '4']
    """
    from pinastats.dice.ranking import tie_ranks

    return rank_texts(tie_ranks(values))


def split_agents(text: str) -> list[str]:
    """Split an agent list on the commas outside parentheses.

    >>> split_agents("strategic(line=4,block=2), ev")
    ['strategic(line=4,block=2)', 'ev']
    """
    items: list[str] = []
    current: list[str] = []
    depth = 0
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                fail(f"--agents {text!r}: a ')' without its '('")
        if ch == "," and depth == 0:
            items.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    if depth != 0:
        fail(f"--agents {text!r}: a '(' without its ')'")
    items.append("".join(current).strip())
    if not all(items):
        fail(f"--agents {text!r}: an empty agent name (agents are separated by single commas)")
    return items


def kernel_groups(agents: Sequence[AgentProtocol]) -> list[str]:
    """The kernel groups a run of ``agents`` compiles (see :mod:`pinastats._warmup`).

    Built-in agents play in the game loop (``rollout`` in its own); any other
    agent plays turn by turn through the readable turn, with every seat's decisions.
    """
    from pinastats.agents.builtin import Agent
    from pinastats.coach.agent import Coach
    from pinastats.simulation.chunk import plays_rollout

    groups = ["games"]
    if plays_rollout(agents):
        groups.append("rollout")
    if not all(isinstance(a, Agent) for a in agents):
        groups += ["dice", "agents", "rules"]
    if any(isinstance(a, Coach) for a in agents):
        groups += ["turn", "coach"]
    return groups
