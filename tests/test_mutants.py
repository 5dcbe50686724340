"""The mutation test of the suites (bench/mutants.py): its mutants are single
changes of the kinds it promises, the survivors it lists are mutants of
today's references with a reason, those it lists as equivalent answer as
the references do (bench/equivalence.py, run here: the lab's searches from
boards of three marks or more), and a bounded sample of mutants, graded as
hand-ins, is killed or listed. bench/mutants.py grades every mutant (hours
on two cores) and ``python bench/equivalence.py`` checks every equivalent
on every board; here only what keeps the list of survivors from growing
unseen, at little cost."""

import ast
import hashlib
import sys

import pytest
from conftest import ROOT

from grader import exercises, solutions
from grader.games import isolation, kayles, unfinished
from grader.harness.lesson import deepening

sys.path.insert(0, str(ROOT / "bench"))
import equivalence  # noqa: E402
import mutants  # noqa: E402

SAMPLED = 2  # mutants graded in the local sandbox (each 5-20 s on a loaded machine)
EXERCISE = "alphabeta"  # the exercise whose mutants are sampled
# The lab's searches are checked from boards this full (a plain search from
# every board takes 13 s a mutant, from these 3 s; the full check is
# ``python bench/equivalence.py``).
LAB_MARKS = 3
EQUIVALENTS_SAMPLED = 2  # of each exercise's listed equivalents (the lab lists dozens)


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


@pytest.mark.parametrize("kind", ["equivalent", "allowed", "open"])
def test_the_listed_survivors_are_mutants_of_today_with_a_reason(kind):
    listed = mutants.listed(kind)
    assert set(listed) <= set(exercises.known(kind=exercises.SUITE))
    for exercise, survivors in listed.items():
        labels = {m.label for m in mutants.mutants_of(exercise)}
        assert set(survivors) <= labels, f"{exercise}: listed, but no longer a mutant"
        assert all(why.strip() for why in survivors.values())


def _seed(exercise: str) -> int:
    """A sample's seed that follows the reference: a new one is sampled anew."""
    files = mutants.reference_files(exercise)
    digest = hashlib.sha256(b"".join(files[name] for name in sorted(files))).digest()
    return int.from_bytes(digest[:4], "big")


@pytest.mark.parametrize("exercise", sorted(mutants.listed("equivalent")))
def test_a_sample_of_the_listed_equivalents_answer_as_the_reference(exercise):
    found = {m.label: m for m in mutants.mutants_of(exercise)}
    listed = sorted(mutants.listed("equivalent")[exercise])
    for label in mutants.sample(listed, EQUIVALENTS_SAMPLED, _seed(exercise)):
        assert equivalence.same_answers(found[label], LAB_MARKS) in (True, None), label


@pytest.mark.parametrize("exercise, change", [
    # the window set to the value: a decision's answers see it ...
    ("alphabeta", "min_value:25:15: min(beta, v) -> v"),
    # ... and a deepening's, on a budget of the 4 x 3 board
    ("iterative_deepening", "min_value:46:15: min(beta, v) -> v"),
    # a GameState that forgets to hand the turn over
    ("gamestate", "new_state._parity = 1 - self._parity -> (dropped)"),
    # the lab's alpha-beta pruning on a strict bound: other is_end calls only
    ("tic_tac_toe_alphabeta", "maxv >= beta -> maxv > beta"),
    # the lab's max leaving its mark on the board
    ("tic_tac_toe", "Game.max:85:20: self.current_state[i][j] = '.' -> (dropped)"),
])
def test_the_equivalence_check_tells_a_killed_mutant_from_the_reference(exercise, change):
    # the check is no rubber stamp: each of its kinds sees a mistake the suite kills
    killed = next(m for m in mutants.mutants_of(exercise) if m.label.endswith(change))
    assert equivalence.same_answers(killed, LAB_MARKS) is False


def test_a_sample_of_mutants_is_killed_or_listed(found):
    chosen = mutants.sample(found, SAMPLED, _seed(EXERCISE))
    listed = {label: why for kind in ("equivalent", "allowed", "open")
              for label, why in mutants.listed(kind).get(EXERCISE, {}).items()}
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
        space, tests = equivalence.loaded(files["deepening.py"])
        made[label] = []
        for state in states:
            for clock, _ in deepening.clocks(state, game, coarse=True):
                tests.reset()
                space["get_action"](state, lambda c=clock, t=tests: c.budget - c.tick * t.total)
                made[label].append(tests.total - clock.most_tests())
                for threshold in range(1, deepening.MOST_THRESHOLD + 1):
                    run = deepening.deepen(state, clock, threshold, game=game)
                    assert run.finished == [1] and run.calls.total() == clock.most_tests()
    assert made["reference"] and max(made["reference"]) == 0
    assert max(made["mutant"]) > 0
