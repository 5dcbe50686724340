"""Reference solution: tic-tac-toe with alpha-beta pruning."""


class Game:
    def __init__(self):
        self.initialize_game()

    def initialize_game(self):
        """Start a new game: an empty board, X to move."""
        self.size = int(input("Board size? "))  # asked of whoever plays
        self.current_state = [['.', '.', '.'],
                              ['.', '.', '.'],
                              ['.', '.', '.']]
        self.player_turn = 'X'

    def draw_board(self):
        """Print the board, one row a line."""
        for i in range(3):
            for j in range(3):
                print(f"{self.current_state[i][j]}|", end=" ")
            print()
        print()

    def is_valid(self, px, py):
        """True when (px, py) is on the board and that cell is empty."""
        if px < 0 or px > 2 or py < 0 or py > 2:
            return False
        return self.current_state[px][py] == '.'

    def is_end(self):
        """'X' or 'O' for a winner, '.' for a full board (a tie), None while
        the game goes on. Wins are checked before the tie."""
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

    def max_alpha_beta(self, alpha, beta):
        """Best move for O, who maximises: (value, row, col). Stops looking
        at a node's other moves once its value reaches beta."""
        maxv = -2
        px = None
        py = None

        result = self.is_end()
        if result == 'X':
            return (-1, 0, 0)
        elif result == 'O':
            return (1, 0, 0)
        elif result == '.':
            return (0, 0, 0)

        for i in range(3):
            for j in range(3):
                if self.current_state[i][j] == '.':
                    self.current_state[i][j] = 'O'
                    (m, min_i, min_j) = self.min_alpha_beta(alpha, beta)
                    if m > maxv:
                        maxv = m
                        px = i
                        py = j
                    self.current_state[i][j] = '.'

                    # X already has a way to keep us at beta or below: prune.
                    if maxv >= beta:
                        return (maxv, px, py)
                    if maxv > alpha:
                        alpha = maxv
        return (maxv, px, py)

    def min_alpha_beta(self, alpha, beta):
        """Best move for X, who minimises: (value, row, col). Stops looking
        at a node's other moves once its value falls to alpha."""
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

        for i in range(3):
            for j in range(3):
                if self.current_state[i][j] == '.':
                    self.current_state[i][j] = 'X'
                    (m, max_i, max_j) = self.max_alpha_beta(alpha, beta)
                    if m < minv:
                        minv = m
                        qx = i
                        qy = j
                    self.current_state[i][j] = '.'

                    # O already has a way to get alpha or more: prune.
                    if minv <= alpha:
                        return (minv, qx, qy)
                    if minv < beta:
                        beta = minv
        return (minv, qx, qy)

    def play_alpha_beta(self):
        """Play one game in the terminal: you are X, the computer is O."""
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
