"""Similar hand-ins (grader.similarity): a copy with its names changed and its
functions moved still matches; the corpus's independently written correct
solutions of an exercise don't, nor does the starter code they all share."""

import json
import re
from pathlib import Path

from grader import exercises, similarity, solutions
from grader.cli import main

EXERCISE = "alphabeta"
SOLUTION = solutions.reference_folder(EXERCISE) / "alphabeta.py"
RENAMED = {"gameState": "board", "alpha": "lo", "beta": "hi", "v": "value", "m": "step",
           "best_move": "chosen", "best_score": "top", "depth": "plies"}


def code(folder: Path) -> str:
    return similarity.joined({path.name: path.read_text() for path in folder.glob("*.py")})


def disguised(source: str) -> str:
    """The source with its variables renamed and its functions in reverse order."""
    for old, new in RENAMED.items():
        source = re.sub(rf"\b{old}\b", new, source)
    head, *functions = source.split("\ndef ")
    return "\ndef ".join([head, *reversed(functions)])


def starter() -> str:
    return code(exercises.load(EXERCISE).starter)


def correct_cases() -> dict[str, str]:
    found = {folder.name: code(folder)
             for folder in sorted(solutions.corpus_folder(EXERCISE).glob("correct_*"))}
    assert len(found) >= 4
    return {"solution": code(SOLUTION.parent), **found}


def test_a_disguised_copy_still_matches():
    original = SOLUTION.read_text()
    copy = disguised(original)
    assert copy != original and "def alpha_beta_search(board, plies)" in copy
    [pair] = similarity.similar({"ada": similarity.joined({"alphabeta.py": original}),
                                 "eve": similarity.joined({"alphabeta.py": copy})},
                                starter())
    assert (pair.left, pair.right) == ("ada", "eve") and pair.share >= 0.9
    assert '<mark class="shared">' in pair.right_html and "plies" in pair.right_html


def test_independent_correct_solutions_do_not_match():
    assert similarity.similar(correct_cases(), starter()) == []


def test_the_starter_code_is_no_evidence():
    shared = starter()
    assert similarity.similar({"ada": shared, "bob": shared}, shared) == []
    assert len(similarity.similar({"ada": shared, "bob": shared})) == 1  # without: a match


def test_the_marked_code_is_escaped():
    hostile = "</pre><script>alert(1)</script>\n" + SOLUTION.read_text()
    [pair] = similarity.similar({"ada": hostile, "bob": hostile})
    assert "<script>" not in pair.left_html and "&lt;script&gt;" in pair.left_html


def test_a_batch_lists_the_similar_pair_and_shows_it_side_by_side(tmp_path, capsys):
    folder = tmp_path / "class"
    folder.mkdir()
    original = SOLUTION.read_text()
    independent = correct_cases()["correct_single_function"]
    for student, source in (("ada", original), ("eve", disguised(original)),
                            ("bob", independent)):
        (folder / f"{student}.py").write_text(source)
    out = tmp_path / "out"
    assert main(["batch", "--exercise", EXERCISE, str(folder), "-o", str(out),
                 "--sandbox", "local"]) == 0
    capsys.readouterr()
    made = json.loads((out / "summary.json").read_text())
    [pair] = made["similar"]
    assert pair["students"] == ["ada", "eve"] and max(pair["shares"]) >= 0.9  # not bob
    index = (out / "index.html").read_text()
    assert '<table id="similar"><caption>' in index and 'href="similar/1.html"' in index
    side = (out / pair["page"]).read_text()
    assert side.count('<mark class="shared">') >= 2 and "plies" in side
