from game_agent import AlphaBetaPlayer as Agent  # noqa: F401
