"""The student's side of a sandbox run: unpack the job, fork the student's workers.

It reads the job archive on stdin and unpacks it into the work folder WORK,
then forks and kills the student's workers, as the uid the job names (a slot
the host holds for the run's life, ``grader.sandbox.slots``), when the
judge asks (see ``spawn`` and ``zygote``: it imported the worker's modules,
so no worker starts an interpreter of its own). It runs as root, and keeps
only the capabilities to change user and to kill (a container drops all
others and forbids new privileges). Once the judge is done, every student
process is killed.

``launcher.py WORK --judge-outside GAME``: the Docker sandbox's container, whose
judge runs on the host (``grader.sandbox.judges``). It imports GAME's kit
while the job is on its way, receives it (in the container's tmpfs),
connects to the launcher socket the job names, says the run's token, and
answers the judge until it hangs up.

``launcher.py WORK SUITE``: the launcher sandbox (``grader.sandbox.machine``,
Gradescope's machine), whose judge is a supervisor started here at once as
the ``grader`` user, before the job has arrived, with this process's stdout
as its results channel: it imports pytest and what the suite folder SUITE
imports meanwhile, and is told where the job is once it is unpacked.

``launcher.py --kill-students UID`` kills every process of that student's uid
left on this machine.
"""

import io
import os
import signal
import socket
import subprocess
import sys
import tarfile
import time
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

sys.path[:0] = [str(Path(__file__).resolve().parents[3])]

from grader.contracts import job as jobs  # noqa: E402
from grader.contracts.provided import provide  # noqa: E402
from grader.contracts.run import SLOT_UIDS  # noqa: E402
from grader.harness.runtime import limits  # noqa: E402
from grader.harness.runtime.spawn import serve, worker_args  # noqa: E402
from grader.harness.runtime.zygote import ForkSpawner, preload  # noqa: E402

SUPERVISOR = Path(__file__).resolve().parent / "supervisor.py"
GRADER_UID = 10001
# The student's code runs as a uid of the run's own (the job's), not as the
# image's "student" (10002): RLIMIT_NPROC counts a user's processes across the
# whole host, so a fork bomb in one container would starve a neighbour's run
# that shared its user. The files it may read are readable by any other user.
MAX_ARCHIVE = 16 << 20
KILL = "--kill-students"  # instead of a work folder: kill every student process, then end
PENDING = "--pending"  # the supervisor's: started ahead of its job (see supervisor.py)
ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/tmp",
       "TMPDIR": "/tmp"}


def unpack(data: bytes, work: Path) -> None:
    """Write the job archive's regular files under ``work`` (nothing else is accepted)."""
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        for member in archive.getmembers():
            name = PurePosixPath(member.name)
            if not member.isfile() or name.is_absolute() or ".." in name.parts:
                raise SystemExit(f"launcher: refusing archive member {member.name!r}")
            target = work / name
            target.parent.mkdir(parents=True, exist_ok=True)
            source = archive.extractfile(member)
            assert source is not None  # a regular file has its data
            target.write_bytes(source.read())
            target.chmod(0o644)


def student_pids(uid: int) -> Iterator[int]:
    """Every live process of the student's ``uid`` (forks that left their group
    too; zombies are dead already)."""
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                status = Path(f"/proc/{entry}/status").read_text()
            except OSError:
                continue
            fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
            if uid in map(int, fields["Uid"].split()) and \
                    not fields["State"].strip().startswith("Z"):
                yield int(entry)


class StudentSpawner(ForkSpawner):
    """Forks workers as the student (this process is their zygote: see
    ``zygote``); a kill ends every student process (and then starts the
    spare: see ``spawn.LocalSpawner``)."""

    def _end(self, pid: int) -> bool:
        super()._end(pid)
        return self.kill_all()

    def kill_all(self, seconds: float = 3) -> bool:
        """Kill every student process and see them gone (at most ``seconds``): a
        process that forks while it is being killed leaves a child a pass did not
        see, and one killed takes a moment to exit. Whether none is left."""
        deadline = time.monotonic() + seconds
        assert self.user is not None, "a student's spawner has the student's uid"
        while found := list(student_pids(self.user)):
            for pid in found:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            if time.monotonic() > deadline:
                return False
            time.sleep(0.005)
        return True


def receive(work: Path) -> tuple[Path, jobs.Job]:
    """Unpack the job archive from stdin under ``work``, give the job what it
    names and apply its limits: the job file, and the job."""
    data = sys.stdin.buffer.read(MAX_ARCHIVE + 1)
    if len(data) > MAX_ARCHIVE:
        raise SystemExit("launcher: the job archive is too large")
    unpack(data, work)
    job_file = work / jobs.FILE
    job = jobs.read(job_file)
    provide(job["provides"], job["provided"])
    limits.apply(job["limits"])
    return job_file, job


def student_uid(value: object) -> int:
    """The job's uid for the student, where it is one of the runs' own."""
    if not isinstance(value, int) or value not in SLOT_UIDS:
        raise SystemExit(f"launcher: refusing the student's uid {value!r}")
    return value


def _spawner(job: jobs.Job) -> StudentSpawner:
    """The run's spawner, as the job's uid, its first worker started ahead."""
    preload(job["game"])  # at once where the game's kit was imported already
    spawner = StudentSpawner(user=student_uid(job.get("uid")), env=ENV)
    spawner.prepare(*worker_args(job["submission"], job["provided"], job["game"],
                                 job["modules"]))
    return spawner


def for_judge(work: Path, game: str) -> None:
    """A judge outside the container: import the worker's modules and ``game``'s
    kit while the job is on its way, receive it, connect to the launcher socket
    (``job["launcher_socket"]``), say the run's token, and answer the judge's requests
    until it hangs up; then kill every student process and end."""
    preload(game)
    _, job = receive(work)
    spawner = _spawner(job)
    with socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET) as judge:
        judge.connect(job["launcher_socket"])
        judge.sendall(job["token"].encode())
        try:
            serve(judge, spawner)
        finally:
            spawner.kill_all()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def main() -> None:
    if sys.argv[1:2] == [KILL]:  # the launcher sandbox's cleanup, after a run
        StudentSpawner(user=student_uid(int(sys.argv[2]))).kill_all()
        return
    work, suite = Path(sys.argv[1]), sys.argv[2]
    if suite == jobs.JUDGE_OUTSIDE:
        for_judge(work, sys.argv[3])
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    pending, tell = os.pipe()
    # Started before any student code, as before: the supervisor sets the
    # job's limits on itself once it has read the job.
    supervisor = subprocess.Popen(
        [sys.executable, "-I", "-B", str(SUPERVISOR), PENDING, str(pending), suite,
         str(theirs.fileno())],
        user=GRADER_UID, group=GRADER_UID, extra_groups=[],
        pass_fds=(theirs.fileno(), pending), env=ENV, cwd=work, stdin=subprocess.DEVNULL,
    )
    theirs.close()
    os.close(pending)
    try:
        job_file, job = receive(work)
        os.write(tell, str(job_file).encode())
    finally:
        os.close(tell)  # without a job the supervisor ends at once
    spawner = _spawner(job)  # its first worker starts while the supervisor collects the suite
    try:
        serve(ours, spawner)
    finally:
        code = supervisor.wait()
        spawner.kill_all()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)  # the container ends with it: no interpreter teardown to wait for


if __name__ == "__main__":
    main()
