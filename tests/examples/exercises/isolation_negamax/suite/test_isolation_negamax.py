"""Negamax on mini-isolation: negamax(gameState, depth), a position's value
for the player to move, against the harness's reference search.

The harness has no negamax, and needs none: the value for the player to
move is minimax's ``max_value`` (the player to move is the one searching),
so the reference is the harness's ``Search`` and each known mistake is one
of its ``Flaws``. A negamax that forgets to negate is a ``max_value`` that
calls itself for the children; one that keeps its depth, a search whose
depth never shrinks.
"""

import pytest

from grader.contracts.protocol import describe
from grader.games import isolation, unfinished
from grader.harness.checking import checks, mistakes
from grader.harness.checking.checks import Observation
from grader.harness.checking.probes import SearchProbe
from grader.harness.lesson.search import Flaws, Search

POSITIONS = {
    "unfinished": unfinished(isolation),  # the 121 where the player to move has a move
    "over": [(state, path) for state, path in isolation.positions() if isolation.terminal(state)],
}
# Each known mistake: its id (in this folder's hints.toml, or a shared one) and its model.
MODELS = [
    ("negation_missing", Flaws(recursion_swapped=True)),
    ("depth_not_decremented", Flaws(no_decrement=True)),
    ("flipped_utilities", Flaws(flipped_utilities=True)),
    ("cutoff_before_terminal", Flaws(cutoff_first=True)),
]
VALUE, CALLS = 0, 1  # what a test judges of an answer: (value, terminal tests)
SHOWN = {VALUE: describe, CALLS: lambda calls: f"{calls} calls to terminal_test"}
ASKED: dict = {}  # (positions, depth) -> the student's answers, asked once a run


@pytest.fixture
def search(student):
    return SearchProbe(student, "negamax")


def negamax(flaws, state, depth):
    """(value, terminal tests) of negamax with ``flaws`` (None: the reference)."""
    model = Search(flaws)
    return model.outcome("max_value", state, depth), model.calls


def judge(what, search, positions, depths, part):
    """The student's ``part`` of each answer is the reference's, on every
    position and depth; a wrong one is diagnosed by the models."""
    observations = [o for depth in depths for o in observe(search, positions, depth, part)]

    def likelihood(flaws, observation):
        if checks.raised(observation):
            return 0
        model = negamax(flaws, observation.state, observation.extra["depth"])[part]
        return float(model == observation.answer)

    checks.verdict(what, observations, lambda found: mistakes.diagnose(MODELS, likelihood, found),
                   shown=SHOWN[part], draw=isolation.draw)


def observe(search, positions, depth, part) -> list[Observation]:
    """The student's answers on ``positions`` at ``depth``, judged by ``part``."""
    if (positions, depth) not in ASKED:
        ASKED[positions, depth] = search.counted("negamax", POSITIONS[positions], depth)
    asked = ASKED[positions, depth]

    def agrees(state, answer):
        due = negamax(None, state, depth)[part]
        return answer == due and (part == CALLS or type(answer) in (int, float))

    return checks.collect(POSITIONS[positions], lambda state, path: asked(state, path)[part],
                          agrees, lambda state: SHOWN[part](negamax(None, state, depth)[part]),
                          label={"depth": depth})


def test_terminal_value(search):
    judge("negamax where the player to move is stuck", search, "over", range(3), VALUE)


def test_cutoff(search):
    judge("negamax(gameState, 0)", search, "unfinished", [0], VALUE)


def test_values(search):
    judge("negamax", search, "unfinished", range(1, 6), VALUE)


def test_call_counts(search):
    judge("The number of terminal tests in negamax", search, "unfinished", range(1, 6), CALLS)
