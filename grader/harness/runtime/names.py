"""The lesson's names: the one a student probably meant where theirs is not there.

A module, a function or a class named with the wrong letter case or a near
spelling (``import GameState`` where the module is ``gamestate``, a
``minValue`` where the suite calls ``min_value``) fails with Python's own
message, which names what is missing but not what is there. The names that
are there are read here from the files themselves, the student's and the
provided ones (parsed, never run), and the nearest one is suggested.
"""

import ast
import difflib
import re
from collections.abc import Iterable
from pathlib import Path

SHORTEST = 4  # a name shorter than this is too short for a slip to tell it apart
# Python's messages for a name that is not there: what was asked for is the group "name".
NOT_THERE = {
    "ModuleNotFoundError": re.compile(r"No module named '(?P<name>[\w.]+)'"),
    "ImportError": re.compile(r"cannot import name '(?P<name>\w+)' from '(?P<module>[\w.]+)'"),
    "AttributeError": re.compile(r"module '(?P<module>[\w.]+)' has no attribute '(?P<name>\w+)'"),
    "NameError": re.compile(r"name '(?P<name>\w+)' is not defined"),
}


def _folded(name: str) -> str:
    return name.replace("_", "").lower()


def one_slip(a: str, b: str) -> bool:
    """Whether ``b`` is ``a`` with one letter added, dropped or changed, or two
    neighbours swapped: a typo, where min_value and max_value are two names."""
    if len(a) > len(b):
        a, b = b, a
    if len(b) - len(a) == 1:
        return any(b[:i] + b[i + 1:] == a for i in range(len(b)))
    differ = [i for i in range(len(a)) if a[i] != b[i]] if len(a) == len(b) else []
    return len(differ) == 1 or len(differ) == 2 and differ[1] == differ[0] + 1 and \
        a[differ[0]] == b[differ[1]] and a[differ[1]] == b[differ[0]]


def nearest(name: str, known: Iterable[str]) -> str | None:
    """The name of ``known`` that ``name`` differs from only in letter case and
    underscores or else by one slip of spelling, or None (``name`` itself is none)."""
    folded: dict[str, str] = {}
    for candidate in known:
        if candidate != name:
            folded.setdefault(_folded(candidate), candidate)
    if _folded(name) in folded:
        return folded[_folded(name)]
    if len(_folded(name)) < SHORTEST:
        return None
    slips = [other for key, other in folded.items() if one_slip(_folded(name), key)]
    return slips[0] if len(slips) == 1 else None


def _parsed(path: Path) -> tuple[str, ast.Module] | None:
    try:
        source = path.read_text("utf-8", "replace")
        return source, ast.parse(source)
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def defined(path: Path, functions: bool = False) -> list[str]:
    """The names a Python file defines at its top level and in its classes'
    bodies (functions, classes, assignments, imports; only its functions, with
    ``functions``), read without running it."""
    parsed = _parsed(path)
    if parsed is None:
        return []
    names: list[str] = []
    bodies = [parsed[1].body]
    while bodies:
        for node in bodies.pop():
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names.append(node.name)
            elif functions:
                bodies += [node.body] if isinstance(node, ast.ClassDef) else []
            elif isinstance(node, ast.ClassDef):
                names.append(node.name)
                bodies.append(node.body)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names += [(alias.asname or alias.name).split(".")[0] for alias in node.names]
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names += [t.id for t in targets if isinstance(t, ast.Name)]
    return [name for name in dict.fromkeys(names) if name != "*"]


class Lesson:
    """The modules a run's code may import, by name: the student's own files
    (in ``submission``) and the provided ones (in ``provided``)."""

    def __init__(self, submission: str | Path, modules: Iterable[str], provided: str | Path,
                 provides: Iterable[str]) -> None:
        self.folders = {name: Path(submission) for name in modules}
        for name in provides:
            self.folders.setdefault(name, Path(provided))

    def names_in(self, module: str, functions: bool = False) -> list[str]:
        """What ``module`` defines (nothing, where it is no module of the run's)."""
        folder = self.folders.get(module)
        return defined(folder / f"{module}.py", functions) if folder else []

    def functions(self) -> list[str]:
        """Every function the run's modules define: a name not defined where it
        is used is seldom meant for a class or a variable of another module."""
        return [name for module in self.folders for name in self.names_in(module, True)]

    def meant(self, kind: str, message: str) -> str | None:
        """The name the student probably meant where Python raised ``kind`` with
        ``message`` for one that is not there, or None."""
        pattern = NOT_THERE.get(kind)
        wanted = pattern.fullmatch(message) if pattern else None
        if wanted is None and kind == "ImportError":  # the message goes on with a path
            wanted = NOT_THERE[kind].match(message)
        if wanted is None:
            return None
        fields = wanted.groupdict()
        if kind == "ModuleNotFoundError":
            return nearest(fields["name"], self.folders)
        known = self.names_in(fields["module"]) if "module" in fields else self.functions()
        return nearest(fields["name"], known)

    def missing(self, module: str, name: str) -> str | None:
        """The name the student probably meant where ``module`` has no ``name``."""
        return nearest(name, self.names_in(module))


def meant_text(meant: str | None) -> str:
    return f" (did you mean `{meant}`?)" if meant else ""


def self_imports(folder: str, modules: list[str]) -> dict[str, str]:
    """The student's files that import their own module (``from minimax import *``
    inside minimax.py, which brings in nothing): name -> the import line."""
    found: dict[str, str] = {}
    for name in modules:
        parsed = _parsed(Path(folder, f"{name}.py"))
        if parsed is None:
            continue
        source, tree = parsed
        for node in ast.walk(tree):
            imported: list[str | None]
            if isinstance(node, ast.ImportFrom):
                imported = [node.module]
            elif isinstance(node, ast.Import):
                imported = [alias.name for alias in node.names]
            else:
                continue
            if name in imported:
                found[name] = (ast.get_source_segment(source, node) or name)[:200]
                break
    return found


def self_import_text(name: str, line: str, provided: list[str]) -> str:
    """What a self-import does, and the provided module the student likely meant."""
    meant = difflib.get_close_matches(name, [p for p in provided if p != name], 1, 0.5)
    instead = f" Did you mean `from {meant[0]} import *`?" if meant else ""
    return (f"{name}.py imports itself (`{line}`): that imports nothing, since {name}.py "
            f"is the very file being imported.{instead}")
