"""Pure, trusted games: the rules the suites grade against, and flawed copies.

A game is a module that offers the small interface below (``Game``), so that
a suite, a reference search or a mistake model can work on any game; a new
game is a package here (found by its ``rules.py``) and an exercise folder,
not a fork of the harness, nor a line of a list.
An instructor's folder of exercises (``--exercises DIR``) may hold games of
the lesson's kind too, in ``DIR/games/<name>/``: they are subpackages of this
one, found on its path. Nothing here imports the host or the harness: the
games run on both sides.
"""

import importlib
import os
import pathlib
from collections.abc import Hashable, Sequence
from typing import Any, Protocol

State = Any  # each game's own state class
Move = Any  # each game's own move: an (x, y) tuple, a count of coins, ...
Path = tuple[Any, ...]  # the moves that reach a position from the start

RULES = "rules.py"  # a game of the lesson's kind: its rules, sent to the worker as source
# The packages here that no exercise names: the agent exercise's boards, which
# the match plays (grader.match), and the drawn trees every search suite runs on.
NOT_EXERCISED = ("knights", "tree")
# The games an exercise.toml may name (``game``): each package here with its rules.
GAMES = tuple(sorted(rules.parent.name for rules in pathlib.Path(__file__).parent.glob(
    f"*/{RULES}") if rules.parent.name not in NOT_EXERCISED))
# The instructor's folders of exercises (``grader.exercises.add``), each with
# its games, if any, in ``games/``.
ADDED = "MINIMAX_GRADER_EXERCISES"


def added() -> dict[str, pathlib.Path]:
    """The games of the instructor's folders by name (``DIR/games/<name>/``,
    with its ``__init__.py`` and ``rules.py``), put on this package's path; the
    grading image holds them in the package itself."""
    found: dict[str, pathlib.Path] = {}
    for root in filter(None, os.environ.get(ADDED, "").split(os.pathsep)):
        games = pathlib.Path(root) / "games"
        for folder in sorted(games.glob(f"*/{RULES}")):
            found.setdefault(folder.parent.name, folder.parent)
        if games.is_dir() and str(games) not in __path__:
            __path__.append(str(games))
    return found


def known() -> list[str]:
    """Every game an exercise may name: the built-in ones and the added ones."""
    return [*GAMES, *sorted(set(added()) - set(GAMES))]


def load(name: str) -> Any:
    """The game ``name`` (an exercise.toml's ``game``): built in, added, or
    held by the grading image's package beside the built-in ones."""
    added()
    try:
        if name.isidentifier():
            return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{name}":
            raise
    raise ValueError(f"no game {name!r}; the games are: {', '.join(known())}")


def unfinished(game: "Game") -> list[tuple[State, Path]]:
    """The positions the game's suites ask about, but those where it is over
    (a decision, or a cutoff, need not handle a finished game)."""
    return [(state, path) for state, path in game.positions() if not game.terminal(state)]


class Flawed(Protocol):
    """A model of one known mistake in a student's rules."""

    @property
    def mistake(self) -> str:
        """Its id in grader/contracts/hints.toml."""

    @property
    def says(self) -> str:
        """What it does, in the student's terms."""


class Game(Protocol):
    """What a suite needs of a game (a module satisfies it with functions)."""

    def start(self) -> State:
        """The position the game starts from."""

    def legal_moves(self, state: State) -> list[Move]:
        """The moves open to the player to move, in the game's own order."""

    def play(self, state: State, move: Move) -> State:
        """A new position: ``move`` played on ``state`` (which stays as it was)."""

    def terminal(self, state: State) -> bool:
        """Whether the game is over at ``state``."""

    def utility(self, state: State, player: int) -> int:
        """A finished game's value for ``player`` (0 or 1): +1 won, -1 lost, 0 drawn."""

    def to_move(self, state: State) -> int:
        """The player to move: 0 or 1."""

    def key(self, state: State) -> Hashable:
        """Equal positions, equal keys."""

    def label(self, state: State) -> str:
        """A position as text: how the grader's stand-ins in the student's process
        name the positions they are called on, so that the tallies compare."""

    def draw(self, state: State) -> str:
        """The position as text, for feedback."""

    def positions(self) -> Sequence[tuple[State, Path]]:
        """Every position the suites ask about, smallest first, with its path."""

    def flawed(self) -> Sequence[Flawed]:
        """The models of known mistakes in the rules."""


class SearchGame(Game, Protocol):
    """A game the lesson's search exercises (helpers, decision, depth limit,
    alpha-beta) can be declared for: its states keep the lesson's GameState
    API (``get_legal_moves()``, ``forecast_move(move)``, ``_parity``), a
    position is over when the player to move has no move, and that player has
    lost. Its ``rules`` module imports nothing: it is sent to the grader's
    stand-ins in the student's process (``harness.runtime.standins``)."""

    def to_data(self, state: State) -> dict[str, Any]:
        """Plain data that describes ``state`` fully (it crosses to the worker)."""

    def from_data(self, data: dict[str, Any]) -> State:
        """The trusted state ``to_data`` described."""

    def descends(self, root: str, label: str) -> bool:
        """Whether the position labelled ``label`` follows from ``root``."""

    def larger(self, kind: str) -> Sequence[tuple[State, Path]]:
        """Chosen positions of a larger board, where code written for the small
        one goes wrong: "decision" (searched to the end) or "depth" (to depth 3)."""


added()  # an instructor's games are importable by name in a process started with them
