"""An agent's process: loads an agent class and answers the referee's requests.

``python runner.py AGENT_FILE CLASS [MEMORY_MB]`` (limits set with MEMORY_MB).
Requests come on stdin and replies go out on a copy of stdout made before the
agent's module is loaded; stdout itself is then pointed at stderr, so what the
agent prints goes to the referee's capped log, never into its replies. Nothing
here decides anything: the referee times the process by its control group,
from outside, and checks each move against its own rules; ``time_left()``
counts this process's CPU time (every thread of it) down to the margin.

The agent may be several modules beside its AGENT_FILE (their folder is
importable, its files readable), and imports ``isolation`` (or
``isolation.isolation``) for the course project's ``Board``. Its ``get_move``
takes ``(game, time_left)`` or the older ``(game, legal_moves, time_left)``.
Its current folder is a writable, empty working folder of its own from before
its modules are imported: the first game keeps it, each later game gets a new
one; and each game a new instance.
"""

import importlib
import inspect
import os
import random
import resource
import shutil
import sys
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path[:0] = [str(Path(__file__).resolve().parents[3])]

from grader.contracts import agent as contract  # noqa: E402  (needs the path above)
from grader.contracts import protocol  # noqa: E402
from grader.games.knights.rules import Board, board_from_data  # noqa: E402
from grader.harness.agent import isolation  # noqa: E402
from grader.harness.agent.isolation import isolation as board_module  # noqa: E402
from grader.harness.runtime import limits  # noqa: E402

PROCESSES = 16  # that an agent may start
OFFERED = "Python's standard library, numpy where installed, and isolation"
FRAMES = 4  # of the agent's own code, shown from a traceback (the innermost)


def load(path: str, name: str) -> type:
    """The class ``name`` of the module at ``path`` (its folder importable)."""
    folder, stem = os.path.split(os.path.abspath(path))
    sys.path.insert(0, folder)
    sys.path += [place for place in os.environ.get(contract.LIBRARIES, "").split(os.pathsep)
                 if place]
    sys.modules["isolation"], sys.modules["isolation.isolation"] = isolation, board_module
    module = importlib.import_module(stem.removesuffix(".py"))
    if not hasattr(module, name):
        raise LookupError(f"{stem} defines no {name} (the class the referee makes)")
    cls = getattr(module, name)
    if not isinstance(cls, type):
        raise TypeError(f"{name} in {stem} is not a class")
    return cls


def _where(exc: BaseException, folder: str) -> str:
    """Where in the agent's own files ``exc`` was raised: its innermost frames there."""
    frames = [frame for frame in traceback.extract_tb(exc.__traceback__)
              if frame.filename.startswith(folder + os.sep)]
    said = [f"{os.path.relpath(f.filename, folder)}, line {f.lineno}, in {f.name}"
            for f in frames[-FRAMES:]]
    if isinstance(exc, SyntaxError) and exc.filename and exc.lineno:
        said.append(f"{os.path.basename(exc.filename)}, line {exc.lineno}")
    return f" (at {'; then '.join(said)})" if said else ""


def failure(exc: BaseException, folder: str = "") -> str:
    """What the agent raised, and where in its own files."""
    try:
        text = str(exc)
    except BaseException:  # an exception of the agent's own may raise in __str__ too
        text = protocol.safe_repr(exc)
    where = _where(exc, folder) if folder else ""
    if isinstance(exc, ModuleNotFoundError) and exc.name:
        where += (f": {exc.name.partition('.')[0]!r} is neither among the files handed in "
                  f"nor in the agent's sandbox ({OFFERED})")
    return f"{type(exc).__name__}: {text}{where}"[:protocol.MAX_TEXT]


