"""The class: one entry per student in a folder, or in a .zip of such a folder.

An entry is a subfolder, a ``.py`` file or a ``.zip``; its name (without the
suffix) is the student's id. A zip whose entries sit in one folder (hidden
members aside, such as macOS's ``__MACOSX``) is a zip of the class's folder:
that folder is the class, unless it holds one of the exercise's files itself
(then it is one student's). Hidden files are passed over; anything else is
listed as ignored (the first ``intake.MAX_LISTED`` names, then a count). An
entry that can't be taken safely (a link, a FIFO or device, two entries for
one student, an archive member that is a link, leaves its folder or can't be
unpacked, too many bytes or members) becomes a ``problem``: that student is
rejected, no one else.
"""

import contextlib
import os
import tempfile
import zipfile
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from grader import intake
from grader.errors import UsageError

MAX_CLASS_BYTES = 2 << 30  # unpacked size of a class's archive
MAX_CLASS_ENTRIES = 100_000
SUFFIXES = (".py", ".zip")
# An archive's member: its path inside its student's entry (None: the entry itself), its info.
Inner = tuple[PurePosixPath | None, zipfile.ZipInfo]


@dataclass
class Entry:
    student: str
    path: Path | None = None
    problem: str | None = None  # why this student's entry can't be taken

    def take(self, files: Sequence[str]) -> intake.Submission:
        """The student's submission; ``intake.Rejected`` says why it can't be taken."""
        if self.problem:
            raise intake.Rejected(self.problem)
        assert self.path is not None  # an entry has a path or a problem
        if self.path.suffix == ".py" and not self.path.is_dir():
            return intake.from_entry_file(self.path, files)
        return intake.take(self.path, files)


@dataclass
class Roster:
    entries: list[Entry] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)


def _hidden(name: str) -> bool:
    return name != ".." and intake.passed_over(name)  # ".." is a path that leaves the archive


def _student(name: str, is_folder: bool) -> str | None:
    """The student id an entry's name gives, or None for a name that is no entry."""
    if is_folder:
        return name
    suffix = PurePosixPath(name).suffix
    return name[: -len(suffix)] if suffix in SUFFIXES and len(name) > len(suffix) else None


def _collect(found: Iterable[tuple[str, str, Entry]], ignored: Iterable[str]) -> Roster:
    """Entries by student, from (student, name, entry) triples; doubles are problems."""
    by_student: defaultdict[str, list[tuple[str, Entry]]] = defaultdict(list)
    for student, name, entry in found:
        by_student[student].append((name, entry))
    entries: list[Entry] = []
    for student, given in sorted(by_student.items()):
        if len(given) > 1:
            names = ", ".join(sorted(name for name, _ in given))
            entries.append(Entry(student, problem=f"{len(given)} entries for one student "
                                                  f"({names}); keep one"))
        else:
            entries.append(given[0][1])
    return Roster(entries, intake.capped(ignored))


def _entry(item: os.DirEntry[str]) -> Entry | None:
    """The Entry of one item of a class folder, or None for an item that is no entry."""
    is_folder = item.is_dir(follow_symlinks=False)
    if is_folder or item.is_file(follow_symlinks=False):
        student = _student(item.name, is_folder)
        return None if student is None else Entry(student, Path(item.path))
    # A link, FIFO, device or socket is neither followed nor opened: its student is rejected.
    what = intake.file_type(item.stat(follow_symlinks=False).st_mode)
    return Entry(_student(item.name, False) or item.name,
                 problem=f"{item.name} is {what}, not a file or folder")


def from_folder(folder: Path | str) -> Roster:
    found: list[tuple[str, str, Entry]] = []
    ignored: list[str] = []
    with os.scandir(folder) as listing:  # one pass; the file types come with the names
        for item in listing:
            if _hidden(item.name):
                continue
            entry = _entry(item)
            if entry is None:
                ignored.append(item.name)
            else:
                found.append((entry.student, item.name, entry))
    return _collect(found, ignored)


def _common_top(infos: Sequence[zipfile.ZipInfo], files: Sequence[str]) -> str | None:
    """The class's folder, when every member but hidden ones sits in one folder
    that does not itself hold one of the exercise's ``files``; else None."""
    paths = [(intake.member_path(info).parts, info.is_dir()) for info in infos]
    paths = [(parts, is_dir) for parts, is_dir in paths if parts and not _hidden(parts[0])]
    tops = {parts[0] for parts, _ in paths}
    nested = all(len(parts) > 1 or is_dir for parts, is_dir in paths)
    if len(tops) != 1 or not nested:
        return None
    top = tops.pop()
    own = any(len(parts) == 2 and parts[1] in files for parts, _ in paths)
    return None if own or top in ("/", "..") else top


