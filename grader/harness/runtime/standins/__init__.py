"""The grader's stand-ins in the student's process, one module per game.

Each module (a "kit") gives the worker what its game needs there:

- ``load(provided, modules)``: the trusted game, imported before the
  student's files (or None);
- ``guarded(trusted)``: the modules and classes whose functions the guard
  protects and whose namespaces it watches;
- ``arguments(trusted, tick)``: turns the supervisor's ``{"trusted": data}``
  arguments into the grader's own objects (a position, a counting game, a
  counting score function);
- ``owner(module)`` and ``stand_ins(module, trusted, tick)``: where the
  stand-ins go for a call, and what they are, by (name, depth-limited);
  ``COUNTED`` names those installed for every counted call.

``tick(line)`` sends a line to the supervisor as it happens (a counted call
is ``protocol.TESTED`` and a label): no count is kept in this process.
"""

import types


def kit(name: str) -> types.ModuleType:
    """The kit of game ``name``: a built-in game's own, or the lesson's on the
    game's rules for any other (Kayles, an instructor's game: each of the
    lesson's kind). Imports stay lazy, and written out for ``closure`` to
    find: a worker loads one."""
    if name == "tictactoe":
        from grader.harness.runtime.standins import tictactoe

        return tictactoe
    if name == "nim":
        from grader.harness.runtime.standins import nim

        return nim
    if name == "isolation":
        from grader.harness.runtime.standins import isolation

        return isolation
    from grader.harness.runtime.standins import lesson

    return lesson.kit(name)
