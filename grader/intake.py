"""Taking in a submission: a folder, the ``.py`` file itself, or a ``.zip``.

The exercise's files sit at the top of the folder or zip, or in the one
folder it holds (a wrapper, as downloads from a course's site often have:
``alice/alice_hw3/minimax_helpers.py``); never deeper, the same for both.
Only the exercise's own file names are taken; each must be a regular file,
not empty, within the size cap and UTF-8 text. A path is ``lstat``-ed before
it is opened, so a FIFO, a device or a giant sparse file is refused unread. A
zip may not hold links or paths that leave its folder, and a member that
can't be unpacked is a rejection. Nothing on disk is changed.
"""

import functools
import hashlib
import heapq
import os
import stat
import zipfile
import zlib
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, BinaryIO

from grader.errors import UsageError

MAX_FILE_BYTES = 256 * 1024
MAX_ZIP_BYTES = 8 * 1024 * 1024
MAX_ZIP_ENTRIES = 500
MAX_LISTED = 50  # names a report lists (ignored files, files found); the rest are counted
# Left beside the files by zip tools and Python: no part of what was handed in.
PASSED_OVER = ("__MACOSX", "__pycache__")


class Rejected(Exception):
    """The submission's content can't be graded; the student is told why."""


@dataclass
class Submission:
    files: dict[str, bytes]  # name -> bytes
    ignored: list[str] = field(default_factory=list)
    source: str = ""

    def manifest(self) -> list[dict[str, Any]]:
        return [
            {"name": name, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
            for name, data in sorted(self.files.items())
        ]


def capped(names: Iterable[str]) -> list[str]:
    """The first MAX_LISTED of ``names`` in sorted order, then a count of the rest."""
    names = list(names)
    if len(names) <= MAX_LISTED:
        return sorted(names)
    return heapq.nsmallest(MAX_LISTED, names) + [f"... and {len(names) - MAX_LISTED:,} more"]


FILE_TYPES = ((stat.S_ISLNK, "a link"), (stat.S_ISDIR, "a folder"),
              (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"),
              (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"))


def passed_over(name: str) -> bool:
    """A name that is no part of a submission: a hidden one, or one of PASSED_OVER."""
    return name.startswith(".") or name in PASSED_OVER


def file_type(mode: int) -> str:
    """What a file that is not a regular one is, in words."""
    return next((words for test, words in FILE_TYPES if test(mode)), "a special file")


def _too_large(name: str, size: int, cap: int) -> Rejected:
    return Rejected(f"{name} is {size} bytes; the limit is {cap}")


def _unreadable(name: str, exc: OSError) -> Rejected:
    return Rejected(f"{name} can't be read: {exc.strerror or exc}")


def _open_checked(path: Path, name: str, cap: int) -> BinaryIO:
    """``path`` open for reading, once ``lstat`` shows a regular file of at most
    ``cap`` bytes: opening a FIFO would hang, and a device or a sparse giant
    would be read without end."""
    try:
        info = os.lstat(path)
    except OSError as exc:
        raise _unreadable(name, exc) from None
    if not stat.S_ISREG(info.st_mode):
        raise Rejected(f"{name} is {file_type(info.st_mode)}, not a regular file")
    if info.st_size > cap:
        raise _too_large(name, info.st_size, cap)
    try:  # a path swapped since lstat for a link or a FIFO is not followed, nor waited on
        return os.fdopen(os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK), "rb")
    except OSError as exc:
        raise _unreadable(name, exc) from None


def _check_content(name: str, data: bytes) -> bytes:
    if not data.strip():
        raise Rejected(f"{name} is empty")
    if len(data) > MAX_FILE_BYTES:
        raise _too_large(name, len(data), MAX_FILE_BYTES)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise Rejected(
            f"{name} is not UTF-8 text (byte 0x{data[exc.start]:02x} on line {line}); "
            "save it as UTF-8") from None
    return data


def _read_checked(path: Path, name: str) -> bytes:
    """The content of the file at ``path``, taken as the exercise's file ``name``."""
    with _open_checked(path, name, MAX_FILE_BYTES) as handle:
        try:
            data = handle.read(MAX_FILE_BYTES + 1)  # it may have grown since lstat
        except OSError as exc:
            raise _unreadable(name, exc) from None
    return _check_content(name, data)


def _missing(name: str, present: Collection[str], prefix: str = "") -> Rejected:
    """``name`` is not among the names ``present`` in the folder ``prefix``."""
    near = sorted(p for p in present if p.lower() == name.lower())
    if near:
        return Rejected(f"{name} is missing; found {prefix}{near[0]}: rename it to {name}")
    listing = ", ".join(capped(prefix + p for p in present)) or "nothing"
    return Rejected(f"{name} is missing (found: {listing})")


def _wrapper(names: Collection[str], files: Sequence[str],
             is_folder: Callable[[str], bool]) -> str | None:
    """The one folder the exercise's files sit in, from the ``names`` at the top
    (``is_folder(name)`` tells a folder): None when one of ``files`` is among
    them, when more than one name is (hidden ones aside), or the one is no folder."""
    if any(name in names for name in files):
        return None
    shown = [name for name in names if not passed_over(name)]
    return shown[0] if len(shown) == 1 and is_folder(shown[0]) else None


def _listing(folder: Path) -> set[str]:
    try:
        return set(os.listdir(folder))  # one pass, names only: a flood of files stays cheap
    except OSError as exc:
        raise _unreadable(folder.name, exc) from None


def _is_folder(path: Path) -> bool:
    """Whether ``path`` is a folder itself, not a link to one (which is never followed)."""
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def from_folder(folder: Path | str, files: Sequence[str]) -> Submission:
    folder = Path(folder)
    present = _listing(folder)
    prefix, top = "", folder
    wrapper = _wrapper(present, files, lambda name: _is_folder(top / name))
    if wrapper is not None:
        folder, prefix = folder / wrapper, f"{wrapper}/"
        present = _listing(folder)
    taken: dict[str, bytes] = {}
    for name in files:
        if name not in present:
            raise _missing(name, present, prefix)
        taken[name] = _read_checked(folder / name, name)
    ignored = capped(prefix + n for n in present if n not in files and n != "__pycache__")
    return Submission(taken, ignored, str(folder))


def from_file(path: Path | str, files: Sequence[str]) -> Submission:
    path = Path(path)
    if path.name not in files:
        expected = " or ".join(files)
        raise Rejected(f"the file is named {path.name}; this exercise grades {expected}: "
                       "rename it")
    return Submission({path.name: _read_checked(path, path.name)}, [], str(path))


def from_entry_file(path: Path | str, files: Sequence[str]) -> Submission:
    """A class's ``<student>.py``: taken as the exercise's one file, whatever its name."""
    path = Path(path)
    if len(files) != 1:
        raise Rejected(f"this exercise grades {len(files)} files ({', '.join(files)}): "
                       "hand in a folder or a .zip")
    return Submission({files[0]: _read_checked(path, files[0])}, [], str(path))


# What opening a damaged or truncated zip, and listing its members, can raise.
ZIP_ERRORS = (zipfile.BadZipFile, OSError, EOFError, RuntimeError, NotImplementedError,
              ValueError, zlib.error)


def read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    """A zip member's bytes; ``Rejected``, in words, when it can't be unpacked."""
    try:
        return archive.read(info)
    except Exception as exc:  # each decoder fails its own way (zlib.error, lzma.LZMAError,
        # OSError from bz2, EOFError, ...): all are the archive's fault, none the grader's
        raise Rejected(f"the zip entry {info.filename!r} can't be unpacked "
                       f"({str(exc) or type(exc).__name__}): make the zip again") from None


def member_path(info: zipfile.ZipInfo) -> PurePosixPath:
    """A zip member's path, with Windows separators read as "/"."""
    return PurePosixPath(info.filename.replace("\\", "/"))


def unsafe_member(info: zipfile.ZipInfo) -> str | None:
    """Why a zip member may not be unpacked (a link, or a path that leaves the
    folder), or None."""
    inner = member_path(info)
    if inner.is_absolute() or ".." in inner.parts or ":" in info.filename:
        return f"the zip entry {info.filename!r} points outside the folder"
    if stat.S_ISLNK(info.external_attr >> 16):
        return f"the zip entry {info.filename!r} is a link"
    return None


def _zip_root(paths: Sequence[PurePosixPath], files: Sequence[str]) -> tuple[str, ...]:
    """The parts of the folder the exercise's files sit in: () for the top of
    the zip, or its one wrapper folder, by the same rule as for a folder."""
    tops = {path.parts[0] for path in paths}
    wrapper = _wrapper(tops, files, lambda top: all(
        len(path.parts) > 1 for path in paths if path.parts[0] == top))
    return () if wrapper is None else (wrapper,)


def _zip_missing(name: str, paths: Sequence[PurePosixPath],
                 root: tuple[str, ...]) -> Rejected:
    """Why ``name`` is not at ``root`` in the zip: it lies deeper, or is not there."""
    deeper = sorted(str(path) for path in paths if path.name == name)
    if len(deeper) > 1:
        return Rejected(f"the zip holds {len(deeper)} files named {name} "
                        f"({', '.join(deeper[:5])}); keep one, at the top of the zip or in "
                        "the one folder it holds")
    if deeper:
        return Rejected(f"{name} is too deep in the zip ({deeper[0]}): put it at the top of "
                        "the zip, or in the one folder it holds")
    present = {path.parts[len(root)] for path in paths
               if len(path.parts) > len(root) and path.parts[:len(root)] == root}
    return _missing(name, present, "".join(f"{part}/" for part in root))


def _zip_members(archive: zipfile.ZipFile) -> list[tuple[PurePosixPath, zipfile.ZipInfo]]:
    infos = archive.infolist()
    if len(infos) > MAX_ZIP_ENTRIES:
        raise Rejected(f"the zip holds {len(infos)} entries; the limit is {MAX_ZIP_ENTRIES}")
    if sum(info.file_size for info in infos) > MAX_ZIP_BYTES:
        raise Rejected(f"the zip unpacks to more than {MAX_ZIP_BYTES} bytes")
    members = []
    for info in infos:
        why = unsafe_member(info)
        if why:
            raise Rejected(why)
        inner = member_path(info)
        if inner.parts and not info.is_dir() and "__MACOSX" not in inner.parts:
            members.append((inner, info))
    return members


def from_zip(path: Path | str, files: Sequence[str]) -> Submission:
    path = Path(path)
    # The archive can't rightly be larger than what it may unpack to.
    with _open_checked(path, path.name, MAX_ZIP_BYTES) as handle:
        try:
            with zipfile.ZipFile(handle) as archive:
                members = _zip_members(archive)
                paths = [inner for inner, _ in members]
                root = _zip_root(paths, files)
                taken: dict[str, bytes] = {}
                for name in files:
                    found = [info for inner, info in members if inner.parts == (*root, name)]
                    if not found:
                        raise _zip_missing(name, paths, root)
                    if len(found) > 1:
                        raise Rejected(f"the zip holds {len(found)} files named {name}; keep one")
                    taken[name] = _check_content(name, read_member(archive, found[0]))
        except ZIP_ERRORS as exc:
            raise Rejected(f"the zip can't be read: {exc}") from None
    wanted = {(*root, name) for name in files}
    # Beside a wrapper there are only hidden files: they are no part of the submission.
    ignored = capped(str(inner) for inner in paths
                     if inner.parts[:len(root)] == root and inner.parts not in wanted)
    return Submission(taken, ignored, str(path))


def kind(path: Path | str) -> str:
    """"folder", "zip" or "py"; a UsageError for anything that can't be graded."""
    path = Path(path)
    try:
        mode = path.lstat().st_mode
    except (FileNotFoundError, NotADirectoryError):
        raise UsageError(f"{path}: no such file or folder") from None
    if stat.S_ISDIR(mode):
        return "folder"
    given = "give a folder, the .py file itself, or a .zip"
    if path.suffix not in (".zip", ".py"):
        raise UsageError(f"{path}: {given}")
    # A link is taken, to tell the student it is refused; a FIFO or a device is no
    # submission at all (and opening a FIFO would hang).
    if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
        raise UsageError(f"{path} is {file_type(mode)}: {given}")
    return path.suffix[1:]


READERS = {"folder": from_folder, "zip": from_zip, "py": from_file}


def take(path: Path | str, files: Sequence[str]) -> Submission:
    """The submission at ``path`` for an exercise that grades ``files``."""
    return READERS[kind(path)](Path(path), files)


def take_for(path: Path | str, files: Sequence[str], by_play: bool) -> Submission:
    """What an exercise takes from ``path``: its ``files``, or, for the agent graded
    by play (``by_play``), its one file and the modules beside it."""
    return take_modules(path, files[0]) if by_play else take(path, files)


# An agent's hand-in (the exercise graded by play): its modules, helper packages
# and data files, within caps; the rest is listed as ignored, with the reason.
DATA_KINDS = (".json", ".txt", ".csv", ".pkl", ".pickle", ".npy")
MAX_DATA_BYTES = 2 * 1024 * 1024  # a data file (an opening book, weights)
MAX_AGENT_BYTES = 8 * 1024 * 1024  # all of an agent's files together
MAX_DEPTH = 3  # folders of packages within packages
COURSE_BOARD = ("isolation", "isolation.py")  # the course's own board: the grader's is used


@dataclass(frozen=True)
class Entry:
    """A file or folder beside the agent's file: its path there, its size, whether
    it is a regular file, and how to read it."""

    path: PurePosixPath
    size: int
    regular: bool
    read: Callable[[], bytes]


def _folder_entries(root: Path) -> list[Entry]:
    """Every file below ``root``, links and special files included (never followed)."""
    found = []
    for top, folders, names in os.walk(root):
        folders[:] = [f for f in folders if not passed_over(f)]
        for name in [*names, *(f for f in folders if os.path.islink(Path(top, f)))]:
            path = Path(top, name)
            info = os.lstat(path)
            found.append(Entry(PurePosixPath(path.relative_to(root).as_posix()), info.st_size,
                               stat.S_ISREG(info.st_mode), functools.partial(path.read_bytes)))
    return found


def _zip_entries(path: Path, file: str) -> list[Entry]:
    """Every member of the zip beside ``file`` (at its top, or in its one folder)."""
    with zipfile.ZipFile(path) as archive:
        members = _zip_members(archive)
        root = _zip_root([inner for inner, _ in members], [file])
        data = {inner: read_member(archive, info) for inner, info in members
                if inner.parts[:len(root)] == root}
    return [Entry(PurePosixPath(*inner.parts[len(root):]), len(content), True,
                  functools.partial(bytes, content)) for inner, content in data.items()]


def _why_not(entry: Entry, packages: set[PurePosixPath]) -> str | None:
    """Why ``entry`` is not taken with the agent, or None where it is."""
    parts = entry.path.parts
    if parts[0] in COURSE_BOARD:
        return "the course's own board: the grader's is used"
    if any(passed_over(part) for part in parts):
        return "hidden"
    if not entry.regular:
        return "a link or a special file, never followed"
    if len(parts) > MAX_DEPTH + 1:
        return "too deep"
    if any(PurePosixPath(*parts[:i]) not in packages for i in range(1, len(parts))):
        return "in a folder with no __init__.py: not a package"
    if entry.path.suffix == ".py":
        return None if entry.size <= MAX_FILE_BYTES else f"too big ({entry.size:,} bytes; " \
            f"a module may have {MAX_FILE_BYTES:,})"
    if entry.path.suffix.lower() not in DATA_KINDS:
        return f"a kind not taken (data files are {', '.join(DATA_KINDS)})"
    return None if entry.size <= MAX_DATA_BYTES else f"too big ({entry.size:,} bytes; " \
        f"a data file may have {MAX_DATA_BYTES:,})"


def _is_text(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _beside(entries: Sequence[Entry], file: str) -> tuple[dict[str, bytes], list[str]]:
    """The agent's modules, packages and data among ``entries`` (``file`` aside), and
    what is left out, each with its reason."""
    packages = {entry.path.parent for entry in entries
                if entry.path.name == "__init__.py" and entry.regular}
    taken: dict[str, bytes] = {}
    ignored: list[str] = []
    total = 0
    for entry in sorted(entries, key=lambda e: (len(e.path.parts), str(e.path))):
        if str(entry.path) == file:
            continue
        why = _why_not(entry, packages)
        if why is None and total + entry.size > MAX_AGENT_BYTES:
            why = f"past the {MAX_AGENT_BYTES:,} bytes an agent's files may have in all"
        if why is not None:
            ignored.append(f"{entry.path}: {why}")
            continue
        data = entry.read()
        if entry.path.suffix == ".py" and not _is_text(data):
            ignored.append(f"{entry.path}: not UTF-8 text")
            continue
        taken[str(entry.path)] = data
        total += len(data)
    return taken, ignored


def take_modules(path: Path | str, file: str) -> Submission:
    """``file`` and what is beside it, from ``path`` (the file itself, or a folder or
    .zip holding it): an agent of several modules, helper packages (folders with
    ``__init__.py``) and data files (the exercise graded by play). ``file`` is taken
    as ``take`` takes it; the rest within ``MAX_DATA_BYTES`` a data file and
    ``MAX_AGENT_BYTES`` in all, and what is left out is listed with the reason."""
    alone = take(path, [file])
    if Path(path).suffix == ".py":
        return alone
    root = Path(alone.source)
    if kind(path) == "folder":
        entries = _folder_entries(root)
    else:
        try:
            entries = _zip_entries(Path(path), file)
        except ZIP_ERRORS as exc:
            raise Rejected(f"the zip can't be read: {exc}") from None
    files, ignored = _beside(entries, file)
    return Submission({**alone.files, **files}, capped(ignored), alone.source)

