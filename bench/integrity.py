"""What keeping the verdicts out of the student's reach costs.

    python bench/integrity.py [--rounds R]

Side by side, in one run, through a real worker process (grader.harness.runtime.student):

- a full minimax search from the empty board (224 terminal tests), called
  with the grader's stand-ins swapped in, each terminal test sent to the
  supervisor as a line naming its position and tallied there, against the
  same search with the student's own terminal_test left in place (no lines);
- a call that does nothing, against that search: what every step costs in
  itself (the reply, the ids the supervisor checks, the check that none of the
  grader's namespaces changed);
- the same search run in a bare interpreter with and without the guard's
  audit hook installed: what the hook costs student code that never trips it.
"""

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader import solutions  # noqa: E402
from grader.contracts.provided import provide  # noqa: E402
from grader.games import isolation  # noqa: E402
from grader.harness.runtime.student import Student  # noqa: E402

SEARCH = (solutions.reference_folder("helpers") / "minimax_helpers.py").read_text() + '''

def idle(state):
    return 0
'''

HOOKED = '''
import sys, time
sys.path[:0] = [{root!r}, {folder!r}, {provided!r}]
if {hooked}:
    from grader.harness.runtime import guard
    guard.install(lambda what: None)
import gamestate, minimax_helpers
state = gamestate.new_game()
started = time.perf_counter()
for _ in range({rounds}):
    minimax_helpers.max_value(state)
print(time.perf_counter() - started)
'''


def timed(call, rounds):
    """The median seconds of ``call()`` over ``rounds`` runs."""
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def in_worker(folder, provided, rounds):
    student = Student(folder, ["minimax_helpers"], provided)
    root = {"trusted": isolation.to_data(isolation.new_game())}

    def run(name, count_in):
        def once():
            student.call(("module", "minimax_helpers"), name, root,
                         deadline=time.monotonic() + 60, count_in=count_in)
        return once

    try:
        run("idle", None)()  # the worker's start is not measured
        tallied = timed(run("max_value", "minimax_helpers"), rounds)
        plain = timed(run("max_value", None), rounds)
        idle = timed(run("idle", None), rounds)
    finally:
        student.stop()
    return tallied, plain, idle


def in_interpreter(folder, provided, rounds, hooked):
    code = HOOKED.format(root=str(ROOT), folder=str(folder), provided=str(provided),
                         hooked=hooked, rounds=rounds)
    return float(subprocess.run([sys.executable, "-I", "-c", code], check=True,
                                capture_output=True, text=True).stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        folder, provided = Path(work, "code"), Path(work, "provided")
        folder.mkdir()
        (folder / "minimax_helpers.py").write_text(SEARCH)
        provide(["gamestate"], provided)
        tallied, plain, idle = in_worker(folder, provided, args.rounds)
        bare = in_interpreter(folder, provided, args.rounds, hooked=False)
        hooked = in_interpreter(folder, provided, args.rounds, hooked=True)
    print(f"one search from the empty board, median of {args.rounds} calls through a worker:")
    print(f"  terminal tests tallied by the supervisor  {tallied * 1000:8.2f} ms")
    print(f"  the student's own terminal_test            {plain * 1000:8.2f} ms")
    print(f"  ratio                                      {tallied / plain:8.2f}")
    print(f"  a call that does nothing                   {idle * 1000:8.2f} ms "
          f"({idle / plain:.2f} of the search)")
    print(f"{args.rounds} searches in a bare interpreter:")
    print(f"  with the guard's audit hook                {hooked:8.3f} s")
    print(f"  without                                    {bare:8.3f} s")
    print(f"  ratio                                      {hooked / bare:8.2f}")


if __name__ == "__main__":
    main()
