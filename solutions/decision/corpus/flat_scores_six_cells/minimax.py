from minimax_helpers import min_value

CELLS = 6   # 3 columns x 2 rows


def minimax_decision(gameState):
    # one slot per cell (index x * 2 + y); cells we can't move to stay at -inf
    scores = [float("-inf")] * CELLS
    for x, y in gameState.get_legal_moves():
        scores[x * 2 + y] = min_value(gameState.forecast_move((x, y)))
    best = scores.index(max(scores))
    return (best // 2, best % 2)
