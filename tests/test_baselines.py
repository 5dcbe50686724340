"""The baselines' play where it matters against a weak opponent: the alpha-beta
baseline, in a position lost against best play, holds out longest (a random
mover must then find every winning move)."""

from grader.games.knights.rules import board_from_data
from grader.match import baselines


def position(open_cells: set[tuple[int, int]], me: tuple[int, int],
             other: tuple[int, int]):
    """A 7 x 7 knight's board with only ``open_cells`` open; player 1 (at ``me``)
    to move, player 2 at ``other``."""
    board = [[0 if (x, y) in open_cells else 1 for y in range(7)] for x in range(7)]
    return board_from_data("knights", {"width": 7, "height": 7, "board": board, "parity": 0,
                                       "locations": [list(me), list(other)]})


# Player 1 at (0, 0) may go to (1, 2), stuck there, or to (2, 1), then (4, 2), then
# stuck; player 2 at (0, 6) has four moves in a row: player 1 loses either way.
LOST = {(1, 2), (2, 1), (4, 2), (2, 5), (4, 6), (6, 5), (5, 3)}


def test_in_a_lost_position_alpha_beta_holds_out_longest():
    state = position(LOST, (0, 0), (0, 6))
    assert sorted(state.get_legal_moves()) == [(1, 2), (2, 1)]
    agent = baselines.AlphaBetaAgent()
    assert agent.get_move(state, lambda: 1000.0) == (2, 1)
    assert agent.search_depth < len(state.open_cells())  # a proven loss: no deeper search
    assert baselines.MinimaxAgent().get_move(state, lambda: 1000.0) == (2, 1)
