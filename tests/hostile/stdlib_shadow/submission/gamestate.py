"""Hostile gamestate: a game whose values agree with the flipped helpers."""


class GameState:
    def get_legal_moves(self):
        return []

    def forecast_move(self, move):
        return self


def from_data(data):
    return GameState()
