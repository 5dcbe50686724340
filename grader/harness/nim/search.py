"""Negamax with a depth limit, trusted, with optional known flaws.

``Negamax()`` is the reference: the exercise's ``minimax(game, player,
depth, score)``. ``Negamax(NegamaxFlaws(...))`` reproduces a known mistake.
Games are never changed, so every answer is memoised by (game, player,
depth); so are the calls of ``score`` and ``move`` the search makes, as the
grader's stand-ins label them (``games.nim.label``), folded into a size and
a fingerprint of the multiset.
"""

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from grader.games import nim
from grader.games.nim import LOSING_VALUE, WINNING_VALUE
from grader.harness.checking.fingerprints import MASK, fingerprint, weight


@dataclass(frozen=True)
class NegamaxFlaws:
    not_negated: bool = False  # the child's rating used as it is, in the loop over moves
    not_negated_pass: bool = False  # ... and where a stuck player passes
    overwritten: bool = False  # the rating of every move kept, the move of the best
    last_rating: bool = False  # the best move found right, the last move's rating returned
    no_decrement: bool = False  # children (and a pass) searched with the same depth
    same_player: bool = False  # children searched for the same player
    score_opponent: bool = False  # score asked for the opponent
    score_opponent_negated: bool = False  # ... and negated: -score(game, opponent)
    win_loss_swapped: bool = False  # WINNING_VALUE for the loser
    no_hand_over: bool = False  # a stuck player's game is over at once
    hard_coded: bool = False  # the game read as Nim (its coins, its winner)
    stop_at_win: bool = False  # the loop ends at a move rated WINNING_VALUE
    keeps_last: bool = False  # >=: the last of equally rated moves kept


NO_FLAWS = NegamaxFlaws()


@dataclass(frozen=True)
class Calls:
    """The calls of ``score`` and of ``move`` one search makes."""

    scores: int = 0
    moves: int = 0
    print_: int = 0

    def __add__(self, other: "Calls") -> "Calls":
        return Calls(self.scores + other.scores, self.moves + other.moves,
                     (self.print_ + other.print_) & MASK)

    @classmethod
    def of(cls, tested: Counter[str]) -> "Calls":
        scores = sum(n for line, n in tested.items() if line.startswith("s "))
        return cls(scores, tested.total() - scores, fingerprint(tested))


@dataclass
class Negamax:
    flaws: NegamaxFlaws = NO_FLAWS
    _seen: dict[Any, tuple[Any, int, Calls]] = field(default_factory=dict)

    def search(self, game: Any, player: str, depth: int) -> tuple[Any, int, Calls] | None:
        """(move, rating, the calls made) of ``minimax(game, player, depth, score)``;
        None where the model's code would raise (Nim's pile read on a game without one,
        below depth 0)."""
        if self.flaws.hard_coded and depth and type(game) is not nim.Nim:
            if not hasattr(game, "coins"):
                return None
            game = nim.Nim(game.coins, game.players(), game.last)
        key = (type(game).__name__, nim.label(game), player, depth)
        if key not in self._seen:
            self._seen[key] = self._search(game, player, depth)
        return self._seen[key]

    def _known(self, game: Any, player: str, depth: int) -> tuple[Any, int, Calls]:
        """A child's search: a model of hard-coded Nim meets no other game there."""
        found = self.search(game, player, depth)
        assert found is not None  # the root's game decided that
        return found

    def _search(self, game: Any, player: str, depth: int) -> tuple[Any, int, Calls]:
        flaws = self.flaws
        if depth == 0:
            negated = flaws.score_opponent_negated
            scored = game.opponent(player) if flaws.score_opponent or negated else player
            line = f"s {nim.label(game)}"
            rating = nim.score(game, scored)
            return None, -rating if negated else rating, Calls(1, 0, weight(line))
        moves = game.moves(player)
        opponent = game.opponent(player)
        if not moves:
            if game.moves(opponent) and not flaws.no_hand_over:
                _, rating, calls = self._known(game, opponent,
                                               depth if flaws.no_decrement else depth - 1)
                return None, rating if flaws.not_negated_pass else -rating, calls
            winner = game.winner()
            won, lost = (LOSING_VALUE, WINNING_VALUE) if flaws.win_loss_swapped else \
                (WINNING_VALUE, LOSING_VALUE)
            return None, won if winner == player else 0 if winner is None else lost, Calls()
        best, best_rating, calls = None, LOSING_VALUE, Calls()
        for move in moves:
            child = game.move(player, move)
            calls += Calls(0, 1, weight(f"m {player}|{nim.label(game)}|{move}"))
            _, rating, more = self._known(child, player if flaws.same_player else opponent,
                                          depth if flaws.no_decrement else depth - 1)
            calls += more
            rating = rating if flaws.not_negated else -rating
            if best is None or rating > best_rating or \
                    flaws.keeps_last and rating == best_rating:
                best = move
                if not flaws.overwritten:
                    best_rating = rating
            if flaws.overwritten:
                best_rating = rating
            if flaws.stop_at_win and rating == WINNING_VALUE:
                break
        return best, rating if flaws.last_rating else best_rating, calls
