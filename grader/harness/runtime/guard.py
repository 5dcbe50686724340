"""The worker's guard on the grader's own code in the student's process.

The worker runs the student's code, so whatever the grader keeps there can
be reached. Nothing there decides a verdict by its say-so (the supervisor
counts the calls and compares identities), yet the functions that send
those facts must do what they were written to do. An audit hook, which
Python offers no way to remove, is installed before the student's files are
imported; it refuses, and reports to the supervisor:

- reading or changing the code, defaults or keyword defaults of a protected
  function (the ways to swap its behaviour or reach what it keeps);
- ``gc``'s views of every object and of references, which would reach them
  another way; ``ctypes`` and ``/proc/*/mem``, which would write memory;
- trace and profile functions, which may rewrite a running frame's locals,
  further audit hooks, which could break the grader's own steps, and
  symbolic links, which could name a process's memory under another name;
- importing the trusted games (``grader.games``) or opening their files:
  a student's ``is_end`` must not borrow them. The worker never imports
  them (a stand-in's rules come over the pipe, to a worker granted it) and
  the student's user can't read them in the image; this is the last line
  where neither holds (the local sandbox without bubblewrap).

Module dictionaries and classes are not covered by audit events: the worker
takes what it needs at call time from its functions' defaults, and
``changed`` notices a changed dictionary after each step.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from itertools import repeat
from operator import is_

TYPE_CHECKING = False  # typing is for mypy only: importing it slows every start
if TYPE_CHECKING:
    from typing import Any

REFUSED_EVENTS = ("gc.get_objects", "gc.get_referrers", "gc.get_referents",
                  "sys.settrace", "sys.setprofile", "sys.addaudithook", "os.symlink")
FUNCTION_EVENTS = {"object.__getattr__": "read", "object.__setattr__": "change",
                   "object.__delattr__": "delete"}
# What ``snapshot`` takes: each namespace with its names and their values.
Snapshot = tuple[tuple[object, tuple[str, ...], tuple[object, ...]], ...]


class Refused(RuntimeError):
    """What the student's code gets for touching the grader (the supervisor,
    told by the alarm, then fails the step: ``student.ChangedGrader``)."""


def _names_memory(path: str | bytes) -> bool:
    """Whether an opened path names a process's memory: its last part is "mem"
    (/proc/<pid>/mem, or "mem" opened relative to /proc/<pid>). No builtins
    are used, since the student's code may have replaced them."""
    sep = "/" if path[:0] == "" else b"/"
    # ``sep`` is of ``path``'s type, which the type checker can't follow.
    return path.rstrip(sep).rsplit(sep, 1)[-1] in ("mem", b"mem")  # type: ignore[arg-type]


HIDDEN_MODULES = ("grader.games",)
HIDDEN_FILES = ("rules", "variants", "flawed_rules")  # their sources and compiled files


def _names_hidden(path: str | bytes, _files: tuple[str, ...] = HIDDEN_FILES) -> bool:
    """Whether an opened path names a trusted game's file (its last part's
    name before the first dot). No builtins, as in ``_names_memory``."""
    sep, dot = ("/", ".") if path[:0] == "" else (b"/", b".")
    # as in _names_memory, the types follow ``path``'s
    stem = path.rstrip(sep).rsplit(sep, 1)[-1].split(dot, 1)[0]  # type: ignore[arg-type]
    return stem in _files or (stem[:0] == b"" and stem.decode("latin-1") in _files)  # type: ignore[union-attr]


