"""The machine as the sandbox: the grading image's launcher, run here as root.

Its layout is called ``launcher`` (reports say so). For a machine that is
itself a throwaway container made for grading, such as Gradescope's (see
``grader.gradescope.package``), where the harness was installed by
``grader/data/image/install-harness``: the launcher takes the same job archive
on stdin as in the Docker sandbox, and starts the supervisor as the ``grader``
user and the student's workers as the uid of a slot it holds for the run
(``slots``), who can't read the suites. The wall-clock limit is this
process's deadline and kill; the other limits are the harness's rlimits,
with an address-space cap in place of a container's memory limit. Network,
disk and kernel isolation are the machine's: this backend adds none. With no
warm judge here, the supervisor started per grading (``supervised``) is this
machine's one box.
"""

import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from grader import layouts
from grader.contracts import places
from grader.contracts.run import Run
from grader.exercises import Exercise, Limits
from grader.intake import Submission
from grader.sandbox import slots
from grader.sandbox.outcome import SandboxUnavailable
from grader.sandbox.staging import job, job_archive
from grader.sandbox.supervised import supervise
from grader.sandbox.timing import readable_clock, run_group

LAUNCHER = places.PACKAGE / "harness" / "runtime" / "launcher.py"
ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}


def _kill_students(uid: int) -> None:
    # The workers start sessions of their own: killing the launcher's misses them.
    subprocess.run([sys.executable, "-I", "-B", str(LAUNCHER), "--kill-students", str(uid)],
                   env=ENV, check=False, timeout=30)


class LauncherSandbox:
    name = "launcher"
    layout = layouts.LAYOUTS["launcher"]

    def run(self, exercise: Exercise, submission: Submission, limits: Limits,
            cancel: threading.Event | None = None) -> Run:
        if os.geteuid() != 0:
            raise SandboxUnavailable(layouts.NOT_ROOT)
        with tempfile.TemporaryDirectory(prefix="minimax-grader-") as work, \
                run_group() as group, slots.take() as slot:
            os.chmod(work, 0o755)  # the student's worker reads its files in there
            settings = job(exercise, limits, exercise.suite, Path(work),
                           clock=readable_clock(group))
            settings["uid"] = slot.uid
            command = [sys.executable, "-I", "-B", str(LAUNCHER), work, str(exercise.suite)]
            return supervise(self.name, command, limits, cancel, group, cwd=work, env=ENV,
                             stdin=job_archive(settings, submission),
                             cleanup=lambda: _kill_students(slot.uid))
