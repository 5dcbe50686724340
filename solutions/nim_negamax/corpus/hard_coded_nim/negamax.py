"""Negamax with a depth limit, for Nim."""
from nim import Nim, WINNING_VALUE, LOSING_VALUE


def minimax(game, player, depth, score):
    if depth == 0:
        return None, score(game, player)
    # you may take 1, 2 or 3 coins, but not more than there are
    moves = [take for take in (1, 2, 3) if take <= game.coins]
    opponent = game.opponent(player)
    if not moves:
        # the pile is empty: whoever moved last took the last coin and won
        if game.last == player:
            return None, WINNING_VALUE
        if game.last is None:
            return None, 0
        return None, LOSING_VALUE
    best_move, best_rating = None, None
    for move in moves:
        _, rating = minimax(game.move(player, move), opponent, depth - 1, score)
        rating = -rating
        if best_move is None or rating > best_rating:
            best_move, best_rating = move, rating
    return best_move, best_rating
