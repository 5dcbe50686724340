"""The untrusted worker: imports the student's files and answers calls.

It runs in its own process, apart from the pytest process that decides the
verdicts. Requests arrive as JSON lines on one pipe, each a list of chains
of steps, and answers leave on another, a line for every step run; the
student's prints go to stdout/stderr, which the supervisor captures
separately. Everything sent back is plain data (see ``grader.contracts.protocol``).

This process is the student's: nothing kept here is believed. What decides
a verdict leaves as it happens and is judged by the supervisor: each counted
call of the grader's stand-ins (``terminal_test``, ``is_end``, a game's
``move``) is a line naming what it was called on,
each reply names the objects called on and returned. The grader's own code
here is guarded (see ``guard``) before the student's files are imported,
and what it needs at call time is bound in its functions' defaults.

Run as a script: ``python -I worker.py RPC_IN RPC_OUT SUBMISSION PROVIDED GAME MODULE...``,
where PROVIDED is the folder of the modules the course gives students and
GAME names the kit of stand-ins (``standins``). The first request is the
worker's grant: the stand-ins its test may use, and the source of the trusted
game modules they need, which the student's user can't read (``Grant``).
The worker imports nothing of the grader but ``grader.contracts.protocol``,
``guard`` and its game's kit: in the Docker sandbox the student's user can
read nothing else (``closure`` lists them).

Nothing here is worth calling in the student's place (the design's
principle 9): the process holds the stand-ins of its grant only, never the
grader's version of a function the test calls, and the supervisor checks
that a stand-in of the search was entered only on positions that follow
from the call's root (``student.OutOfTurn``).
"""

from __future__ import annotations

import collections
import os
import sys
import traceback
import types
from collections.abc import Callable, Iterator, Mapping

TYPE_CHECKING = False  # typing is for mypy only: importing it slows every start
if TYPE_CHECKING:
    from typing import Any, BinaryIO

# A worker starts for every test: no pathlib (a sixth of its start-up in the
# Docker sandbox) for the little path work done here.
sys.path[:0] = [os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.realpath(__file__)))))]

from grader.contracts import protocol  # noqa: E402  (needs the path above)
from grader.harness.runtime import guard, standins  # noqa: E402  (needs the path above)


def _student_frames(exc: BaseException, submission: str) -> str:
    """The traceback, keeping only the frames in the student's own files."""
    frames = [
        frame
        for frame in traceback.extract_tb(exc.__traceback__)
        if frame.filename.startswith(submission)
    ]
    lines = [
        f'  File "{os.path.basename(f.filename)}", line {f.lineno}, in {f.name}\n    {f.line}'
        for f in frames[-8:]
    ]
    return "\n".join(lines)


def _exception(exc: BaseException, submission: str) -> dict[str, str]:
    return {
        "type": type(exc).__name__,
        "message": _text(exc),
        "traceback": _student_frames(exc, submission),
    }


def _text(exc: BaseException) -> str:
    try:
        return str(exc)[: protocol.MAX_TEXT]
    except BaseException:
        return type(exc).__name__


def _import_failure(name: str, exc: BaseException, submission: str) -> dict[str, object]:
    failure: dict[str, object] = {"module": name, **_exception(exc, submission)}
    if isinstance(exc, SyntaxError):
        failure.update(
            kind="syntax",
            file=os.path.basename(exc.filename or f"{name}.py"),
            line=exc.lineno,
            text=(exc.text or "").rstrip("\n")[: protocol.MAX_TEXT],
            message=exc.msg,
        )
    else:
        failure["kind"] = "crash"
    return failure


def import_all(names: list[str], submission: str
               ) -> tuple[dict[str, types.ModuleType], dict[str, object] | None]:
    """Import the student's modules: (name -> module, a plain-data failure or None)."""
    import importlib

    modules: dict[str, types.ModuleType] = {}
    for name in names:
        try:
            modules[name] = importlib.import_module(name)
        except BaseException as exc:  # SystemExit and friends included
            return modules, _import_failure(name, exc, submission)
    return modules, None


