"""Taking in submissions: what is accepted, what is rejected and how it is said."""

import json
import lzma
import os
import stat
import time
import tracemalloc
import zipfile

import pytest

from grader import exercises, intake, render, report
from grader.cli import main
from grader.layouts import LAYOUTS

FILES = ("gamestate.py",)
CODE = b"class GameState:\n    pass\n"


def zipped(path, entries, links=(), compression=zipfile.ZIP_STORED):
    with zipfile.ZipFile(path, "w", compression) as archive:
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
    big = zipped(tmp_path / "big.zip", {"gamestate.py": b"#" * (intake.MAX_ZIP_BYTES + 1)},
                 compression=zipfile.ZIP_DEFLATED)
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


# -- input made to hang or crash the intake -----------------------------------------------

SPARSE_BYTES = 1_500_000_000
# A corrupt stream makes each decoder raise its own error, none of them BadZipFile.
DECODER_ERRORS = {zipfile.ZIP_LZMA: lzma.LZMAError, zipfile.ZIP_BZIP2: OSError}


def corrupt_zip(path, compression, name="gamestate.py"):
    """A valid zip of one ``compression``-ed member, then garbage in the middle of its stream."""
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(name, CODE * 50, compress_type=compression)
        info = archive.getinfo(name)
    data = bytearray(path.read_bytes())
    header = info.header_offset
    start = header + 30 + int.from_bytes(data[header + 26:header + 28], "little") \
        + int.from_bytes(data[header + 28:header + 30], "little")
    middle = start + info.compress_size // 2
    data[middle - 8:middle + 8] = b"\xa5" * 16
    path.write_bytes(bytes(data))
    with pytest.raises(DECODER_ERRORS[compression]), zipfile.ZipFile(path) as archive:
        archive.read(name)  # the attack: the decoder itself fails
    return path


def sparse(path):
    """A file of SPARSE_BYTES that takes no disk: only holes."""
    with open(path, "wb") as handle:
        handle.truncate(SPARSE_BYTES)
    return path


@pytest.mark.parametrize("compression", sorted(DECODER_ERRORS))
def test_a_zip_member_with_a_corrupt_stream_is_rejected_in_words(tmp_path, compression):
    path = corrupt_zip(tmp_path / "s.zip", compression)
    why = rejected(path)
    assert why.startswith("the zip entry 'gamestate.py' can't be unpacked (")
    assert why.endswith("): make the zip again")


def test_grade_rejects_a_corrupt_zip_with_a_report(tmp_path, capsys):
    path = corrupt_zip(tmp_path / "minimax_helpers.zip", zipfile.ZIP_LZMA, "minimax_helpers.py")
    # rejected at intake: nothing reaches the sandbox
    assert main(["grade", "--exercise", "helpers", "--sandbox", "local", "--format", "json",
                 str(path)]) == 0
    made = report.validate(json.loads(capsys.readouterr().out))
    assert "can't be unpacked (Corrupt input data)" in made["submission"]["rejected"]


@pytest.mark.timeout(10)  # a FIFO opened for reading waits for a writer: fail, don't hang
def test_a_fifo_is_refused_unopened(tmp_path, capsys):
    (tmp_path / "in").mkdir()
    os.mkfifo(tmp_path / "in" / "gamestate.py")
    assert rejected(tmp_path / "in") == "gamestate.py is a named pipe (FIFO), not a regular file"
    for name in ("gamestate.py", "s.zip"):  # the path given: nothing to grade at all
        os.mkfifo(tmp_path / name)
        with pytest.raises(intake.UsageError, match=f"{name} is a named pipe"):
            intake.take(tmp_path / name, FILES)
    # the readers check too, should the path change after intake.kind looked at it
    for reader in (intake.from_file, intake.from_entry_file, intake.from_zip):
        with pytest.raises(intake.Rejected, match="named pipe"):
            reader(tmp_path / "gamestate.py", FILES)
    assert main(["grade", "--exercise", "gamestate", "--sandbox", "local",
                 str(tmp_path / "gamestate.py")]) == 2
    assert "gamestate.py is a named pipe (FIFO): give a folder" in capsys.readouterr().err


