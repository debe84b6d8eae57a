"""Write a seeded random playthrough of ``python_pina_coladice`` (the regression files).

Regenerate the checked-in files after an intended change of the encoding::

    python -m tests.integrations.playthrough
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
PLAYTHROUGHS = {
    "playthrough_2p.txt": ("python_pina_coladice", 1),
    "playthrough_3p_happy_hour.txt": ("python_pina_coladice(players=3,happy_hour=True)", 2),
}


def playthrough(game_string: str, seed: int) -> str:
    """Every action of one game of uniformly random play, chance drawn with its probabilities."""
    import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

    import pinastats.integrations.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game(game_string)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    lines = [f"game: {game}", f"seed: {seed}", ""]
    while not state.is_terminal():
        player = state.current_player()
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            action = int(actions[rng.choice(len(actions), p=probs)])
            who = "chance"
        else:
            legal = state.legal_actions()
            action = int(legal[rng.integers(len(legal))])
            who = f"seat {player} ({len(legal)} legal)"
        lines.append(f"{who}: {action} {state.action_to_string(player, action)}")
        state.apply_action(action)
    lines += ["", str(state), f"returns: {state.returns()}", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    for name, (game_string, seed) in PLAYTHROUGHS.items():
        (HERE / name).write_text(playthrough(game_string, seed), encoding="utf-8")
