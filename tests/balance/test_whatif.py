"""What-if rule variants: one change at a time, shares and rates that hold together."""

from __future__ import annotations

import numpy as np
import pytest

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


def test_a_fallback_plays_where_the_agent_cannot_and_the_same_seeds_hold() -> None:
    chosen = [v for v in variants() if v.name in ("rulebook", "layout diamond")]
    frame = what_if(2, games=60, chosen=chosen, workers=1, seed=5, agent="value",
                    fallback="ev", pairs=[("value", "greedy"), ("ev", "greedy")])  # fmt: skip
    rows = {r["variant"]: r for r in frame.to_dict("records")}
    assert rows["rulebook"]["agent"] == "value"
    assert rows["layout diamond"]["agent"] == "ev"
    assert np.isnan(rows["layout diamond"]["skill_value_vs_greedy"])
    assert rows["layout diamond"]["skill_ev_vs_greedy_games"] == 60
    # the fallback's row is the row of a plain run of the fallback: same seeds, same games
    plain = what_if(2, games=60, chosen=chosen[1:], workers=1, seed=5, agent="ev",
                    pairs=[("ev", "greedy")]).iloc[0]  # fmt: skip
    for col in ("mean_rounds", "first_player_win_rate", "share_score"):
        assert rows["layout diamond"][col] == plain[col]
    # the ev-vs-greedy pair was second here, first in the plain run: another seed
    assert plain["skill_ev_vs_greedy_games"] == 60


def test_bad_pairs_and_unplayable_variants_are_refused_before_any_game() -> None:
    from pinastats.agents.builtin import AgentError

    diamond = [v for v in variants() if v.name == "layout diamond"]
    with pytest.raises(AgentError, match=r"'layout diamond'.*give a fallback agent"):
        what_if(2, games=10, chosen=diamond, agent="value")
    with pytest.raises(AgentError, match="fallback cannot play it either"):
        what_if(2, games=10, chosen=diamond, agent="value", fallback="value")
    for pairs, match in [
        ([("ev",)], r"\(stronger, weaker\) agent names"),
        ([("ev", "ev")], "got 'ev' twice"),
        ([("ev", "gredy")], "did you mean 'greedy'"),
    ]:
        with pytest.raises(AgentError, match=match):
            what_if(2, games=10, chosen=diamond, pairs=pairs)  # type: ignore[arg-type]