def _install(module: types.ModuleType, step: Mapping[str, Any], kit: types.ModuleType,
             stand_ins: Mapping[tuple[str, bool], Callable[..., object]]
             ) -> tuple[object, dict[str, object]]:
    """Put the stand-ins a step asks for where the kit says (the module, or a
    class of it): where, and what they replaced."""
    owner = kit.owner(module)
    if owner is None:
        return None, {}
    limited = bool(step.get("depth_limited"))
    names = [name for name in (*kit.COUNTED, *(step.get("trusted") or ()))
             if (name, limited) in stand_ins]
    saved = {name: vars(owner).get(name, _ABSENT) for name in names}
    for name in names:
        setattr(owner, name, stand_ins[name, limited])
    return owner, saved


def _remove(owner: object, saved: Mapping[str, object]) -> None:
    for name, value in saved.items():
        if value is _ABSENT:
            try:
                delattr(owner, name)
            except AttributeError:  # the student's code removed it already
                pass
        else:
            setattr(owner, name, value)


_ABSENT = object()


def _resolve(target: Any, made: list[object], session: Any) -> Any:
    kind, name = target
    if kind == "module":
        return session.modules[name]
    if kind == "step":
        return made[name]
    return session.handles[name]


def _argument(arg: object, session: Any) -> object:
    if type(arg) is dict and "trusted" in arg:
        return session.convert(arg["trusted"])
    if type(arg) is dict and "handle" in arg:
        return session.handles[arg["handle"]]
    if type(arg) is dict and "tuple" in arg:
        return tuple(arg["tuple"])
    return arg


def _hold(value: object, _held: list[object] = []) -> None:  # noqa: B006 (the list is the point)
    """Keep a reference the student's code can't reach (defaults are guarded):
    an object the supervisor knows by its id is never freed, so no copy put in
    its place can take over its address, and its id."""
    _held.append(value)


def call(step: Mapping[str, Any], made: list[object], session: Any,
         _resolve: Callable[[Any, list[object], Any], Any] = _resolve,
         _argument: Callable[[object, Any], object] = _argument,
         _install: Callable[..., tuple[object, dict[str, object]]] = _install,
         _remove: Callable[..., None] = _remove,
         _exception: Callable[[BaseException, str], dict[str, str]] = _exception,
         _encode: Callable[[object], object] = protocol.encode,
         _id: Callable[[object], int] = id, _hold: Callable[[object], None] = _hold,
         _getattr: Callable[..., Any] = getattr, _setattr: Callable[..., None] = setattr,
         _callable: Callable[[object], bool] = callable) -> dict[str, object]:
    """Run a call step. The reply says which objects were called on and made
    (``on``, ``id``): the supervisor, which knows what it asked for, compares
    them, so a kept object swapped behind its back, or a state that is its own
    forecast, shows there. A step that names a class to ``make`` calls on a
    new object of it, made here for this call alone: one reply where a chain
    would need two (where that fails, the reply says so: ``making``, or the
    object ``made`` that lacks the method)."""
    target = _resolve(step["target"], made, session)
    maker = step.get("make")
    if maker:
        make = _getattr(target, maker, None)
        if not _callable(make):
            return {"missing": maker, "on": type(target).__name__}
        try:
            target = make()
        except BaseException as exc:
            return {"raised": _exception(exc, session.submission), "making": True}
    name = step["name"]
    function = _getattr(target, name, None)
    if not _callable(function):
        missing = {"missing": name, "on": type(target).__name__}
        if maker:
            missing["made"] = _encode(target)
        return missing
    args = [_argument(arg, session) for arg in step.get("args", [])]
    try:  # the lab's kind of object keeps its state in attributes: set them first
        for attribute, data in (step.get("setup") or {}).items():
            _setattr(target, attribute, _argument(data, session))
    except BaseException as exc:  # the student's __setattr__ or property, say
        return {"raised": _exception(exc, session.submission)}
    counted = session.modules[step["count_in"]] if step.get("count_in") else None
    owner, saved = _install(counted, step, session.kit, session.stand_ins[step["count_in"]]) \
        if counted else (None, {})  # type: tuple[object, dict[str, object]]
    try:
        value = function(*args)
    except BaseException as exc:
        return {"raised": _exception(exc, session.submission)}
    finally:
        _remove(owner, saved)
    made.append(value)
    _hold(value)
    reply = {"value": _encode(value), "on": _id(target), "id": _id(value)}
    if step.get("read"):  # ... and read them back
        reply["read"] = [_encode(_getattr(target, attribute, None))
                         for attribute in step["read"]]
    if step.get("keep"):
        handle = len(session.handles) + 1
        session.handles[handle] = value
        reply["handle"] = handle
    return reply


