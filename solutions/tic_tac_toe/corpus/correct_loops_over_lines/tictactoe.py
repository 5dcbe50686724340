"""Tic-tac-toe with minimax."""

# The eight ways to get three in a row, as lists of (row, col) cells.
LINES = (
    [[(r, 0), (r, 1), (r, 2)] for r in range(3)]        # rows
    + [[(0, c), (1, c), (2, c)] for c in range(3)]      # columns
    + [[(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)]]  # diagonals
)

# What a finished game is worth; O maximises.
SCORE = {'X': -1, 'O': 1, '.': 0}


class Game:
    def __init__(self):
        self.initialize_game()

    def initialize_game(self):
        """Start a new game: an empty board, X to move. Given."""
        self.current_state = [['.', '.', '.'],
                              ['.', '.', '.'],
                              ['.', '.', '.']]
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

    def empty_cells(self):
        """The empty cells, row by row, left to right."""
        return [(r, c) for r in range(3) for c in range(3)
                if self.current_state[r][c] == '.']

    def is_end(self):
        """'X' or 'O' for a winner, '.' for a tie, None if not over."""
        for line in LINES:
            marks = {self.current_state[r][c] for r, c in line}
            if len(marks) == 1 and '.' not in marks:
                return marks.pop()
        if not self.empty_cells():
            return '.'
        return None

    def max(self):
        """Best move for O: (value, row, col)."""
        result = self.is_end()
        if result is not None:
            return (SCORE[result], 0, 0)

        best = (-2, None, None)
        for r, c in self.empty_cells():
            self.current_state[r][c] = 'O'
            value = self.min()[0]
            self.current_state[r][c] = '.'
            if value > best[0]:
                best = (value, r, c)
        return best

    def min(self):
        """Best move for X: (value, row, col)."""
        result = self.is_end()
        if result is not None:
            return (SCORE[result], 0, 0)

        best = (2, None, None)
        for r, c in self.empty_cells():
            self.current_state[r][c] = 'X'
            value = self.max()[0]
            self.current_state[r][c] = '.'
            if value < best[0]:
                best = (value, r, c)
        return best

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
