"""A designer's lab: fair starting scores, what coasters are worth, and what-if rules."""

from pinastats.balance.coasters import coaster_effects, coaster_points
from pinastats.balance.search import SearchResult, planted_play, search_starting_scores
from pinastats.balance.seats import SelfPlay, candidate_vectors, rulebook_scores
from pinastats.balance.trace import TracedGames, play_traced
from pinastats.balance.whatif import Variant, variants, what_if

__all__ = [
    "SearchResult",
    "SelfPlay",
    "TracedGames",
    "Variant",
    "candidate_vectors",
    "coaster_effects",
    "coaster_points",
    "planted_play",
    "play_traced",
    "rulebook_scores",
    "search_starting_scores",
    "variants",
    "what_if",
]
