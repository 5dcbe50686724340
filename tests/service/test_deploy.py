"""The deployment of docs/deploy/ as written, on loopback.

The units' commands are parsed from their ExecStartPre and ExecStart lines and
run as they are (only the paths and ports are this test's): the grading image is
built, the database upgraded, then ``serve``, ``worker`` and ``match-host``
start, with the broker of redis.conf (a password, TLS only) and PostgreSQL, and
nginx.conf in front with a certificate made here. A student hands in through the
proxy, the grading host grades in Docker, and the readiness, the status command,
the metrics and the JSON log lines say so.

Each command runs confined as its unit says, made by hand as systemd would make it
(``confined``): its own user in the docker group, a private /tmp where the unit
asks for one, the system read-only but for the unit's state, cache and run-time
folders and its ReadWritePaths, no home folders. What the Docker engine binds into
a container must lie where the machine, not the unit, sees it.
"""

import grp
import json
import os
import pwd
import re
import secrets
import shlex
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from conftest import skip_loudly

from grader import image
from grader.hosting import watch
from grader.service import operations, tasks
from tests.service.certificates import Certificate, self_signed
from tests.service.conftest import FULL_MARKS, NAME, ROOT
from tests.service.postgres_server import PostgresServer, free_port, postgres  # noqa: F401
from tests.service.test_service_celery import wait_for
from tests.service.test_service_operating import parsed

DEPLOY = ROOT / "docs" / "deploy"
COMMAND = str(Path(sys.executable).parent / "minimax-grader")
# What the units name that is this machine's in the test.
BINARY = "/opt/minimax-grader/bin/minimax-grader"
DATA = "/var/lib/minimax-grader"
CACHE = "/var/cache/minimax-grader"
RUN = "/run/minimax-grader"
PUBLIC = "https://grader.example.edu"  # nginx.conf's server_name
UNITS = ("serve", "worker", "match-host")
FULL = '<strong class="counted">10/10</strong>'


def unit(name: str) -> dict[str, dict[str, list[str]]]:
    """A unit file's sections, each key's values in order (a key may repeat), its
    lines continued by a final backslash joined as systemd joins them."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] = {}
    text = (DEPLOY / f"minimax-grader-{name}.service").read_text(encoding="utf-8")
    for line in text.replace("\\\n", " ").splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        key, _, value = line.partition("=")
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


class Machine:
    """This test's stand-ins for the machine's paths and ports, and what runs."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.data = folder / "data"
        self.paths = {BINARY: COMMAND, DATA: str(self.data), CACHE: str(folder / "cache"),
                      RUN: str(folder / "run")}
        self.ports: dict[str, int] = {}  # a unit's port -> this test's
        self.used: set[str] = set()
        self.processes: list[subprocess.Popen] = []
        self.uid = _free_id()  # the units' user, with no entry of its own (a system user)
        self.read_only: list[str] = []  # what the machine holds that the units read

    def path(self, written: str) -> str:
        """A path a unit names (or one below it), as this machine has it."""
        for path, mine in self.paths.items():
            if written == path or written.startswith(f"{path}/"):
                self.used.add(path)
                return mine + written[len(path):]
        return written

    def confined(self, service: dict[str, list[str]]) -> list[str]:
        """The command that runs another as the unit ``service`` says: as its user in
        its supplementary groups, its file system as its sandboxing makes it."""
        made = ["bwrap", "--die-with-parent", "--ro-bind", "/", "/", "--dev-bind", "/dev",
                "/dev", "--bind", "/proc", "/proc", "--bind", "/sys", "/sys"]
        assert service["ProtectSystem"] == ["strict"] and service["ProtectHome"] == ["true"]
        homes = ["/home", "/root"]  # ProtectHome: empty
        temporary = ["/tmp", "/var/tmp"] if service.get("PrivateTmp") == ["true"] else []
        for folder in homes + temporary:  # a private /tmp is everyone's, as the machine's
            made += ["--perms", "1777" if folder in temporary else "0755", "--tmpfs", folder]
        empty = homes + temporary
        owned = ([f"/var/lib/{name}" for name in service.get("StateDirectory", [])]
                 + [f"/var/cache/{name}" for name in service.get("CacheDirectory", [])]
                 + [f"/run/{name}" for name in service.get("RuntimeDirectory", [])])
        for written in owned:  # systemd makes them, the unit's user's
            folder = Path(self.path(written))
            folder.mkdir(parents=True, exist_ok=True)
            os.chown(folder, self.uid, self.uid)
        writable = [self.path(written) for written in [*owned,
                                                       *service.get("ReadWritePaths", [])]]
        made += _folders_to(empty, [*writable, *self.read_only])
        for path in writable:
            made += ["--bind", path, path]
        for path in self.read_only:
            made += ["--ro-bind", path, path]
        workdir = service.get("WorkingDirectory", ["/"])[0]
        groups = ",".join(str(grp.getgrnam(name).gr_gid)
                          for name in service.get("SupplementaryGroups", []))
        assert service["NoNewPrivileges"] == ["true"]
        return [*made, "--chdir", self.path(workdir), "--cap-add", "CAP_SETUID",
                "--cap-add", "CAP_SETGID", "--", "setpriv", f"--reuid={self.uid}",
                f"--regid={self.uid}", f"--groups={groups}", "--inh-caps=-all",
                "--no-new-privs", "--"]

    def command(self, service: dict[str, list[str]], line: str) -> list[str]:
        """A unit's command line, with this machine's paths and ports, confined."""
        words = shlex.split(line)
        assert words[0] == BINARY, f"not the installed grader: {line}"
        made = []
        for before, word in zip(["", *words], words, strict=False):
            if before in ("--port", "--metrics-port"):
                word = str(self.ports.setdefault(word, free_port()))
            else:
                word = self.path(word)
            made.append(word)
        return self.confined(service) + made

    def start(self, name: str, command: list[str], environment: dict[str, str]) -> Path:
        """Start ``command`` in a process group of its own: the folder of its output."""
        out = self.folder / name
        out.mkdir()
        with open(out / "stdout", "wb") as stdout, open(out / "stderr", "wb") as stderr:
            self.processes.append(subprocess.Popen(
                command, stdout=stdout, stderr=stderr, env=environment, cwd=self.folder,
                start_new_session=True))
        return out

    def environment(self, service: dict[str, list[str]],
                    given: dict[str, str]) -> dict[str, str]:
        """The unit's Environment= lines and ``given``, what its EnvironmentFile gives,
        with a home of no one's (as a system user's)."""
        made = {key: value for key, value in os.environ.items() if key != "TMPDIR"}
        made.update(given, HOME="/nonexistent")
        for setting in service.get("Environment", []):
            key, _, value = setting.partition("=")
            made[key] = self.path(value)
        return made

    def stop(self) -> list[int]:
        """SIGTERM to each, the last started first, as systemd stops units: their exit
        statuses, in the order they were started."""
        statuses = {}
        for process in reversed(self.processes):
            if process.poll() is None:
                os.kill(_confined_pid(process), signal.SIGTERM)
            try:
                statuses[process.pid] = process.wait(timeout=120)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                statuses[process.pid] = process.wait()
        return [statuses[process.pid] for process in self.processes]


