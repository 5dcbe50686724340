"""Finding the students' entries in a class folder or a .zip of one."""

import os
import re
import stat
import zipfile

import pytest
from conftest import solution
from rich.console import Console
from test_intake import corrupt_zip, sparse

from grader import batch, exercises, intake
from grader.batch import roster
from grader.sandbox import SandboxUnavailable

HELPERS = (solution("helpers") / "minimax_helpers.py").read_bytes()


def _zip(path, members):
    """A zip with ``members``: name -> bytes, or name -> ("link", target)."""
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            if isinstance(data, tuple):
                info = zipfile.ZipInfo(name)
                info.external_attr = (stat.S_IFLNK | 0o777) << 16
                archive.writestr(info, data[1])
            else:
                archive.writestr(name, data)
    return path


def _by_student(found):
    return {entry.student: entry for entry in found.entries}


def test_a_folder_holds_subfolders_py_files_and_zips(tmp_path):
    (tmp_path / "ann").mkdir()
    (tmp_path / "ann" / "minimax_helpers.py").write_bytes(HELPERS)
    (tmp_path / "bob.py").write_bytes(HELPERS)
    _zip(tmp_path / "cy.zip", {"minimax_helpers.py": HELPERS})
    (tmp_path / "README.txt").write_text("the class of 2026")
    (tmp_path / ".DS_Store").write_bytes(b"\0")
    (tmp_path / "__MACOSX").mkdir()
    with roster.read(tmp_path) as found:
        entries = _by_student(found)
        assert sorted(entries) == ["ann", "bob", "cy"]
        assert found.ignored == ["README.txt"]
        for entry in entries.values():
            taken = entry.take(["minimax_helpers.py"])
            assert taken.files == {"minimax_helpers.py": HELPERS}


def test_a_student_with_two_entries_is_rejected_and_no_one_else(tmp_path):
    (tmp_path / "ann.py").write_bytes(HELPERS)
    _zip(tmp_path / "ann.zip", {"minimax_helpers.py": HELPERS})
    (tmp_path / "bob.py").write_bytes(HELPERS)
    with roster.read(tmp_path) as found:
        entries = _by_student(found)
        assert entries["ann"].problem == "2 entries for one student (ann.py, ann.zip); keep one"
        with pytest.raises(intake.Rejected, match="keep one"):
            entries["ann"].take(["minimax_helpers.py"])
        assert entries["bob"].problem is None


def test_a_linked_entry_is_rejected(tmp_path):
    (tmp_path / "real.py").write_bytes(HELPERS)
    os.symlink(tmp_path / "real.py", tmp_path / "eve.py")
    with roster.read(tmp_path) as found:
        assert _by_student(found)["eve"].problem == "eve.py is a link, not a file or folder"


def test_a_py_entry_is_taken_as_the_exercises_file_whatever_its_name(tmp_path):
    (tmp_path / "ann.py").write_bytes(b"")
    with roster.read(tmp_path) as found:
        with pytest.raises(intake.Rejected, match="minimax_helpers.py is empty"):
            found.entries[0].take(["minimax_helpers.py"])
        with pytest.raises(intake.Rejected, match="hand in a folder or a .zip"):
            found.entries[0].take(["a.py", "b.py"])


@pytest.mark.parametrize("top", ["", "class-2026/"])
def test_a_zip_of_the_class_folder(tmp_path, top):
    inner = tmp_path / "inner.zip"
    _zip(inner, {"minimax_helpers.py": HELPERS})
    archive = _zip(tmp_path / "class.zip", {
        f"{top}ann/minimax_helpers.py": HELPERS,
        f"{top}ann/notes.md": b"mine",
        f"{top}bob.py": HELPERS,
        f"{top}cy.zip": inner.read_bytes(),
        f"{top}README.txt": b"hello",
    })
    with roster.read(archive) as found:
        entries = _by_student(found)
        assert sorted(entries) == ["ann", "bob", "cy"]
        assert found.ignored == ["README.txt"]
        ann = entries["ann"].take(["minimax_helpers.py"])
        assert ann.files == {"minimax_helpers.py": HELPERS} and ann.ignored == ["notes.md"]
        for student in ("bob", "cy"):
            assert entries[student].take(["minimax_helpers.py"]).files["minimax_helpers.py"] \
                == HELPERS
        unpacked = entries["ann"].path
    assert not unpacked.exists()  # the unpacked class is gone after the run


