"""The site's own Sphinx pieces: the command line reference and the reports as downloads.

* ``pinastats-cli``: the reference of the ``pinastats`` command, generated from its
  argument parsers (``pinastats.cli.main.build_parser()``): a section per subcommand
  (nested ones too) with its usage, description, every option and its epilog. The
  help texts are plain text, as ``--help`` prints them (never read as reST).
* ``pinastats-reports``: every PDF of ``reports/`` as a download link.
* ``pinastats-perfect-play``: the solved game's headlines (the first player's exact
  chance over the solved boards, the agents ranked against perfect play), computed
  from ``data/perfect-play.json`` when the site is built, with its histogram.
* A notebook's interactive widget (the board of ``pinastats.play``) cannot run on a
  static page: its output is replaced by a note pointing to the page on playing.
* Markdown included from another folder (``docs/headlines.md`` into ``site/index.md``)
  gets its relative links and images rewritten from the included file's folder, so
  they resolve as they do on GitHub.
"""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

SITE = Path(__file__).resolve().parent
REPORTS = SITE.parent / "reports"
RELATIVE_LINK = re.compile(r"(\]\()(?![a-zA-Z][a-zA-Z0-9+.-]*:|#|/)([^)\s]+)")
"""A Markdown inline link or image destination that is a relative path."""


def _subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, str, argparse.ArgumentParser]]:
    """``(name, one-line help, parser)`` of each subcommand, in ``--help`` order."""
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            for name, sub in action.choices.items():
                found.append((name, helps.get(name, ""), sub))
    return found


def _paragraphs(text: str) -> list[nodes.Node]:
    """Plain text as paragraphs (blank lines split them); indented blocks stay literal."""
    out: list[nodes.Node] = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = block.splitlines()
        if len(lines) > 1 and any(line.startswith((" ", "\t")) for line in lines[1:]):
            out.append(nodes.literal_block(block, block))
        else:
            joined = " ".join(line.strip() for line in lines)
            out.append(nodes.paragraph(joined, joined))
    return out


class CliDirective(SphinxDirective):
    """The reference of the ``pinastats`` command, from its parsers."""

    def run(self) -> list[nodes.Node]:
        """A section per subcommand, after the top level's usage and options."""
        from pinastats.cli.main import build_parser

        parser = build_parser()
        return self._parser_nodes(parser, parser.prog, top=True)

    def _section(self, title: str, ident: str) -> nodes.section:
        section = nodes.section(ids=[nodes.make_id(ident)])
        section += nodes.title(title, "", nodes.literal(title, title))
        return section

    def _parser_nodes(
        self, parser: argparse.ArgumentParser, prog: str, top: bool = False
    ) -> list[nodes.Node]:
        body: list[nodes.Node] = []
        usage = parser.format_usage().removeprefix("usage: ").strip()
        body.append(nodes.literal_block(usage, usage, language="text"))
        if parser.description:
            body.extend(_paragraphs(parser.description))
        formatter = parser._get_formatter()
        for group in parser._action_groups:
            actions = [
                a for a in group._group_actions if not isinstance(a, argparse._SubParsersAction)
            ]
            actions = [a for a in actions if a.help != argparse.SUPPRESS]
            if not actions:
                continue
            body.append(nodes.rubric(group.title, group.title))
            options = nodes.definition_list(classes=["cli-options"])
            for action in actions:
                invocation = formatter._format_action_invocation(action)
                term = nodes.term("", "", nodes.literal(invocation, invocation))
                help_text = formatter._expand_help(action) if action.help else ""
                definition = nodes.definition("", *_paragraphs(help_text or "(no help)"))
                options += nodes.definition_list_item("", term, definition)
            body.append(options)
        subs = _subcommands(parser)
        if subs:
            body.append(nodes.rubric("commands", "commands"))
            table = nodes.bullet_list()
            for name, summary, _ in subs:
                para = nodes.paragraph()
                target = f"{prog} {name}"
                para += nodes.reference(
                    "", "", nodes.literal(target, target), refid=nodes.make_id(target)
                )
                para += nodes.Text(f": {summary}")
                table += nodes.list_item("", para)
            body.append(table)
        if parser.epilog:
            body.extend(_paragraphs(parser.epilog))
        for name, summary, sub in subs:
            target = f"{prog} {name}"
            section = self._section(target, target)
            if summary:
                section += nodes.paragraph("", "", nodes.emphasis(summary, summary))
            section += self._parser_nodes(sub, target)
            body.append(section)
        return body


