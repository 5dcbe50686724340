"""The lab's search, trusted, with optional known flaws.

``LabSearch()`` is the reference: ``max()``/``min()`` as the lab writes
them, or their alpha-beta forms (``alpha_beta=True``: prune on ``>= beta`` in
max and ``<= alpha`` in min). ``LabSearch(LabFlaws(...))`` reproduces a known
mistake on a mutable board, as the student's code runs. ``expected`` gives
what a correct search answers on a position, memoised over the whole game.
"""

import sys
from collections import Counter
from dataclasses import dataclass
from functools import cache

from grader.games import tictactoe
from grader.games.tictactoe import CELLS, EMPTY, VALUES, end
from grader.harness.checking.fingerprints import MASK, weight

FULL_WINDOW = (-2, 2)  # what the lab passes to the alpha-beta pair at the root


@dataclass(frozen=True)
class LabFlaws:
    only: str | None = None  # "max" or "min": the other one is the grader's, right
    marks_swapped: bool = False  # max places X, min places O
    values_wrong_side: bool = False  # an end state scored for X: an X win +1
    mark_not_put_back: bool = False  # the cell is not reset to '.' after the child
    first_child_move: bool = False  # the move is set at the first child only
    first_child_value: bool = False  # the value and move of the first child kept
    stop_at_win: bool = False  # the loop ends at the first child that wins
    is_end_twice: bool = False  # is_end called twice at each node
    is_end_each_test: bool = False  # is_end called anew for each of 'X', 'O', '.' tested
    keeps_last: bool = False  # >= in max, <= in min: the last of equal moves (right)
    strict_prune: bool = False  # prunes on > beta / < alpha
    window_reset: bool = False  # children searched with (-2, 2)
    no_pruning: bool = False  # never prunes
    bounds_swapped: bool = False  # max narrows beta, min narrows alpha
    window_swapped: bool = False  # children called with (beta, alpha)
    prune_before_undo: bool = False  # a cutoff returns before the cell is reset


NO_FLAWS = LabFlaws()


Answer = tuple[int, int | None, int | None]  # (value, row, col)


@dataclass
class Outcome:
    answer: Answer
    after: str  # the board once the search returned
    calls: Counter[str]  # the boards is_end was called on


class LabSearch:
    """A search keeps what it found from each root it was run on, and the plain
    one (no window) what it found below each board it entered too: the same
    flaws find the same there, whichever root it came from (a diagnosis runs
    a model on many positions, whose trees share their boards). The windows of
    alpha-beta make its boards' searches too many to keep, and seldom met again."""

    def __init__(self, flaws: LabFlaws = NO_FLAWS, alpha_beta: bool = False) -> None:
        self.flaws = flaws
        self.alpha_beta = alpha_beta
        # (board, maximising, alpha, beta) -> the answer, the board left behind,
        # and the boards is_end was called on, a board a call
        self._found: dict[tuple[str, bool, int, int], tuple[Answer, str, list[str]]] = {}

    def run(self, board: str, maximising: bool) -> Outcome:
        """``max()`` (``maximising``) or ``min()`` on ``board``, as the flaws make it."""
        cells, calls = list(board), list[str]()
        answer = self._node(cells, maximising, *FULL_WINDOW, calls, kept=True)
        return Outcome(answer, "".join(cells), Counter(calls))

    def _flaws(self, maximising: bool) -> LabFlaws:
        only = self.flaws.only
        return self.flaws if only in (None, "max" if maximising else "min") else NO_FLAWS

    def _node(self, cells: list[str], maximising: bool, alpha: int, beta: int,
              calls: list[str], kept: bool = False) -> Answer:
        """The search entered on ``cells`` with this window, or what it found
        there before: either way the cells are left as the lab's code leaves
        them, and the boards it called is_end on are added to ``calls``. The
        plain search keeps what it finds at every board, alpha-beta at the
        root only (``kept``)."""
        # One string a board, however often it is reached: the kept calls name it many times.
        board = sys.intern("".join(cells))
        if not kept and self.alpha_beta:
            return self._search(cells, board, maximising, alpha, beta, calls)
        key = (board, maximising, alpha, beta)
        found = self._found.get(key)
        if found is not None:
            answer, after, below = found
            cells[:] = after
            calls += below
            return answer
        start = len(calls)
        answer = self._search(cells, board, maximising, alpha, beta, calls)
        self._found[key] = answer, "".join(cells), calls[start:]
        return answer

    def _search(self, cells: list[str], board: str, maximising: bool, alpha: int, beta: int,
                calls: list[str]) -> Answer:
        flaws = self._flaws(maximising)
        result = end(board)
        calls += [board] * _is_end_calls(result, flaws)
        if result is not None:
            return (-VALUES[result] if flaws.values_wrong_side else VALUES[result], 0, 0)
        mark = "O" if maximising != flaws.marks_swapped else "X"
        best = -2 if maximising else 2
        at: tuple[int | None, int | None] = (None, None)
        pruning = self.alpha_beta and not flaws.no_pruning
        for row, col in CELLS:
            if cells[3 * row + col] != EMPTY:
                continue
            cells[3 * row + col] = mark
            window = FULL_WINDOW if flaws.window_reset else \
                (beta, alpha) if flaws.window_swapped else (alpha, beta)
            value = self._node(cells, not maximising, *window, calls)[0]
            first = at == (None, None)
            if first or not flaws.first_child_value and \
                    self._better(value, best, maximising, flaws):
                best = value
                if not flaws.first_child_move or first:
                    at = (row, col)
            cut = False
            if pruning:
                cut, alpha, beta = self._window(best, alpha, beta, maximising, flaws)
                if cut and flaws.prune_before_undo:
                    break
            if not flaws.mark_not_put_back:
                cells[3 * row + col] = EMPTY
            if cut or flaws.stop_at_win and best == (1 if maximising else -1):
                break
        return (best, *at)

    @staticmethod
    def _better(value: int, best: int, maximising: bool, flaws: LabFlaws) -> bool:
        if flaws.keeps_last:
            return value >= best if maximising else value <= best
        return value > best if maximising else value < best

    @staticmethod
    def _window(best: int, alpha: int, beta: int, maximising: bool, flaws: LabFlaws
                ) -> tuple[bool, int, int]:
        """(prune?, alpha, beta) after a child, as the lab's code updates them."""
        if maximising:
            if best > beta if flaws.strict_prune else best >= beta:
                return True, alpha, beta
            if flaws.bounds_swapped:
                return False, alpha, min(beta, best)
            return False, max(alpha, best), beta
        if best < alpha if flaws.strict_prune else best <= alpha:
            return True, alpha, beta
        if flaws.bounds_swapped:
            return False, max(alpha, best), beta
        return False, alpha, min(beta, best)


