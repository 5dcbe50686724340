"""Tic-tac-toe with minimax: you against the computer.

Run this file to play. The search itself prints nothing; the game loop
tells you how long the computer thought.
"""

import time


class Game:
    def __init__(self):
        self.initialize_game()

    def initialize_game(self):
        self.current_state = [['.', '.', '.'],
                              ['.', '.', '.'],
                              ['.', '.', '.']]
        self.player_turn = 'X'

    def draw_board(self):
        for i in range(3):
            for j in range(3):
                print(f"{self.current_state[i][j]}|", end=" ")
            print()
        print()

    def is_valid(self, px, py):
        if px < 0 or px > 2 or py < 0 or py > 2:
            return False
        return self.current_state[px][py] == '.'

    def _same(self, a, b, c):
        """The mark in cells a, b and c when it is the same non-empty mark in
        all three, else None."""
        s = self.current_state
        if s[a[0]][a[1]] != '.' and s[a[0]][a[1]] == s[b[0]][b[1]] == s[c[0]][c[1]]:
            return s[a[0]][a[1]]
        return None

    def is_end(self):
        for k in range(3):
            winner = (self._same((k, 0), (k, 1), (k, 2))
                      or self._same((0, k), (1, k), (2, k)))
            if winner:
                return winner
        winner = (self._same((0, 0), (1, 1), (2, 2))
                  or self._same((0, 2), (1, 1), (2, 0)))
        if winner:
            return winner
        if any('.' in row for row in self.current_state):
            return None
        return '.'

    def _end_value(self, result):
        if result == 'O':
            return 1
        if result == 'X':
            return -1
        return 0

    def max(self):
        result = self.is_end()
        if result is not None:
            return (self._end_value(result), 0, 0)
        maxv, px, py = -2, None, None
        for i in range(3):
            for j in range(3):
                if self.current_state[i][j] != '.':
                    continue
                self.current_state[i][j] = 'O'
                m = self.min()[0]
                self.current_state[i][j] = '.'
                if m > maxv:
                    maxv, px, py = m, i, j
        return (maxv, px, py)

    def min(self):
        result = self.is_end()
        if result is not None:
            return (self._end_value(result), 0, 0)
        minv, qx, qy = 2, None, None
        for i in range(3):
            for j in range(3):
                if self.current_state[i][j] != '.':
                    continue
                self.current_state[i][j] = 'X'
                m = self.max()[0]
                self.current_state[i][j] = '.'
                if m < minv:
                    minv, qx, qy = m, i, j
        return (minv, qx, qy)

    def play(self):
        print("You are X. Cells are numbered 0 to 2, row first.")
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
                start = time.time()
                (m, qx, qy) = self.min()
                print(f'Evaluation time: {time.time() - start:.3f}s')
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
                start = time.time()
                (m, px, py) = self.max()
                print(f'O thought for {time.time() - start:.3f}s and plays row {px}, col {py}')
                self.current_state[px][py] = 'O'
                self.player_turn = 'X'


if __name__ == "__main__":
    game = Game()
    game.play()
