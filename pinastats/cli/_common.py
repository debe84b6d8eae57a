"""Shared pieces of the command line: errors, output formats, tables, number formats.

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
from types import FrameType
from typing import Any, NoReturn

from pinastats import __version__

# the subcommands' number formats, shared with the reports
from pinastats._format import percent as percent
from pinastats._format import percent_range as percent_range
from pinastats.errors import AgentFailedError, PinastatsError

PROG = "pinastats"
FORMATS = ("table", "json", "csv")
EXIT_USAGE = 2
EXIT_BUG = 1
EXIT_AGENT = 3

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


def _run(handler: Handler, args: argparse.Namespace) -> int:
    try:
        status = handler(args)
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. `pinastats targets | head`: not an error
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM (Terminated)
        print(f"{PROG}: {str(exc) or 'interrupted'}", file=sys.stderr, flush=True)
        return 128 + int(getattr(exc, "signum", signal.SIGINT))
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
