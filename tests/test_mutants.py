"""The mutation test of the suites (bench/mutants.py): its mutants are single
changes of the kinds it promises, the survivors it lists as equivalent are
mutants of today's references and answer as they do, and a bounded sample of
mutants, graded as hand-ins, is killed or listed. bench/mutants.py grades
every mutant; here only a few, so that the list of survivors cannot grow
unseen at little cost."""

import ast
import hashlib
import sys

import pytest
from conftest import ROOT

from grader import exercises, solutions
from grader.games import isolation, kayles, unfinished
from grader.harness.lesson import deepening

sys.path.insert(0, str(ROOT / "bench"))
import mutants  # noqa: E402

SAMPLED = 2  # mutants graded in the local sandbox (each 5-20 s on a loaded machine)
EXERCISE = "alphabeta"  # the exercise whose mutants are sampled


def _changes(mutant: mutants.Mutant) -> int:
    """How many top-level statements of the file the mutant changes."""
    name = next(iter(mutant.files))
    before = ast.parse(solutions.reference_folder(mutant.exercise).joinpath(name).read_bytes())
    after = ast.parse(mutant.files[name])
    return sum(ast.dump(a) != ast.dump(b) for a, b in zip(before.body, after.body, strict=True))


@pytest.fixture(scope="module")
def found():
    """The exercise's mutants, made once for the file."""
    return mutants.mutants_of(EXERCISE)


def test_each_mutant_changes_one_function_of_the_students_part(found):
    assert len({m.label for m in found}) == len(found)
    assert len({m.files["alphabeta.py"] for m in found}) == len(found)
    assert all(_changes(m) == 1 for m in found)
    # the given block (terminal_test, call_counter) is never mutated
    assert not any(":terminal_test:" in m.label for m in found)


@pytest.mark.parametrize("change", [
    "min(beta, v) -> v",  # the window set to the value, not narrowed
    "v <= alpha -> v < alpha",  # a comparison's bound
    "v >= beta -> v <= beta",  # a comparison's direction
    "max -> min", "depth - 1 -> depth + 1", "1 -> 0", "'inf' -> '-inf'",
    "beta = min(beta, v) -> (dropped)",
    "max_value(gameState.forecast_move(m), alpha, beta, depth - 1) -> "
    "max_value(gameState.forecast_move(m), beta, alpha, depth - 1)",
])
def test_the_mutants_hold_each_kind_of_change(change, found):
    assert any(m.label.endswith(change) for m in found)


@pytest.mark.parametrize("kind", ["equivalent", "open"])
def test_the_listed_survivors_are_mutants_of_today_with_a_reason(kind):
    listed = mutants.listed(kind)
    assert set(listed) <= set(exercises.known(kind=exercises.SUITE))
    for exercise, survivors in listed.items():
        labels = {m.label for m in mutants.mutants_of(exercise)}
        assert set(survivors) <= labels, f"{exercise}: listed, but no longer a mutant"
        assert all(why.strip() for why in survivors.values())


def test_the_listed_equivalents_answer_as_the_reference():
    for exercise, survivors in mutants.listed("equivalent").items():
        found = {m.label: m for m in mutants.mutants_of(exercise)}
        for label in survivors:
            assert mutants.same_answers(found[label]) in (True, None), label


def test_a_known_hole_is_told_from_the_reference(found):
    # the equivalence check is no rubber stamp: it sees the window set to the value
    overwritten = next(m for m in found if m.label.endswith("min(beta, v) -> v"))
    assert mutants.same_answers(overwritten) is False


def test_a_gamestate_that_forgets_the_turn_is_told_from_the_reference():
    # the GameState's walk is no rubber stamp either
    kept = next(m for m in mutants.mutants_of("gamestate")
                if m.label.endswith("new_state._parity = 1 - self._parity -> (dropped)"))
    assert mutants.same_answers(kept) is False


def test_a_sample_of_mutants_is_killed_or_listed(found):
    # the sample follows the reference: a new reference is sampled anew
    reference = solutions.reference_folder(EXERCISE) / "alphabeta.py"
    seed = int.from_bytes(hashlib.sha256(reference.read_bytes()).digest()[:4], "big")
    chosen = mutants.sample(found, SAMPLED, seed)
    listed = {**mutants.listed("equivalent").get(EXERCISE, {}),
              **mutants.listed("open").get(EXERCISE, {})}
    alive = [m.label for m in chosen if mutants.survives(m)]
    assert [label for label in alive if label not in listed] == []


@pytest.mark.parametrize("exercise", ["iterative_deepening", "kayles_iterative_deepening"])
def test_the_coarse_clocks_tell_a_clock_read_and_ignored_from_any_threshold(exercise):
    """On a clock whose every terminal test costs more than any threshold,
    the reference at every threshold a student may pick makes the same tests,
    no more than the time allows; max_value reading the clock and going on
    (once a survivor: within a tick clock's margin) makes more."""
    game = kayles if exercise.startswith("kayles") else isolation
    states = [s for s, _ in unfinished(game)][:40]
    dropped = next(m for m in mutants.mutants_of(exercise)
                   if m.label.endswith("max_value:52:8: raise SearchTimeout() -> (dropped)"))
    made = {}
    for label, files in (("reference", mutants.unchanged(exercise).files),
                         ("mutant", dropped.files)):
        space, count = mutants._loaded(files["deepening.py"])
        made[label] = []
        for state in states:
            for clock, _ in deepening.clocks(state, game, coarse=True):
                count[0] = 0
                space["get_action"](state, lambda c=clock, n=count: c.budget - c.tick * n[0])
                made[label].append(count[0] - clock.most_tests())
                for threshold in range(1, deepening.MOST_THRESHOLD + 1):
                    run = deepening.deepen(state, clock, threshold, game=game)
                    assert run.finished == [1] and run.calls.total() == clock.most_tests()
    assert made["reference"] and max(made["reference"]) == 0
    assert max(made["mutant"]) > 0