def _confined_pid(process: subprocess.Popen) -> int:
    """The process a confined command runs as (bwrap's child: systemd signals the unit's
    processes, and bwrap forwards no signal), or ``process``'s own."""
    if Path(str(process.args[0])).name != "bwrap":
        return process.pid
    children = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
    return int(children[0]) if children else process.pid


def _folders_to(empty: list[str], paths: list[str]) -> list[str]:
    """bwrap's arguments that make the folders leading to ``paths`` inside the
    ``empty`` ones (its own would be root's alone), as the machine's are: 0755."""
    made: list[str] = []
    for path in paths:
        for folder in reversed(Path(path).parents):
            inside = any(folder.is_relative_to(top) and str(folder) != top for top in empty)
            if inside and str(folder) not in made:
                made += ["--perms", "0755", "--dir", str(folder)]
    return made


def _free_id() -> int:
    """A uid and gid no user or group of the machine has, nor the sandboxes' own."""
    for number in range(61000, 65000):
        try:
            pwd.getpwuid(number)
            continue
        except KeyError:
            pass
        try:
            grp.getgrgid(number)
        except KeyError:
            return number
    raise AssertionError("no free uid")


def broker(folder: Path, certificate: Certificate, password: str) -> tuple[Path, int]:
    """redis.conf as written, with this machine's address, port, files and password."""
    port = free_port()
    mine = {"bind": "127.0.0.1", "tls-port": str(port), "tls-cert-file": str(certificate.cert),
            "tls-key-file": str(certificate.key), "tls-ca-cert-file": str(certificate.cert),
            "requirepass": password}
    lines = []
    for line in (DEPLOY / "redis.conf").read_text(encoding="utf-8").splitlines():
        directive = line.split(" ", 1)[0]
        if directive in mine:
            line = f"{directive} {mine.pop(directive)}"
        lines.append(line)
    assert not mine, f"redis.conf no longer sets {sorted(mine)}"
    conf = folder / "redis.conf"
    conf.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return conf, port


