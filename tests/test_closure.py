"""The worker's closure, found from the sources by threads of one process at once:
the host's gradings and the agents of pairings played side by side do so."""

import ast
import threading
import time

from grader.harness.runtime import closure

THREADS = 6


def test_no_two_threads_parse_a_source_at_once(monkeypatch):
    # Python 3.11 before 3.11.8 fails two ast.parse at once, now and then ("AST
    # constructor recursion depth mismatch"): a grading's sandbox failed with it.
    parse, guard = ast.parse, threading.Lock()
    inside, most = [0], [0]

    def slow_parse(source, *args, **options):
        with guard:
            inside[0] += 1
            most[0] = max(most[0], inside[0])
        time.sleep(0.02)  # long enough for every other thread to try to come in
        try:
            return parse(source, *args, **options)
        finally:
            with guard:
                inside[0] -= 1

    monkeypatch.setattr(ast, "parse", slow_parse)
    path = closure.ROOT / "grader" / "harness" / "runtime" / "worker.py"
    start = threading.Barrier(THREADS)
    found: list[set[str]] = []

    def read() -> None:
        start.wait()
        found.append(closure.file_imports(path))

    threads = [threading.Thread(target=read) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert len(found) == THREADS and all(imports == found[0] for imports in found)
    assert most[0] == 1