def test_unsafe_members_reject_their_student_only(tmp_path):
    archive = _zip(tmp_path / "class.zip", {
        "ann/minimax_helpers.py": HELPERS,
        "ann/../../escape.py": b"x = 1\n",
        "bob/minimax_helpers.py": ("link", "/etc/passwd"),
        "cy/minimax_helpers.py": b"x" * (intake.MAX_ZIP_BYTES + 1),
        "dan/minimax_helpers.py": HELPERS,
        "../outside.py": b"x = 1\n",
    })
    with roster.read(archive) as found:
        entries = _by_student(found)
        assert "points outside the folder" in entries["ann"].problem
        assert "is a link" in entries["bob"].problem
        assert "unpacks to more than" in entries["cy"].problem
        assert entries["dan"].problem is None
        assert found.ignored == ["../outside.py (outside the archive's folder)"]
        unpacked_root = entries["dan"].path.parent
        assert sorted(p.name for p in unpacked_root.iterdir()) == ["dan"]
    assert not (tmp_path.parent / "escape.py").exists()


def test_what_is_not_a_class_is_a_usage_error(tmp_path):
    (tmp_path / "class.zip").write_bytes(b"not a zip")
    (tmp_path / "class.tar").write_bytes(b"")
    for path in ("class.zip", "class.tar", "missing"):
        with pytest.raises(roster.UsageError):
            with roster.read(tmp_path / path):
                pass


class Unreached:
    """A sandbox that grades no one: whoever reaches it gets a grader error."""

    name = "local"

    def run(self, exercise, submission, limits, cancel=None):
        raise SandboxUnavailable("not graded in this test")


@pytest.mark.timeout(30)  # a FIFO opened for reading waits for a writer: fail, don't hang
def test_one_bad_entry_of_each_kind_rejects_that_student_only(tmp_path):
    classroom = tmp_path / "class"
    (classroom / "ann").mkdir(parents=True)
    (classroom / "ann" / "minimax_helpers.py").write_bytes(HELPERS)
    (classroom / "bob.py").write_bytes(HELPERS)
    _zip(classroom / "cy.zip", {"minimax_helpers.py": HELPERS})
    os.mkfifo(classroom / "eve.py")
    os.mkfifo(classroom / "fay.zip")
    corrupt_zip(classroom / "gus.zip", zipfile.ZIP_LZMA, "minimax_helpers.py")
    corrupt_zip(classroom / "hal.zip", zipfile.ZIP_BZIP2, "minimax_helpers.py")
    sparse(classroom / "ivy.py")
    sparse(classroom / "jo.zip")
    (classroom / "kim").mkdir()
    os.mkfifo(classroom / "kim" / "minimax_helpers.py")
    expected = {
        "eve": "eve.py is a named pipe (FIFO), not a file or folder",
        "fay": "fay.zip is a named pipe (FIFO), not a file or folder",
        "gus": "the zip entry 'minimax_helpers.py' can't be unpacked (Corrupt input data)",
        "hal": "the zip entry 'minimax_helpers.py' can't be unpacked (Invalid data stream)",
        "ivy": "minimax_helpers.py is 1500000000 bytes; the limit is",
        "jo": "jo.zip is 1500000000 bytes; the limit is",
        "kim": "minimax_helpers.py is a named pipe (FIFO), not a regular file",
    }
    with roster.read(classroom) as found:
        entries = _by_student(found)
        assert sorted(entries) == ["ann", "bob", "cy", *expected]
        for student, why in expected.items():
            with pytest.raises(intake.Rejected, match=re.escape(why)):
                entries[student].take(["minimax_helpers.py"])
        outcome = batch.Batch(exercises.load("helpers"), Unreached(), tmp_path / "out",
                              batch.Options(jobs=2), Console(quiet=True)).run(found)
    reports = outcome.reports
    assert {s for s, r in reports.items() if r["status"] == "error"} == {"ann", "bob", "cy"}
    for student, why in expected.items():
        assert reports[student]["score"] == 0 and why in reports[student]["submission"]["rejected"]