def run_step(step: Mapping[str, Any], made: list[object], session: Any,
             _call: Callable[[Mapping[str, Any], list[object], Any], dict[str, object]] = call
             ) -> dict[str, object]:
    op = step.get("op")
    try:
        if op == "call":
            return _call(step, made, session)
        if op == "shares":
            a, b = _resolve(step["a"], made, session), _resolve(step["b"], made, session)
            made.append(shares(a, b))
            return {"value": made[-1]}
    except (KeyError, IndexError, TypeError) as exc:
        return {"bad_request": repr(exc)}
    return {"bad_request": str(op)}


def serve(request: Mapping[str, Any], session: Any,
          _run_step: Callable[[Mapping[str, Any], list[object], Any], dict[str, object]] = run_step,
          _changed: Callable[[guard.Snapshot], list[str]] = guard.changed
          ) -> Iterator[dict[str, object]]:
    """The replies to a request, one per step run. Its chains of steps run in
    order: a step that raises or calls what is missing ends its chain, one
    that can't be done ends the request (as the supervisor expects). A reply
    names what of the grader's was changed during its step."""
    for chain in request["chains"]:
        made: list[object] = []  # the values of the chain's steps so far
        for step in chain:
            reply = _run_step(step, made, session)
            changed = _changed(session.snapshot)
            if changed:
                reply["changed"] = changed
            yield reply
            if "raised" in reply or "missing" in reply:
                break
            if "value" not in reply:
                return


def shares(a: object, b: object) -> list[str]:
    """Paths of mutable objects that two states have in common."""
    first: dict[int, str] = {}
    _walk(a, "state", lambda obj, path: first.setdefault(id(obj), path))
    common: list[str] = []
    _walk(b, "state", lambda obj, path: common.append(path) if id(obj) in first else None)
    return common[:20]


MUTABLE = (list, dict, set, bytearray)


def _walk(obj: Any, path: str, visit: Callable[[object, str], object], depth: int = 0,
          budget: list[int] | None = None) -> None:
    """Visit every mutable object reachable from ``obj``'s attributes."""
    budget = budget if budget is not None else [5000]
    if depth > 5 or budget[0] <= 0:
        return
    budget[0] -= 1
    if depth and (isinstance(obj, MUTABLE) or hasattr(obj, "__dict__")):
        visit(obj, path)
    if type(obj) is dict:
        children = [(f"{path}[{k!r}]", v) for k, v in list(obj.items())[:100]]
    elif type(obj) in (list, tuple):
        children = [(f"{path}[{i}]", v) for i, v in enumerate(obj[:100])]
    elif (hasattr(obj, "__dict__") and not isinstance(obj, type)
          and (depth == 0 or not callable(obj))):
        children = [(f"{path}.{k}", v) for k, v in list(vars(obj).items())[:100]]
    else:
        children = []
    for child_path, child in children:
        _walk(child, child_path, visit, depth + 1, budget)


def _yield_to_the_grader() -> None:
    """Before any student code: lower this process's CPU priority, and make it
    the first the kernel kills when memory runs out (neither needs privileges)."""
    os.nice(10)
    try:
        with open("/proc/self/oom_score_adj", "w") as handle:
            handle.write("1000")
    except OSError:
        pass


