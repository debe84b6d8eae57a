"""Names of the slots of the int64 arrays that hold a game (shared by kernels and Python).

Board tuple ``B`` (fixed during a game)::

    B = (cat_comb, cat_points, neighbours, lines, masks, rules, comb_ptr, comb_hands)
    cat_comb   (n_coasters,)        combination index of each catalogue coaster
    cat_points (n_coasters, 2, 2)   points of [side A/B][space 1/2]; side A space 2 = 0
    neighbours (n_cells, 8)         neighbouring cells, padded with -1
    lines      (n_lines, max_len)   winning lines, padded with -1
    masks      (n_combinations, 252) bool: hand shows combination
    rules      (5,)                 the R_* slots below
    comb_ptr   (n_combinations + 1,) CSR pointers: the hands showing each combination
    comb_hands (nnz,)               ... are comb_hands[comb_ptr[i]:comb_ptr[i + 1]]

Game tuple ``G`` (changes as the game is played)::

    G = (cell_coaster, cell_side, tokens, players, status)
    cell_coaster (n_cells,)         catalogue index of the coaster on each cell
    cell_side    (n_cells,)         0 = side A (1 space), 1 = side B (2 spaces)
    tokens       (n_cells, 2)       player on each space, -1 if free
    players      (n_players, 3)     the P_* slots below
    status       (N_STATUS,)        the S_* slots below
"""

R_TARGET, R_TOKENS, R_HAPPY_HOUR, R_NEGATIVE, R_MAX_TURNS = 0, 1, 2, 3, 4

P_SCORE, P_RESERVE, P_LAST_PLACED = 0, 1, 2

S_FIRST = 0  # first player
S_TURN = 1  # turns completed
S_TO_MOVE = 2  # player whose turn it is
S_TRIGGER_TURN = 3  # turn in which the end was triggered, -1
S_TRIGGER = 4  # Trigger value
S_WINNER = 5  # winning player, -1
S_REASON = 6  # EndReason value
S_PLACEMENTS = 7  # tokens placed so far in the game (recency clock)
N_STATUS = 8

NO_PLAYER = -1
