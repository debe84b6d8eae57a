"""What-if rule variants: one change at a time, shares and rates that hold together."""

from __future__ import annotations

import numpy as np

from pinastats.balance.whatif import END_REASONS, variants, what_if
from pinastats.game import load_layout


def test_variants_change_one_rule_each() -> None:
    vs = {v.name: v for v in variants()}
    base = vs["rulebook"]
    assert {"target 15", "target 25", "tokens 5", "tokens 7", "rolls 2", "rolls 4"} <= set(vs)
    assert vs["happy hour"].rules.happy_hour
    assert not base.rules.happy_hour
    assert vs["rolls 4"].rules.rolls == 4
    assert vs["target 25"].rules.target_score == 25
    for name in ("cross", "diamond", "grid-5x5"):
        v = vs[f"layout {name}"]
        assert v.rules == base.rules
        assert v.config(3).layout.n_cells == load_layout(name).n_cells


def test_what_if_rows_hold_together() -> None:
    chosen = [v for v in variants() if v.name in ("rulebook", "target 15", "layout cross")]
    frame = what_if(2, games=300, chosen=chosen, workers=1, seed=3)
    assert list(frame["variant"]) == ["rulebook", "target 15", "layout cross"]
    shares = frame[[f"share_{r}" for r in END_REASONS]].sum(axis=1)
    assert np.allclose(shares, 1.0)
    for col in ("first_player_win_rate", "skill_strategic_vs_ev", "skill_ev_vs_greedy"):
        assert ((frame[f"{col}_low"] <= frame[col]) & (frame[col] <= frame[f"{col}_high"])).all()
    assert np.allclose(frame["first_player_edge"], frame["first_player_win_rate"] - 0.5)
    # a lower target ends more games on the score trigger than the rulebook's 20
    score = dict(zip(frame["variant"], frame["share_score"].astype(float), strict=True))
    rounds = dict(zip(frame["variant"], frame["mean_rounds"].astype(float), strict=True))
    assert score["target 15"] > score["rulebook"]
    assert rounds["target 15"] < rounds["rulebook"]


def test_chosen_variants_may_be_any_iterable() -> None:
    chosen = (v for v in variants() if v.name == "rulebook")
    frame = what_if(2, games=50, chosen=chosen, workers=1, seed=3)
    assert list(frame["variant"]) == ["rulebook"]
