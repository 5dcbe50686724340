"""The trusted process inside the sandbox: runs one exercise's suite.

Run as ``python -I supervisor.py JOB [LAUNCHER_FD | --wrap COMMAND]``; JOB is
the job file's path, or ``--pending FD SUITE``: started ahead of its job
(the launcher starts it before the job has arrived), it imports pytest,
the plugin and what the suite folder SUITE imports ("-": unknown), then
reads the job file's path from FD. With LAUNCHER_FD the worker is forked by
the container's launcher (see ``spawn``), as another user; with ``--wrap``
(a JSON list: bwrap and its options) by a zygote of the run's own, started
here in a bubblewrap view of its own (``zygote``). Standard
output becomes the results channel (one JSON line per event, written only by
the plugin); pytest's own output is sent to standard error. The student's
code never runs here: it runs in the worker that the suite's fixtures start.
"""

import importlib
import json
import os
import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[3])]

import pytest  # noqa: E402
import pytest_timeout  # noqa: E402

from grader.contracts import events, owntime  # noqa: E402
from grader.contracts import job as jobs  # noqa: E402
from grader.harness.runtime import closure, limits, spawn  # noqa: E402
from grader.harness.runtime.plugin import Grading  # noqa: E402

WRAP = "--wrap"
PENDING = "--pending"

# pytest's plugins that grading never uses; each costs time at every start
# (unraisableexception, a full garbage collection as the session ends).
UNUSED_PLUGINS = ("cacheprovider", "doctest", "junitxml", "legacypath", "monkeypatch",
                  "pastebin", "recwarn", "setuponly", "setupplan", "stepwise", "tmpdir",
                  "unittest", "unraisableexception", "threadexception")


def pytest_args(job: jobs.Job) -> list[str]:
    suite = job["suite"]
    # pytest-timeout ends a test the grader's own check holds up: past every
    # backstop of the run's own clock, so that a step of the student's always
    # meets its own limit first.
    longest = max(t.get("seconds", job["limits"]["test_seconds"]) for t in job["tests"].values())
    backstop = int(owntime.backstop(longest)) + 30
    return [
        suite,
        "--rootdir", suite,
        "-c", os.devnull,  # no ini file from anywhere else
        *[arg for name in UNUSED_PLUGINS for arg in ("-p", f"no:{name}")],
        "--assert=plain",  # the suites fail through Mismatch, not assert
        "-o", f"timeout={backstop}",
        "-q", "--no-header", "-rN",
    ]


def _spawner(argv: list[str], game: str) -> spawn.BrokerSpawner | None:
    """Who starts the workers: the launcher (its socket), a zygote in a
    bubblewrap view started here (``--wrap``), or this process itself."""
    if argv[:1] == [WRAP]:
        return spawn.start_zygote(json.loads(argv[1]), game)
    return spawn.BrokerSpawner(int(argv[0])) if argv else None


def warm_up(suite: str) -> None:
    """Import the grader's modules that the suite's files import, so that the
    collection finds them loaded; one that fails is left for the run to report."""
    for path in sorted(Path(suite).glob("*.py")) if suite != "-" else ():
        for module in sorted(closure.file_imports(path)):
            try:
                importlib.import_module(module)
            except Exception:  # noqa: S112 (the run imports it again and says why)
                continue


def _job_path(argv: list[str]) -> tuple[str, list[str]]:
    """The job file's path (waited for, when started ahead of it) and the rest of ``argv``."""
    if argv[0] != PENDING:
        return argv[0], argv[1:]
    warm_up(argv[2])
    with os.fdopen(int(argv[1]), "rb") as pending:
        path = pending.read().decode()
    if not path:  # the launcher ended without a job: nothing to grade
        os._exit(2)
    return path, argv[3:]


def main(argv: list[str]) -> int:
    # This process's /proc entries (its pipes among them) are kept from the
    # student's processes, even where they run as the same user.
    spawn.set_dumpable(False)
    return run_suite(*_job_path(argv))


def run_suite(path: str, argv: list[str]) -> int:
    """Run the suite of the job at ``path`` (``argv``: who starts the workers),
    standard output the results channel and standard error the log."""
    job = jobs.read(path)
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    limits.apply(job["limits"])
    spawner = _spawner(argv, job["game"])
    grading = Grading(job, channel, spawner)
    # pytest-timeout given as a module: "-p" would first search every installed
    # package's entry points for it.
    code = pytest.main(pytest_args(job), plugins=[grading, pytest_timeout])
    grading.emit(events.end(int(code)))
    if spawner is not None:  # nothing of the run outlives its supervisor
        spawner.close()
    return 0


if __name__ == "__main__":
    status = main(sys.argv[1:])
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)  # all is written: the interpreter's teardown would cost tens of ms
