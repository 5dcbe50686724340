"""Scores in the style of that course project's sample players: each takes the
game and the player whose view it scores."""


def open_move_score(game, player):
    if game.is_loser(player):
        return float("-inf")
    if game.is_winner(player):
        return float("inf")
    return float(len(game.get_legal_moves(player)))


def improved_score(game, player):
    if game.is_loser(player):
        return float("-inf")
    if game.is_winner(player):
        return float("inf")
    own = len(game.get_legal_moves(player))
    other = len(game.get_legal_moves(game.get_opponent(player)))
    return float(own - other)


def center_score(game, player):
    if game.is_loser(player):
        return float("-inf")
    if game.is_winner(player):
        return float("inf")
    w, h = game.width / 2., game.height / 2.
    y, x = game.get_player_location(player)
    return float((h - y) ** 2 + (w - x) ** 2)
