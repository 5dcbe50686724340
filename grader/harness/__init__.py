"""The code that runs inside the sandbox.

``runtime`` keeps the student's code apart from the verdicts; ``minimax``
holds the checks the suites run. The harness imports nothing of the host
side of the grader: only ``grader.contracts`` and ``grader.games``, which the
image holds beside it (a test, ``tests/test_layout.py``, keeps it so).
"""
