"""Writing files whole or not at all."""

import os
import tempfile
from pathlib import Path


def write_atomic(destination, text):
    """Write ``text`` to ``destination`` through a temp file and a rename.

    A reader (or a run resumed after a crash) sees the old file or the new
    one, never half of one.
    """
    destination = Path(destination)
    handle = tempfile.NamedTemporaryFile("w", encoding="utf-8", newline="",
                                         dir=destination.parent, delete=False,
                                         prefix=f".{destination.name}.", suffix=".part")
    try:
        with handle:
            handle.write(text)
        os.replace(handle.name, destination)
    except BaseException:
        Path(handle.name).unlink(missing_ok=True)
        raise
