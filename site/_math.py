"""The site's mathematics as MathML, written when the site is built: nothing is fetched.

Sphinx's math nodes (MyST's ``$...$`` and ``$$...$$``, in the pages and in the
notebooks' Markdown cells) are written as MathML by
`latex2mathml <https://pypi.org/project/latex2mathml/>`_ (pure Python, in the
``site`` extra), which browsers draw themselves (MathML Core: Chromium 109 and
later, Firefox, Safari). The page loads no script for it, so the formulas show
offline exactly as online, and there is no TeX left to flash before a script
typesets it. A formula latex2mathml cannot read stops the build, naming it.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from latex2mathml.converter import convert
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.writers.html5 import HTML5Translator

RENDERER = "mathml"
"""The name of the renderer (``html_math_renderer`` in ``site/conf.py``)."""


def mathml(latex: str, display: str) -> str:
    """The MathML of the LaTeX ``latex`` (``display``: ``inline`` or ``block``)."""
    try:
        return str(convert(latex, display=display))
    except Exception as exc:
        raise ExtensionError(f"cannot write the formula {latex!r} as MathML: {exc}") from exc


def visit_inline(self: HTML5Translator, node: nodes.Element) -> None:
    """``$...$``: the formula inline, its TeX kept as the element's title."""
    latex = node.astext()
    self.body.append(self.starttag(node, "span", "", CLASS="math notranslate nohighlight",
                                   title=latex))  # fmt: skip
    self.body.append(mathml(latex, "inline") + "</span>")
    raise nodes.SkipNode


def visit_block(self: HTML5Translator, node: nodes.Element) -> None:
    """``$$...$$``: the formula as a block, numbered as Sphinx numbers it."""
    latex = node.astext()
    self.body.append(self.starttag(node, "div", CLASS="math notranslate nohighlight"))
    if node.get("number"):
        self.body.append(f'<span class="eqno">({node["number"]})</span>')
    self.body.append(mathml(latex, "block") + "</div>\n")
    raise nodes.SkipNode


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the MathML renderer."""
    app.add_html_math_renderer(RENDERER, (visit_inline, None), (visit_block, None))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
