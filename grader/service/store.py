"""The submissions' files on disk, named by their sha256 (content-addressed).

A file is written to a temporary name, flushed to disk (fsync) and renamed
into place, and its folder is synced too: once ``put`` returns, the file
survives a crash, so the database row that points at it may be committed.
A crash while writing leaves only a temporary file, never a stored one: those
are removed when the store is opened, once they are old enough to be no other
process's write in progress (grading hosts may open the same folder).
"""

import contextlib
import hashlib
import os
import tempfile
import time
from pathlib import Path

TEMPORARY = ".incoming-"
STALE_SECONDS = 3600  # a write takes milliseconds: an older temporary file is a crash's


class Store:
    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        stale = time.time() - STALE_SECONDS
        for stray in root.glob(f"*/{TEMPORARY}*"):
            with contextlib.suppress(FileNotFoundError):  # another process's clean-up
                if stray.stat().st_mtime < stale:
                    stray.unlink()

    def path(self, digest: str) -> Path:
        if len(digest) != 64 or not all(c in "0123456789abcdef" for c in digest):
            raise ValueError("not a sha256 digest")
        return self.root / digest[:2] / digest

    @staticmethod
    def digest(data: bytes) -> str:
        """The name ``put`` stores ``data`` under: its sha256."""
        return hashlib.sha256(data).hexdigest()

    def put(self, data: bytes) -> str:
        """Store ``data`` durably; its sha256, by which ``get`` finds it again."""
        digest = self.digest(data)
        target = self.path(digest)
        if target.exists():  # the same bytes: already durable
            return digest
        if not target.parent.is_dir():  # a new folder: its own entry must survive too
            target.parent.mkdir(exist_ok=True)
            _sync_folder(self.root)
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=TEMPORARY)
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        _sync_folder(target.parent)
        return digest

    def get(self, digest: str) -> bytes:
        return self.path(digest).read_bytes()

    def count(self) -> int:
        """The files stored (the tests' measure of "nothing stored")."""
        return sum(1 for path in self.root.glob("*/*") if not path.name.startswith(TEMPORARY))


def _sync_folder(folder: Path) -> None:
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
