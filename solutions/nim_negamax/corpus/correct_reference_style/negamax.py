"""Negamax with a depth limit."""
from nim import Nim, WINNING_VALUE, LOSING_VALUE


def minimax(game, player, depth, score):
    if depth == 0:
        return None, score(game, player)

    moves = game.moves(player)
    other = game.opponent(player)

    if len(moves) == 0:
        if len(game.moves(other)) > 0:
            # I can't move, so I pass and the other player goes again
            _, value = minimax(game, other, depth - 1, score)
            return None, -value
        winner = game.winner()
        if winner == player:
            return None, WINNING_VALUE
        elif winner is None:
            return None, 0
        else:
            return None, LOSING_VALUE

    best_move = None
    best_value = None
    for m in moves:
        _, value = minimax(game.move(player, m), other, depth - 1, score)
        value = -value          # good for them is bad for me
        if best_move is None or value > best_value:
            best_move = m
            best_value = value
    return best_move, best_value
