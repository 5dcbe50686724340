"""Tic-tac-toe with minimax.

The board, the move check and the game loop are given. Your part: is_end,
max and min. X moves first; you play X in the terminal and the computer
plays O. O maximises and X minimises: a position is worth 1 when O wins,
0 for a tie and -1 when X wins.
"""


class Game:
    def __init__(self):
        self.initialize_game()

    def initialize_game(self):
        """Start a new game: an empty board, X to move. Given."""
        # current_state[row][col]; '.' is an empty cell.
        self.current_state = [['.', '.', '.'],
                              ['.', '.', '.'],
                              ['.', '.', '.']]
        # X moves first.
        self.player_turn = 'X'

    def draw_board(self):
        """Print the board, one row a line. Given."""
        for i in range(3):
            for j in range(3):
                print(f"{self.current_state[i][j]}|", end=" ")
            print()
        print()

    def is_valid(self, px, py):
        """True when (px, py) is on the board and that cell is empty. Given."""
        if px < 0 or px > 2 or py < 0 or py > 2:
            return False
        return self.current_state[px][py] == '.'

    def is_end(self):
        """Say whether the game in self.current_state is over.

        Return 'X' or 'O' when that player has three marks in a row: on a
        row, a column or one of the two diagonals. Return '.' when the board
        is full and nobody has won (a tie), and None while the game goes on.

        Check the wins before the tie: a move that fills the last cell and
        makes three in a row is a win.
        """
        board = self.current_state

        # Three in a column?
        for i in range(3):
            if (board[0][i] != '.' and
                    board[0][i] == board[1][i] and
                    board[1][i] == board[2][i]):
                return board[0][i]

        # Three in a row?
        for i in range(3):
            if board[i] == ['X', 'X', 'X']:
                return 'X'
            elif board[i] == ['O', 'O', 'O']:
                return 'O'

        # Top-left to bottom-right
        if (board[0][0] != '.' and
                board[0][0] == board[1][1] and
                board[0][0] == board[2][2]):
            return board[0][0]

        # Top-right to bottom-left
        if (board[0][2] != '.' and
                board[0][2] == board[1][1] and
                board[0][2] == board[2][0]):
            return board[0][2]

        # Any empty cell left? Then nobody has won yet.
        for i in range(3):
            for j in range(3):
                if board[i][j] == '.':
                    return None

        # Full board, no winner.
        return '.'

    def max(self):
        """Find the best move for O, who maximises.

        Return (value, row, col): value is 1 when O can force a win, 0 when
        the best O can get is a tie, -1 when X wins whatever O does; (row,
        col) is the cell where O should play.

        Call self.is_end() exactly once, at the start. When the game is
        over, return (-1, 0, 0) for an X win, (1, 0, 0) for an O win and
        (0, 0, 0) for a tie.

        Otherwise try every empty cell in order: row 0 col 0, row 0 col 1,
        ..., row 2 col 2. For each one, put 'O' in
        self.current_state[row][col], get X's answer from self.min(), then
        put '.' back. Keep the move with the highest value; when two moves
        are worth the same, keep the first one (compare with >).

        Don't change self.player_turn: the board must be exactly as it was
        when max returns.
        """
        # Values go from -1 (X wins) to 1 (O wins); -2 is below them all,
        # so the first move tried always replaces it.
        maxv = -2

        px = None
        py = None

        result = self.is_end()

        # Game over: score it from O's side.
        if result == 'X':
            return (-1, 0, 0)
        elif result == 'O':
            return (1, 0, 0)
        elif result == '.':
            return (0, 0, 0)

        for i in range(0, 3):
            for j in range(0, 3):
                if self.current_state[i][j] == '.':
                    # Play O here and see what X does about it.
                    self.current_state[i][j] = 'O'
                    (m, min_i, min_j) = self.min()
                    # Better than anything so far?
                    if m > maxv:
                        maxv = m
                        px = i
                        py = j
        return (maxv, px, py)

    def min(self):
        """Find the best move for X, who minimises.

        Return (value, row, col), with the values of max: -1 when X can
        force a win, 0 when the best X can get is a tie, 1 when O wins
        whatever X does; (row, col) is the cell where X should play.

        Call self.is_end() exactly once, at the start. When the game is
        over, return (-1, 0, 0) for an X win, (1, 0, 0) for an O win and
        (0, 0, 0) for a tie.

        Otherwise try every empty cell in the same order as max. For each
        one, put 'X' in self.current_state[row][col], get O's answer from
        self.max(), then put '.' back. Keep the move with the lowest value;
        when two moves are worth the same, keep the first one (compare
        with <).

        Don't change self.player_turn: the board must be exactly as it was
        when min returns.
        """
        # 2 is above every value, so the first move tried replaces it.
        minv = 2

        qx = None
        qy = None

        result = self.is_end()

        if result == 'X':
            return (-1, 0, 0)
        elif result == 'O':
            return (1, 0, 0)
        elif result == '.':
            return (0, 0, 0)

        for i in range(0, 3):
            for j in range(0, 3):
                if self.current_state[i][j] == '.':
                    self.current_state[i][j] = 'X'
                    (m, max_i, max_j) = self.max()
                    if m < minv:
                        minv = m
                        qx = i
                        qy = j
                    self.current_state[i][j] = '.'

        return (minv, qx, qy)

    def play(self):
        """Play one game in the terminal: you are X, the computer is O.
        Given."""
        while True:
            self.draw_board()
            self.result = self.is_end()

            if self.result is not None:
                if self.result == 'X':
                    print('The winner is X!')
                elif self.result == 'O':
                    print('The winner is O!')
                else:
                    print("It's a tie!")
                self.initialize_game()
                return

            if self.player_turn == 'X':
                (m, qx, qy) = self.min()
                print(f'Recommended move: row = {qx}, col = {qy}')
                try:
                    px = int(input('Row (0-2): '))
                    py = int(input('Column (0-2): '))
                except ValueError:
                    print('Please type a number from 0 to 2.')
                    continue
                if self.is_valid(px, py):
                    self.current_state[px][py] = 'X'
                    self.player_turn = 'O'
                else:
                    print('That move is not valid. Try again.')
            else:
                (m, px, py) = self.max()
                self.current_state[px][py] = 'O'
                self.player_turn = 'X'


if __name__ == "__main__":
    Game().play()
