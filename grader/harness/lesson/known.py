"""A trusted game's positions, each worked out once a process.

The reference searches and the mistake models visit the same positions over
and over: every decision of a suite searches the trees below its positions
again, at every depth, and each node asks its game for the legal moves, the
terminal test, each child and the node's label. ``known(game)`` answers with
the game's own answers, kept by position the first time: a search on it makes
the same calls, the same terminal tests and the same values, only cheaper.

A position is found by its ``key`` (equal positions, equal keys) the first
time a state is asked about, then by the state itself (kept: its id stays its
own), without working out its key again. States are values: no one changes a
state once made.
"""

from collections.abc import Hashable
from typing import Protocol

from grader.games import Game, Move, State, lesson, tree


class Rules(Protocol):
    """What a search asks of its game (a ``Game`` has it all)."""

    def legal_moves(self, state: State) -> list[Move]: ...
    def play(self, state: State, move: Move) -> State: ...
    def terminal(self, state: State) -> bool: ...
    def label(self, state: State) -> str: ...
    def key(self, state: State) -> Hashable: ...
    def to_move(self, state: State) -> int: ...
    def utility(self, state: State, player: int) -> int: ...


class _Position:
    """One position's answers, with the children played from it so far."""

    __slots__ = ("state", "key", "_label", "terminal", "moves", "children")

    def __init__(self, game: Game, state: State, key: Hashable) -> None:
        self.state = state
        self.key = key
        self._label: str | None = None  # asked for by the searches that count, only
        self.moves = game.legal_moves(state)
        # A game of the lesson's kind is over where no move is left: its moves say it.
        self.terminal = not self.moves if game.terminal is lesson.terminal else game.terminal(state)
        self.children: dict[Move, State] = {}

    def label(self, game: Game) -> str:
        if self._label is None:
            self._label = game.label(self.state)
        return self._label


class Known:
    """``game``'s answers kept by position, as ``Rules``."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._by_key: dict[Hashable, _Position] = {}
        # Each state seen, kept alive here so that its id stays its own.
        self._by_id: dict[int, tuple[State, _Position]] = {}

    def _find(self, state: State) -> _Position:
        seen = self._by_id.get(id(state))
        if seen is not None:
            return seen[1]
        key = self.game.key(state)
        found = self._by_key.get(key)
        if found is None:
            found = self._by_key[key] = _Position(self.game, state, key)
        self._by_id[id(state)] = state, found
        return found

    def legal_moves(self, state: State) -> list[Move]:
        """The game's list itself: searches only read it."""
        return self._find(state).moves

    def play(self, state: State, move: Move) -> State:
        """The child, the same state object each time it is asked for (and for
        every path that reaches its position)."""
        position = self._find(state)
        child = position.children.get(move)
        if child is None:
            child = self._find(self.game.play(position.state, move)).state
            position.children[move] = child
        return child

    def terminal(self, state: State) -> bool:
        return self._find(state).terminal

    def label(self, state: State) -> str:
        return self._find(state).label(self.game)

    def key(self, state: State) -> Hashable:
        return self._find(state).key

    def to_move(self, state: State) -> int:
        return self.game.to_move(state)

    def utility(self, state: State, player: int) -> int:
        return self.game.utility(state, player)


_TABLES: dict[Game, Known] = {}  # a game is its module: one table a game


def known(game: Game) -> Rules:
    """``game`` with its positions kept. A drawn tree's keys are its node
    numbers, the same in every tree: its positions are worked out each time."""
    if game is tree:
        return game
    if game not in _TABLES:
        _TABLES[game] = Known(game)
    return _TABLES[game]
