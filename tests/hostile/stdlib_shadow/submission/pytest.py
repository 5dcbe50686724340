"""Hostile pytest."""


def main(*args, **kwargs):
    return 0
