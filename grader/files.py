"""Writing files whole or not at all, and the ``-o`` targets of the commands.

An ``-o`` target is checked before any work is done, and written in the way
its kind allows: a regular file (or a new path) through a temp file and a
rename, so that a reader sees the old file or the new one, never half of
one; a character device (``/dev/null``), a named pipe or a path under
``/dev`` or ``/proc`` straight through, since renaming over one would replace
the device itself; ``-`` to stdout. Anything else (a folder, a socket, a
disk) is refused.
"""

import os
import stat
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

STDOUT = "-"
# Folders at the root whose paths name a process's own files (/dev/stdout,
# /proc/self/fd/1): even where one leads to a regular file, that file is
# written through, as the shell that opened it expects (a rename would leave
# its open file behind).
SYSTEM_FOLDERS = ("dev", "proc")
# A temp file is named after its target; a long target name is cut so that
# the temp file's name stays within the 255 bytes a file system allows.
TEMP_PREFIX_CHARS = 64


class BadOutput(ValueError):
    """An output target the grader will not write to, or could not write."""


def _new_file_mode(destination: Path, mode: int | None) -> int | None:
    """The mode the replacement of ``destination`` gets: an existing file keeps
    its own; a new one gets ``mode``, or None (the temp file's, 0600)."""
    try:
        info = os.stat(destination)
    except OSError:
        return mode
    return stat.S_IMODE(info.st_mode) if stat.S_ISREG(info.st_mode) else mode


def write_atomic(destination: Path | str, data: str | bytes, mode: int | None = None) -> None:
    """Write ``data`` (text as UTF-8) to ``destination`` through a temp file and a rename.

    A reader (or a run resumed after a crash) sees the old file or the new
    one, never half of one. Only for a regular file or a new path: the
    rename replaces whatever is there.
    """
    destination = Path(destination)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    handle = tempfile.NamedTemporaryFile(
        "wb", dir=destination.parent, delete=False,
        prefix=f".{destination.name[:TEMP_PREFIX_CHARS]}.", suffix=".part")
    try:
        with handle:
            handle.write(payload)
        chosen = _new_file_mode(destination, mode)
        if chosen is not None:
            os.chmod(handle.name, chosen)
        os.replace(handle.name, destination)
    except BaseException:
        Path(handle.name).unlink(missing_ok=True)
        raise


@dataclass(frozen=True)
class Output:
    """Where a command's result goes, as checked by :func:`output`."""

    given: str  # as the user wrote it, for messages
    path: Path | None  # None: stdout
    atomic: bool  # a regular file or a new path: replaced through a rename

    def write(self, data: str | bytes, mode: int | None = None) -> None:
        """Write ``data`` whole (a new regular file gets ``mode``, see
        :func:`write_atomic`); BadOutput, in words, when the system refuses."""
        try:
            if self.path is None:
                _to_stdout(data)
            elif self.atomic:
                write_atomic(self.path, data, mode)
            else:
                # Appended: a device or a FIFO takes it as it comes; a shell's file
                # reached through /dev/stdout keeps what was written before.
                with open(self.path, "ab") as handle:
                    handle.write(data.encode("utf-8") if isinstance(data, str) else data)
        except OSError as exc:
            raise BadOutput(f"{self.given}: could not be written: "
                            f"{exc.strerror or exc}") from None


def _to_stdout(data: str | bytes) -> None:
    if isinstance(data, str):
        sys.stdout.write(data)
        sys.stdout.flush()
        return
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def _writable(path: str | Path, given: str, what: str) -> None:
    if not os.access(path, os.W_OK):
        raise BadOutput(f"{given}: {what} is not writable")


def _new_path(given: str) -> Output:
    """A path where nothing is yet (or a link to nothing): a new regular file."""
    real = Path(os.path.realpath(given))
    if not real.parent.is_dir():
        raise BadOutput(f"{given}: its folder does not exist")
    _writable(real.parent, given, f"its folder {real.parent}")
    return Output(given, real, atomic=True)


def _in_system_folder(given: str) -> bool:
    parts = Path(os.path.abspath(given)).parts
    return len(parts) > 1 and parts[1] in SYSTEM_FOLDERS


def _refused(given: str, mode: int, example: str) -> BadOutput:
    if stat.S_ISDIR(mode):
        return BadOutput(f"{given} is a folder: name a file in it "
                         f"(-o {os.path.join(given, example)})")
    what = ("a block device (a disk)" if stat.S_ISBLK(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "not a file")
    return BadOutput(f"{given} is {what}: -o takes a file, a character device such as "
                     f"/dev/null, a named pipe, or {STDOUT} for stdout")


def output(given: str, example: str = "report.txt") -> Output:
    """Check the ``-o`` target ``given`` before any work is done.

    BadOutput, in words, for what can't be written: a folder (``example``
    names a file to give instead), a socket, a block device, a path whose
    folder does not exist, one that is not writable.
    """
    if given == STDOUT:
        return Output(given, None, atomic=False)
    try:
        mode = os.stat(given).st_mode  # through links: /dev/stdout is a link to a pipe or tty
    except FileNotFoundError:
        return _new_path(given)
    except NotADirectoryError:
        raise BadOutput(f"{given}: its folder does not exist") from None
    except OSError as exc:
        raise BadOutput(f"{given}: can't be reached: {exc.strerror or exc}") from None
    if stat.S_ISREG(mode) and not _in_system_folder(given):
        real = Path(os.path.realpath(given))  # a link to a file: the file is replaced, not the link
        _writable(real.parent, given, f"its folder {real.parent}")
        return Output(given, real, atomic=True)
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode) or stat.S_ISREG(mode):
        _writable(given, given, "it")
        return Output(given, Path(given), atomic=False)
    raise _refused(given, mode, example)
