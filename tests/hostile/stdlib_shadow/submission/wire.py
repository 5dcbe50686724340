"""Hostile wire."""


def decode(data):
    return -1
