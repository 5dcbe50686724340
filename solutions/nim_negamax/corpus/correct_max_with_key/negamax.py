"""Lab 5: negamax on Nim."""
from nim import Nim, WINNING_VALUE, LOSING_VALUE


def minimax(game, player, depth, score):
    if depth == 0:
        return None, score(game, player)
    opponent = game.opponent(player)
    moves = game.moves(player)
    if not moves:
        if game.moves(opponent):
            return None, -minimax(game, opponent, depth - 1, score)[1]
        return None, {player: WINNING_VALUE, None: 0}.get(game.winner(), LOSING_VALUE)
    # rate every move first, then pick; max() returns the first of equal items
    ratings = [-minimax(game.move(player, m), opponent, depth - 1, score)[1] for m in moves]
    best = max(range(len(moves)), key=lambda i: ratings[i])
    return moves[best], ratings[best]
