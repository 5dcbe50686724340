"""Taking in submissions: what is accepted, what is rejected and how it is said."""

import os
import stat
import zipfile

import pytest

from grader import intake

FILES = ("gamestate.py",)
CODE = b"class GameState:\n    pass\n"


def zipped(path, entries, links=()):
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
        for name in links:
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, "/etc/passwd")
    return path


def rejected(path, files=FILES):
    with pytest.raises(intake.Rejected) as caught:
        intake.take(path, files)
    return str(caught.value)


def test_folder_takes_the_exercise_files_and_lists_the_rest(tmp_path):
    (tmp_path / "gamestate.py").write_bytes(CODE)
    (tmp_path / "notes.txt").write_text("scratch")
    (tmp_path / "__pycache__").mkdir()
    taken = intake.take(tmp_path, FILES)
    assert taken.files == {"gamestate.py": CODE}
    assert taken.ignored == ["notes.txt"]
    [entry] = taken.manifest()
    assert entry["name"] == "gamestate.py" and entry["bytes"] == len(CODE)
    assert len(entry["sha256"]) == 64


def test_the_py_file_itself(tmp_path):
    path = tmp_path / "gamestate.py"
    path.write_bytes(CODE)
    assert intake.take(path, FILES).files == {"gamestate.py": CODE}


def test_a_py_file_with_another_name_is_rejected(tmp_path):
    path = tmp_path / "my_game.py"
    path.write_bytes(CODE)
    assert "named my_game.py; this exercise grades gamestate.py" in rejected(path)


def test_a_missing_file_names_what_was_found(tmp_path):
    (tmp_path / "game.py").write_bytes(CODE)
    assert rejected(tmp_path) == "gamestate.py is missing (found: game.py)"


def test_a_file_named_in_the_wrong_case_is_pointed_out(tmp_path):
    (tmp_path / "GameState.py").write_bytes(CODE)
    assert "found GameState.py: rename it to gamestate.py" in rejected(tmp_path)


def test_empty_file(tmp_path):
    (tmp_path / "gamestate.py").write_bytes(b"  \n")
    assert rejected(tmp_path) == "gamestate.py is empty"


def test_file_too_large(tmp_path):
    (tmp_path / "gamestate.py").write_bytes(b"#" * (intake.MAX_FILE_BYTES + 1))
    assert "the limit is" in rejected(tmp_path)


def test_not_utf8_names_the_line(tmp_path):
    (tmp_path / "gamestate.py").write_bytes(b"x = 1\ny = '\xff'\n")
    assert rejected(tmp_path) == (
        "gamestate.py is not UTF-8 text (byte 0xff on line 2); save it as UTF-8")


def test_symlink_in_a_folder_is_rejected(tmp_path):
    os.symlink("/etc/passwd", tmp_path / "gamestate.py")
    assert "not a regular file" in rejected(tmp_path)


def test_zip_with_a_folder_inside(tmp_path):
    path = zipped(tmp_path / "s.zip", {"hw/gamestate.py": CODE, "hw/readme.md": "hi",
                                       "__MACOSX/hw/._gamestate.py": "junk"})
    taken = intake.take(path, FILES)
    assert taken.files == {"gamestate.py": CODE}
    assert taken.ignored == ["hw/readme.md"]


@pytest.mark.parametrize("name", ["../gamestate.py", "/tmp/gamestate.py", "a/../../gamestate.py",
                                  "C:\\gamestate.py"])
def test_zip_entries_that_leave_the_folder_are_rejected(tmp_path, name):
    path = zipped(tmp_path / "s.zip", {name: CODE})
    assert "points outside the folder" in rejected(path)


def test_zip_with_a_link_is_rejected(tmp_path):
    path = zipped(tmp_path / "s.zip", {}, links=["gamestate.py"])
    assert "is a link" in rejected(path)


def test_zip_with_two_candidates_is_rejected(tmp_path):
    path = zipped(tmp_path / "s.zip", {"a/gamestate.py": CODE, "b/gamestate.py": CODE})
    assert "2 files named gamestate.py" in rejected(path)


def test_zip_too_large_or_too_many_entries(tmp_path):
    big = zipped(tmp_path / "big.zip", {"gamestate.py": b"#" * (intake.MAX_ZIP_BYTES + 1)})
    assert "unpacks to more than" in rejected(big)
    many = zipped(tmp_path / "many.zip",
                  {f"f{i}.txt": "" for i in range(intake.MAX_ZIP_ENTRIES + 1)})
    assert "entries; the limit is" in rejected(many)


def test_not_a_zip(tmp_path):
    path = tmp_path / "s.zip"
    path.write_bytes(b"not a zip")
    assert "can't be read" in rejected(path)


def test_paths_that_cannot_be_graded_are_usage_errors(tmp_path):
    with pytest.raises(intake.UsageError, match="no such file or folder"):
        intake.take(tmp_path / "nowhere", FILES)
    other = tmp_path / "gamestate.txt"
    other.write_bytes(CODE)
    with pytest.raises(intake.UsageError, match="give a folder, the .py file itself, or a .zip"):
        intake.take(other, FILES)


def test_intake_changes_nothing_on_disk(tmp_path):
    (tmp_path / "gamestate.py").write_bytes(CODE)
    before = sorted(os.listdir(tmp_path))
    intake.take(tmp_path, FILES)
    assert sorted(os.listdir(tmp_path)) == before
