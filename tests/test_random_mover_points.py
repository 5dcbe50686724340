"""What the point rule gives a random mover and a strong agent, on synthetic
results: each game's winner drawn from a fixed win rate, everything else a
grading's own (its openings, the sequential stop, the intervals, the points).

The random mover's rates are those bench/random_mover.py measured in real games
at the exercise's settings (100 games an opponent: 44% against random, taken as
a coin, 8% against minimax, 1% against alpha-beta). The strong agent's are those
of an agent that beats alpha-beta two games in three (the reference agent won
all its games against random and minimax, and one in two against alpha-beta:
it earns full marks in most gradings, not in every one).
"""

import random
from types import SimpleNamespace

import pytest

from grader.match import points, referee
from grader.match.config import load as load_config
from grader.match.referee import Game
from grader.match.tournament import Store

RANDOM_MOVER = {"random": 0.5, "minimax": 0.08, "alphabeta": 0.01}
STRONG = {"random": 1.0, "minimax": 0.95, "alphabeta": 0.65}


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch):
    """Games decided by a draw: ``agent`` wins against each opponent at its rate."""
    rates: dict[str, float] = {}

    def play(game_id, variant, opening, agents, limits, seed):
        names = (agents[0].name, agents[1].name)
        opponent = next(name for name in names if name != "agent")
        won = random.Random(seed).random() < rates[opponent]
        winner = names.index("agent") ^ (0 if won else 1)
        return Game(game_id, variant, seed, names, winner=winner,
                    reason=f"{names[winner ^ 1]} had no move left")

    monkeypatch.setattr(referee, "play", play)
    return rates


def graded(tmp_path, rates: dict[str, float], seed: int) -> list[points.Standing]:
    config = load_config()
    settings = config.settings.__class__(**{**config.settings.__dict__, "seed": seed})
    config = config.__class__(**{**config.__dict__, "settings": settings})
    store = Store(tmp_path / f"games-{seed}.jsonl", settings)
    return points.play("agent", config, lambda who: SimpleNamespace(name=who, close=lambda: 0),
                       store)


def test_a_random_mover_earns_at_most_1_of_10_in_each_of_ten_gradings(drawn, tmp_path):
    drawn.update(RANDOM_MOVER)
    earned = [sum(s.points for s in graded(tmp_path, RANDOM_MOVER, seed))
              for seed in range(2026, 2036)]
    assert max(earned) <= 1.0, earned
    assert len(set(earned)) > 1  # the draws differ from seed to seed


def test_a_random_movers_strongest_pairing_stops_at_12_lost_games(drawn, tmp_path):
    drawn.update({"random": 0.5, "minimax": 0.0, "alphabeta": 0.0})
    table = graded(tmp_path, drawn, 2026)
    against = {s.opponent.name: s for s in table}
    assert (against["alphabeta"].wins, len(against["alphabeta"].games)) == (0, 12)
    assert against["alphabeta"].points == 0 and against["minimax"].points == 0


def test_a_strong_agent_earns_full_marks_in_each_of_ten_gradings(drawn, tmp_path):
    drawn.update(STRONG)
    for seed in range(2026, 2036):
        table = graded(tmp_path, STRONG, seed)
        assert sum(s.points for s in table) == 10, [(s.wins, len(s.games)) for s in table]
