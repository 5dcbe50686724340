"""Reading a run's pipes: everything is read (so no writer ever blocks), the
first bytes up to a cap are kept."""

import io
import threading
import time
from collections.abc import Iterable

LOG_CAP = 64 << 10  # bytes of the supervisor's own log kept
PIPE_GRACE = 3  # seconds to read what is left in a run's pipes once its processes have ended


def keep(sink: bytearray, data: bytes, cap: int) -> None:
    """Append to ``sink`` what fits under ``cap`` bytes; the rest is dropped."""
    if len(sink) < cap:
        sink += data[: cap - len(sink)]


def read_capped(stream: io.BufferedIOBase, cap: int, sink: bytearray) -> None:
    """Read everything, keep the first ``cap`` bytes."""
    while chunk := stream.read1(65536):
        keep(sink, chunk, cap)


def join_readers(threads: Iterable[threading.Thread]) -> None:
    """Wait for the threads reading a run's pipes: they end with the processes
    that held the pipes, so a short wait, shared by all."""
    joined_by = time.monotonic() + PIPE_GRACE
    for thread in threads:
        thread.join(timeout=max(0, joined_by - time.monotonic()))
