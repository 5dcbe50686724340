"""Tic-tac-toe with alpha-beta pruning.

The board, is_end, the move check and the game loop are given. Your part:
max_alpha_beta and min_alpha_beta. X moves first; you play X in the
terminal and the computer plays O. O maximises and X minimises: a position
is worth 1 when O wins, 0 for a tie and -1 when X wins.
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

    def max_alpha_beta(self, alpha, beta):
        """Find the best move for O, who maximises, with alpha-beta pruning.

        alpha is the value O is already sure of elsewhere in the search, beta
        the value X is already sure of. The first call is
        max_alpha_beta(-2, 2). Return (value, row, col), with value 1 for an
        O win, 0 for a tie and -1 for an X win.

        Call self.is_end() exactly once, at the start. When the game is
        over, return (-1, 0, 0) for an X win, (1, 0, 0) for an O win and
        (0, 0, 0) for a tie.

        Otherwise start from maxv = -2 and try every empty cell in order:
        row 0 col 0, row 0 col 1, ..., row 2 col 2. For each one, put 'O'
        there, get X's answer from self.min_alpha_beta(alpha, beta), keep
        the move when its value is higher than maxv (so the first of equally
        good moves stays), and put '.' back. Then:

        - if maxv >= beta, stop and return (maxv, row, col) at once: X will
          never let the game come here;
        - else if maxv > alpha, set alpha = maxv.

        Don't change self.player_turn: the board must be exactly as it was
        when the function returns.
        """
        pass

    def min_alpha_beta(self, alpha, beta):
        """Find the best move for X, who minimises, with alpha-beta pruning.

        The mirror of max_alpha_beta, with the same values and the same order
        of cells. Start from minv = 2; for each empty cell put 'X' there, get
        O's answer from self.max_alpha_beta(alpha, beta), keep the move when
        its value is lower than minv, and put '.' back. Then:

        - if minv <= alpha, stop and return (minv, row, col) at once: O will
          never let the game come here;
        - else if minv < beta, set beta = minv.

        Call self.is_end() exactly once, at the start, and return (-1, 0, 0),
        (1, 0, 0) or (0, 0, 0) when the game is over, as in max_alpha_beta.
        Don't change self.player_turn.
        """
        pass

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
