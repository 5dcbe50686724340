"""An upload as the intake takes it: one .zip, or one or more .py files.

The uploaded names are reduced to their last part and written to a fresh
temporary folder, which ``grader.intake`` then checks as it checks any
submission (names, sizes, UTF-8, a zip's links and paths).
"""

import tempfile
from collections.abc import Sequence
from pathlib import Path, PurePosixPath

from grader import intake
from grader.exercises import Exercise
from grader.intake import Rejected


def _name(given: str) -> str:
    name = PurePosixPath(given.replace("\\", "/")).name
    if not name or name.startswith(".") or not name.endswith((".py", ".zip")):
        raise Rejected(f"{name or 'a file without a name'}: hand in .py files or one .zip")
    return name


def take(exercise: Exercise, uploads: Sequence[tuple[str, bytes]]) -> intake.Submission:
    """The submission in ``uploads`` ((file name, bytes) pairs); Rejected says why not."""
    if not uploads:
        raise Rejected("choose the file(s) to hand in")
    names = [_name(name) for name, _ in uploads]
    if len(set(names)) != len(names):
        raise Rejected("two of the files have the same name")
    zips = [name for name in names if name.endswith(".zip")]
    if zips and len(names) > 1:
        raise Rejected("hand in one .zip on its own, or the .py files")
    with tempfile.TemporaryDirectory(prefix="minimax-grader-upload-") as folder:
        if zips:
            path = Path(folder) / "upload.zip"
            path.write_bytes(uploads[0][1])
            return intake.take(path, exercise.files)
        into = Path(folder) / "upload"
        into.mkdir()
        for name, (_, data) in zip(names, uploads, strict=True):
            (into / name).write_bytes(data)
        return intake.take(into, exercise.files)
