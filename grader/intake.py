"""Taking in a submission: a folder, the ``.py`` file itself, or a ``.zip``.

Only the exercise's own file names are taken; each must be a regular file,
not empty, within the size cap and UTF-8 text. A zip may not hold links or
paths that leave its folder. Nothing on disk is changed.
"""

import hashlib
import stat
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

MAX_FILE_BYTES = 256 * 1024
MAX_ZIP_BYTES = 8 * 1024 * 1024
MAX_ZIP_ENTRIES = 500


class UsageError(Exception):
    """The path given is not something that can be graded at all."""


class Rejected(Exception):
    """The submission's content can't be graded; the student is told why."""


@dataclass
class Submission:
    files: dict  # name -> bytes
    ignored: list = field(default_factory=list)
    source: str = ""

    def manifest(self):
        return [
            {"name": name, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
            for name, data in sorted(self.files.items())
        ]


def _check_content(name, data):
    if not data.strip():
        raise Rejected(f"{name} is empty")
    if len(data) > MAX_FILE_BYTES:
        raise Rejected(f"{name} is {len(data)} bytes; the limit is {MAX_FILE_BYTES}")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise Rejected(
            f"{name} is not UTF-8 text (byte 0x{data[exc.start]:02x} on line {line}); "
            "save it as UTF-8") from None
    return data


def _missing(name, present):
    near = [p for p in present if p.lower() == name.lower()]
    if near:
        return Rejected(f"{name} is missing; found {near[0]}: rename it to {name}")
    listing = ", ".join(sorted(present)) or "nothing"
    return Rejected(f"{name} is missing (found: {listing})")


def from_folder(folder, files):
    present = {p.name: p for p in Path(folder).iterdir()}
    taken = {}
    for name in files:
        path = present.get(name)
        if path is None:
            raise _missing(name, present)
        mode = path.lstat().st_mode
        if stat.S_ISLNK(mode) or not stat.S_ISREG(mode):
            raise Rejected(f"{name} is not a regular file (links are not accepted)")
        if path.lstat().st_size > MAX_FILE_BYTES:
            raise Rejected(f"{name} is {path.lstat().st_size} bytes; the limit is {MAX_FILE_BYTES}")
        taken[name] = _check_content(name, path.read_bytes())
    ignored = sorted(n for n in present if n not in files and n != "__pycache__")
    return Submission(taken, ignored, str(folder))


def from_file(path, files):
    path = Path(path)
    if path.name not in files:
        expected = " or ".join(files)
        raise Rejected(f"the file is named {path.name}; this exercise grades {expected}: "
                       "rename it")
    return _lone(path, path.name)


def _lone(path, name):
    if path.is_symlink():
        raise Rejected(f"{path.name} is a link, not a file")
    return Submission({name: _check_content(name, path.read_bytes())}, [], str(path))


def from_entry_file(path, files):
    """A class's ``<student>.py``: taken as the exercise's one file, whatever its name."""
    path = Path(path)
    if len(files) != 1:
        raise Rejected(f"this exercise grades {len(files)} files ({', '.join(files)}): "
                       "hand in a folder or a .zip")
    return _lone(path, files[0])


# What reading a zip member can raise: encrypted entries, unknown compression
# methods and corrupt data included.
ZIP_ERRORS = (zipfile.BadZipFile, OSError, EOFError, RuntimeError, NotImplementedError,
              ValueError, zlib.error)


def member_path(info):
    """A zip member's path, with Windows separators read as "/"."""
    return PurePosixPath(info.filename.replace("\\", "/"))


def unsafe_member(info):
    """Why a zip member may not be unpacked (a link, or a path that leaves the
    folder), or None."""
    inner = member_path(info)
    if inner.is_absolute() or ".." in inner.parts or ":" in info.filename:
        return f"the zip entry {info.filename!r} points outside the folder"
    if stat.S_ISLNK(info.external_attr >> 16):
        return f"the zip entry {info.filename!r} is a link"
    return None


def _zip_members(archive):
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
        if not info.is_dir() and "__MACOSX" not in inner.parts:
            members.append((inner, info))
    return members


def from_zip(path, files):
    try:
        with zipfile.ZipFile(path) as archive:
            members = _zip_members(archive)
            taken = {}
            for name in files:
                found = [info for inner, info in members if inner.name == name]
                if not found:
                    raise _missing(name, [inner.name for inner, _ in members])
                if len(found) > 1:
                    raise Rejected(f"the zip holds {len(found)} files named {name}; keep one")
                taken[name] = _check_content(name, archive.read(found[0]))
    except ZIP_ERRORS as exc:
        raise Rejected(f"the zip can't be read: {exc}") from None
    ignored = sorted(str(inner) for inner, _ in members if inner.name not in files)
    return Submission(taken, ignored, str(path))


def kind(path):
    """"folder", "zip" or "py"; a UsageError for anything that can't be graded."""
    path = Path(path)
    if not path.exists() and not path.is_symlink():
        raise UsageError(f"{path}: no such file or folder")
    if path.is_dir() and not path.is_symlink():
        return "folder"
    if path.suffix in (".zip", ".py"):
        return path.suffix[1:]
    raise UsageError(f"{path}: give a folder, the .py file itself, or a .zip")


READERS = {"folder": from_folder, "zip": from_zip, "py": from_file}


def take(path, files):
    """The submission at ``path`` for an exercise that grades ``files``."""
    return READERS[kind(path)](Path(path), files)
