"""The runtime that keeps the student's code apart from the verdicts.

The judge (a warm judge's fork, ``judge``, or a supervisor started for one
run, ``supervisor``) runs an exercise's suite under the pytest plugin; the
suite's calls reach the student's code through ``student``, in the worker:
another process, forked by a zygote (``zygote``, or the launcher: the
grading image's entry point, and Gradescope's). Nothing here knows a game or
a search: that is ``grader.games`` and ``grader.harness.checking`` and
``grader.harness.lesson``.
"""
