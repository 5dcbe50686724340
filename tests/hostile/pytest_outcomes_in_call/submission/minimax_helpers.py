"""Hostile: pytest.exit / pytest.skip / KeyboardInterrupt inside graded calls."""

try:
    import pytest
    Exit = pytest.exit.Exception
    Skipped = pytest.skip.Exception
    XFailed = pytest.xfail.Exception
except ImportError:  # pytest not importable here: the same names, the same bases
    class Exit(Exception):
        def __init__(self, msg, returncode=None):
            super().__init__(msg)
            self.returncode = returncode

    class Skipped(BaseException):
        pass

    class XFailed(Exception):
        pass


def terminal_test(gameState):
    raise Exit("all tests passed", returncode=0)


def min_value(gameState):
    raise Skipped("passed: skipped by the student")


def max_value(gameState):
    raise KeyboardInterrupt("stop the grader")
