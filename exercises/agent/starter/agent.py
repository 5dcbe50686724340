"""Your game-playing agent for knight's isolation on a 7 x 7 board.

The referee makes one ``Agent()`` a game and calls ``get_move(game, time_left)``
on each of your turns. ``game`` is the position (a copy: change it as you like):

    game.get_legal_moves()        your moves, a list of (x, y) tuples
    game.get_legal_moves(player)  the moves of player 0 or 1, were it their turn
    game.forecast_move(move)      a NEW position, the move played
    game.player(), game.opponent()  who is to move (you) and who is not: 0 or 1
    game.location(player)         where a player stands, None before its first move
    game.open_cells()             the cells nobody has stood on
    game.width, game.height

The board also speaks the names of the course project's ``isolation.Board``
(``active_player``, ``get_player_location(player)``, ``get_blank_spaces()``,
``utility(player)``, ...): an agent written for it runs as it is (see the
README). Your other modules may sit beside this file.

``time_left()`` is the milliseconds left of this move's limit (CPU time your
process uses). A move past the limit loses the game, as do an illegal move,
returning (-1, -1), an exception, a crash and printing floods. Set
``self.search_depth`` to the depth your search reached: the report shows it
beside each of your moves.
"""


class Agent:
    def get_move(self, game, time_left):
        # TODO: alpha-beta search with iterative deepening, and an evaluation
        # better than this: the first legal move.
        return game.get_legal_moves()[0]
