"""The referee: plays one game between two agents, on the trusted rules.

The opening's moves are the referee's (fixed by a seed, the same for both
sides of a pairing); then each agent is asked in turn. A player with no move
has lost; a fault on a player's turn (out of time, an illegal move, a raise, a
crash, a print flood, the forfeit ``(-1, -1)``) loses that game, with the
reason said plainly. A move
the backstop ended within the agent's own limits (its machine gave it no CPU)
loses nothing: the game is ``void``, and its tournament plays it again.
"""

from dataclasses import asdict, dataclass, field
from typing import Any

from grader.games.isolation.rules import draw
from grader.games.knights.rules import new_board
from grader.match.player import Agent, Limits

Move = tuple[int, int]
FORFEIT = (-1, -1)  # isolation.Board's agents return it when they give up


@dataclass
class Ply:
    """One move: by the referee (``agent`` False: the opening) or by the player."""

    player: int
    move: Move
    agent: bool = True
    cpu: float | None = None
    wall: float | None = None
    depth: int | None = None
    waited: float | None = None  # of the wall time, the wait for a CPU busy with others


@dataclass
class Game:
    id: str
    variant: str
    seed: int
    names: tuple[str, str]  # who played first, second
    plies: list[Ply] = field(default_factory=list)
    winner: int | None = None  # 0 or 1; None when both failed to start, or void
    reason: str = ""
    void: bool = False  # not played to its end, through no fault of either agent
    output: dict[str, str] = field(default_factory=dict)  # what each printed (capped)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Game":
        plies = [Ply(**{**ply, "move": tuple(ply["move"])}) for ply in data["plies"]]
        return cls(**{**data, "names": tuple(data["names"]), "plies": plies})

    def loser(self) -> str | None:
        return None if self.winner is None else self.names[self.winner ^ 1]


def play(game_id: str, variant: str, opening: list[Move], agents: tuple[Agent, Agent],
         limits: Limits, seed: int) -> Game:
    """One game: ``agents[0]`` moves first."""
    record = Game(game_id, variant, seed, (agents[0].name, agents[1].name))
    state = new_board(variant)
    for move in opening:
        record.plies.append(Ply(state.player(), move, agent=False))
        state = state.forecast_move(move)
    starts = [agent.new_game(variant, seat, seed + seat) for seat, agent in enumerate(agents)]
    faults = [start.fault for start in starts]
    void = [seat for seat, start in enumerate(starts) if not start.charged]
    if void:
        seat = void[0]
        record.void, record.reason = True, f"{agents[seat].name} {faults[seat]}"
    elif all(faults):
        record.reason = f"neither agent started: {faults[0]}; {faults[1]}"
    elif any(faults):
        seat = faults.index(next(f for f in faults if f))
        record.winner, record.reason = seat ^ 1, f"{agents[seat].name} {faults[seat]}"
    while record.reason == "":
        seat = state.player()
        legal = state.get_legal_moves()
        if not legal:
            record.winner, record.reason = seat ^ 1, f"{agents[seat].name} had no move left"
            break
        answer = agents[seat].move(state, limits)
        reply, why = answer.reply, answer.fault
        if not answer.charged:
            record.void, record.reason = True, f"{agents[seat].name} {why}"
            break
        if why is None and reply.error is not None:
            why = f"raised {reply.error}"
        elif why is None and reply.move == FORFEIT:
            why = f"forfeited: returned {FORFEIT} with legal moves left"
        elif why is None and reply.move not in legal:
            why = f"returned {reply.shown}, which is no legal move (legal: {sorted(legal)})"
        if why is not None:
            record.winner, record.reason = seat ^ 1, f"{agents[seat].name} {why}"
            break
        assert reply.move is not None
        waited = None if answer.waited is None else round(answer.waited, 4)
        record.plies.append(Ply(seat, reply.move, True, round(answer.cpu, 4),
                                round(answer.wall, 4), reply.depth, waited))
        state = state.forecast_move(reply.move)
    record.output = {agent.name: text for agent in agents if (text := agent.output())}
    return record


def replay(game: Game) -> str:
    """The game move by move, the board drawn after each, as text."""
    state = new_board(game.variant)
    lines = [f"{game.names[0]} (player 1) against {game.names[1]} (player 2), "
             f"{game.variant}, game {game.id}", draw(state)]
    for number, ply in enumerate(game.plies, 1):
        state = state.forecast_move(ply.move)
        lines += ["", describe(game, number, ply), draw(state)]
    lines += ["", result(game)]
    return "\n".join(lines)


def describe(game: Game, number: int, ply: Ply) -> str:
    """One move in words: who, where, and its time and depth (or that it opened)."""
    who = f"player {ply.player + 1} ({game.names[ply.player]})"
    if not ply.agent:
        facts = "the opening, placed by the referee"
    else:
        facts = f"{ply.cpu:.3f} s CPU, {ply.wall:.3f} s wall"
        facts += f" ({ply.waited:.3f} s waiting for a CPU)" if ply.waited else ""
        facts += f", searched to depth {ply.depth}" if ply.depth is not None else ""
    return f"move {number}: {who} to {ply.move} ({facts})"


def result(game: Game) -> str:
    if game.void:
        return f"not played to its end (not counted): {game.reason}"
    winner = "nobody" if game.winner is None else game.names[game.winner]
    return f"won by {winner}: {game.reason}"
