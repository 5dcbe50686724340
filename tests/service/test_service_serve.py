"""``minimax-grader serve`` as a user runs it: a process, a port, a link."""

import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import httpx2
import pytest

from grader.sandbox import local_is_boundary


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.timeout(60)
def test_serve_prints_the_first_instructors_link_and_serves_it(tmp_path):
    port = free_port()
    roster = tmp_path / "roster.csv"
    roster.write_text("name,email\nAda,ada@example.edu\n", encoding="utf-8")
    command = [str(Path(sys.executable).parent / "minimax-grader"), "serve", "--port", str(port),
               "--data", str(tmp_path / "data"), "--sandbox", "local", "--roster", str(roster)]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        student = server.stdout.readline()
        assert re.match(rf"Ada <ada@example.edu>: http://127.0.0.1:{port}/s/[\w-]+$", student)
        link = server.stdout.readline()
        found = re.search(rf"(http://127.0.0.1:{port}/i/[\w-]+)$", link)
        assert found, link
        said = ""
        while "Uvicorn running on" not in said:  # uvicorn says so once it listens
            line = server.stderr.readline()
            assert line, f"serve stopped: {said}"
            said += line
        assert ("NOT a security boundary" in said) != local_is_boundary()  # no bubblewrap
        with httpx2.Client(follow_redirects=True) as browser:
            courses = browser.get(found.group(1))  # the first instructor's: the first course
            assert courses.status_code == 200 and 'href="/i/c/1">Course<' in courses.text
            page = browser.get(f"http://127.0.0.1:{port}/i/c/1")
        assert page.status_code == 200 and "Gradebook" in page.text and "Ada" in page.text
    finally:
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=30)
    assert server.returncode == 0, err
    assert found.group(1).rsplit("/", 1)[1] not in err  # the secret is in no log line
