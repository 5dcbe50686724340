"""An instructor's game in their own folder: ``DIR/games/<name>/`` beside their
exercises (``--exercises DIR``), found by name like a built-in game, handed
out to students by its name (``provides``), played by the lesson's stand-ins
in the student's process, seen by the local sandbox's supervisor and put in
the grading image. Here: Kayles copied as ``pins``, and kayles_helpers copied
as ``pins_helpers``, declared for it."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grader import cli, exercises, games, image, installs, solutions
from grader.contracts import places, provided
from grader.games import kayles
from grader.harness.runtime import standins
from grader.harness.runtime.standins.isolation import TREE

KAYLES = Path(kayles.__file__).parent


@pytest.fixture
def own_game(tmp_path, monkeypatch):
    """The instructor's folder: games/pins/ and pins_helpers/ (its solution and
    corpus beside it, in ``answers/``); the added folders and the games' path are
    undone after the test."""
    monkeypatch.setenv(exercises.ADDED, "")
    monkeypatch.setattr(games, "__path__", list(games.__path__))
    folder = tmp_path / "mine"
    (folder / "games" / "pins").mkdir(parents=True)
    for name in ("__init__.py", "rules.py"):
        text = (KAYLES / name).read_text("utf-8").replace("games.kayles", "games.pins")
        (folder / "games" / "pins" / name).write_text(text, "utf-8")
    helpers = folder / "pins_helpers"
    shutil.copytree(exercises.ROOT / "kayles_helpers", helpers,
                    ignore=shutil.ignore_patterns("__pycache__"))
    # Declared for pins, whose rules students are handed as pins.py.
    edit(helpers / "exercise.toml", ('game = "kayles"', 'game = "pins"'),
         ('provides = ["kayles"]', 'provides = ["pins"]'))
    edit(helpers / "check.py", ("from kayles import", "from pins import"))
    [suite] = (helpers / "suite").glob("test_*.py")
    edit(suite, ("from grader.games import kayles\n", "from grader.games import pins as kayles\n"))
    shutil.copytree(solutions.reference_folder("kayles_helpers").parent,
                    tmp_path / "answers" / "pins_helpers",
                    ignore=shutil.ignore_patterns("__pycache__"))
    edit(tmp_path / "answers" / "pins_helpers" / "corpus" / IMPORTS_THE_GAME / "minimax_helpers.py",
         ("kayles", "pins"))
    return folder


IMPORTS_THE_GAME = "correct_returns_none_for_false"  # a corpus case: ``import kayles``


def edit(path, *changes):
    """Make each (old, new) change in the file ``path``; each must be there."""
    text = path.read_text("utf-8")
    for old, new in changes:
        assert old in text, (path, old)
        text = text.replace(old, new)
    path.write_text(text, "utf-8")


def grade(capsys, folder, submission):
    code = cli.main(["grade", "--sandbox", "local", "--exercises", str(folder),
                     "--exercise", "pins_helpers", "--format", "json", str(submission)])
    assert code == 0
    return json.loads(capsys.readouterr().out)


def test_an_instructor_s_game_is_graded_locally_with_full_marks(capsys, own_game):
    report = grade(capsys, own_game, own_game.parent / "answers" / "pins_helpers" / "solution")
    assert report["status"] == "graded", report["message"]
    assert report["score"] == report["max_score"] == 10
    assert exercises.load("pins_helpers").game == "pins"
    assert games.load("pins").__name__ == "grader.games.pins"
    assert "pins" in games.known() and games.added()["pins"] == own_game / "games" / "pins"


def test_a_known_mistake_on_an_instructor_s_game_is_named_and_drawn(capsys, own_game):
    case = own_game.parent / "answers" / "pins_helpers" / "corpus" / "flipped_utilities"
    report = grade(capsys, own_game, case)
    failed = {t["name"]: t["message"] for t in report["tests"] if t["status"] != "passed"}
    assert set(failed) == {"test_min_value", "test_max_value"}
    assert "pin  0 1 2 3 4 5" in failed["test_min_value"]  # the game's own drawing
    assert report["score"] < report["max_score"]


def test_the_lesson_s_kit_plays_it_and_the_image_holds_its_rules(own_game):
    exercises.add(own_game)
    assert standins.kit("pins").sources(()) == (TREE, "grader.games.pins.rules")
    judged = dict(installs.judge_files())
    assert judged["grader/games/pins/rules.py"] == own_game / "games" / "pins" / "rules.py"
    assert "exercises/pins_helpers/suite/test_kayles_helpers.py" in judged
    # where the image's launcher looks for a provided module that is a game's rules
    held = dict(image.context_files())
    beside = provided.GAMES.relative_to(places.PACKAGE) / "pins" / provided.RULES
    assert held[f"grader/{beside.as_posix()}"] == own_game / "games" / "pins" / "rules.py"
    assert not [name for name in held if name.startswith("exercises/")]  # the judge's


def test_stub_hands_out_an_instructor_s_game_and_the_self_check_plays_it(capsys, own_game,
                                                                         tmp_path):
    out = tmp_path / "handed"
    assert cli.main(["stub", "--exercises", str(own_game), "pins_helpers", str(out)]) == 0
    rules = own_game / "games" / "pins" / "rules.py"
    assert (out / "pins.py").read_bytes() == rules.read_bytes()
    shutil.copy(own_game.parent / "answers" / "pins_helpers" / "solution" / "minimax_helpers.py",
                out)
    done = subprocess.run([sys.executable, "-I", str(out / "check_pins_helpers.py")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "4 of 4 hold" in done.stdout, done.stdout + done.stderr


def test_a_submission_that_imports_an_instructor_s_game_is_given_it(capsys, own_game):
    report = grade(capsys, own_game,
                   own_game.parent / "answers" / "pins_helpers" / "corpus" / IMPORTS_THE_GAME)
    assert report["status"] == "graded", report["message"]
    assert report["score"] == report["max_score"] == 10


def test_an_exercise_provides_only_a_course_module_or_an_added_game(own_game):
    edit(own_game / "pins_helpers" / "exercise.toml",
         ('provides = ["pins"]', 'provides = ["pawns"]'))
    with pytest.raises(exercises.BadExercise, match="provides: no module 'pawns' to provide"):
        exercises.add(own_game)


def test_a_built_in_game_is_found_by_its_folder_and_handed_out_by_its_name():
    # No list names them: each package of grader/games with its rules.py, but the
    # match's boards and the suites' trees.
    assert games.GAMES == ("isolation", "kayles", "nim", "tictactoe") == tuple(games.known())
    for name in ("nim", "kayles"):
        assert provided.source(name, games.added()) == provided.GAMES / name / provided.RULES
    with pytest.raises(LookupError, match="no module '../nim' to provide"):
        provided.source("../nim")


@pytest.mark.parametrize("spoil, says", [
    (lambda games: (games / "pins" / "rules.py").unlink(), "with its __init__.py and rules.py"),
    (lambda games: (games / "pins").rename(games / "kayles"), "'kayles' is a built-in game's name"),
    (lambda games: [(games / "pins").rename(games.parent.parent / "pins"),
                    (games / "pins").symlink_to(games.parent.parent / "pins")],
     "pins: a link, which an added folder may not hold"),
])
def test_a_games_folder_holds_games_of_the_lesson_s_kind_only(own_game, spoil, says):
    spoil(own_game / "games")
    with pytest.raises(exercises.BadExercise, match=says):
        exercises.add(own_game)
