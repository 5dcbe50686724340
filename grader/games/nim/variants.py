"""Games that follow Nim's protocol but are not Nim, and what the grader asks with.

The negamax exercise runs the student's search on these too: a search that
uses only the protocol (``players``, ``moves``, ``move``, ``opponent``,
``winner``) is right on any of them, one that reads ``coins`` or knows
Nim's rules is not. ``label`` and ``score`` are shared by the grader's
stand-ins in the student's process and its reference search, so that their
tallies compare. This file imports nothing.
"""

TAKE = (1, 2, 3)


class _TwoPlayers:
    """What the games share: two players taking turns, ``last`` moved last."""

    _players: tuple[str, str]
    last: str | None

    def players(self) -> tuple[str, str]:
        return self._players

    def opponent(self, player: str) -> str:
        first, second = self._players
        return second if player == first else first


class MisereNim(_TwoPlayers):
    """Nim where whoever takes the last coin loses."""

    def __init__(self, coins: int, players: tuple[str, str] = ("A", "B"),
                 last: str | None = None) -> None:
        self.coins = coins
        self._players = tuple(players)  # type: ignore[assignment]
        self.last = last

    def moves(self, player: str) -> list[int]:
        return [take for take in TAKE if take <= self.coins]

    def move(self, player: str, take: int) -> "MisereNim":
        if take not in self.moves(player):
            raise ValueError(f"{player} can't take {take!r} of {self.coins} coins")
        return type(self)(self.coins - take, self._players, player)

    def winner(self) -> str | None:
        if self.coins or self.last is None:
            return None
        return self.opponent(self.last)


class OwnPiles(_TwoPlayers):
    """Each player takes 1, 2 or 3 coins from their own pile. A player whose
    pile is empty can't move, and the other moves again; when both piles
    are empty, whoever took the last coin has won."""

    def __init__(self, piles: tuple[int, int], players: tuple[str, str] = ("A", "B"),
                 last: str | None = None) -> None:
        self.piles = tuple(piles)
        self._players = tuple(players)  # type: ignore[assignment]
        self.last = last

    def _own(self, player: str) -> int:
        return self._players.index(player)

    def moves(self, player: str) -> list[int]:
        return [take for take in TAKE if take <= self.piles[self._own(player)]]

    def move(self, player: str, take: int) -> "OwnPiles":
        if take not in self.moves(player):
            raise ValueError(f"{player} can't take {take!r} from {self.piles}")
        piles = list(self.piles)
        piles[self._own(player)] -= take
        return type(self)((piles[0], piles[1]), self._players, player)

    def winner(self) -> str | None:
        return None if any(self.piles) else self.last


def label(game: object) -> str:
    """A game's state as text (its attributes, which any of these games keep plain)."""
    return ",".join(f"{name}={value!r}" for name, value in sorted(vars(game).items()))


def score(game: object, player: str) -> int:
    """The grader's score of an unfinished game for ``player``: an integer from
    -9 to 9 that looks arbitrary and differs between the two players, so that
    a score asked from the wrong side shows."""
    text = label(game) + "/" + str(player)
    return sum((index + 1) * ord(char) for index, char in enumerate(text)) % 19 - 9


def kinds(nim: type) -> dict[str, type]:
    """The games by the name the wire gives them, Nim itself being ``nim``
    (passed in: this file imports nothing, not even the rules)."""
    return {"nim": nim, "misere": MisereNim, "piles": OwnPiles}
