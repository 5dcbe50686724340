"""Negamax search with a depth limit (works for any game with the protocol)."""
from nim import Nim, WINNING_VALUE, LOSING_VALUE


def game_over_rating(game, player):
    """The rating of a finished game for player."""
    winner = game.winner()
    if winner is None:
        return 0
    if winner == player:
        return WINNING_VALUE
    return LOSING_VALUE


def minimax(game, player, depth, score):
    if depth == 0:
        return None, score(game, player)
    opponent = game.opponent(player)
    moves = game.moves(player)
    if not moves:
        if not game.moves(opponent):
            return None, game_over_rating(game, player)
        # stuck: skip my turn
        return None, -minimax(game, opponent, depth - 1, score)[1]

    best_move, best_rating = None, float("-inf")
    i = 0
    while i < len(moves):
        child = game.move(player, moves[i])
        rating = -minimax(child, opponent, depth - 1, score)[1]
        if rating > best_rating:
            best_move, best_rating = moves[i], rating
        i += 1
    return best_move, best_rating