def install(alarm: Callable[[str], object]) -> Callable[..., None]:
    """Install the hook; ``alarm(text)`` reports a refusal. Returns ``protect``,
    which adds objects to those the hook keeps the student's code away from.

    Everything the hook uses is bound in its defaults, which it guards, and
    not looked up in a module or in builtins, which ``__globals__`` reaches.
    The protected objects are kept alive from there too (the interpreter keeps
    the hook): a freed one's id could pass to another object.
    """
    protected: set[int]
    kept: list[object]
    protected, kept = set(), []

    def hook(event: str, args: tuple[Any, ...], _protected: set[int] = protected,
             _kept: list[object] = kept, _alarm: Callable[[str], object] = alarm,
             _id: Callable[[object], int] = id, _type: type[type] = type,
             _str: type[str] = str, _paths: tuple[type, ...] = (str, bytes),
             _is_mem: Callable[[str | bytes], bool] = _names_memory,
             _is_hidden: Callable[[str | bytes], bool] = _names_hidden,
             _hidden: tuple[str, ...] = HIDDEN_MODULES,
             _refuse: type[Refused] = Refused, _refused: tuple[str, ...] = REFUSED_EVENTS,
             _function: dict[str, str] = dict(FUNCTION_EVENTS),  # noqa: B006 (bound, guarded)
             ) -> None:
        if event in _function:
            if not args or _id(args[0]) not in _protected:
                return
            what = f"{_function[event]} {args[1]!r}" if _type(args[1]) is _str else event
        elif event in _refused or event.startswith("ctypes."):
            what = event
        elif event == "open" and _type(args[0]) in _paths and _is_mem(args[0]):
            what = "open a process's memory"
        elif event == "open" and _type(args[0]) in _paths and _is_hidden(args[0]):
            what = "open the grader's game rules"
        elif event == "import" and _type(args[0]) is _str and args[0].startswith(_hidden):
            what = f"import {args[0]}"
        else:
            return
        _alarm(what)
        raise _refuse(f"the grader's own code can't be reached or changed ({what})")

    def protect(*objects: object, _protected: set[int] = protected, _kept: list[object] = kept,
                _id: Callable[[object], int] = id) -> None:
        _kept.extend(objects)
        _protected.update(_id(obj) for obj in objects)

    protect(hook, protect, _names_memory, _names_hidden)
    sys.addaudithook(hook)
    return protect


def functions_of(*namespaces: object) -> list[Callable[..., object]]:
    """The plain functions defined in modules or classes, to be protected."""
    found: list[Callable[..., object]] = []
    for namespace in namespaces:
        for value in vars(namespace).values():
            if type(value) is type(install):
                found.append(value)
            elif type(value) in (staticmethod, classmethod):
                found.append(value.__func__)
    return found


def snapshot(*namespaces: object) -> Snapshot:
    """The entries of some module and class dictionaries, as they are now:
    immutable, so that the student's code can't bring it up to date."""
    return tuple((namespace, tuple(vars(namespace)), tuple(vars(namespace).values()))
                 for namespace in namespaces)


def changed(taken: Snapshot, _vars: Callable[[object], dict[str, Any]] = vars,
            _gone: object = object(),  # noqa: B008 (one marker, made once and bound)
            _cached: frozenset[str] = frozenset({"__slotnames__"}),
            _all: Callable[..., bool] = all, _map: Callable[..., Any] = map,
            _is: Callable[[object, object], bool] = is_, _repeat: Callable[..., Any] = repeat,
            _len: Callable[[Any], int] = len) -> list[str]:
    """The names changed, added or removed since ``snapshot`` ``taken``
    (``copy`` caches ``__slotnames__`` on a class it copies: no change).
    It runs after every step: a namespace as it was is passed over in C
    (every value the same object, no name added), the names are looked
    for only in one that is not."""
    names: list[str] = []
    for namespace, keys, values in taken:
        now = _vars(namespace)
        if _len(now) == _len(keys) and _all(_map(_is, _map(now.get, keys, _repeat(_gone)),
                                                 values)):
            continue
        where = getattr(namespace, "__name__", "?")
        names += [f"{where}.{key}" for key, value in zip(keys, values, strict=True)
                  if now.get(key, _gone) is not value]
        if len(now) != len(keys):
            names += [f"{where}.{key}" for key in now.keys() - set(keys) if key not in _cached]
    return names
