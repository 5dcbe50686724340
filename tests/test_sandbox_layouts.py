"""The layouts' table: which judge and box each --sandbox choice gets on each
host (its facts faked), the refusals' words, what the reports say of it; and
a real grading in each box this machine has: Docker, bubblewrap, and bare as
an ordinary user.
"""

import itertools
import json
import os
from dataclasses import dataclass

import pytest
import unprivileged
from conftest import skip_loudly, solution

from grader import exercises, grading, layouts, render, report, sandbox
from grader.layouts import AS_ROOT, LAYOUTS, NO_BUBBLEWRAP, NOT_ROOT
from grader.sandbox import local

NO_ENGINE = ("no Docker engine answers (DockerException); start Docker, or grade with "
             "--sandbox local")


@dataclass
class Host:
    """Facts of a host, as layouts.Host asks for them; each one asked is noted."""

    docker: str | None
    bubblewrap: bool
    root: bool

    def __post_init__(self):
        self.asked: set[str] = set()

    def __getattribute__(self, name):
        if name in ("docker", "bubblewrap", "root"):
            object.__getattribute__(self, "asked").add(name)
        return object.__getattribute__(self, name)


# (Docker usable, bubblewrap usable, root) -> what each choice gets: a layout's
# name, or the refusal's words (for auto: the fallback's warning, after "+").
EXPECTED = {
    (True, True, True): {"auto": "docker", "docker": "docker", "local": "bubblewrap",
                         "launcher": "launcher"},
    (True, True, False): {"auto": "docker", "docker": "docker", "local": "bubblewrap",
                          "launcher": NOT_ROOT},
    (True, False, True): {"auto": NO_BUBBLEWRAP + "; and " + AS_ROOT,
                          "docker": NO_BUBBLEWRAP, "local": AS_ROOT, "launcher": "launcher"},
    (True, False, False): {"auto": "bare+" + NO_BUBBLEWRAP, "docker": NO_BUBBLEWRAP,
                           "local": "bare", "launcher": NOT_ROOT},
    (False, True, True): {"auto": "bubblewrap+" + NO_ENGINE, "docker": NO_ENGINE,
                          "local": "bubblewrap", "launcher": "launcher"},
    (False, True, False): {"auto": "bubblewrap+" + NO_ENGINE, "docker": NO_ENGINE,
                           "local": "bubblewrap", "launcher": NOT_ROOT},
    (False, False, True): {"auto": NO_ENGINE + "; and " + AS_ROOT, "docker": NO_ENGINE,
                           "local": AS_ROOT, "launcher": "launcher"},
    (False, False, False): {"auto": "bare+" + NO_ENGINE, "docker": NO_ENGINE, "local": "bare",
                            "launcher": NOT_ROOT},
}


def fake(docker: bool, bubblewrap: bool, root: bool) -> Host:
    return Host(None if docker else NO_ENGINE, bubblewrap, root)


@pytest.mark.parametrize(("facts", "choice"),
                         list(itertools.product(sorted(EXPECTED), layouts.CHOICES)))
def test_each_choice_on_each_host_gets_its_layout_or_a_refusal(facts, choice):
    picked = layouts.pick(choice, fake(*facts))
    expected = EXPECTED[facts][choice]
    name, _, warning = expected.partition("+")
    if name in LAYOUTS:
        assert picked.layout == LAYOUTS[name] and picked.why == ""
        assert (picked.warning != "") == (warning != "")
        assert warning in picked.warning
    else:
        assert picked.layout is None and picked.why == expected and picked.warning == ""


def test_a_host_with_docker_and_no_bubblewrap_never_gets_docker():
    for root in (True, False):
        for choice in layouts.CHOICES:
            assert layouts.pick(choice, fake(True, False, root)).layout != LAYOUTS["docker"]


def test_the_refusals_say_what_to_do():
    for way_out in ("apt-get install bubblewrap", "gradescope-package", "--sandbox local"):
        assert way_out in NO_BUBBLEWRAP
    assert "as root" in AS_ROOT and "--sandbox docker" in AS_ROOT
    assert "unprivileged user" in AS_ROOT
    assert "only as root" in NOT_ROOT
    auto = layouts.pick("auto", fake(False, True, False)).warning
    assert auto.startswith("warning: no Docker engine answers")
    assert auto.endswith("grading in the local sandbox, a bubblewrap boundary")
    bare = layouts.pick("auto", fake(False, False, False)).warning
    assert bare.endswith("which is not a security boundary here (bubblewrap is missing)")


