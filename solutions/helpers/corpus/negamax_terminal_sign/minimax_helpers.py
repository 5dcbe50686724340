def terminal_test(gameState):
    return not gameState.get_legal_moves()


def _negamax(gameState):
    """The value of gameState for the player to move (negamax form)."""
    if terminal_test(gameState):
        return 1  # the stuck player is scored as the winner
    return max(-_negamax(gameState.forecast_move(m)) for m in gameState.get_legal_moves())


def min_value(gameState):
    return -_negamax(gameState)


def max_value(gameState):
    return _negamax(gameState)