class ReportsDirective(SphinxDirective):
    """A list of every PDF in ``reports/``, each a download link (copied into the site)."""

    def run(self) -> list[nodes.Node]:
        """The bullet list of the reports, by file name."""
        items = nodes.bullet_list()
        for pdf in sorted(REPORTS.glob("*.pdf")):
            self.env.note_dependency(str(pdf))
            kb = pdf.stat().st_size / 1000
            target = "/" + pdf.relative_to(REPORTS.parent).as_posix()
            ref = addnodes.download_reference(
                "", "", reftarget=target, refdoc=self.env.docname, refexplicit=True
            )
            ref += nodes.literal(pdf.name, pdf.name)
            para = nodes.paragraph()
            para += ref
            para += nodes.Text(f" ({kb:.0f} kB)")
            items += nodes.list_item("", para)
        if not len(items):
            raise self.error(f"no PDF in {REPORTS}")
        return [items]


class PerfectPlayDirective(SphinxDirective):
    """The solved game's headlines, from the shipped perfect-play file as it is at build time."""

    def run(self) -> list[nodes.Node]:
        """:func:`~pinastats.report.perfect_text.site_text`, the histogram and the ranking."""
        import base64

        from pinastats.balance import perfect, strong
        from pinastats.report.perfect_figures import FIGURES, figure_png
        from pinastats.report.perfect_text import ranking, site_table, site_text

        for path in (perfect.data_path(), strong.data_path()):
            self.env.note_dependency(str(path))
        pp, sp = perfect.perfect_play(), strong.strong_play()
        text, table = site_text(pp, sp), site_table(ranking(pp))
        name = "perfect-play-first-player.png"
        uri = "data:image/png;base64," + base64.b64encode(figure_png(pp, name)).decode("ascii")
        figure = nodes.image(uri=uri, alt=FIGURES[name], classes=["perfect-play-figure"])
        body = nodes.container(classes=["perfect-play"])
        self.state.nested_parse(StringList(text.splitlines(), "perfect-play"), 0, body)
        body += figure
        table_body = nodes.container(classes=["perfect-play-table"])
        self.state.nested_parse(StringList(table.splitlines(), "perfect-play"), 0, table_body)
        body += table_body
        return [body]


def relink_included(
    app: Sphinx, relative_path: Path, parent_docname: str, content: list[str]
) -> None:
    """Rewrite an included Markdown file's relative links to hold from ``site/``."""
    if relative_path.suffix != ".md":
        return
    folder = (Path(app.srcdir) / relative_path).parent
    prefix = Path(os.path.relpath(folder, SITE)).as_posix()
    if prefix == ".":
        return
    content[0] = RELATIVE_LINK.sub(lambda m: f"{m[1]}{prefix}/{m[2]}", content[0])


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_NOTE = (
    "Here the notebook shows the board, a live widget: run the notebook in JupyterLab "
    "to play (this page is a static copy). The board is pictured on "
)


def replace_widgets(app: Sphinx, doctree: nodes.document) -> None:
    """Put a note where a notebook's output is a live widget (it needs a kernel).

    MyST-NB keeps each output as a bundle of its mime types until it writes the page;
    a bundle with a widget view is replaced whole (its text is only the object's repr).
    """
    for bundle in list(doctree.findall(nodes.container)):
        if bundle.get("nb_element") != "mime_bundle":
            continue
        if WIDGET_VIEW not in [child.get("mime_type") for child in bundle.children]:
            continue
        link = addnodes.pending_xref(
            "", refdomain="std", reftype="doc", reftarget="/docs/play", refexplicit=True
        )
        link += nodes.inline("", "Playing on a board")
        note = nodes.paragraph("", "", classes=["widget-note"])
        note += [nodes.Text(WIDGET_NOTE), link, nodes.Text(".")]
        bundle.replace_self(note)


def list_other_docs(app: Sphinx, docname: str, source: list[str]) -> None:
    """Give the landing page a "More" table of contents of the ``docs/`` pages it omits.

    A page added to ``docs/`` is then on the site (and in its navigation) at once.
    """
    if docname != app.config.root_doc:
        return
    skipped = set(app.config.pinastats_not_pages)
    missing = [
        page.stem
        for page in sorted((SITE.parent / "docs").glob("*.md"))
        if page.name not in skipped
        and f"../docs/{page.stem}>" not in source[0]
        and f"../docs/{page.stem}\n" not in source[0]
    ]
    if missing:
        entries = "".join(f"../docs/{stem}\n" for stem in missing)
        source[0] += f"\n```{{toctree}}\n:caption: More\n:maxdepth: 1\n\n{entries}```\n"


def reread_landing_page(
    app: Sphinx, env: Any, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """Read the landing page at every build: its "More" list depends on ``docs/``."""
    return [app.config.root_doc]


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the directives, the link rewriting and the "More" table of contents."""
    app.add_config_value("pinastats_not_pages", [], "env")
    app.add_directive("pinastats-cli", CliDirective)
    app.add_directive("pinastats-reports", ReportsDirective)
    app.add_directive("pinastats-perfect-play", PerfectPlayDirective)
    app.connect("include-read", relink_included)
    app.connect("source-read", list_other_docs)
    app.connect("doctree-read", replace_widgets)
    app.connect("env-get-outdated", reread_landing_page)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
