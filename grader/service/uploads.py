"""An upload as the intake takes it: one .zip, or one or more .py files.

Browsers send a file's own name: a name with a folder in it ("../x.py",
"/x.py", "a\\x.py") is refused, not cut down. A zip is checked before the
intake unpacks it: the intake inflates each member in one piece, trusting its
declared size, so a member that inflates to more than it declares (a zip bomb
with a forged header) is refused here, inflated a chunk at a time. Then the
files go to a fresh temporary folder (in the service's data folder), which
``grader.intake`` checks as it checks any submission (names, sizes, UTF-8, a
zip's links and paths): the one intake of a hand-in, whose files are stored
and graded as taken.
"""

import io
import struct
import tempfile
import zipfile
import zlib
from collections.abc import Sequence
from pathlib import Path

from grader import intake
from grader.exercises import Exercise
from grader.intake import Rejected

LOCAL_HEADER = struct.Struct("<4s22xHH")  # signature, ..., name length, extra length
CHUNK = 64 * 1024  # the most a zip member is inflated by at a time


def _name(given: str) -> str:
    shown = given[:100] or "a file without a name"
    if any(mark in given for mark in ("/", "\\", "\0")) or given in (".", ".."):
        raise Rejected(f"{shown!r}: give the file's own name, with no folder in it")
    if given.startswith(".") or not given.endswith((".py", ".zip")):
        raise Rejected(f"{shown}: hand in .py files or one .zip")
    return given


def _inflated_size(data: bytes, info: zipfile.ZipInfo) -> int:
    """The bytes a deflated member really inflates to, counted no further than
    one chunk past its declared size."""
    start = info.header_offset
    signature, name_length, extra_length = LOCAL_HEADER.unpack_from(data, start)
    if signature != b"PK\x03\x04":
        raise zipfile.BadZipFile(f"no local header for {info.filename!r}")
    begin = start + LOCAL_HEADER.size + name_length + extra_length
    pending = memoryview(data)[begin:begin + info.compress_size]
    inflater = zlib.decompressobj(-zlib.MAX_WBITS)
    size = 0
    while pending:
        size += len(inflater.decompress(pending, CHUNK))
        if size > info.file_size:
            return size
        pending = memoryview(inflater.unconsumed_tail)
    return size + len(inflater.flush())  # all input is in: what it still holds is small


def _check_zip(data: bytes) -> None:
    """Refuse what the intake should not unpack: an encrypted member, one
    compressed otherwise than stored or deflated, one bigger than it says."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            infos = archive.infolist()
            if (len(infos) > intake.MAX_ZIP_ENTRIES
                    or sum(info.file_size for info in infos) > intake.MAX_ZIP_BYTES):
                return  # the intake refuses it before reading any member
            for info in infos:
                if info.flag_bits & 0x1:
                    raise Rejected(f"the zip entry {info.filename!r} is encrypted: "
                                   "make the zip without a password")
                if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                    raise Rejected(f"the zip entry {info.filename!r} is compressed in a way "
                                   "not taken here: make the zip with the usual compression")
                if (info.compress_type == zipfile.ZIP_DEFLATED
                        and _inflated_size(data, info) > info.file_size):
                    raise Rejected(f"the zip entry {info.filename!r} unpacks to more than "
                                   "its header says: make the zip again")
    except (*intake.ZIP_ERRORS, struct.error) as exc:
        raise Rejected(f"the zip can't be read: {exc}") from None


def take(exercise: Exercise, uploads: Sequence[tuple[str, bytes]],
         scratch: Path) -> intake.Submission:
    """The submission in ``uploads`` ((file name, bytes) pairs); Rejected says why not.
    ``scratch``: where the files are unpacked (the service's own temporary folder,
    see ``core.scratch``)."""
    if not uploads:
        raise Rejected("choose the file(s) to hand in")
    names = [_name(name) for name, _ in uploads]
    if len(set(names)) != len(names):
        raise Rejected("two of the files have the same name")
    zips = [name for name in names if name.endswith(".zip")]
    if zips and len(names) > 1:
        raise Rejected("hand in one .zip on its own, or the .py files")
    with tempfile.TemporaryDirectory(prefix="minimax-grader-upload-", dir=scratch) as folder:
        if zips:
            _check_zip(uploads[0][1])
            path = Path(folder) / "upload.zip"
            path.write_bytes(uploads[0][1])
            return intake.take_for(path, exercise.files, exercise.by_play)
        into = Path(folder) / "upload"
        into.mkdir()
        for name, (_, data) in zip(names, uploads, strict=True):
            (into / name).write_bytes(data)
        return intake.take_for(into, exercise.files, exercise.by_play)
