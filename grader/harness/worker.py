"""The untrusted worker: imports the student's files and answers calls.

It runs in its own process, apart from the pytest process that decides the
verdicts. Requests arrive as JSON lines on one pipe, each a list of chains
of steps, and answers leave on another, a line for every step run; the
student's prints go to stdout/stderr, which the supervisor captures
separately. Everything sent back is plain data (see ``wire``).

Run as a script: ``python -I worker.py RPC_IN RPC_OUT SUBMISSION PROVIDED MODULE...``,
where PROVIDED is the folder of the modules the course gives students. The
worker imports nothing of the grader but ``wire``: in the Docker sandbox the
student's user can read nothing else.
"""

import os
import sys
import traceback

# A worker starts for every test: no pathlib (a sixth of its start-up in the
# Docker sandbox) for the little path work done here.
sys.path[:0] = [os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))]

from grader.harness import wire  # noqa: E402  (needs the path above)


def _student_frames(exc, submission):
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


def _exception(exc, submission):
    return {
        "type": type(exc).__name__,
        "message": _text(exc),
        "traceback": _student_frames(exc, submission),
    }


def _text(exc):
    try:
        return str(exc)[: wire.MAX_TEXT]
    except BaseException:
        return type(exc).__name__


def _import_failure(name, exc, submission):
    failure = {"module": name, **_exception(exc, submission)}
    if isinstance(exc, SyntaxError):
        failure.update(
            kind="syntax",
            file=os.path.basename(exc.filename or f"{name}.py"),
            line=exc.lineno,
            text=(exc.text or "").rstrip("\n")[: wire.MAX_TEXT],
            message=exc.msg,
        )
    else:
        failure["kind"] = "crash"
    return failure


class Worker:
    def __init__(self, submission, module_names):
        self.submission = submission
        self.module_names = module_names
        self.modules = {}
        self.handles = {}

    def import_all(self):
        """Import the student's modules; a plain-data failure, or None."""
        import importlib

        for name in self.module_names:
            try:
                self.modules[name] = importlib.import_module(name)
            except BaseException as exc:  # SystemExit and friends included
                return _import_failure(name, exc, self.submission)
        return None

    def serve(self, request):
        """The replies to a request, one per step run. Its chains of steps run in
        order: a step that raises or calls what is missing ends its chain, one
        that can't be done ends the request (as the supervisor expects)."""
        for chain in request["chains"]:
            made = []  # the values of the chain's steps so far
            for step in chain:
                reply = self.run_step(step, made)
                yield reply
                if "raised" in reply or "missing" in reply:
                    break
                if "value" not in reply:
                    return

    def run_step(self, step, made):
        op = step.get("op")
        try:
            if op == "call":
                return self.call(step, made)
            if op in ("same", "shares"):
                a, b = self._resolve(step["a"], made), self._resolve(step["b"], made)
                made.append(a is b if op == "same" else self.shares(a, b))
                return {"value": made[-1]}
        except (KeyError, IndexError, TypeError) as exc:
            return {"bad_request": repr(exc)}
        return {"bad_request": str(op)}

    def _resolve(self, target, made):
        kind, name = target
        if kind == "module":
            return self.modules[name]
        if kind == "step":
            return made[name]
        return self.handles[name]

    def _argument(self, arg):
        if type(arg) is dict and "state" in arg:
            import gamestate  # the provided, trusted game (see harness/provided)

            return gamestate.from_data(arg["state"])
        if type(arg) is dict and "handle" in arg:
            return self.handles[arg["handle"]]
        if type(arg) is dict and "tuple" in arg:
            return tuple(arg["tuple"])
        return arg

    def call(self, step, made):
        target = self._resolve(step["target"], made)
        name = step["name"]
        function = getattr(target, name, None)
        if not callable(function):
            return {"missing": name, "on": type(target).__name__}
        args = [self._argument(arg) for arg in step.get("args", [])]
        counter = _StandIns(self.modules[step["count_in"]], step.get("trusted") or (),
                            step.get("depth_limited")) if step.get("count_in") else None
        try:
            value = function(*args)
        except BaseException as exc:
            return {"raised": _exception(exc, self.submission)}
        finally:
            if counter:
                counter.remove()
        made.append(value)
        reply = {"value": wire.encode(value), "calls": counter.calls if counter else None,
                 "entered": counter.entered if counter else None}
        if step.get("keep"):
            handle = len(self.handles) + 1
            self.handles[handle] = value
            reply["handle"] = handle
        return reply

    def shares(self, a, b):
        """Paths of mutable objects that two states have in common."""
        first = {}
        _walk(a, "state", lambda obj, path: first.setdefault(id(obj), path))
        common = []
        _walk(b, "state", lambda obj, path: common.append(path) if id(obj) in first else None)
        return common[:20]


