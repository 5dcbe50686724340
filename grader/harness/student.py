"""The supervisor's handle on the student's worker process.

Calls go to the worker as steps, many in one request (see ``Student.run``),
and every step runs under its own deadline; a worker that misses it is killed
(its whole process group) and restarted on the next request. The student's
output is read by a thread and capped, so a flood can neither block the
worker nor fill the supervisor's memory.
"""

import collections
import os
import select
import signal
import threading
import time

from grader.harness import wire
from grader.harness.spawn import LocalSpawner, SpawnFailed

START_SECONDS = 10  # importing the student's files


class StudentFault(Exception):
    """Something the student's code did; it costs points, never crashes the grader."""

    status = "error"


class ImportFailed(StudentFault):
    def __init__(self, failure):
        self.failure = failure
        super().__init__(describe_import_failure(failure))


class CallTimeout(StudentFault):
    status = "timeout"


class WorkerDied(StudentFault):
    pass


class Raised(StudentFault):
    def __init__(self, name, raised):
        self.raised = raised
        where = f"\n{raised['traceback']}" if raised.get("traceback") else ""
        why = " (it ran out of memory)" if raised["type"] == "MemoryError" else ""
        super().__init__(f"{name} raised {raised['type']}{why}: {raised['message']}{where}")


class Missing(StudentFault):
    pass


def describe_import_failure(failure):
    if failure.get("kind") == "syntax":
        return (
            f"{failure['file']} has a syntax error on line {failure['line']}: "
            f"{failure['message']}\n    {failure['text']}"
        )
    if failure.get("kind") == "stopped":
        return failure["message"]
    where = f"\n{failure['traceback']}" if failure.get("traceback") else ""
    return (
        f"importing {failure['module']}.py raised {failure['type']}: "
        f"{failure['message']}{where}"
    )


def call_step(target, name, *args, count_in=None, keep=False):
    """A step that calls ``name`` on ``target``: ("module", name), a kept object
    ("handle", number) or the value of an earlier step of the chain ("step", index)."""
    return {"op": "call", "target": list(target), "name": name, "args": list(args),
            "count_in": count_in, "keep": keep}


def inspect_step(op, a, b):
    """A step that compares two objects (targets as above): "same" (identity)
    or "shares" (common parts)."""
    return {"op": op, "a": list(a), "b": list(b)}


def _doing(step):
    return f"running {step['name']}" if step["op"] == "call" else "inspecting states"


def _missing_text(name, on):
    if on == "NoneType":
        return (f"{name} was called on None: a call before it (forecast_move?) "
                "returned None instead of a state")
    if on == "module":
        return f"your file has no function or class named {name}"
    return f"your {on} object has no method named {name}"


class OutputTap:
    """Keeps the first ``cap`` bytes of a stream and counts the rest."""

    def __init__(self, stream, cap):
        self.cap = cap
        self.kept = bytearray()
        self.total = 0
        self.thread = threading.Thread(target=self._drain, args=(stream,), daemon=True)
        self.thread.start()

    def _drain(self, stream):
        while chunk := stream.read1(65536) if hasattr(stream, "read1") else stream.read(65536):
            self.total += len(chunk)
            room = self.cap - len(self.kept)
            if room > 0:
                self.kept += chunk[:room]