@pytest.mark.parametrize("name, given", [
    ("gamestate.py", lambda path: intake.take(path, FILES)),
    ("gamestate.py", lambda path: intake.take(path.parent, FILES)),
    ("ann.py", lambda path: intake.from_entry_file(path, FILES)),
    ("s.zip", lambda path: intake.take(path, FILES)),
], ids=["file", "in-a-folder", "class-entry", "zip"])
def test_a_sparse_giant_is_refused_unread(tmp_path, name, given):
    path = sparse(tmp_path / name)
    tracemalloc.start()
    try:
        with pytest.raises(intake.Rejected) as caught:
            given(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert f"is {SPARSE_BYTES} bytes; the limit is" in str(caught.value)
    assert peak < 1 << 20  # not a byte of it read


@pytest.mark.timeout(120)
def test_a_flood_of_files_is_listed_short_and_fast(tmp_path):
    for number in range(100_000):
        (tmp_path / f"junk{number:06}").touch()
    started = time.monotonic()
    first = [f"junk{n:06}" for n in range(50)]
    assert rejected(tmp_path) == ("gamestate.py is missing (found: " + ", ".join(first)
                                  + ", ... and 99,950 more)")
    (tmp_path / "gamestate.py").write_bytes(CODE)
    taken = intake.take(tmp_path, FILES)
    assert time.monotonic() - started < 10  # one pass each: a quadratic listing takes hours
    assert taken.ignored == first + ["... and 99,950 more"]
    exercise = exercises.load("gamestate")
    made = report.grader_error(exercise, taken, "not graded here", LAYOUTS["none"],
                               exercise.limits.facts())  # validated against the schema
    assert made["submission"]["ignored"] == taken.ignored
    assert len(render.to_text(made)) < 5000


def test_zip_ignored_names_are_capped(tmp_path):
    path = zipped(tmp_path / "s.zip", {"gamestate.py": CODE,
                                       **{f"extra/{n:03}.txt": "" for n in range(60)}})
    assert intake.take(path, FILES).ignored[-2:] == ["extra/049.txt", "... and 10 more"]


# -- one wrapper folder, as downloads from a course's site have --------------------------

def lay_out(folder, members):
    """Write ``members`` (a path inside -> bytes) under ``folder``; returns the folder."""
    for name, data in members.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    return folder


def both_forms(tmp_path, members):
    """The same members as a folder and as a zip."""
    return (lay_out(tmp_path / "alice", members),
            zipped(tmp_path / "alice.zip", members))


def outcome(path):
    try:
        taken = intake.take(path, FILES)
    except intake.Rejected as why:
        return "rejected", str(why)
    return taken.files, taken.ignored


WRAPPED = {"alice_hw3/gamestate.py": CODE, "alice_hw3/notes.txt": b"mine",
           ".DS_Store": b"\0", "__MACOSX/alice_hw3/._gamestate.py": b"junk"}


def test_one_wrapper_folder_is_taken_in_a_folder_as_in_a_zip(tmp_path):
    folder, archive = both_forms(tmp_path, WRAPPED)
    assert outcome(folder) == outcome(archive) == ({"gamestate.py": CODE},
                                                   ["alice_hw3/notes.txt"])


@pytest.mark.parametrize("members, why", [
    # two levels: too deep, for both
    ({"a/b/gamestate.py": CODE}, "gamestate.py is "),
    # a wrapper beside another file is no wrapper: the files must be at the top
    ({"hw/gamestate.py": CODE, "README.txt": b"hi"}, "gamestate.py is "),
    # two folders: which one?
    ({"a/gamestate.py": CODE, "b/gamestate.py": CODE}, ""),
    # a misnamed file in the wrapper is named with its folder
    ({"hw/GameState.py": CODE}, "gamestate.py is missing; found hw/GameState.py: rename it"),
])
def test_what_is_not_at_the_top_nor_in_one_wrapper_is_rejected_in_both_forms(
        tmp_path, members, why):
    folder, archive = both_forms(tmp_path, members)
    (verdict, in_folder), (same, in_zip) = outcome(folder), outcome(archive)
    assert verdict == same == "rejected"
    assert in_folder.startswith(why) and in_zip.startswith(why)


def test_a_zip_says_where_a_file_too_deep_lies_and_which_ones_clash(tmp_path):
    deep = zipped(tmp_path / "deep.zip", {"a/b/gamestate.py": CODE})
    assert rejected(deep) == ("gamestate.py is too deep in the zip (a/b/gamestate.py): put it "
                              "at the top of the zip, or in the one folder it holds")
    two = zipped(tmp_path / "two.zip", {"a/gamestate.py": CODE, "b/gamestate.py": CODE})
    assert rejected(two).startswith("the zip holds 2 files named gamestate.py "
                                    "(a/gamestate.py, b/gamestate.py); keep one")


def test_a_file_at_the_top_wins_over_one_in_a_folder(tmp_path):
    folder, archive = both_forms(tmp_path, {"gamestate.py": CODE, "old/gamestate.py": b"x"})
    assert outcome(archive) == ({"gamestate.py": CODE}, ["old/gamestate.py"])
    assert outcome(folder) == ({"gamestate.py": CODE}, ["old"])


def test_a_linked_wrapper_is_not_followed(tmp_path):
    lay_out(tmp_path / "elsewhere", {"gamestate.py": CODE})
    (tmp_path / "alice").mkdir()
    os.symlink(tmp_path / "elsewhere", tmp_path / "alice" / "hw")
    assert rejected(tmp_path / "alice") == "gamestate.py is missing (found: hw)"


def test_a_wrapper_keeps_the_checks_of_the_files_in_it(tmp_path):
    (tmp_path / "alice" / "hw").mkdir(parents=True)
    os.symlink("/etc/passwd", tmp_path / "alice" / "hw" / "gamestate.py")
    assert rejected(tmp_path / "alice") == "gamestate.py is a link, not a regular file"
    (tmp_path / "bob" / "hw").mkdir(parents=True)
    os.mkfifo(tmp_path / "bob" / "hw" / "gamestate.py")
    assert rejected(tmp_path / "bob") == \
        "gamestate.py is a named pipe (FIFO), not a regular file"


AGENT = b"from helpers import pick\nclass Agent:\n    pass\n"
HAND_IN = {"agent.py": AGENT, "game_agent.py": b"X = 1\n", "book.json": b'{"a": 1}',
           "weights.npy": b"\x93NUMPY\x01\x00", "helpers/__init__.py": b"",
           "helpers/pick.py": b"Y = 2\n", "helpers/table.csv": b"1,2\n",
           "isolation/__init__.py": b"from .isolation import Board\n",
           "isolation/isolation.py": b"class Board: pass\n", "report.pdf": b"%PDF",
           "notes/a.txt": b"no package", "huge.pkl": b"\0" * (intake.MAX_DATA_BYTES + 1)}


@pytest.mark.parametrize("form", ["folder", "zip"])
def test_an_agent_takes_its_modules_packages_and_data_and_says_what_it_left(tmp_path, form):
    path = (lay_out(tmp_path / "alice", HAND_IN) if form == "folder"
            else zipped(tmp_path / "alice.zip", {f"alice/{k}": v for k, v in HAND_IN.items()}))
    taken = intake.take_modules(path, "agent.py")
    assert sorted(taken.files) == ["agent.py", "book.json", "game_agent.py", "helpers/__init__.py",
                                   "helpers/pick.py", "helpers/table.csv", "weights.npy"]
    assert taken.files["weights.npy"] == HAND_IN["weights.npy"]  # binary data, as it was
    ignored = "\n".join(taken.ignored)
    for name, why in [("isolation/isolation.py", "the course's own board"),
                      ("report.pdf", "a kind not taken"),
                      ("notes/a.txt", "in a folder with no __init__.py"),
                      ("huge.pkl", "too big")]:
        assert f"{name}: {why}" in ignored, ignored


def test_an_agents_link_is_listed_not_followed(tmp_path):
    folder = lay_out(tmp_path / "alice", {"agent.py": AGENT})
    (tmp_path / "secret.json").write_text("{}")
    os.symlink(tmp_path / "secret.json", folder / "book.json")
    taken = intake.take_modules(folder, "agent.py")
    assert list(taken.files) == ["agent.py"]
    assert taken.ignored == ["book.json: a link or a special file, never followed"]
