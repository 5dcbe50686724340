"""What one run of a suite hands back: the sandbox fills it in, the report reads it.

A module of its own so that the report, which only reads a run, need not
import the sandbox package (and with it Docker's client and every backend).
"""

from dataclasses import dataclass, field

from grader.contracts.events import Event

# The uids a run may hold as its own (``grader.sandbox.slots``): above the
# 16-bit range, below where /etc/subuid usually starts handing out ranges, and
# apart from the image's own users. The launcher refuses any other.
SLOT_UIDS = range(70000, 71000)


@dataclass
class Run:
    backend: str
    limits: dict[str, float]
    events: list[Event] = field(default_factory=list)
    exit_code: int | None = None
    timed_out: bool = False
    out_of_memory: bool = False
    log: str = ""
    # The machine starved the run (past the wall clock's backstop, its own time
    # within its limit; or its supervisor said so of a step): no verdict, graded again.
    overloaded: bool = False
    # What the run used, as the host's clock of its group tells it: "cpu_seconds",
    # "own_seconds" (the wall less the wait for a CPU), "wall_seconds".
    time: dict[str, float] = field(default_factory=dict)
    kernel_clock: bool = False  # timed by its control group (else by the wall clock)
