"""Figures in the notebooks: shown as PNG images with alternative text, readable text on colour.

The notebooks of ``notebooks/`` import these (``from pinastats.notebook import
show_figure, text_colour``). IPython is imported only when a figure is shown.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

LUMINANCE = np.array([0.2126, 0.7152, 0.0722])
"""Weights of the linearised sRGB channels in the relative luminance (WCAG)."""
EQUAL_CONTRAST = 0.179
"""The luminance where black and white text have the same contrast ratio."""


def alt_text(fig: Figure) -> str:
    """The figure described by its titles and axis labels (``Figure. title; x: …, y: …``)."""
    parts = [fig.get_suptitle()]
    for ax in fig.axes:
        words = [
            ax.get_title(),
            ax.get_xlabel() and "x: " + ax.get_xlabel(),
            ax.get_ylabel() and "y: " + ax.get_ylabel(),
        ]
        parts.append(", ".join(w for w in words if w))
    return "Figure. " + "; ".join(p for p in parts if p)


def percent_axes(fig: Figure) -> None:
    """Show in percent every y axis labelled as a share or a rate of values in [0, 1]."""
    for ax in fig.axes:
        label = ax.get_ylabel()
        if ("share" in label or "rate" in label) and "%" not in label and ax.get_ylim()[1] <= 1.05:
            ax.yaxis.set_major_formatter(PercentFormatter(1.0))
            ax.set_ylabel(label + " (%)")


def figure_html(fig: Figure, alt: str | None = None, dpi: int = 90) -> str:
    """``fig`` as an ``<img>`` of its PNG, with ``alt`` (default :func:`alt_text`)."""
    percent_axes(fig)
    text = alt_text(fig) if alt is None else alt
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, bbox_inches="tight")
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f'<img src="data:image/png;base64,{data}" alt="{html.escape(text)}">'


def show_figure(fig: Figure, alt: str | None = None) -> None:
    """Display ``fig`` in the notebook as a PNG with alt text (:func:`figure_html`); close it."""
    import matplotlib.pyplot as plt
    from IPython.display import HTML, display

    display(HTML(figure_html(fig, alt)))  # type: ignore[no-untyped-call]
    plt.close(fig)


def text_colour(rgba: Sequence[float]) -> str:
    """Black or white, whichever reads better on a cell of colour ``rgba``.

    Relative luminance L = 0.2126 R + 0.7152 G + 0.0722 B of the linearised sRGB
    channels; black text on L > 0.179 (where both contrasts are equal).

    >>> text_colour((1.0, 1.0, 0.0)), text_colour((0.0, 0.0, 0.5))
    ('black', 'white')
    """
    rgb = np.asarray(rgba[:3], dtype=float)
    linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    return "black" if float(linear @ LUMINANCE) > EQUAL_CONTRAST else "white"
