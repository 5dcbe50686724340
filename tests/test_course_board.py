"""The course project's private board state, as real projects read it: each name's
value through whole games, checked against boards written here from the
course's documented layout (not against the grader's own code)."""

import random

import pytest

from grader.games.knights.rules import Board, board_from_data, to_data

SIZE = 7


class Course2017:
    """The 2017 board's private state: ``_board_state`` is the cells at
    ``row + column * height`` (0 open, 1 closed), then the parity (0: player 1
    to move), player 2's cell index, player 1's cell index (None unmoved)."""

    def __init__(self, one, two):
        self.one, self.two = one, two
        self.state = [0] * (SIZE * SIZE) + [0, None, None]
        self.active, self.inactive = one, two

    def play(self, move):
        index = move[0] + move[1] * SIZE
        self.state[-1 if self.active is self.one else -2] = index
        self.state[index] = 1
        self.state[-3] ^= 1
        self.active, self.inactive = self.inactive, self.active


class CourseOlder:
    """The older board: ``__board_state__[row][column]`` (0 open, else the symbol of
    who stood there: 1 for player 1, 2 for player 2) and each player's last move."""

    def __init__(self, one, two):
        self.one, self.two = one, two
        self.rows = [[0] * SIZE for _ in range(SIZE)]
        self.last = {one: None, two: None}
        self.active, self.inactive = one, two

    def play(self, move):
        self.last[self.active] = move
        self.rows[move[0]][move[1]] = 1 if self.active is self.one else 2
        self.active, self.inactive = self.inactive, self.active


def same(board, new, old):
    assert board._board_state == new.state
    assert board._player_1 is new.one and board._player_2 is new.two
    assert board._active_player is new.active and board._inactive_player is new.inactive
    assert board.__board_state__ == old.rows
    assert board.__last_player_move__ == old.last
    assert board.__player_symbols__ == {0: 0, old.one: 1, old.two: 2}
    assert (board.__player_1__, board.__player_2__) == (old.one, old.two)
    assert board.__active_player__ is old.active and board.__inactive_player__ is old.inactive
    # what the course's own methods read from that state agrees with the board's
    for player, index in ((new.one, new.state[-1]), (new.two, new.state[-2])):
        where = board.get_player_location(player)
        assert where == (None if index is None else (index % SIZE, index // SIZE))
        assert sorted(board.__get_moves__(where)) == sorted(board.get_legal_moves(player))


@pytest.mark.parametrize("seed", range(6))
def test_each_private_name_through_a_game_by_forecast_and_apply(seed):
    draw = random.Random(seed)
    one, two = object(), object()
    board = Board(one, two)
    new, old = Course2017(one, two), CourseOlder(one, two)
    same(board, new, old)
    while moves := board.get_legal_moves():
        move = draw.choice(moves)
        if draw.random() < 0.5:
            board = board.forecast_move(move)
        else:
            board.apply_move(move)
        new.play(move)
        old.play(move)
        same(board, new, old)
    assert board.move_count > 4


def test_a_board_rebuilt_from_data_told_who_played_each_cell():
    """As the agent's process rebuilds it each move: closed cells carry the symbol
    of the player who stood there once the board is told (``knowing``)."""
    one, two = "agent", "opponent"
    board = Board(one, two)
    old = CourseOlder(one, two)
    seen = {}
    draw = random.Random(1)
    for _ in range(10):
        move = draw.choice(board.get_legal_moves())
        board = board.forecast_move(move)
        old.play(move)
        seen.update((cell, who) for who, cell in enumerate(board._player_locations) if cell)
    rebuilt = board_from_data("knights", to_data(board), Board).seated((one, two)).knowing(seen)
    assert rebuilt.__board_state__ == old.rows
    assert rebuilt.forecast_move(rebuilt.get_legal_moves()[0]).__board_state__ != old.rows


def test_the_views_are_read_only_and_changing_a_copy_changes_nothing():
    board = Board("a", "b").forecast_move((3, 3))
    with pytest.raises(AttributeError):
        board._board_state = []  # type: ignore[misc]
    board._board_state[0] = 1
    board.__board_state__[0][0] = 2
    assert board._board_state[0] == 0 and board.__board_state__[0][0] == 0
    assert (Board.BLANK, Board.NOT_MOVED) == (0, None)


def test_the_exercise_readme_names_the_numpy_the_image_pins():
    from grader import image
    from grader.contracts import places

    version = image.NUMPY.partition("==")[2]
    readme = " ".join((places.EXERCISES / "agent" / "README.md").read_text().split())
    assert f"NumPy ({version} in the grading image)" in readme
