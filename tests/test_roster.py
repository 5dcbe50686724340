"""Finding the students' entries in a class folder or a .zip of one."""

import os
import stat
import zipfile

import pytest

from grader import intake, roster
from conftest import SOLUTIONS

HELPERS = (SOLUTIONS / "helpers" / "minimax_helpers.py").read_bytes()


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
        assert _by_student(found)["eve"].problem == "eve.py is a link"


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
