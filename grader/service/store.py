"""The submissions' files on disk, named by their sha256 (content-addressed).

A file is written to a temporary name, flushed to disk (fsync) and renamed
into place, and its folder is synced too: once ``put`` returns, the file
survives a crash, so the database row that points at it may be committed.
"""

import hashlib
import os
import tempfile
from pathlib import Path


class Store:
    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)

    def path(self, digest: str) -> Path:
        if len(digest) != 64 or not all(c in "0123456789abcdef" for c in digest):
            raise ValueError("not a sha256 digest")
        return self.root / digest[:2] / digest

    def put(self, data: bytes) -> str:
        """Store ``data`` durably; its sha256, by which ``get`` finds it again."""
        digest = hashlib.sha256(data).hexdigest()
        target = self.path(digest)
        if target.exists():  # the same bytes: already durable
            return digest
        target.parent.mkdir(exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".incoming-")
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
        return sum(1 for path in self.root.glob("*/*") if not path.name.startswith("."))


def _sync_folder(folder: Path) -> None:
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
