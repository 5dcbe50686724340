"""Hostile: terminal_test twice per node, and attempts to hide the extra calls."""

import sys


def _quiet():
    main = sys.modules.get("__main__")
    counter = getattr(main, "_Counter", None)
    if counter is not None:  # the attack on the old worker
        real = counter.terminal_test

        def every_other(self, state, _seen=[0]):
            _seen[0] += 1
            if _seen[0] % 2:
                self.calls -= 1
            return real(self, state)
        counter.terminal_test = every_other
    grader = globals().get("terminal_test")
    try:  # the grader's stand-in: make it report nothing
        grader.__code__ = (lambda gameState: not gameState.get_legal_moves()).__code__
    except Exception:
        pass
    try:
        grader.__defaults__ = (lambda line: None,) + grader.__defaults__[1:]
    except Exception:
        pass
    frame = sys._getframe()
    while frame:  # any counter the grader keeps here
        for value in list(frame.f_locals.values()):
            if hasattr(value, "calls"):
                try:
                    value.calls = 0
                except Exception:
                    pass
        frame = frame.f_back


def minimax_decision(gameState, depth):
    _quiet()
    best_move, best_score = None, float("-inf")
    for move in gameState.get_legal_moves():
        score = min_value(gameState.forecast_move(move), depth - 1)
        if score > best_score:
            best_move, best_score = move, score
    return best_move


def min_value(gameState, depth):
    terminal_test(gameState)
    if terminal_test(gameState):
        return 1
    if depth <= 0:
        return 0
    return min(max_value(gameState.forecast_move(m), depth - 1)
               for m in gameState.get_legal_moves())


def max_value(gameState, depth):
    terminal_test(gameState)
    if terminal_test(gameState):
        return -1
    if depth <= 0:
        return 0
    return max(min_value(gameState.forecast_move(m), depth - 1)
               for m in gameState.get_legal_moves())


# ---------------------------------------------------------------------------
# Do not change anything below this line: the grader relies on it.
# ---------------------------------------------------------------------------

call_counter = 0


def terminal_test(gameState):
    """True when the player to move has no legal move; counts every call."""
    global call_counter
    call_counter += 1
    return not bool(gameState.get_legal_moves())