def _is_end_calls(result: str | None, flaws: LabFlaws) -> int:
    """How often a node calls is_end: once, twice, or once for each outcome
    its ``if``/``elif`` chain tests up to the one found ('X', 'O', then '.')."""
    if flaws.is_end_each_test:
        return 3 if result in (None, EMPTY) else 1 if result == "X" else 2
    return 2 if flaws.is_end_twice else 1


@cache
def _visited(board: str, mark: str
             ) -> tuple[str | None, int, tuple[tuple[tuple[int, int], str], ...]]:
    """What a search finds at ``board``: the end, the board's weight, and each
    move of ``mark`` in the lab's order with the board it makes. Worked out
    once a board for every search of the grader's: the value, the best moves
    and the trees all come to each board many times (the windows of the
    pruned trees most of all)."""
    result = end(board)
    children = () if result is not None else tuple(
        (move, tictactoe.place(board, *move, mark)) for move in tictactoe.moves(board))
    return result, weight(board), children


def _played(board: str) -> tuple[str | None, int, tuple[tuple[tuple[int, int], str], ...]]:
    """``_visited`` for the player whose turn it is on ``board``."""
    return _visited(board, tictactoe.mark(board))


@cache
def value(board: str) -> int:
    """The position's minimax value, for O."""
    mark = tictactoe.mark(board)
    result, _, children = _visited(board, mark)
    if result is not None:
        return VALUES[result]
    values = [value(child) for _, child in children]
    return max(values) if mark == "O" else min(values)


@cache
def best_moves(board: str) -> frozenset[tuple[int, int]]:
    """Every move that keeps the position's value: any of them is right."""
    kept = value(board)
    return frozenset(move for move, child in _played(board)[2] if value(child) == kept)


@cache
def full_tree(board: str) -> tuple[int, int]:
    """(size, fingerprint) of the full game tree from ``board``: the is_end
    calls a plain search makes, one per node."""
    _, print_, children = _played(board)
    size = 1
    for _, child in children:
        more, more_print = full_tree(child)
        size, print_ = size + more, (print_ + more_print) & MASK
    return size, print_


@cache
def pruned_tree(board: str, maximising: bool, alpha: int = -2, beta: int = 2
                ) -> tuple[int, int, int]:
    """(value, size, fingerprint) of the lab's alpha-beta from ``board``."""
    result, print_, children = _visited(board, "O" if maximising else "X")
    size = 1
    if result is not None:
        return VALUES[result], size, print_
    best = -2 if maximising else 2
    for _, child in children:
        found, more, more_print = pruned_tree(child, not maximising, alpha, beta)
        size, print_ = size + more, (print_ + more_print) & MASK
        best = max(best, found) if maximising else min(best, found)
        cut, alpha, beta = LabSearch._window(best, alpha, beta, maximising, NO_FLAWS)
        if cut:
            break
    return best, size, print_
