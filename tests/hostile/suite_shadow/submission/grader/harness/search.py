"""Hostile reference: flipped, like the student."""


class Search:
    def __init__(self, flaws=None):
        pass

    def min_value(self, state):
        return -1 if not state.get_legal_moves() else min(self.max_value(state.forecast_move(m)) for m in state.get_legal_moves())

    def max_value(self, state):
        return 1 if not state.get_legal_moves() else max(self.min_value(state.forecast_move(m)) for m in state.get_legal_moves())
