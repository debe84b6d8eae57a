r"""Ratings of three- and four-player fields by Plackett–Luce (OpenSkill).

Each game seats ``players`` agents drawn without replacement from the field
(seats in a random order), plays it to its end and ranks the seats: the winner
first, the others tied behind (a game nobody won ties everyone). OpenSkill's
Plackett–Luce model updates each agent's skill ``N(mu, sigma^2)`` after every
game; the 95% interval is ``mu ± 1.96 sigma``. Under Plackett–Luce the chance
that agent ``i`` wins a table ``T`` is ``e^{mu_i / c} / sum_{j in T} e^{mu_j / c}``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from pinastats.agents.loading import resolve_agent
from pinastats.agents.protocol import AgentProtocol
from pinastats.dice.errors import is_whole
from pinastats.errors import PinastatsError
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.simulation.play import play_game

Z95 = 1.959963984540054


@dataclass(frozen=True)
class FieldRating:
    """One agent's Plackett–Luce rating in a multi-player field."""

    agent: str
    mu: float
    sigma: float
    games: int
    wins: float

    @property
    def low(self) -> float:
        """The 95% interval's low end."""
        return self.mu - Z95 * self.sigma

    @property
    def high(self) -> float:
        """The 95% interval's high end."""
        return self.mu + Z95 * self.sigma

    def as_dict(self) -> dict[str, Any]:
        """The rating as JSON."""
        return {"agent": self.agent, "mu": round(self.mu, 3), "sigma": round(self.sigma, 3),
                "low": round(self.low, 3), "high": round(self.high, 3), "games": self.games,
                "win_share": round(self.wins / self.games, 4) if self.games else None}  # fmt: skip


def field_ladder(
    field: Sequence[AgentProtocol | str], players: int, games: int, *, seed: int = 0
) -> list[FieldRating]:
    """Rate ``field`` (at least ``players`` agents) over ``games`` mixed games; best first."""
    from openskill.models import PlackettLuce

    agents = [resolve_agent(a) for a in field]
    names = [a.name for a in agents]
    if len(set(names)) != len(names):
        raise PinastatsError(f"the field names an agent twice: {', '.join(names)}")
    if players not in (3, 4) or len(agents) < players:
        raise PinastatsError(
            f"a field of {len(agents)} agents cannot fill {players} seats (3 or 4 players, "
            "at least one agent a seat)"
        )
    if not is_whole(games) or games < 1:
        raise PinastatsError(f"games must be a whole number of at least 1, got {games!r}")
    model = PlackettLuce()
    ratings = {n: model.rating(name=n) for n in names}
    played = dict.fromkeys(names, 0)
    wins = dict.fromkeys(names, 0.0)
    rng = np.random.default_rng([seed, players])
    config = GameConfig(players=players)
    for g in range(games):
        table = [int(i) for i in rng.choice(len(agents), size=players, replace=False)]
        start = Game.new(config=config, seed=np.random.default_rng([seed, g]))
        dice = np.random.default_rng([seed, g, 1])
        game = play_game(start, [agents[i] for i in table], seed=dice)
        winner = game.winner
        ranks = [0.0 if winner is None or s == winner else 1.0 for s in range(players)]
        seated = [names[i] for i in table]
        rated = model.rate([[ratings[n]] for n in seated], ranks=ranks)
        for n, team in zip(seated, rated, strict=True):
            ratings[n] = team[0]
            played[n] += 1
            wins[n] += 1 / players if winner is None else float(n == seated[winner])
    out = [FieldRating(n, ratings[n].mu, ratings[n].sigma, played[n], wins[n]) for n in names]
    return sorted(out, key=lambda r: -r.mu)
