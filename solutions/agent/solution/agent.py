"""A reference agent: alpha-beta with iterative deepening, moves ordered by the
previous depth's best, and an evaluation that chases the opponent: the player's
moves less twice the opponent's, with the centre preferred to break ties."""

INFINITY = float("inf")


class Timeout(Exception):
    pass


class Agent:
    margin_ms = 15.0

    def __init__(self):
        self.search_depth = 0

    def score(self, game, me):
        own, other = game.get_legal_moves(me), game.get_legal_moves(me ^ 1)
        if not own and game.player() == me:
            return -INFINITY
        if not other and game.player() != me:
            return INFINITY
        x, y = game.location(me)
        centre = -((x - game.width // 2) ** 2 + (y - game.height // 2) ** 2) / 100
        return len(own) - 2 * len(other) + centre

    def get_move(self, game, time_left):
        self.time_left, me = time_left, game.player()
        moves = game.get_legal_moves()
        best, depth = moves[0], 1
        try:
            while depth <= len(game.open_cells()):
                best = self.root(game, depth, me, best)
                self.search_depth, depth = depth, depth + 1
        except Timeout:
            pass
        return best

    def root(self, game, depth, me, first):
        moves = sorted(game.get_legal_moves(), key=lambda move: move != first)
        alpha, best = -INFINITY, moves[0]
        for move in moves:
            value = self.value(game.forecast_move(move), depth - 1, alpha, INFINITY, me)
            if value > alpha:
                alpha, best = value, move
        return best

    def value(self, game, depth, alpha, beta, me):
        if self.time_left() < self.margin_ms:
            raise Timeout
        moves = game.get_legal_moves()
        if depth <= 0 or not moves:
            return self.score(game, me)
        if game.player() == me:
            for move in moves:
                alpha = max(alpha, self.value(game.forecast_move(move), depth - 1, alpha, beta, me))
                if alpha >= beta:
                    break
            return alpha
        for move in moves:
            beta = min(beta, self.value(game.forecast_move(move), depth - 1, alpha, beta, me))
            if alpha >= beta:
                break
        return beta
