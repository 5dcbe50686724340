"""Hostile select."""


def select(r, w, x, t=None):
    return r, w, x
