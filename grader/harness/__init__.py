"""The code that runs inside the sandbox.

Nothing here may import from the host side of the grader (``grader.cli`` and
friends): the harness is copied into the grading image on its own.
"""
