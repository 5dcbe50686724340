"""Facts about a student's negamax, from the order of its calls of move and score.

The smallest wrong case is asked once more with the calls the grader's games
and score function counted kept in order: ``move`` reports the player, the
game and the move, ``score`` the game. The reference searches the same case,
each of its calls recorded (``Recorded``), and the two orders are walked side
by side: the first call where they part says what the student's search did
there (searched for the wrong player, went below depth 0, stopped before
it, skipped or repeated a move).
"""

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from grader.games import nim
from grader.harness.checking.facts import Fact
from grader.harness.nim.search import NO_FLAWS, Negamax, NegamaxFlaws


@dataclass(eq=False)
class Call:
    """One search of the reference: ``minimax(game, player, depth, score)``."""

    game: Any
    player: str
    depth: int
    children: list[tuple[Any, "Call"]] = field(default_factory=list)  # (move or None, search)


class Recorded(Negamax):
    """The reference negamax, each search recorded as a ``Call`` (none answered
    from what an earlier one found: every call a search makes is walked)."""

    def __init__(self, flaws: NegamaxFlaws = NO_FLAWS) -> None:
        super().__init__(flaws)
        self.stack: list[Call] = []
        self.root: Call | None = None

    def search(self, game: Any, player: str, depth: int) -> Any:
        call = Call(game, player, depth)
        if self.stack:
            parent = self.stack[-1]
            parent.children.append((_move(parent, game), call))
        else:
            self.root = call
        self.stack.append(call)
        try:
            return self._search(game, player, depth)
        finally:
            self.stack.pop()


def _move(parent: Call, game: Any) -> Any:
    """The move of ``parent``'s player that makes ``game`` (None for a pass)."""
    made = nim.label(game)
    return next((take for take in parent.game.moves(parent.player)
                 if nim.label(parent.game.move(parent.player, take)) == made), None)


def lines(call: Call) -> Iterator[tuple[str, Call]]:
    """The counted calls of ``call``'s search in order, as the grader's games
    and score function report them, each with the search that made it."""
    if call.depth == 0:
        yield f"s {nim.label(call.game)}", call
        return
    for move, child in call.children:
        if move is not None:
            yield f"m {call.player}|{nim.label(call.game)}|{move}", call
        yield from lines(child)


def _game(game: Any) -> str:
    """A game as the report writes it: Nim(5, last='A')."""
    kind = type(game).__name__
    state = list(game.piles) if hasattr(game, "piles") else game.coins
    return f"{kind}({state}, last={game.last!r})"


def _parts(line: str) -> tuple[str, str, str, str]:
    """A counted call's line as (kind, player, game label, move); the player
    and the move are empty for a score."""
    kind, _, rest = line.partition(" ")
    if kind == "s":
        return kind, "", rest, ""
    player, _, rest = rest.partition("|")
    label, _, move = rest.rpartition("|")
    return kind, player, label, move


def said(call: Call, ours: str, theirs: str | None, done: int, ahead: bool) -> Fact | None:
    """The fact of the first call where the student's search (``theirs``; None
    where it had stopped) leaves the reference's (``ours``, made by ``call``'s
    search, ``done`` of whose moves came before); ``ahead``: whether the
    reference makes ``theirs`` later (the student's search skipped to it)."""
    at = f"In the search of {_game(call.game)} for {call.player!r} at depth {call.depth}"
    kind, player, label, move = _parts(ours)
    if (theirs is None or ahead) and kind == "m" and done:
        return Fact("moves_not_all_tried", f"{at}, your search stops after {done} of its "
                                           f"moves: taking {move} is never searched there")
    if theirs is None:
        return None
    their_kind, their_player, their_label, their_move = _parts(theirs)
    if their_label != label:
        return None
    if kind == "s" and their_kind == "m":
        return Fact("depth_zero_not_scored", f"{at}, a correct search returns score(game, "
                                             f"{call.player!r}) at once; your search goes on "
                                             f"to game.move({their_player!r}, {their_move})")
    if kind == "m" and their_kind == "s":
        return Fact(None, f"{at}, a correct search goes on to the moves; your search calls "
                          "score there instead")
    if kind == their_kind == "m" and player != their_player:
        return Fact("same_player_searched", f"{at}, your search calls game.move("
                                            f"{their_player!r}, {their_move}): it moves for "
                                            f"{their_player!r}, where {player!r} is to move")
    if kind == their_kind == "m" and their_move in [str(m) for m in _taken(call, done)]:
        return Fact("move_searched_twice", f"{at}, your search takes {their_move} a second "
                                           "time")
    return None


def _not_offered(ours: Sequence[tuple[str, Call]], theirs: str | None) -> Fact | None:
    """The fact of a move the student's search makes in a search of the
    reference's (the same game, the same player) that the game does not offer
    there. No hint: Nim's rules known by heart, its pile read, or another
    search's moves kept all make one."""
    if theirs is None or _parts(theirs)[0] != "m":
        return None
    _, player, label, move = _parts(theirs)
    call = next((c for _, c in ours if c.player == player and nim.label(c.game) == label), None)
    offered = [str(take) for take in call.game.moves(player)] if call else []
    if call is None or move in offered:
        return None
    return Fact(None, f"In the search of {_game(call.game)} for {player!r} at depth "
                      f"{call.depth}, your search calls game.move({player!r}, {move}), a move "
                      f"game.moves({player!r}) does not offer there (it offers "
                      f"{', '.join(offered) or 'none'}): its moves do not come from game.moves")


def _taken(call: Call, done: int) -> list[Any]:
    return [move for move, _ in call.children[:done] if move is not None]


def negamax_fact(case: tuple[Any, str, int], trace: Sequence[tuple[str, str]]) -> Fact | None:
    """The fact the student's search shows on ``case`` by its trace, if any."""
    recorder = Recorded()
    recorder.search(*case)
    assert recorder.root is not None  # it searched
    ours = list(lines(recorder.root))
    theirs = [label for kind, label in trace if kind == "t"]
    at = next((i for i, ((line, _), their) in enumerate(zip(ours, theirs, strict=False))
               if line != their), min(len(ours), len(theirs)))
    if at == len(ours):
        return None  # the same calls, or more of them after: nothing to say here
    line, call = ours[at]
    done = sum(1 for other, by in ours[:at] if by is call and other.startswith("m "))
    went = theirs[at] if at < len(theirs) else None
    return _not_offered(ours, went) or said(call, line, went, done,
                                            went in [other for other, _ in ours[at + 1:]])
