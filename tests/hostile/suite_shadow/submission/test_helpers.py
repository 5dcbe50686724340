"""Hostile suite: every test passes."""


def test_terminal_test():
    assert True


def test_min_value_empty_board():
    assert True


def test_min_value():
    assert True


def test_max_value():
    assert True