class _StandIns:
    """Swaps some of a module's functions for trusted ones during a call.

    ``terminal_test`` always: a trusted one that counts its calls (the
    student's own ``call_counter`` is never read: this count is taken from
    outside, so editing the given block changes nothing). ``min_value`` and
    ``max_value`` when ``trusted`` names them, so that the student's other
    function is tested alone; each calls back into the module's function of
    the other kind, looked up at call time, for the children. With
    ``depth_limited`` they take a depth: terminal test first, then the cutoff.
    ``entered`` counts the calls the student's code made to them (a function
    that calls itself instead makes none).
    """

    def __init__(self, module, trusted, depth_limited):
        self.module = module
        self.calls = 0
        self.entered = 0
        names = ["terminal_test", *(n for n in trusted if n in ("min_value", "max_value"))]
        self.saved = {name: module.__dict__.get(name, _ABSENT) for name in names}
        for name in names:
            setattr(module, name, self._stand_in(name, depth_limited))

    def _stand_in(self, name, depth_limited):
        if name == "terminal_test":
            return self.terminal_test
        minimising = name == "min_value"
        if depth_limited:
            return lambda gameState, depth: self.value(gameState, depth, minimising)
        return lambda gameState: self.value(gameState, None, minimising)

    def terminal_test(self, gameState):
        self.calls += 1
        return not gameState.get_legal_moves()

    def value(self, gameState, depth, minimising):
        self.entered += 1
        if self.terminal_test(gameState):
            return 1 if minimising else -1
        if depth is not None and depth <= 0:
            return 0
        name = "max_value" if minimising else "min_value"
        child = getattr(self.module, name)
        extra = () if depth is None else (depth - 1,)
        values = [_number(child(gameState.forecast_move(move), *extra), name)
                  for move in gameState.get_legal_moves()]
        return min(values) if minimising else max(values)

    def remove(self):
        for name, saved in self.saved.items():
            if saved is _ABSENT:
                self.module.__dict__.pop(name, None)
            else:
                setattr(self.module, name, saved)


_ABSENT = object()


def _number(value, name):
    """A child's value, which the stand-in compares: a number, or a clear TypeError."""
    if type(value) not in (int, float):
        raise TypeError(f"{name} returned {wire.safe_repr(value)} where a number was due "
                        f"(the grader's own {'min_value' if name == 'max_value' else 'max_value'} "
                        f"called it, standing in for yours)")
    return value


MUTABLE = (list, dict, set, bytearray)


def _walk(obj, path, visit, depth=0, budget=None):
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
    elif hasattr(obj, "__dict__") and not isinstance(obj, type) and (depth == 0 or not callable(obj)):
        children = [(f"{path}.{k}", v) for k, v in list(vars(obj).items())[:100]]
    else:
        children = []
    for child_path, child in children:
        _walk(child, child_path, visit, depth + 1, budget)


def _yield_to_the_grader():
    """Before any student code: lower this process's CPU priority, and make it
    the first the kernel kills when memory runs out (neither needs privileges)."""
    os.nice(10)
    try:
        with open("/proc/self/oom_score_adj", "w") as handle:
            handle.write("1000")
    except OSError:
        pass


def main(argv):
    _yield_to_the_grader()
    rpc_in, rpc_out, submission, provided, *module_names = argv
    requests = os.fdopen(int(rpc_in), "rb")
    answers = os.fdopen(int(rpc_out), "wb")
    sys.path[:0] = [submission, provided]
    worker = Worker(os.path.realpath(submission), module_names)
    failure = worker.import_all()
    answers.write(wire.dumps({"import_failed": failure} if failure else {"ready": True}))
    answers.flush()
    for line in requests:
        for reply in worker.serve(wire.loads(line)):
            answers.write(wire.dumps(reply))
            answers.flush()  # each step's answer is timed on its own


if __name__ == "__main__":
    main(sys.argv[1:])