def proxy(folder: Path, certificate: Certificate, serve_port: int) -> tuple[Path, int, int]:
    """nginx.conf as written, listening on loopback ports, with this test's certificate,
    inside a main configuration of its own: (that file, the http port, the https one)."""
    http, https = free_port(), free_port()
    site = (DEPLOY / "nginx.conf").read_text(encoding="utf-8")
    for written, mine in (("listen 80;", f"listen 127.0.0.1:{http};"),
                          ("listen 443 ssl http2;", f"listen 127.0.0.1:{https} ssl http2;"),
                          ("/etc/ssl/certs/grader.example.edu.pem", str(certificate.cert)),
                          ("/etc/ssl/private/grader.example.edu.key", str(certificate.key)),
                          ("http://127.0.0.1:8000;", f"http://127.0.0.1:{serve_port};")):
        assert written in site, f"nginx.conf no longer says {written!r}"
        site = site.replace(written, mine)
    (folder / "site.conf").write_text(site, encoding="utf-8")
    temp = " ".join(f"{kind}_temp_path {folder / kind};"
                    for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    main = folder / "nginx-main.conf"
    main.write_text(
        ("user root;\n" if os.geteuid() == 0 else "")
        + f"worker_processes 1;\npid {folder / 'nginx.pid'};\n"
        f"error_log {folder / 'nginx-error.log'};\nevents {{}}\n"
        f"http {{ {temp} include {folder / 'site.conf'}; }}\n", encoding="utf-8")
    return main, http, https


def metrics(port: int) -> dict[tuple[str, tuple], float]:
    return parsed(httpx2.get(f"http://127.0.0.1:{port}/metrics").text)


def json_lines(path: Path) -> list[dict]:
    """The JSON objects among a process's lines (a library may print a plain one)."""
    found = []
    for line in path.read_text(errors="replace").splitlines():
        try:
            found.append(json.loads(line))
        except ValueError:
            continue
    return found


@pytest.fixture
def tools() -> None:
    for tool, package in (("nginx", "nginx"), ("redis-server", "redis-server")):
        if shutil.which(tool) is None and not Path(f"/usr/sbin/{tool}").exists():
            skip_loudly("the deployment of docs/deploy/", f"no {tool} (apt-get install "
                                                          f"{package})")


@pytest.fixture
def machine() -> Iterator[Machine]:
    """Its folders in the machine's /tmp, reachable by the units' user (pytest's own
    folder is root's alone)."""
    if os.geteuid() != 0 or shutil.which("bwrap") is None or shutil.which("setpriv") is None:
        skip_loudly("the units' sandboxing", "confining them needs root, bwrap and setpriv")
    folder = Path(tempfile.mkdtemp(prefix="minimax-grader-units-"))
    folder.chmod(0o755)
    made = Machine(folder)
    # The grader, installed, and the Python it runs on (which may lie in a home).
    made.read_only = sorted({str(ROOT), sys.prefix, sys.base_prefix})
    yield made
    made.stop()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.timeout(900)
def test_the_units_and_the_proxy_as_written(tools, docker_client, postgres,  # noqa: F811
                                            machine: Machine, tmp_path):
    units = {name: unit(name) for name in UNITS}
    for name, sections in units.items():
        service = sections["Service"]
        assert service["User"] == ["minimax-grader"] and service["Restart"] == ["on-failure"]
        assert any(line.endswith(" image build") for line in service["ExecStartPre"]), name
    for name in ("serve", "worker"):
        assert any(" db upgrade " in line for line in units[name]["Service"]["ExecStartPre"])
    written = (DEPLOY / "environment").read_text(encoding="utf-8")
    assert sorted(re.findall(r"^#?(MINIMAX_GRADER_\w+)=", written, re.M)) == sorted(
        [watch.BROKER, operations.DATABASE])

    certificate = self_signed(machine.folder)  # where the units' user may read it
    machine.read_only.append(str(certificate.cert))
    password = secrets.token_hex(16)
    conf, port = broker(tmp_path, certificate, password)
    redis_server = subprocess.Popen(["redis-server", str(conf), "--dir", str(tmp_path),
                                     "--save", ""], stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
    machine.processes.append(redis_server)
    given = {operations.DATABASE: postgres.new_database(),
             watch.BROKER: f"rediss://:{password}@127.0.0.1:{port}/0?ssl_cert_reqs="
                           f"required&ssl_ca_certs={certificate.cert}"}
    started = {}
    for name in UNITS:
        service = units[name]["Service"]
        env = machine.environment(service, given)
        for line in service["ExecStartPre"]:  # in order, each to succeed, as systemd runs them
            done = subprocess.run(machine.command(service, line), env=env, capture_output=True,
                                  text=True, timeout=1800, cwd=tmp_path)
            assert done.returncode == 0, f"{line}: {done.stdout}{done.stderr}"
        [line] = service["ExecStart"]
        started[name] = machine.start(name, machine.command(service, line), env)
    assert machine.used == {BINARY, DATA, CACHE, RUN}
    serve_port, serve_metrics, worker_metrics, match_metrics = (
        machine.ports[port] for port in ("8000", "9464", "9465", "9466"))

    main, http_port, https_port = proxy(tmp_path, certificate, serve_port)
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    machine.processes.append(subprocess.Popen(
        [nginx, "-p", str(tmp_path), "-c", str(main), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

    site = f"https://127.0.0.1:{https_port}"
    client = httpx2.Client(verify=ssl.create_default_context(cafile=str(certificate.cert)),
                           timeout=30)

    def ready() -> bool:
        try:
            return client.get(f"{site}/readyz").status_code == 200
        except httpx2.HTTPError:
            return False

    wait_for("the service ready through the proxy (its grading host seen)", ready, 180)
    assert client.get(f"{site}/healthz").json() == {"status": "ok"}
    redirect = httpx2.get(f"http://127.0.0.1:{http_port}/healthz")
    assert redirect.status_code == 301 and redirect.headers["location"].startswith("https://")

    said = (started["serve"] / "stdout").read_text()
    secret = re.search(r"login link .*: (\S+)/i/([\w-]+)$", said, re.M)
    assert secret, said
    assert secret[1] == PUBLIC  # the address students reach, not 127.0.0.1:8000
    secret = re.search(r"/i/([\w-]+)$", said, re.M)
    assert secret
    login = client.get(f"{site}/i/{secret.group(1)}")
    assert login.status_code == 303
    assert "secure" in login.headers["set-cookie"].lower()  # the proxy said https
    page = client.get(f"{site}/i/c/1").text  # the first course, made at the first start
    csrf = re.search(r'name="csrf" value="([^"]+)"', page)
    assert csrf, page
    # A fresh install's course shows nothing until its instructor opens an exercise.
    opened = client.post(f"{site}/i/c/1/settings/helpers",
                         data={"csrf": csrf.group(1), "visible": "1", "late_penalty": "0"})
    assert opened.status_code == 303, opened.text
    roster = client.post(f"{site}/i/c/1/roster", data={"csrf": csrf.group(1)},
                         files=[("roster", ("roster.csv", b"name,email\nAda,ada@example.edu\n"))])
    token = re.search(r"/s/([\w-]+)", roster.text)
    assert token, roster.text
    student = f"{site}/s/{token.group(1)}"
    csrf = re.search(r'name="csrf" value="([^"]+)"', client.get(student).text)
    assert csrf
    handed = client.post(f"{student}/submit/helpers", data={"csrf": csrf.group(1)},
                         files=[("files", (NAME, FULL_MARKS.read_bytes()))])
    assert handed.status_code == 303, handed.text
    wait_for("the hand-in graded in Docker on the grading host",
             lambda: FULL in client.get(student).text, 300)

    status = subprocess.run([COMMAND, "status", "--url", f"http://127.0.0.1:{serve_port}"],
                            capture_output=True, text=True, timeout=60)
    assert status.returncode == 0, status.stdout
    assert status.stdout.splitlines()[-1] == "ready"

    seen = metrics(serve_metrics)
    assert seen["minimax_grader_jobs", (("exercise", "helpers"), ("state", "done"))] == 1
    assert seen["minimax_grader_hosts_seen", (("image", tasks.expected_image()),
                                              ("kind", "grading"))] == 1
    assert seen["minimax_grader_hosts_seen", (("image", image.default_tag()),
                                              ("kind", "match"))] == 1
    grading = metrics(worker_metrics)
    assert grading["minimax_grader_gradings_total", (("exercise", "helpers"),
                                                     ("result", "graded"))] == 1
    assert grading["minimax_grader_time_to_feedback_seconds_count",
                   (("exercise", "helpers"),)] == 1
    assert metrics(match_metrics)["minimax_grader_pairings_total", ()] == 0

    # redis, then serve, worker and match-host, which stop cleanly; then nginx. uvicorn
    # ends by the signal it was stopped by, once it has shut down: systemd's clean end
    # (which bwrap, around it, says as 128 + the signal).
    assert machine.stop()[1:4] in ([0, 0, 0], [128 + signal.SIGTERM, 0, 0])
    served = json_lines(started["serve"] / "stderr")
    assert any(line["message"] == "Application shutdown complete." for line in served)
    requests = [line for line in served if line.get("event") == "request"]
    [submit] = [line for line in requests if line["route"] == "/s/{token}/submit/{exercise}"]
    assert (submit["status"], submit["exercise"], submit["method"]) == (303, "helpers", "POST")
    assert isinstance(submit["student_id"], int)
    [job] = [line for line in json_lines(started["worker"] / "stderr")
             if line.get("event") == "job"]
    assert (job["outcome"], job["status"], job["exercise"]) == ("done", "graded", "helpers")
    assert job["feedback_s"] >= job["graded_s"] > 0
    for name in UNITS:
        logged = (started[name] / "stderr").read_text() + (started[name] / "stdout").read_text()
        assert password not in logged and token.group(1) not in logged, name
