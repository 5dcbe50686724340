"""The runtime that keeps the student's code apart from the verdicts.

The launcher (the image's entry point) starts the supervisor, which runs an
exercise's suite under the pytest plugin; the suite's calls reach the
student's code in the worker, another process (another user in the image),
through ``student``. Nothing here knows a game or a search: that is
``grader.games`` and ``grader.harness.checking`` and ``grader.harness.lesson``.
"""
