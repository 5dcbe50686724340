"""Negamax with a depth limit, and a faster Nim."""
import nim
from nim import Nim, WINNING_VALUE, LOSING_VALUE

# The same games come up again and again in the search, so keep every game
# that move makes and hand it back the next time instead of making a new one.
_make_move = nim.Nim.move
_made = {}


def _cached_move(self, player, take):
    key = (type(self), self.coins, self.last, self.players(), player, take)
    if key not in _made:
        _made[key] = _make_move(self, player, take)
    return _made[key]


nim.Nim.move = _cached_move


def minimax(game, player, depth, score):
    if depth == 0:
        return None, score(game, player)
    moves = game.moves(player)
    opponent = game.opponent(player)
    if not moves:
        if game.moves(opponent):
            _, rating = minimax(game, opponent, depth - 1, score)
            return None, -rating
        winner = game.winner()
        if winner == player:
            return None, WINNING_VALUE
        if winner is None:
            return None, 0
        return None, LOSING_VALUE
    best_move, best_rating = None, None
    for move in moves:
        _, rating = minimax(game.move(player, move), opponent, depth - 1, score)
        rating = -rating
        if best_move is None or rating > best_rating:
            best_move, best_rating = move, rating
    return best_move, best_rating
