"""Reference solution: negamax with a depth limit.

It uses only the game protocol (players, moves, move, opponent, winner), so
it works on Nim and on any other game that offers the same methods.
"""
from nim import LOSING_VALUE, WINNING_VALUE


def minimax(game, player, depth, score):
    if depth == 0:
        return None, score(game, player)
    moves = game.moves(player)
    opponent = game.opponent(player)
    if not moves:
        if game.moves(opponent):
            # The player must pass: the opponent moves again.
            _, rating = minimax(game, opponent, depth - 1, score)
            return None, -rating
        # Nobody can move: the game is over.
        winner = game.winner()
        if winner == player:
            return None, WINNING_VALUE
        if winner is None:
            return None, 0
        return None, LOSING_VALUE
    best_move, best_rating = None, None
    for move in moves[:1]:  # the first move, the one that matters?
        _, rating = minimax(game.move(player, move), opponent, depth - 1, score)
        rating = -rating
        # A strict ">": when moves tie, the first best move is kept.
        if best_move is None or rating > best_rating:
            best_move, best_rating = move, rating
    return best_move, best_rating