def _members(archive: zipfile.ZipFile,
             files: Sequence[str]) -> Iterator[tuple[str, PurePosixPath | None, zipfile.ZipInfo]]:
    """(student's entry name, path inside it, info) for the archive's members.

    A member whose first part is "/" or ".." keeps that name: it is no entry.
    """
    infos = archive.infolist()
    if len(infos) > MAX_CLASS_ENTRIES:
        raise UsageError(f"the archive holds {len(infos)} members; the limit is "
                         f"{MAX_CLASS_ENTRIES}")
    if sum(info.file_size for info in infos) > MAX_CLASS_BYTES:
        raise UsageError(f"the archive unpacks to more than {MAX_CLASS_BYTES} bytes")
    top = _common_top(infos, files)
    for info in infos:
        parts = intake.member_path(info).parts
        if top is not None:  # what lies beside the class's folder is hidden: passed over
            parts = parts[1:] if parts[:1] == (top,) else ()
        if parts and not _hidden(parts[0]):
            yield parts[0], PurePosixPath(*parts[1:]) if len(parts) > 1 else None, info


def _unpack(archive: zipfile.ZipFile, members: Sequence[Inner], target: Path) -> str | None:
    """Write one student's members under ``target``; a problem as text, or None."""
    if len(members) > intake.MAX_ZIP_ENTRIES:  # a flood of members is never written out
        return f"the entry holds {len(members)} members; the limit is {intake.MAX_ZIP_ENTRIES}"
    if sum(info.file_size for _, info in members) > intake.MAX_ZIP_BYTES:
        return f"the entry unpacks to more than {intake.MAX_ZIP_BYTES} bytes"
    for _, info in members:
        why = intake.unsafe_member(info)
        if why:
            return why
    for inner, info in members:
        if info.is_dir():
            continue
        path = target / inner if inner else target
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(intake.read_member(archive, info))
        except intake.Rejected as why:
            return str(why)
        except OSError as exc:  # a name this file system refuses: too long, a file and a folder
            return f"the zip entry {info.filename!r} can't be unpacked: {exc.strerror}"
    return None


def _from_archive(archive: zipfile.ZipFile, into: Path, files: Sequence[str]) -> Roster:
    by_entry: defaultdict[str, list[Inner]] = defaultdict(list)
    for name, inner, info in _members(archive, files):
        by_entry[name].append((inner, info))
    found: list[tuple[str, str, Entry]] = []
    ignored: list[str] = []
    for name, members in sorted(by_entry.items()):
        if name in ("/", ".."):
            ignored += [f"{info.filename} (outside the archive's folder)" for _, info in members]
            continue
        is_folder = any(inner is not None or info.is_dir() for inner, info in members)
        student = _student(name, is_folder)
        if student is None:
            ignored.append(name)
            continue
        target = into / (name if is_folder else f"{len(found)}{PurePosixPath(name).suffix}")
        problem = _unpack(archive, members if is_folder else [(None, members[0][1])], target)
        entry = Entry(student, problem=problem) if problem else Entry(student, target)
        found.append((student, name, entry))
    return _collect(found, ignored)


@contextlib.contextmanager
def read(path: Path | str, files: Sequence[str] = ()) -> Iterator[Roster]:
    """The class at ``path`` (a folder or a .zip of one) for an exercise that
    grades ``files``; unpacked files live until exit."""
    path = Path(path)
    if not path.exists():
        raise UsageError(f"{path}: no such file or folder")
    if path.is_dir():
        yield from_folder(path)
        return
    if path.suffix != ".zip" or not path.is_file():
        raise UsageError(f"{path}: give a folder of submissions or a .zip of one")
    with tempfile.TemporaryDirectory(prefix="minimax-grader-class-") as into:
        try:
            with zipfile.ZipFile(path) as archive:
                roster = _from_archive(archive, Path(into), files)
        except (zipfile.BadZipFile, OSError) as exc:
            raise UsageError(f"{path}: the archive can't be read: {exc}") from None
        yield roster
