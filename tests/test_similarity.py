"""Similar hand-ins (grader.similarity): a copy with its names changed and its
functions moved still matches; the corpus's independently written correct
solutions of an exercise don't, nor does the starter code they all share."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from grader import exercises, similarity, solutions
from grader.batch import similar
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


def starter() -> list[str]:
    return similarity.folder_code(exercises.load(EXERCISE).starter)


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
                                known=starter())
    assert (pair.left, pair.right) == ("ada", "eve") and pair.share >= 0.9
    assert '<mark class="shared">' in pair.right_html and "plies" in pair.right_html


def test_independent_correct_solutions_do_not_match():
    assert similarity.similar(correct_cases(), known=starter()) == []


def test_the_starter_code_is_no_evidence():
    shared = code(exercises.load(EXERCISE).starter)
    assert similarity.ranked({"ada": shared, "bob": shared}, known=starter()) == []
    [pair] = similarity.ranked({"ada": shared, "bob": shared})  # without: all shared
    assert pair.share == 1


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


def ranking(seed: str) -> str:
    """The ranked pairs of the corpus's correct solutions, as a process whose string
    hashes are salted with ``seed`` finds them."""
    script = ("from tests.test_similarity import correct_cases, starter\n"
              "from grader import similarity\n"
              "for pair in similarity.ranked(correct_cases(), known=starter()):\n"
              "    print(pair.left, pair.right, pair.left_share, pair.right_share, pair.shared)\n")
    return subprocess.run([sys.executable, "-c", script], check=True, capture_output=True,
                          text=True, cwd=Path(__file__).parent.parent,
                          env={**os.environ, "PYTHONHASHSEED": seed}).stdout


def test_the_same_files_give_the_same_pairs_and_shares_every_run():
    first = ranking("1")
    assert len(first.splitlines()) >= 6  # independent solutions share something
    assert ranking("2") == first


def test_published_solutions_are_no_evidence():
    """Two students who both handed in the published solution, slightly changed,
    are not flagged once it is known; a copy of each other's own code still is."""
    published = SOLUTION.read_text()
    codes = {"ada": published, "bob": published.replace("alpha", "lo"),
             "eve": disguised(correct_cases()["correct_single_function"]),
             "zoe": correct_cases()["correct_single_function"]}
    assert {(p.left, p.right) for p in similarity.similar(codes, known=starter())} >= {
        ("ada", "bob")}
    found = similarity.similar(codes, known=[*starter(), published])
    assert [(p.left, p.right) for p in found] == [("eve", "zoe")]


def test_a_short_exercise_flags_a_copy_not_the_lines_every_solution_shares():
    helpers = solutions.reference_folder("helpers") / "minimax_helpers.py"
    source = helpers.read_text()
    corpus = {folder.name: code(folder)
              for folder in sorted(solutions.corpus_folder("helpers").glob("correct_*"))}
    known = similarity.folder_code(exercises.load("helpers").starter)
    assert len(source.splitlines()) < 30
    assert similarity.similar({**corpus, "ref": source}, known=known) == []
    ranked = similarity.ranked({**corpus, "ref": source}, known=known)
    assert ranked and max(pair.share for pair in ranked) >= 0.5  # listed, ranked, not flagged
    [pair] = similarity.similar({"ada": source, "eve": source.replace("v ", "best ")},
                                known=known)
    assert pair.flagged and pair.shared >= similarity.MIN_SHARED


def test_a_batch_leaves_out_the_solutions_it_is_told_were_published(tmp_path):
    published = tmp_path / "published" / "week 3"
    published.mkdir(parents=True)
    (published / "alphabeta.py").write_text(SOLUTION.read_text())
    files = {"ada": {"alphabeta.py": SOLUTION.read_text()},
             "eve": {"alphabeta.py": disguised(SOLUTION.read_text())}}
    exercise = exercises.load(EXERCISE)
    assert [entry["students"] for entry in similar.compared(exercise, files, tmp_path)] == [
        ["ada", "eve"]]
    assert similar.compared(exercise, files, tmp_path, tmp_path / "published") == []
    assert not list((tmp_path / similar.FOLDER).glob("*.html"))  # the earlier pair's page
