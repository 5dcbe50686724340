"""-o: a regular file is replaced whole, a device or a FIFO written straight through,
"-" is stdout, and anything else is refused before any work is done.

Devices are made in a temporary folder (a node of /dev/null's kind, 1:3, as root);
the machine's own /dev/null is never named here.
"""

import json
import os
import socket
import stat
import tempfile
import threading
import zipfile
from pathlib import Path

import pytest
from conftest import solution

from grader import cli, files, grading, image, report, sandbox
from grader.gradescope import package as gradescope_package

ROOT_ONLY = pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root "
                               "(CI runs the tests as root)")
NULL = os.makedev(1, 3)  # the kind of device /dev/null is


@pytest.fixture
def rejected_submission(tmp_path):
    """A submission graded at intake (an empty file): a real report, no sandbox needed."""
    folder = tmp_path / "submission"
    folder.mkdir()
    (folder / "minimax_helpers.py").write_text("")
    return folder


def grade_to(capsys, target, submission, fmt="json"):
    code = cli.main(["grade", "--sandbox", "local", "--exercise", "helpers", "--format", fmt,
                     "-o", str(target), str(submission)])
    out, err = capsys.readouterr()
    return code, out, err


def null_device(folder):
    path = folder / "null"
    os.mknod(path, stat.S_IFCHR | 0o666, NULL)
    return path


def is_null_device(path):
    info = os.lstat(path)
    return stat.S_ISCHR(info.st_mode) and info.st_rdev == NULL


# --- what each kind of target becomes ---------------------------------------------------

def test_a_new_path_and_an_existing_file_are_written_whole(capsys, tmp_path,
                                                           rejected_submission):
    target = tmp_path / "report.json"
    assert grade_to(capsys, target, rejected_submission)[0] == 0
    assert report.validate(json.loads(target.read_text()))["score"] == 0
    target.write_text("the old report")
    target.chmod(0o640)
    before = target.stat().st_ino
    code, out, _ = grade_to(capsys, target, rejected_submission)
    assert code == 0 and out.startswith("0/10 points: the submission was rejected")
    assert json.loads(target.read_text())["score"] == 0
    assert target.stat().st_ino != before  # a new file renamed over the old one
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # which keeps its mode
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json", "submission"]


def test_a_link_to_a_file_stays_a_link_and_its_file_gets_the_report(capsys, tmp_path,
                                                                    rejected_submission):
    (tmp_path / "reports").mkdir()
    real = tmp_path / "reports" / "real.json"
    real.write_text("old")
    link = tmp_path / "latest.json"
    link.symlink_to(real)
    assert grade_to(capsys, link, rejected_submission)[0] == 0
    assert link.is_symlink() and json.loads(real.read_text())["score"] == 0


@ROOT_ONLY
def test_a_device_is_written_through_and_stays_a_device(capsys, tmp_path,
                                                        rejected_submission):
    device = null_device(tmp_path)
    code, out, err = grade_to(capsys, device, rejected_submission, fmt="text")
    assert code == 0 and err == "" and out.startswith("0/10 points")
    assert is_null_device(device)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null", "submission"]


@ROOT_ONLY
def test_a_real_grading_run_to_a_null_device(capsys, tmp_path):
    device = null_device(tmp_path)
    code, out, _ = grade_to(capsys, device, solution("helpers"))
    assert code == 0 and out.startswith("10/10 points")
    assert is_null_device(device)


def read_fifo(path, into):
    """Read the FIFO at ``path`` to its end into the list ``into`` (in a thread)."""
    def read():
        with open(path, "rb") as handle:  # waits for the writer, then reads to its close
            into.append(handle.read())
    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread


@pytest.mark.timeout(60)  # a FIFO no one opens would hang: fail, don't hang
def test_a_fifo_gets_the_report_straight_through(capsys, tmp_path, rejected_submission):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = read_fifo(fifo, got)
    code, out, _ = grade_to(capsys, fifo, rejected_submission)
    reader.join()
    assert code == 0 and out.startswith("0/10 points")
    assert json.loads(got[0])["score"] == 0
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_file_named_through_proc_is_written_through_as_a_shell_s_file_would_be(
        capsys, tmp_path, rejected_submission):
    # /dev/stdout of `grade -o /dev/stdout >> log.txt` is such a path
    log = tmp_path / "log.txt"
    with open(log, "a") as handle:
        handle.write("before\n")
        handle.flush()
        inode = log.stat().st_ino
        assert grade_to(capsys, f"/proc/self/fd/{handle.fileno()}", rejected_submission)[0] == 0
    assert log.stat().st_ino == inode  # the same file, not one renamed over it
    before, report_text = log.read_text().split("\n", 1)
    assert before == "before" and json.loads(report_text)["score"] == 0


def test_a_dash_is_stdout_with_nothing_else_on_it(capsys, rejected_submission):
    code, out, _ = grade_to(capsys, "-", rejected_submission)
    assert code == 0 and json.loads(out)["score"] == 0


