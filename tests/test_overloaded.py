"""A run the machine starved has no verdict: its report is an error that says
so, charged nothing, and the front ends grade it again."""

import copy

import pytest
from conftest import solution

from grader import exercises, grading, report
from grader.contracts import events
from grader.contracts.owntime import OwnClock
from grader.layouts import LAYOUTS
from grader.sandbox import Run, cgroups, outcome

WRAPPED = LAYOUTS["bubblewrap"]  # the layout of the runs these reports stand for

EXERCISE = exercises.load("helpers")


def starved_run(**facts):
    return Run(backend="local", limits=EXERCISE.limits.facts(), overloaded=True,
               time={"cpu_seconds": 1.0, "own_seconds": 2.0, "wall_seconds": 90.0}, **facts)


def test_a_starved_run_is_an_error_that_says_so_and_charges_nothing():
    made = report.validate(report.build(EXERCISE, None, starved_run(), 1, WRAPPED))
    assert made["status"] == "error" and made["score"] is None
    assert made["sandbox"]["overloaded"] and report.overloaded(made)
    assert "too busy" in made["message"] and "No score was charged" in made["message"]
    assert {t["status"] for t in made["tests"]} == {"error"}


def test_a_verdict_made_before_the_machine_starved_the_run_does_not_stand():
    passed = events.verdict(EXERCISE.tests[0].name, "passed", "", [], False, 5)
    made = report.build(EXERCISE, None, starved_run(events=[passed]), 1, WRAPPED)
    assert made["status"] == "error" and made["tests"][0]["status"] == "error"


def test_the_supervisor_s_word_that_a_step_starved_makes_the_run_starved():
    results = events.line(events.overloaded("the machine was too busy")).encode()
    timed = outcome.Timed(ended=True, overloaded=False, used={})
    run = outcome.finished("local", EXERCISE.limits, results, b"", timed, OwnClock())
    assert run.overloaded and not run.timed_out


def graded(score):
    made = report.grader_error(EXERCISE, None, "x", WRAPPED, EXERCISE.limits.facts())
    made.update(status="graded", score=score)
    return made


def starved():
    made = report.build(EXERCISE, None, starved_run(), 1, WRAPPED)
    return copy.deepcopy(made)


def test_a_starved_grading_is_made_again_after_a_pause_that_grows():
    made, pauses = iter([[starved()], [starved()], [graded(7)]]), []
    kept = grading.until_timed(lambda: next(made), pause=pauses.append)
    assert kept[0]["score"] == 7 and pauses == [grading.LOAD_PAUSE_SECONDS,
                                                 2 * grading.LOAD_PAUSE_SECONDS]


def test_a_grading_starved_every_time_ends_in_its_error_report():
    pauses = []
    kept = grading.until_timed(lambda: [starved()], pause=pauses.append)
    assert report.overloaded(kept[0]) and len(pauses) == grading.LOAD_TRIES - 1


def test_a_grading_is_not_made_again_for_any_other_error(tmp_path):
    made = []
    kept = grading.until_timed(lambda: made.append(1) or [report.grader_error(
        EXERCISE, None, "no sandbox", WRAPPED, EXERCISE.limits.facts())], pause=pytest.fail)
    assert len(made) == 1 and kept[0]["status"] == "error" and not report.overloaded(kept[0])


def test_a_report_says_what_the_run_used_and_by_which_clock():
    made = grading.grade(EXERCISE, solution("helpers"), grading.open_sandbox("local"),
                         EXERCISE.limits)
    used = made["sandbox"]["used"]
    assert made["score"] == made["max_score"]
    assert 0 < used["cpu_seconds"] and 0 < used["own_seconds"] <= used["wall_seconds"]
    # Timed by its control group wherever one can be made (as root here, and in CI).
    assert made["sandbox"]["clock"] == ("wall" if cgroups.available() else "kernel")
