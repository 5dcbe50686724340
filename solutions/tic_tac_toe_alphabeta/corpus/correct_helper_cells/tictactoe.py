"""Tic-tac-toe with alpha-beta pruning."""

END_VALUE = {'X': -1, 'O': 1, '.': 0}


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

    def is_end(self):
        """'X' or 'O' for a winner, '.' for a full board with no winner (a
        tie), None while the game goes on. Given."""
        board = self.current_state

        # Columns.
        for j in range(3):
            if (board[0][j] != '.' and
                    board[0][j] == board[1][j] == board[2][j]):
                return board[0][j]

        # Rows.
        for i in range(3):
            if (board[i][0] != '.' and
                    board[i][0] == board[i][1] == board[i][2]):
                return board[i][0]

        # Main diagonal, then the other one.
        if board[0][0] != '.' and board[0][0] == board[1][1] == board[2][2]:
            return board[0][0]
        if board[0][2] != '.' and board[0][2] == board[1][1] == board[2][0]:
            return board[0][2]

        # No winner: the game goes on while a cell is empty.
        for i in range(3):
            for j in range(3):
                if board[i][j] == '.':
                    return None

        # A full board with no winner is a tie.
        return '.'

    def free_cells(self):
        """Empty cells as (row, col), in reading order."""
        cells = []
        for row in range(3):
            for col in range(3):
                if self.current_state[row][col] == '.':
                    cells.append((row, col))
        return cells

    def max_alpha_beta(self, alpha, beta):
        result = self.is_end()
        if result is not None:
            return (END_VALUE[result], 0, 0)

        best, move = -2, (None, None)
        for row, col in self.free_cells():
            self.current_state[row][col] = 'O'
            score = self.min_alpha_beta(alpha, beta)[0]
            self.current_state[row][col] = '.'
            if score > best:
                best, move = score, (row, col)
            if best >= beta:
                break          # min will never allow this line
            alpha = max(alpha, best)
        return (best, move[0], move[1])

    def min_alpha_beta(self, alpha, beta):
        result = self.is_end()
        if result is not None:
            return (END_VALUE[result], 0, 0)

        best, move = 2, (None, None)
        for row, col in self.free_cells():
            self.current_state[row][col] = 'X'
            score = self.max_alpha_beta(alpha, beta)[0]
            self.current_state[row][col] = '.'
            if score < best:
                best, move = score, (row, col)
            if best <= alpha:
                break          # max will never allow this line
            beta = min(beta, best)
        return (best, move[0], move[1])

    def play_alpha_beta(self):
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
                (m, qx, qy) = self.min_alpha_beta(-2, 2)
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
                (m, px, py) = self.max_alpha_beta(-2, 2)
                self.current_state[px][py] = 'O'
                self.player_turn = 'X'


if __name__ == "__main__":
    Game().play_alpha_beta()
