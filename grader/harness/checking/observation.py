"""One answer of the student's, as a check keeps it: what both the checks and
the facts read (a module of its own, so that neither imports the other)."""

from dataclasses import dataclass, field
from typing import Any

from grader.games import Path, State


@dataclass
class Observation:
    state: State
    path: Path
    answer: Any  # the student's decoded answer, or the Raised fault
    ok: bool
    extra: dict[str, Any] = field(default_factory=dict)  # shown with the answer (the depth, say)
    expected: str = ""  # what was due, as text; filled in for wrong answers only
