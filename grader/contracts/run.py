"""What one run of a suite hands back: the sandbox fills it in, the report reads it.

A module of its own so that the report, which only reads a run, need not
import the sandbox package (and with it Docker's client and every backend).
"""

from dataclasses import dataclass, field

from grader.contracts.events import Event


@dataclass
class Run:
    backend: str
    limits: dict[str, float]
    events: list[Event] = field(default_factory=list)
    exit_code: int | None = None
    timed_out: bool = False
    out_of_memory: bool = False
    log: str = ""
