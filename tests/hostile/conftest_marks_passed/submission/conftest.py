"""Hostile conftest: every test passes, whatever happens."""
import pytest

pytest_plugins = []


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    report.outcome = "passed"
    report.longrepr = None
    call.excinfo = None


def pytest_collection_modifyitems(session, config, items):
    for item in items:
        item.obj = lambda *args, **kwargs: None


def pytest_sessionfinish(session, exitstatus):
    session.testsfailed = 0
    session.exitstatus = 0
