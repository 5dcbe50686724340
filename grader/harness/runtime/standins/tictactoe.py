"""Tic-tac-toe's stand-ins, installed on the student's ``Game`` class for a call.

``is_end`` is always the grader's during a counted call: it reports each
call with the board it saw (a ``t`` line) and answers from the trusted
rules, so that the search is judged apart from the student's own is_end.
``max``/``min`` and ``max_alpha_beta``/``min_alpha_beta`` stand in for the
student's so that the other function of the pair is tested alone: each
searches as the lab's code does,
calling back into the student's other function, looked up on the object at
call time, for the children, and reports being entered with the board (an
``e`` line), which the supervisor checks follows from the call's board.

The trusted rules reach this process only when a test is granted a stand-in
(the supervisor sends them, ``sources``): while the student's ``is_end`` is
tested, nothing here knows how a game ends.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Collection, Mapping

from grader.contracts import protocol

TYPE_CHECKING = False  # typing is for mypy only: importing it slows every start
if TYPE_CHECKING:
    from typing import Any

COUNTED = ("is_end",)
RULES = "grader.games.tictactoe.rules"


def sources(grant: Collection[str]) -> tuple[str, ...]:
    """The rules, for a test granted stand-ins only."""
    return (RULES,) if grant else ()


def load(provided: str, module_names: list[str], games: Mapping[str, types.ModuleType]
         ) -> types.ModuleType | None:
    return games.get(RULES)


def guarded(trusted: types.ModuleType | None) -> list[object]:
    return [trusted] if trusted else []


def _rows(board: Any) -> object:
    """A board string as the lab's ``current_state``: fresh lists."""
    return [list(board[0:3]), list(board[3:6]), list(board[6:9])]


def arguments(trusted: types.ModuleType | None, tick: Callable[[bytes], object]
              ) -> tuple[Callable[[object], object], list[object]]:
    """A board string, as the lab's ``current_state`` (nothing more to guard)."""
    return _rows, []


def owner(module: types.ModuleType) -> object:
    """The student's ``Game`` class, where the lab's methods are (None if there is none)."""
    found = module.__dict__.get("Game")
    return found if isinstance(found, type) else None


def _unreadable(game: Any) -> TypeError:
    """What the grader's is_end raises on a ``current_state`` it can't read."""
    return TypeError("the grader's is_end, standing in for yours, can't read current_state "
                        f"({protocol.safe_repr(getattr(game, 'current_state', None))}): it must "
                        "be three lists of three marks, '.', 'X' or 'O'")


def _value(found: Any, name: str) -> Any:
    """The value in what the student's ``name`` returned: (value, row, col)."""
    if type(found) in (tuple, list) and len(found) == 3 and type(found[0]) in (int, float):
        return found[0]
    raise TypeError(f"{name}() returned {protocol.safe_repr(found)} where (value, row, col) "
                    "was due (the grader's own search called it, standing in for the other "
                    "function)")


def _ended(board: str, end: Callable[[str], str | None],
           _seen: dict[str, tuple[bytes, str | None, bytes]] = {},  # noqa: B006 (a cache, guarded)
           _tested: bytes = protocol.TESTED, _entered: bytes = protocol.ENTERED
           ) -> tuple[bytes, str | None, bytes] | None:
    """A board's tally line, its ``end`` (is_end's answer), and the lines of a
    stand-in of the search entered there, which tests it; None for what is no
    board. Made once a board: the rules are the same for a worker's life."""
    known = _seen.get(board)
    if known is None and len(board) == 9 and not board.strip(".XO"):
        tested = _tested + board.encode() + b"\n"
        known = _seen[board] = (tested, end(board), _entered + board.encode() + b"\n" + tested)
    return known


