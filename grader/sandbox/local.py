"""The local sandbox: a subprocess in a fresh temporary folder.

It limits and tidies up, but it is NOT a security boundary: the student's
code runs as the grading user, on this machine. Grade untrusted work in the
Docker sandbox.
"""

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from grader.harness.provided import provide
from grader.sandbox import LOG_CAP, RESULTS_CAP, finished, job, keep

SUPERVISOR = Path(__file__).resolve().parent.parent / "harness" / "supervisor.py"


def _scrubbed_env(home):
    """Only what the harness needs: no host secrets reach the student."""
    return {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8",
            "TMPDIR": str(home), "MALLOC_ARENA_MAX": "2"}


def _read_capped(stream, cap, sink):
    """Read everything (so the writer never blocks), keep the first ``cap`` bytes."""
    while chunk := stream.read1(65536):
        keep(sink, chunk, cap)


class LocalSandbox:
    name = "local"

    def run(self, exercise, submission, limits):
        with tempfile.TemporaryDirectory(prefix="minimax-grader-") as work:
            work = Path(work)
            settings = job(exercise, limits, exercise.suite, work)
            folder = Path(settings["submission"])
            folder.mkdir()
            for name, data in submission.files.items():
                (folder / name).write_bytes(data)
            provide(exercise.provides, settings["provided"])
            job_file = work / "job.json"
            job_file.write_text(json.dumps(settings))
            return self._supervise(work, job_file, limits)

    def _supervise(self, work, job_file, limits):
        process = subprocess.Popen(
            [sys.executable, "-I", "-B", str(SUPERVISOR), str(job_file)],
            cwd=work, env=_scrubbed_env(work), stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        )
        results, log = bytearray(), bytearray()
        readers = [
            threading.Thread(target=_read_capped, args=(process.stdout, RESULTS_CAP, results)),
            threading.Thread(target=_read_capped, args=(process.stderr, LOG_CAP, log)),
        ]
        for reader in readers:
            reader.start()
        timed_out = False
        try:
            process.wait(timeout=limits.total_seconds)
        except subprocess.TimeoutExpired:
            timed_out = True
        finally:
            _kill_group(process)
        for reader in readers:
            reader.join(timeout=5)
        return finished(self.name, limits, results, log, exit_code=process.returncode,
                        timed_out=timed_out)


def _kill_group(process):
    """Kill the supervisor's whole session, stragglers included."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    process.wait()
