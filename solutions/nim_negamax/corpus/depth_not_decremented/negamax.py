"""Negamax with a depth limit."""
from nim import Nim, WINNING_VALUE, LOSING_VALUE


def minimax(game, player, depth, score):
    if depth == 0:
        return None, score(game, player)
    moves = game.moves(player)
    opponent = game.opponent(player)
    if not moves:
        if game.moves(opponent):
            _, rating = minimax(game, opponent, depth, score)
            return None, -rating
        winner = game.winner()
        if winner == player:
            return None, WINNING_VALUE
        if winner is None:
            return None, 0
        return None, LOSING_VALUE
    best_move, best_rating = None, None
    for move in moves:
        _, rating = minimax(game.move(player, move), opponent, depth, score)
        rating = -rating
        if best_move is None or rating > best_rating:
            best_move, best_rating = move, rating
    return best_move, best_rating
