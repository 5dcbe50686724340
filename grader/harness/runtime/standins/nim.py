"""Negamax on Nim: the grader's counting games and score function.

Nothing of the student's is replaced: the search is handed the grader's own
objects. Each game is a counting subclass of a trusted game class whose
``move`` reports every call (a ``t m`` line naming the player, the game and
the move) before it moves, and the score function reports every call (a
``t s`` line naming the game: for whom it scores is the answers' business)
before it answers; ``move`` makes games of the same counting
class, so the whole tree counts.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Collection, Mapping

from grader.contracts import protocol

TYPE_CHECKING = False  # typing is for mypy only: importing it slows every start
if TYPE_CHECKING:
    from typing import Any

COUNTED: tuple[str, ...] = ()
RULES, VARIANTS = "grader.games.nim.rules", "grader.games.nim.variants"


def sources(grant: Collection[str]) -> tuple[str, ...]:
    """Nim (which the course hands out as nim.py) and the other games the
    search is run on: the games the student's search is handed, always."""
    return (RULES, VARIANTS)


def load(provided: str, module_names: list[str], games: Mapping[str, types.ModuleType]
         ) -> types.SimpleNamespace:
    """The games, by the name the wire gives them, and their label and score."""
    variants = games[VARIANTS]
    return types.SimpleNamespace(modules=(games[RULES], variants), label=variants.label,
                                 score=variants.score, kinds=variants.kinds(games[RULES].Nim),
                                 base=variants._TwoPlayers)


def guarded(trusted: types.SimpleNamespace) -> list[object]:
    return [*trusted.modules, trusted.base, *trusted.kinds.values()]


KNOWN_LABELS = 100_000  # games whose label a worker keeps (a search of the suite meets fewer)


def _labels(label: Callable[[Any], str]) -> Callable[[Any], str]:
    """``label``, worked out once for games whose attributes are the same
    values of the same types, then looked up: every counted call labels its
    game, and a search meets the same games again and again. An attribute
    that can't be hashed (a list set by the student's code) is labelled each
    time; so is every game once the cache is full."""
    def labelled(game: Any, _label: Callable[[Any], str] = label,
                 _known: dict[object, str] = {},  # noqa: B006 (a cache, guarded)
                 _vars: Callable[[Any], Any] = vars, _tuple: type[tuple[Any, ...]] = tuple,
                 _map: Callable[..., Any] = map, _type: type[type] = type,
                 _len: Callable[[Any], int] = len, _most: int = KNOWN_LABELS) -> str:
        try:
            state = _vars(game)
            key = (_tuple(state.items()), _tuple(_map(_type, state.values())))
            found = _known.get(key)
        except TypeError:
            return _label(game)
        if found is None:
            found = _label(game)
            if _len(_known) < _most:
                _known[key] = found
        return found

    return labelled


def _counted(game: type, tick: Callable[[bytes], object], label: Callable[[Any], str]) -> type:
    """``game``'s class with a ``move`` that reports each call."""
    def move(self: Any, player: Any, take: Any, _tick: Callable[[bytes], object] = tick,
             _move: Callable[..., Any] = game.move,  # type: ignore[attr-defined]
             _label: Callable[[Any], str] = label,
             _line: bytes = protocol.TESTED + b"m ", _str: type[str] = str) -> Any:
        _tick(_line + f"{_str(player)}|{_label(self)}|{_str(take)}".encode() + b"\n")
        return _move(self, player, take)

    return type(game.__name__, (game,), {"move": move, "__module__": game.__module__,
                                         "__qualname__": game.__qualname__})


def arguments(trusted: types.SimpleNamespace, tick: Callable[[bytes], object]
              ) -> tuple[Callable[[object], object], list[object]]:
    """What ``{"trusted": data}`` stands for: ``["game", kind, state, players,
    last]`` a counting game, ``["score"]`` the counting score function; and
    the classes made, for the guard."""
    label = _labels(trusted.label)
    counted = {kind: _counted(game, tick, label) for kind, game in trusted.kinds.items()}

    def score(game: Any, player: Any, _tick: Callable[[bytes], object] = tick,
              _label: Callable[[Any], str] = label,
              _score: Callable[[Any, Any], int] = trusted.score,
              _line: bytes = protocol.TESTED + b"s ", _str: type[str] = str,
              _type: type[type] = type,
              _known: dict[tuple[str, str], int] = {}) -> int:  # noqa: B006 (a cache, guarded)
        text = _label(game)
        _tick(_line + text.encode() + b"\n")  # the game only: a count, not a value
        if _type(player) is not _str:
            return _score(game, player)
        # A score is the game's label's and the player's: once worked out, looked up.
        found = _known.get((text, player))
        if found is None:
            found = _known[text, player] = _score(game, player)
        return found

    def convert(data: Any, _counted: dict[str, type] = counted, _score: Callable[..., int] = score,
                _tuple: type[tuple[Any, ...]] = tuple) -> object:
        if data[0] == "score":
            return _score
        _, kind, state, players, last = data
        return _counted[kind](_tuple(state) if kind == "piles" else state, _tuple(players), last)

    return convert, [*counted.values(), score, convert, label]


def owner(module: types.ModuleType) -> object:
    return None


def stand_ins(module: types.ModuleType, trusted: types.SimpleNamespace,
              tick: Callable[[bytes], object], grant: Collection[str]
              ) -> dict[tuple[str, bool], Callable[..., object]]:
    return {}