# --- refused before anything is graded ---------------------------------------------------

@pytest.fixture
def nothing_graded(monkeypatch):
    """Fails a test that grades, picks a sandbox or builds a package: refusals come first."""
    def reached(*args, **kwargs):
        raise AssertionError("work was done before the refusal")
    for owner, name in ((grading, "grade"), (grading, "open_sandbox"), (grading, "sandbox_for"),
                        (sandbox, "backend"), (gradescope_package, "build")):
        monkeypatch.setattr(owner, name, reached)


@pytest.fixture
def a_socket():
    # A short path: a socket's address is at most 108 bytes.
    with tempfile.TemporaryDirectory(prefix="mg-", dir="/tmp") as folder:
        path = os.path.join(folder, "sock")
        with socket.socket(socket.AF_UNIX) as server:
            server.bind(path)
            yield Path(path)


REFUSALS = {
    "folder": (lambda tmp, sock: tmp, "{t} is a folder: name a file in it (-o {t}/{name})"),
    "socket": (lambda tmp, sock: sock, "{t} is a socket: -o takes a file, a character device "
                                       "such as /dev/null, a named pipe, or - for stdout"),
    "no folder": (lambda tmp, sock: tmp / "no" / "such" / "out",
                  "{t}: its folder does not exist"),
    "under a file": (lambda tmp, sock: tmp / "afile" / "out", "{t}: its folder does not exist"),
}
COMMANDS = {
    "grade": (["grade", "--sandbox", "local", "--exercise", "helpers", "--format", "json"],
              "report.json"),
    "gradescope-package": (["gradescope-package", "--exercise", "helpers"], "autograder.zip"),
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("kind", sorted(REFUSALS))
def test_what_can_t_be_written_is_a_usage_error_up_front(capsys, tmp_path, nothing_graded,
                                                         a_socket, kind, command):
    (tmp_path / "afile").write_text("")
    make, says = REFUSALS[kind]
    target = make(tmp_path, a_socket)
    argv, name = COMMANDS[command]
    given = [str(solution("helpers"))] if command == "grade" else []
    code = cli.main([*argv, "-o", str(target), *given])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err == f"minimax-grader: error: {says.format(t=target, name=name)}\n"


@ROOT_ONLY
def test_a_block_device_is_refused(capsys, tmp_path, nothing_graded):
    disk = tmp_path / "disk"
    os.mknod(disk, stat.S_IFBLK | 0o600, os.makedev(7, 0))  # never opened
    code = cli.main(["grade", "--exercise", "helpers", "-o", str(disk),
                     str(solution("helpers"))])
    assert code == 2 and "is a block device (a disk)" in capsys.readouterr().err
    assert stat.S_ISBLK(os.lstat(disk).st_mode)


def test_a_write_that_fails_after_the_run_is_said_in_words(capsys, tmp_path,
                                                           rejected_submission, monkeypatch):
    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(files, "write_atomic", full)
    code, out, err = grade_to(capsys, tmp_path / "r.json", rejected_submission)
    assert code == 2 and out == ""
    assert err == (f"minimax-grader: error: {tmp_path / 'r.json'}: could not be written: "
                   "No space left on device\n")


# --- the Gradescope package: the same targets -------------------------------------------

@pytest.fixture
def no_wheels(monkeypatch):
    """The package without downloading wheels: the targets are what is tested here."""
    monkeypatch.setattr(image, "wheelhouse", lambda folder, requirements: None)


def package_to(capsys, target):
    code = cli.main(["gradescope-package", "--exercise", "helpers", "-o", str(target)])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_package_to_a_file(capsys, tmp_path, no_wheels):
    target = tmp_path / "autograder.zip"
    code, out, _ = package_to(capsys, target)
    assert code == 0 and out.startswith(f"wrote {target} (") and " MB): " in out
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    with zipfile.ZipFile(target) as archive:
        assert "run_autograder" in archive.namelist()


@ROOT_ONLY
def test_the_package_to_a_device(capsys, tmp_path, no_wheels):
    device = null_device(tmp_path)
    code, out, _ = package_to(capsys, device)
    assert code == 0 and out.startswith(f"wrote {device} (") and "MB" not in out
    assert is_null_device(device)


@pytest.mark.timeout(60)
def test_the_package_to_a_fifo_is_the_same_zip_as_to_a_file(capsys, tmp_path, no_wheels):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = read_fifo(fifo, got)
    assert package_to(capsys, fifo)[0] == 0
    reader.join()
    assert package_to(capsys, tmp_path / "autograder.zip")[0] == 0
    assert got[0] == (tmp_path / "autograder.zip").read_bytes()


def test_the_package_to_stdout_says_what_it_wrote_on_stderr(capsysbinary, no_wheels):
    assert cli.main(["gradescope-package", "--exercise", "helpers", "-o", "-"]) == 0
    out, err = capsysbinary.readouterr()
    assert out.startswith(b"PK\x03\x04") and err.startswith(b"wrote - (")
