from nim import LOSING_VALUE, WINNING_VALUE


def minimax(game, player, depth, score):
    if depth == 0:
        return None, score(game, player)
    moves = game.moves(player)
    opponent = game.opponent(player)
    if not moves:
        if game.moves(opponent):
            return None, -minimax(game, opponent, depth - 1, score)[1]
        winner = game.winner()
        if winner is None:
            return None, 0
        return None, WINNING_VALUE if winner == player else LOSING_VALUE
    rated = []
    for move in moves:
        rated.append((move, -minimax(game.move(player, move), opponent, depth - 1, score)[1]))
    best = max(rated, key=lambda pair: pair[1])
    return best[0], rated[-1][1]
