"""Tic-tac-toe with minimax, made faster."""


class Game:
    # Answers already worked out, shared by every game: (board, 'max' or
    # 'min') -> (value, row, col).
    _seen = {}

    def __init__(self):
        # Look the end test up once, on the instance, instead of through the
        # class every time.
        self.is_end = self._my_end
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

    def _my_end(self):
        b = self.current_state
        lines = [b[0], b[1], b[2],
                 [b[0][0], b[1][0], b[2][0]],
                 [b[0][1], b[1][1], b[2][1]],
                 [b[0][2], b[1][2], b[2][2]],
                 [b[0][0], b[1][1], b[2][2]],
                 [b[0][2], b[1][1], b[2][0]]]
        for line in lines:
            if line[0] != '.' and line[0] == line[1] == line[2]:
                return line[0]
        for row in b:
            if '.' in row:
                return None
        return '.'

    def is_end(self):
        return self._my_end()

    def _key(self, side):
        return (tuple(tuple(row) for row in self.current_state), side)

    def max(self):
        key = self._key('max')
        if key in Game._seen:
            return Game._seen[key]

        result = self.is_end()
        if result == 'X':
            answer = (-1, 0, 0)
        elif result == 'O':
            answer = (1, 0, 0)
        elif result == '.':
            answer = (0, 0, 0)
        else:
            maxv, px, py = -2, None, None
            for i in range(3):
                for j in range(3):
                    if self.current_state[i][j] == '.':
                        self.current_state[i][j] = 'O'
                        (m, _, _) = self.min()
                        if m > maxv:
                            maxv, px, py = m, i, j
                        self.current_state[i][j] = '.'
            answer = (maxv, px, py)

        Game._seen[key] = answer
        return answer

    def min(self):
        key = self._key('min')
        if key in Game._seen:
            return Game._seen[key]

        result = self.is_end()
        if result == 'X':
            answer = (-1, 0, 0)
        elif result == 'O':
            answer = (1, 0, 0)
        elif result == '.':
            answer = (0, 0, 0)
        else:
            minv, qx, qy = 2, None, None
            for i in range(3):
                for j in range(3):
                    if self.current_state[i][j] == '.':
                        self.current_state[i][j] = 'X'
                        (m, _, _) = self.max()
                        if m < minv:
                            minv, qx, qy = m, i, j
                        self.current_state[i][j] = '.'
            answer = (minv, qx, qy)

        Game._seen[key] = answer
        return answer

    def play(self):
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
