"""``pinastats.notebook``: the notebooks' figures as PNG images with alternative text."""

from __future__ import annotations

import base64
import html

import matplotlib.pyplot as plt
from matplotlib.ticker import PercentFormatter

from pinastats.notebook import alt_text, figure_html, percent_axes, text_colour


def test_alt_text_names_the_titles_and_axes() -> None:
    fig, (left, right) = plt.subplots(1, 2)
    fig.suptitle("Who wins")
    left.set(title="2 players", xlabel="seat", ylabel="win rate")
    right.set(title="4 players")
    assert alt_text(fig) == "Figure. Who wins; 2 players, x: seat, y: win rate; 4 players"
    plt.close(fig)


def test_shares_in_zero_one_are_shown_in_percent_and_others_are_not() -> None:
    fig, (share, points, big) = plt.subplots(1, 3)
    share.plot([0, 1], [0.2, 0.6])
    share.set_ylabel("share of games")
    points.plot([0, 1], [0.2, 0.6])
    points.set_ylabel("points")
    big.plot([0, 1], [20, 60])
    big.set_ylabel("win rate")  # already in percent points: above 1
    percent_axes(fig)
    assert share.get_ylabel() == "share of games (%)"
    assert isinstance(share.yaxis.get_major_formatter(), PercentFormatter)
    assert points.get_ylabel() == "points"
    assert big.get_ylabel() == "win rate"
    assert not isinstance(big.yaxis.get_major_formatter(), PercentFormatter)
    plt.close(fig)


def test_the_image_carries_its_png_and_escaped_alt_text() -> None:
    fig, ax = plt.subplots()
    ax.set_title('Pair of 3s "held" <by the winner>')
    page = figure_html(fig)
    data = page.split("base64,")[1].split('"')[0]
    assert base64.b64decode(data).startswith(b"\x89PNG")
    assert f'alt="{html.escape(alt_text(fig))}"' in page
    assert "<by" not in page.split("alt=")[1]
    assert 'alt="my words"' in figure_html(fig, "my words")
    plt.close(fig)


def test_text_is_black_on_light_cells_and_white_on_dark_ones() -> None:
    assert text_colour((1.0, 1.0, 1.0, 1.0)) == "black"
    assert text_colour((0.0, 0.0, 0.0)) == "white"
    # viridis: dark purple at the bottom, yellow at the top
    assert text_colour(plt.get_cmap("viridis")(0.0)) == "white"
    assert text_colour(plt.get_cmap("viridis")(1.0)) == "black"
    # the switch is at equal contrast: mid grey 0.5 has luminance 0.214 > 0.179
    assert text_colour((0.5, 0.5, 0.5)) == "black"
    assert text_colour((0.4, 0.4, 0.4)) == "white"  # luminance 0.133