def test_a_choice_asks_only_the_facts_it_needs():
    host = fake(True, True, True)
    layouts.pick("local", host)
    assert host.asked == {"bubblewrap"}
    host = fake(True, True, True)
    layouts.pick("launcher", host)
    assert host.asked == {"root"}
    with pytest.raises(ValueError, match="unknown sandbox 'elsewhere'"):
        layouts.pick("elsewhere", host)


def test_only_bare_and_none_are_not_isolated():
    assert {name for name, layout in LAYOUTS.items() if not layout.isolated} == {"bare", "none"}
    schema = json.loads(report.SCHEMA.read_text())["properties"]["sandbox"]["properties"]
    assert set(schema["layout"]["enum"]) == set(LAYOUTS)
    assert {layout.backend for layout in LAYOUTS.values()} == set(schema["backend"]["enum"])


def test_a_refusal_is_said_once_and_grades_as_an_error_in_no_layout():
    warned = []
    chosen = sandbox.backend("docker", warn=warned.append, host=fake(True, False, True))
    assert isinstance(chosen, sandbox.Refused) and chosen.why == NO_BUBBLEWRAP
    assert warned == [] and sandbox.layout_of(chosen) == LAYOUTS["none"]
    exercise = exercises.load("helpers")
    made = grading.grade(exercise, solution("helpers"), chosen, exercise.limits)
    assert made["status"] == "error" and NO_BUBBLEWRAP in made["message"]
    assert made["sandbox"] | {"limits": None} == {"backend": "none", "layout": "none",
                                                  "isolated": False, "limits": None}
    assert "No code of the student's ran." in render.to_text(made)


def test_auto_warns_once_and_builds_the_fallbacks_box():
    warned = []
    chosen = sandbox.backend("auto", warn=warned.append, host=fake(False, False, False))
    assert isinstance(chosen, local.LocalSandbox) and chosen.layout == LAYOUTS["bare"]
    assert len(warned) == 1 and "not a security boundary" in warned[0]
    refused = sandbox.backend("auto", host=fake(False, False, True))
    assert isinstance(refused, sandbox.Refused) and refused.name == "none"
    assert refused.why == NO_ENGINE + "; and " + AS_ROOT


def test_the_text_report_says_the_layout_and_an_older_report_says_nothing_of_it():
    exercise = exercises.load("helpers")
    made = grading.reject(exercise, "minimax_helpers.py is missing", exercise.limits)
    assert made["sandbox"]["layout"] == "none" and made["sandbox"]["isolated"] is False
    lines = render.to_text(made, width=400).splitlines()
    assert lines[lines.index(made["message"]) + 1] == LAYOUTS["none"].said
    for layout in LAYOUTS.values():
        assert layouts.said({"layout": layout.name}) == layout.said
    assert layouts.said({"backend": "local"}) == ""  # written before the layouts


def graded_in(made: dict, layout: str) -> None:
    """``made`` is a full-marks report that says it was graded in ``layout``."""
    assert made["status"] == "graded" and made["score"] == made["max_score"], made["message"]
    expected = LAYOUTS[layout]
    assert (made["sandbox"]["layout"], made["sandbox"]["isolated"],
            made["sandbox"]["backend"]) == (layout, expected.isolated, expected.backend)
    assert expected.said in render.to_text(made, width=400).splitlines()


def test_a_grading_in_docker_says_so(docker_client):
    chosen = sandbox.backend("docker")
    try:
        exercise = exercises.load("helpers")
        graded_in(grading.grade(exercise, solution("helpers"), chosen, exercise.limits),
                  "docker")
    finally:
        grading.close(chosen)


def test_a_grading_in_bubblewrap_says_so():
    if not local.is_boundary():
        skip_loudly("the bubblewrap sandbox", "bwrap is not installed or can't make its "
                    "namespaces here (apt-get install bubblewrap)")
    chosen = sandbox.backend("local")
    exercise = exercises.load("helpers")
    graded_in(grading.grade(exercise, solution("helpers"), chosen, exercise.limits),
              "bubblewrap")


def test_a_bare_grading_as_an_ordinary_user_says_it_was_not_isolated():
    """The bare local sandbox grades with the warm judge, unwrapped, as an
    ordinary user (as root, the tests' child process drops to one)."""
    if os.geteuid() == 0:
        with unprivileged.own_folder() as own:
            made = unprivileged.grade("helpers", solution("helpers"), own, bubblewrap=False)
    else:
        exercise = exercises.load("helpers")
        made = grading.grade(exercise, solution("helpers"), local.LocalSandbox(bubblewrap=False),
                             exercise.limits)
    graded_in(made, "bare")
