"""Mini-isolation: your GameState class.

The board has 3 columns (x = 0, 1, 2, left to right) and 2 rows (y = 0, 1,
top to bottom). The lower-right cell, (2, 1), is blocked from the start.
Player 1 moves first. A player's first move may go to any open cell; after
that a player slides like a chess queen (along a row, a column or a
diagonal) over open cells only: a closed cell or the other player stops the
slide. Every cell a player moves to stays closed for the rest of the game.

Moves are (x, y) tuples of ints.
"""


class GameState:
    def __init__(self):
        """Set up the empty board: every cell open but (2, 1), player 1 to move,
        and no player placed yet.

        The grader does not look at your attributes, but you may find the
        reference layout handy: self._board[x][y] (0 open, 1 closed),
        self._parity (0 when player 1 is to move, 1 for player 2) and
        self._player_locations ([None, None] until the players are placed).
        """
        pass

    def forecast_move(self, move):
        """Return a NEW GameState in which the player to move has played
        ``move`` and it is the other player's turn.

        ``self`` must not change: copy the state (copy.deepcopy does it
        safely) and change the copy.
        """
        pass

    def get_legal_moves(self):
        """Return a list of the (x, y) moves open to the player to move.

        It must be a list (not a set, a tuple or a generator), each move once.
        """
        pass