def mover(agent: Any) -> Callable[[Any, Callable[[], float]], Any]:
    """``agent.get_move`` as ``(game, time_left)``: the older signature, ``(game,
    legal_moves, time_left)``, given the legal moves too."""
    get_move = agent.get_move
    try:
        named = [p for p in inspect.signature(get_move).parameters.values()
                 if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        return get_move  # type: ignore[no-any-return]
    if len(named) >= 3:
        return lambda game, time_left: get_move(game, game.get_legal_moves(), time_left)
    return get_move  # type: ignore[no-any-return]


class Opponent:
    """The other player, as the agent's board names it (``isolation.Board``'s players)."""

    def __repr__(self) -> str:
        return "<the opponent>"


def workplace(previous: str | None, agent: str = "") -> str:
    """A new working folder for a game (the last one removed), made current: empty
    but for links to the data files at the top of the agent's folder ``agent`` (read-only
    there), so that ``open("book.json")`` finds what was handed in beside the modules."""
    if previous:
        os.chdir("/")
        shutil.rmtree(previous, ignore_errors=True)
    try:
        folder = tempfile.mkdtemp(prefix="work-")
    except OSError:  # nowhere to write: the agent's files stay its current folder
        return ""
    if agent:
        for entry in os.scandir(agent):
            if entry.is_file(follow_symlinks=False) and not entry.name.endswith(".py"):
                os.symlink(entry.path, os.path.join(folder, entry.name))
    os.chdir(folder)
    return folder


def depth_of(agent: Any, at_start: object) -> int | None:
    """The depth the agent says it reached: its ``search_depth``, where its search
    set it (a value it had from its making on is a setting, not a depth reached)."""
    depth = getattr(agent, "search_depth", None)
    return depth if type(depth) is int and depth != at_start else None


def serve(cls: type | None, loading: str, send: Callable[[bytes], object],
          folder: str = "", work: str | None = None) -> None:
    """Answers the requests on stdin; ``work``: the working folder made before the
    agent's modules were imported, the first game's."""
    agent: Any = None
    variant, seat, made, fresh = "knights", 0, None, work is None
    played: dict[tuple[int, int], int] = {}  # who played each cell, this game
    for line in sys.stdin.buffer:
        request: dict[str, Any] = protocol.loads(line)
        try:
            if cls is None:
                raise ImportError(loading)
            if request["op"] == "new":
                random.seed(request["seed"])
                if fresh:
                    work = workplace(work, folder)
                fresh = True
                variant, seat, agent = str(request["variant"]), int(request["player"]), cls()
                played = {}
                made = getattr(agent, "search_depth", None)
                send(contract.answer(ok=True))
                continue
            players = (agent, Opponent()) if seat == 0 else (Opponent(), agent)
            state = board_from_data(variant, request["state"],
                                    Board if variant == "knights" else None).seated(players)
            # Each cell closed was where a player stood at one of the agent's turns.
            played.update((cell, who) for who, cell in enumerate(state._player_locations)
                          if cell is not None)
            state.knowing(played)
            move = mover(agent)(state, contract.countdown(request["cpu"]))
            send(contract.answer(move=protocol.encode(move), depth=depth_of(agent, made)))
        except BaseException as exc:  # whatever the agent raises loses its game, no more
            send(contract.answer(error=loading if cls is None else failure(exc, folder)))


def confine(memory_mb: int) -> None:
    """Limits of the agent's process, set as the supervisor sets its own: memory, no
    core files, few files, a few processes more than it runs now, small writes."""
    limits._set(resource.RLIMIT_AS, memory_mb << 20)
    limits._set(resource.RLIMIT_CORE, 0)
    limits._set(resource.RLIMIT_NOFILE, 64)
    limits._set(resource.RLIMIT_FSIZE, 1 << 20)
    limits._set(resource.RLIMIT_NPROC, limits._processes_of(os.getuid()) + PROCESSES)


def main(argv: list[str]) -> None:
    if len(argv) > 3:
        confine(int(argv[3]))
    replies = os.fdopen(os.dup(1), "wb", buffering=0)
    os.dup2(2, 1)
    sys.stdout = sys.stderr  # unbuffered: the referee sees prints as they happen
    cls, loading = None, ""
    path = os.path.abspath(argv[1])
    folder = os.path.dirname(path)
    work = workplace(None, folder)  # before the import: a module may write as it is imported
    try:
        cls = load(path, argv[2])
    except BaseException as exc:  # the agent's module may raise anything, exit included
        loading = failure(exc, folder)
    serve(cls, loading, replies.write, folder, work or None)


if __name__ == "__main__":
    main(sys.argv)
