"""The grader's files the student's worker imports, found from its source.

The student's user may read these and nothing else of the grader (see
``grader/data/image/install-harness``, which runs this file): the list is
computed from the worker's own imports, so that it can't drift from them.
The supervisor reads a suite's imports the same way (``file_imports``), to
make them while its job is still on its way.

``python closure.py`` prints them, one a line, as paths without ``.py``
relative to the folder that holds ``grader/``.
"""

import ast
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]  # the folder that holds grader/
WORKER = "grader.harness.runtime.worker"
ZYGOTE = "grader.harness.runtime.zygote"  # the local sandbox's: it forks the workers
LAUNCHER = "grader.harness.runtime.launcher"  # the grading image's: it forks the workers
# Python 3.11 before 3.11.8 fails an ast.parse made in two threads at once ("AST
# constructor recursion depth mismatch"): the host's gradings, and the agents of
# pairings played side by side, find their views' files in threads of one process.
_PARSING = threading.Lock()


def _file(module: str) -> Path:
    path = ROOT.joinpath(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def _imports(module: str) -> set[str]:
    """The grader's modules that ``module`` imports (with their packages)."""
    return file_imports(_file(module))


def file_imports(path: Path) -> set[str]:
    """The grader's modules that the file at ``path`` imports (with their packages)."""
    found: set[str] = set()
    source = path.read_text(encoding="utf-8")
    with _PARSING:
        tree = ast.parse(source)
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        for name in names:
            if name.split(".")[0] == "grader" and (
                    _file(name).exists() or ROOT.joinpath(*name.split(".")).is_dir()):
                parts = name.split(".")
                found.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return found


def worker_modules(root: str = WORKER) -> list[str]:
    """The worker (or ``root``) and every module of the grader's it imports, with
    their packages."""
    seen: set[str]
    seen, todo = set(), [root]
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(_imports(module) - seen)
    return sorted(seen)


def files(root: str = WORKER) -> list[Path]:
    """The source files of ``worker_modules(root)``."""
    return [_file(module) for module in worker_modules(root)]


def main() -> None:
    for path in files():
        print(path.relative_to(ROOT).with_suffix("").as_posix())


if __name__ == "__main__":
    main()
