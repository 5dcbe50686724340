"""Single-pile Nim, as the negamax exercise hands it to students (``nim.py``).

Two players take turns taking 1, 2 or 3 coins from one pile; whoever takes
the last coin wins. The game follows a small protocol that the student's
search uses and nothing else: ``players``, ``moves``, ``move``,
``opponent``, ``winner``. A game is never changed: ``move`` makes a new one.

This file imports nothing, so that it can be handed out as it is.
"""

# The largest and smallest integers a float holds exactly: a search's rating
# of a won or lost game, beyond any score.
WINNING_VALUE = 2**53 - 1
LOSING_VALUE = -WINNING_VALUE

TAKE = (1, 2, 3)


class Nim:
    """A pile of ``coins``; ``players`` take turns, the first named moving first.

    ``last`` is the player who moved last (None at the start): at an empty
    pile, that player took the last coin and has won.
    """

    def __init__(self, coins: int, players: tuple[str, str] = ("A", "B"),
                 last: str | None = None) -> None:
        if type(coins) is not int or coins < 0:
            raise ValueError(f"a pile holds a whole number of coins, not {coins!r}")
        self.coins = coins
        self._players: tuple[str, str] = tuple(players)  # type: ignore[assignment]
        self.last = last

    def players(self) -> tuple[str, str]:
        """The two players, as a tuple."""
        return self._players

    def moves(self, player: str) -> list[int]:
        """How many coins ``player`` may take: 1, 2 or 3, no more than are left."""
        return [take for take in TAKE if take <= self.coins]

    def move(self, player: str, take: int) -> "Nim":
        """A new game: ``player`` has taken ``take`` coins (this one stays as it was)."""
        if take not in self.moves(player):
            raise ValueError(f"{player} can't take {take!r} of {self.coins} coins")
        return type(self)(self.coins - take, self._players, player)

    def opponent(self, player: str) -> str:
        """The other player."""
        first, second = self._players
        return second if player == first else first

    def winner(self) -> str | None:
        """Who has won: the player who took the last coin; None while coins are left."""
        return self.last if self.coins == 0 else None

    def __repr__(self) -> str:
        return f"Nim({self.coins}, players={self._players!r}, last={self.last!r})"
