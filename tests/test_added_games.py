"""An instructor's game in their own folder: ``DIR/games/<name>/`` beside their
exercises (``--exercises DIR``), found by name like a built-in game, played by
the lesson's stand-ins in the student's process, seen by the local sandbox's
supervisor and put in the grading image. Here: Kayles copied as ``pins``, and
kayles_helpers copied as ``pins_helpers``, declared for it."""

import json
import shutil
from pathlib import Path

import pytest

from grader import cli, exercises, games, image, solutions
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
    toml = helpers / "exercise.toml"
    toml.write_text(toml.read_text("utf-8").replace('game = "kayles"', 'game = "pins"'), "utf-8")
    [suite] = (helpers / "suite").glob("test_*.py")
    suite.write_text(suite.read_text("utf-8").replace(
        "from grader.games import kayles\n", "from grader.games import pins as kayles\n"), "utf-8")
    shutil.copytree(solutions.reference_folder("kayles_helpers").parent,
                    tmp_path / "answers" / "pins_helpers",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return folder


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


def test_the_lesson_s_kit_plays_it_and_the_image_holds_it(own_game):
    exercises.add(own_game)
    assert standins.kit("pins").sources(()) == (TREE, "grader.games.pins.rules")
    held = dict(image.context_files())
    assert held["grader/games/pins/rules.py"] == own_game / "games" / "pins" / "rules.py"
    assert "exercises/pins_helpers/suite/test_kayles_helpers.py" in held


@pytest.mark.parametrize("spoil, says", [
    (lambda games: (games / "pins" / "rules.py").unlink(), "with its __init__.py and rules.py"),
    (lambda games: (games / "pins").rename(games / "kayles"), "'kayles' is a built-in game's name"),
])
def test_a_games_folder_holds_games_of_the_lesson_s_kind_only(own_game, spoil, says):
    spoil(own_game / "games")
    with pytest.raises(exercises.BadExercise, match=says):
        exercises.add(own_game)
