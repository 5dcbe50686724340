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
        lines = [[(r, 0), (r, 1), (r, 2)] for r in range(3)]
        lines += [[(0, c), (1, c), (2, c)] for c in range(3)]
        lines += [[(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)]]
        for line in lines:
            marks = {self.current_state[r][c] for r, c in line}
            if len(marks) == 1 and marks != {'.'}:
                return marks.pop()
        if any('.' in row for row in self.current_state):
            return None
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
        outcome = self.is_end()
        if outcome == 'X':
            return (1, 0, 0)
        if outcome == 'O':
            return (-1, 0, 0)
        if outcome == '.':
            return (0, 0, 0)
        top = (-2, None, None)
        for r in range(3):
            for c in range(3):
                if self.current_state[r][c] == '.':
                    self.current_state[r][c] = 'X'
                    value = self.min()[0]
                    self.current_state[r][c] = '.'
                    if value > top[0]:
                        top = (value, r, c)
        return top

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
        outcome = self.is_end()
        if outcome == 'O':
            return (-1, 0, 0)
        if outcome == 'X':
            return (1, 0, 0)
        if outcome == '.':
            return (0, 0, 0)
        low = (2, None, None)
        for r in range(3):
            for c in range(3):
                if self.current_state[r][c] == '.':
                    self.current_state[r][c] = 'O'
                    value = self.max()[0]
                    self.current_state[r][c] = '.'
                    if value < low[0]:
                        low = (value, r, c)
        return low

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