def stand_ins(module: types.ModuleType, trusted: types.ModuleType | None,
              tick: Callable[[bytes], object], grant: Collection[str]
              ) -> dict[tuple[str, bool], Callable[..., object]]:
    """The grader's is_end, and its searches that stand in for the student's:
    those in ``grant`` only."""
    if trusted is None:
        return {}
    rules = trusted

    def is_end(self: Any, _tick: Callable[[bytes], object] = tick,
               _label: Callable[[Any], str] = rules.label, _ended: Callable[..., Any] = _ended,
               _end: Callable[[str], str | None] = rules.end,
               _unreadable: Callable[[Any], TypeError] = _unreadable) -> str | None:
        try:
            known = _ended(_label(self.current_state), _end)  # a board string, or it raises
        except Exception:
            raise _unreadable(self) from None
        if known is None:
            raise _unreadable(self)
        _tick(known[0])
        answer: str | None = known[1]
        return answer

    def search(self: Any, window: tuple[Any, ...], maximising: bool,
               _is_end: Callable[[Any], str | None] = is_end, _ended: Callable[..., Any] = _ended,
               _end: Callable[[str], str | None] = rules.end,
               _values: dict[str, int] = dict(rules.VALUES),  # noqa: B006 (bound and guarded)
               _cells: tuple[tuple[int, int], ...] = rules.CELLS, _number: Any = _value,
               _getattr: Callable[..., Any] = getattr, _tick: Callable[[bytes], object] = tick,
               _label: Callable[[Any], str] = rules.label, _entered: bytes = protocol.ENTERED
               ) -> tuple[Any, Any, Any]:
        """The lab's max (``maximising``) or min, with alpha-beta when a
        ``window`` (alpha, beta) is given: prune on >= beta / <= alpha.
        Entered on a board, it tests the end there as is_end does: both
        lines sent in one write."""
        try:
            board = _label(self.current_state)
        except Exception:  # no board: is_end says so below
            board = None
        known = None if board is None else _ended(board, _end)
        if known is None:
            _tick(_entered + (b"?" if board is None else board.encode()) + b"\n")
            result = _is_end(self)
        else:
            _tick(known[2])
            result = known[1]
        if result is not None:
            return (_values[result], 0, 0)
        pruning = bool(window)
        alpha, beta = window if pruning else (-2, 2)
        if maximising:
            mark, name = "O", "min_alpha_beta" if pruning else "min"
        else:
            mark, name = "X", "max_alpha_beta" if pruning else "max"
        best = -2 if maximising else 2
        at: tuple[Any, Any] = (None, None)
        board = self.current_state
        for row, col in _cells:
            if board[row][col] != ".":
                continue
            board[row][col] = mark
            child = _getattr(self, name)
            found = _number(child(alpha, beta) if pruning else child(), name)
            if found > best if maximising else found < best:
                best, at = found, (row, col)
            board[row][col] = "."
            if pruning and maximising:
                if best >= beta:
                    break
                alpha = best if best > alpha else alpha
            elif pruning:
                if best <= alpha:
                    break
                beta = best if best < beta else beta
        return (best, *at)

    def max(self: Any, _search: Callable[..., Any] = search) -> Any:  # noqa: A001 (the lab's name)
        return _search(self, (), True)

    def min(self: Any, _search: Callable[..., Any] = search) -> Any:  # noqa: A001 (the lab's name)
        return _search(self, (), False)

    def max_alpha_beta(self: Any, alpha: Any, beta: Any, _search: Callable[..., Any] = search
                       ) -> Any:
        return _search(self, (alpha, beta), True)

    def min_alpha_beta(self: Any, alpha: Any, beta: Any, _search: Callable[..., Any] = search
                       ) -> Any:
        return _search(self, (alpha, beta), False)

    made: dict[tuple[str, bool], Callable[..., object]] = {
            ("is_end", False): is_end, ("max", False): max, ("min", False): min,
            ("max_alpha_beta", False): max_alpha_beta, ("min_alpha_beta", False): min_alpha_beta}
    granted = {*grant, *(COUNTED if "counted" in grant else ())}
    return {key: function for key, function in made.items() if key[0] in granted}