class Student:
    """Calls into the student's modules, one worker process at a time."""

    def __init__(self, submission, modules, provided, output_cap=65536, spawner=None):
        self.submission = str(submission)
        self.provided = str(provided)
        self.modules = list(modules)
        self.output_cap = output_cap
        self.spawner = spawner or LocalSpawner()
        self.worker = None
        self.taps = []
        self.import_failure = None
        self.restarts = 0

    # -- the worker's life -------------------------------------------------

    def _spawn(self):
        try:
            self.worker = self.spawner.spawn(
                [self.submission, self.provided, *self.modules], cwd=self.submission)
        except SpawnFailed as exc:
            raise WorkerDied(str(exc)) from None
        os.set_blocking(self.worker.requests.fileno(), False)  # see _send
        self.pending = bytearray()
        self.lines = collections.deque()
        self.taps.append(OutputTap(self.worker.output, self.output_cap))

    def start(self):
        """Start the worker unless it runs; raise ImportFailed if the files don't import."""
        if self.import_failure:
            raise ImportFailed(self.import_failure)
        if self.worker:
            return
        self._spawn()
        try:
            hello = self._receive(time.monotonic() + START_SECONDS, "importing your files")
        except (CallTimeout, WorkerDied) as exc:  # no use trying again in the next test
            hello = {"import_failed": {"kind": "stopped", "message": str(exc)}}
        if "import_failed" in hello:
            self.import_failure = hello["import_failed"]
            self.stop()
            raise ImportFailed(self.import_failure)

    def stop(self):
        """Kill the worker, if one runs; the exit code, if it is known."""
        if not self.worker:
            return None
        worker, self.worker = self.worker, None
        self.spawner.kill(worker.pid)
        code = self.spawner.wait(worker.pid)
        worker.requests.close()
        os.close(worker.answers)
        return code

    # -- calls ---------------------------------------------------------------

    def run(self, chains, deadline):
        """Run chains of steps in one request: for each chain, the replies of the
        steps that answered and the fault that stopped it (or None).

        The worker answers step by step, each step under its own deadline:
        ``deadline()`` taken as the step before answered (for the first, before
        the worker starts, as for a lone call). A step that raises ends its
        chain; any other fault ends the request and stands for every chain left.
        """
        outcomes = []
        due = deadline()
        try:
            self.start()
            self._send({"op": "run", "chains": chains}, due, _doing(chains[0][0]))
            for chain in chains:
                replies, fault = [], None
                for step in chain:
                    try:
                        replies.append(self._answer(step, due))
                    except Raised as raised:
                        fault = raised
                    due = deadline()
                    if fault:
                        break
                outcomes.append((replies, fault))
        except StudentFault as fault:
            outcomes += [([], fault)] * (len(chains) - len(outcomes))
        return outcomes

    def call(self, target, name, *args, deadline, count_in=None, keep=False):
        """One call, alone in its request: its reply, or raise its fault."""
        [(replies, fault)] = self.run(
            [[call_step(target, name, *args, count_in=count_in, keep=keep)]], lambda: deadline)
        if fault:
            raise fault
        return replies[0]

    def _send(self, message, due, doing):
        """Write a request, by the deadline of its first step."""
        data = memoryview(wire.dumps(message))
        fd = self.worker.requests.fileno()
        while data:
            try:
                data = data[os.write(fd, data):]
            except BlockingIOError:
                self._wait(due, doing, write=[fd])
            except BrokenPipeError:
                self._died(doing)

    def _answer(self, step, due):
        """The worker's reply to ``step``, or raise the fault it reports."""
        reply = self._receive(due, _doing(step))
        name = step.get("name")
        if "missing" in reply:
            raise Missing(_missing_text(reply["missing"], reply.get("on")))
        if "raised" in reply:
            raise Raised(name or "your code", reply["raised"])
        if "bad_request" in reply:
            raise WorkerDied(f"the worker refused a request: {reply['bad_request']}")
        if step["op"] == "call":
            try:
                reply["value"] = wire.decode(reply.get("value"))
            except wire.BadMessage as exc:
                self.stop()  # it would go on answering the request's other steps
                raise WorkerDied(f"unreadable answer from {name}: {exc}") from None
        return reply

    def _wait(self, due, doing, read=(), write=()):
        """Wait until a pipe is ready; a worker that is not by ``due`` is stopped."""
        left = due - time.monotonic()
        if left <= 0 or not any(select.select(read, write, [], left)[:2]):
            self.stop()
            self.restarts += 1
            raise CallTimeout(f"time limit reached while {doing}")

    def _receive(self, due, doing):
        """The worker's next answer (one JSON line), waiting until ``due`` at most."""
        while not self.lines:
            self._wait(due, doing, read=[self.worker.answers])
            chunk = os.read(self.worker.answers, 65536)
            if not chunk:
                self._died(doing)
            self.pending += chunk
            if b"\n" in chunk:
                *lines, self.pending = self.pending.split(b"\n")
                self.lines.extend(lines)
            if len(self.pending) > wire.MAX_LINE:
                self.stop()
                raise WorkerDied(f"the answer while {doing} was too large")
        try:
            return wire.loads(self.lines.popleft())
        except wire.BadMessage as exc:
            self.stop()
            raise WorkerDied(f"the worker sent garbage while {doing}: {exc}") from None

    def _died(self, doing):
        code = self.stop()
        self.restarts += 1
        if code is None:
            how = "ended its process"
        elif code < 0:
            how = f"crashed: its process was killed by signal {signal.Signals(-code).name}"
            if -code == signal.SIGKILL:
                how += " (often: out of memory)"
        else:
            how = f"ended its process with exit code {code}"
        raise WorkerDied(f"your code {how} while {doing}")

    # -- output ----------------------------------------------------------------

    def output(self):
        """What the student's code printed, capped, with the total size."""
        for tap in self.taps:
            tap.thread.join(timeout=1)
        kept = b"".join(bytes(tap.kept) for tap in self.taps)[: self.output_cap]
        total = sum(tap.total for tap in self.taps)
        return {"text": kept.decode("utf-8", "replace"), "bytes": total,
                "truncated": total > len(kept)}
