"""Negamax with a depth limit.

Write minimax(game, player, depth, score) below. Your search may use only
the five methods of the game protocol: game.players(), game.moves(player),
game.move(player, m), game.opponent(player) and game.winner(). The grader
also runs it on other games that offer these methods, so don't read the
game's attributes (such as game.coins) and don't build Nim's rules into it.
"""
from nim import Nim, WINNING_VALUE, LOSING_VALUE


def minimax(game, player, depth, score):
    """Return ``(move, rating)``: the best move for ``player`` in ``game``,
    looking ``depth`` moves ahead, and its rating.

    A rating is always seen from the side of ``player``: the higher, the
    better for ``player``. ``score(game, player)`` rates a game that the
    search does not look into any further.

    - When ``depth`` is 0, stop there, even if the game is over: return
      ``(None, score(game, player))``.
    - When ``player`` has no move but the opponent has one, ``player``
      passes and the opponent moves again: search the same game for the
      opponent with ``depth - 1`` and return ``(None, -rating)``, where
      ``rating`` is what that search returned.
    - When neither player has a move, the game is over: return
      ``(None, WINNING_VALUE)`` if ``game.winner()`` is ``player``,
      ``(None, 0)`` if it is None (a draw), and ``(None, LOSING_VALUE)``
      otherwise.
    - Otherwise try each move in the order ``game.moves(player)`` gives
      them. ``game.move(player, move)`` returns a new game and leaves
      ``game`` as it was; search that new game for the opponent with
      ``depth - 1``. The move's rating for ``player`` is minus the rating
      that search returned. Return the move with the highest rating and
      that rating; when several moves share the highest rating, return the
      first of them.

    Call ``game.move`` once for each move you try and call ``score`` only
    at depth 0: the grader counts both.
    """
    pass