def _guarded(answers: BinaryIO, kit: types.ModuleType, trusted: types.ModuleType | None,
             made: list[object]) -> tuple[guard.Snapshot, Callable[..., None]]:
    """Guard the grader's code here (see ``guard``) before the student's runs:
    the snapshot of the namespaces it relies on, and ``protect``. ``made``
    holds what the kit made for the session: functions and classes."""
    import builtins

    def alarm(what: str, _write: Callable[[bytes], object] = answers.write,
              _flush: Callable[[], object] = answers.flush, _line: bytes = protocol.ALARM) -> None:
        _write(_line + what.encode("utf-8", "replace")[:200] + b"\n")
        _flush()

    protect = guard.install(alarm)
    this = sys.modules[__name__]
    kept = [*kit.guarded(trusted), *(m for m in made if isinstance(m, type))]
    protect(alarm, *guard.functions_of(this, protocol, guard, kit, *kept),
            *(m for m in made if not isinstance(m, type)))
    # The student's code can't find this module under the name it runs as.
    sys.modules["__main__"] = type(sys)("__main__")
    return guard.snapshot(this, protocol, guard, builtins, kit, *kept), protect


# What the steps of one worker share: the submission's folder, the student's
# modules and the kept objects by name and handle, the game's kit and its
# argument converter, the snapshot, and each module's stand-ins, read-only.
# Its fields can't be rebound; what they hold is checked where it matters (a
# kept object by its id).
Session = collections.namedtuple(
    "Session", "submission modules handles kit convert snapshot stand_ins")


def _stand_ins(kit: types.ModuleType, modules: dict[str, types.ModuleType], trusted: Any,
               protect: Callable[..., None], tick: Callable[[bytes], object],
               grant: frozenset[str]
               ) -> Mapping[str, Mapping[tuple[str, bool], Callable[..., object]]]:
    """Each module's stand-ins of the grant, made and protected."""
    made: dict[str, Mapping[tuple[str, bool], Callable[..., object]]] = {}
    for name, module in modules.items():
        functions = kit.stand_ins(module, trusted, tick, grant)
        protect(*functions.values())
        made[name] = types.MappingProxyType(functions)
    return types.MappingProxyType(made)


def _games(sources: Mapping[str, str]) -> dict[str, types.ModuleType]:
    """The trusted game modules the supervisor sent, run from their source
    (each imports nothing): never in ``sys.modules``, never read from disk."""
    games: dict[str, types.ModuleType] = {}
    for name, source in sources.items():
        module = games[name] = types.ModuleType(name)
        exec(compile(source, f"<{name}>", "exec"), vars(module))  # noqa: S102 (the grader's own)
    return games


def main(argv: list[str]) -> None:
    _yield_to_the_grader()
    rpc_in, rpc_out, submission, provided, game, *module_names = argv
    requests = os.fdopen(int(rpc_in), "rb")
    answers = os.fdopen(int(rpc_out), "wb")
    sys.path[:0] = [submission, provided]
    grant: dict[str, Any] = protocol.loads(requests.readline())
    kit = standins.kit(game)
    trusted = kit.load(provided, module_names, _games(grant["sources"]))
    convert, made = kit.arguments(trusted, answers.write)
    snapshot, protect = _guarded(answers, kit, trusted, [convert, *made])
    submission = os.path.realpath(submission)
    modules, failure = import_all(module_names, submission)
    answers.write(protocol.dumps({"import_failed": failure} if failure else {"ready": True}))
    answers.flush()
    if failure:
        return
    session = Session(submission, modules, {}, kit, convert, snapshot,
                      _stand_ins(kit, modules, trusted, protect, answers.write,
                                 frozenset(grant["grant"])))
    for line in requests:
        for reply in serve(protocol.loads(line), session):
            answers.write(protocol.dumps(reply))
            answers.flush()  # each step's answer is timed on its own


if __name__ == "__main__":
    main(sys.argv[1:])