def test_a_class_zip_with_a_corrupt_or_crowded_entry_rejects_that_student_only(tmp_path):
    bad = corrupt_zip(tmp_path / "bad.zip", zipfile.ZIP_LZMA, "bob/minimax_helpers.py")
    with zipfile.ZipFile(bad, "a") as archive:
        archive.writestr("ann/minimax_helpers.py", HELPERS)
        for number in range(intake.MAX_ZIP_ENTRIES + 1):
            archive.writestr(f"cy/junk/{number}.txt", b"")
        archive.writestr("dan.py", HELPERS)
    with roster.read(bad) as found:
        entries = _by_student(found)
        assert "'bob/minimax_helpers.py' can't be unpacked (Corrupt input data)" \
            in entries["bob"].problem
        assert entries["cy"].problem == "the entry holds 501 members; the limit is 500"
        assert not (entries["ann"].path.parent / "cy").exists()  # nothing of it written
        for student in ("ann", "dan"):
            assert entries[student].take(["minimax_helpers.py"]).files == {
                "minimax_helpers.py": HELPERS}


def test_the_ignored_entries_of_a_class_are_capped(tmp_path):
    for number in range(60):
        (tmp_path / f"notes{number:02}.txt").write_text("")
    (tmp_path / "ann.py").write_bytes(HELPERS)
    with roster.read(tmp_path) as found:
        assert found.ignored == [f"notes{n:02}.txt" for n in range(50)] + ["... and 10 more"]


FILES = ["minimax_helpers.py"]


@pytest.mark.parametrize("beside", [{}, {"__MACOSX/class-2026/._ann": b"junk",
                                         ".DS_Store": b"\0"}], ids=["alone", "macos"])
def test_a_class_zip_in_one_folder_is_that_folder_whatever_the_zip_tool_adds(tmp_path, beside):
    archive = _zip(tmp_path / "class.zip", {"class-2026/ann/minimax_helpers.py": HELPERS,
                                            "class-2026/bob.py": HELPERS, **beside})
    with roster.read(archive, files=FILES) as found:
        assert sorted(_by_student(found)) == ["ann", "bob"] and found.ignored == []


def test_a_class_zip_of_one_student_s_folder_is_that_student(tmp_path):
    # the one folder holds the exercise's file itself: it is a student, not the class
    archive = _zip(tmp_path / "class.zip", {"ann/minimax_helpers.py": HELPERS,
                                            "ann/notes.md": b"mine"})
    with roster.read(archive, files=FILES) as found:
        assert [entry.student for entry in found.entries] == ["ann"]
        assert found.entries[0].take(FILES).ignored == ["notes.md"]


def test_a_student_s_wrapper_folder_is_taken_in_a_class_folder_and_a_class_zip(tmp_path):
    members = {"ann/ann_hw3/minimax_helpers.py": HELPERS, "ann/ann_hw3/notes.md": b"mine",
               "bob/minimax_helpers.py": HELPERS}
    folder = tmp_path / "class"
    for name, data in members.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    archive = _zip(tmp_path / "class.zip", members)
    for given in (folder, archive):
        with roster.read(given, files=FILES) as found:
            taken = {e.student: e.take(FILES) for e in found.entries}
            assert sorted(taken) == ["ann", "bob"]
            assert all(t.files == {"minimax_helpers.py": HELPERS} for t in taken.values())
            assert taken["ann"].ignored == ["ann_hw3/notes.md"]


def test_a_long_student_id_from_a_zip_gets_its_report_under_a_short_name(tmp_path):
    long = "s" * 400
    archive = _zip(tmp_path / "class.zip", {f"{long}.py": HELPERS, "ann.py": HELPERS})
    with roster.read(archive, files=FILES) as found:
        assert sorted(_by_student(found)) == ["ann", long]
        outcome = batch.Batch(exercises.load("helpers"), Unreached(), tmp_path / "out",
                              batch.Options(jobs=1), Console(quiet=True)).run(found)
    assert outcome.reports[long]["status"] == "error"  # graded, not lost to a long name
    row = next(r for r in outcome.summary["students"] if r["student"] == long)
    assert (tmp_path / "out" / row["report"]).is_file()
    assert (tmp_path / "out" / row["text"]).is_file()
    assert len(row["report"]) < 140
