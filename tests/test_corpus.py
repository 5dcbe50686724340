"""The corpus: reference solutions get full marks; each known mistake loses
marks and is named; correct submissions in other styles get full marks.

The expectations live beside each case in ``expect.toml``; the same judge
serves ``minimax-grader check-solutions``.
"""

import pytest

from grader import solutions
from conftest import ROOT, grade

CASES = solutions.cases(ROOT)


def test_the_corpus_is_large_and_covers_every_exercise():
    corpus = [case for case in CASES if case.path.parent.parent.name == "corpus"]
    assert len(corpus) >= 40
    for exercise in ("gamestate", "helpers", "decision", "depth_limit"):
        correct = [c for c in corpus if c.exercise == exercise and c.full_marks]
        assert len(correct) >= 2, exercise


def test_every_known_mistake_has_a_case():
    from grader.harness.mistakes import HINTS

    named = {case.mistake for case in CASES if case.mistake}
    assert set(HINTS) - named == set()


@pytest.mark.parametrize("case", CASES, ids=[case.label for case in CASES])
def test_case(case):
    report = grade(case.exercise, case.path)
    assert solutions.judge(case, report) == []
