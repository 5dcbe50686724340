"""Hostile plugin."""


class Grading:
    def __init__(self, *a, **k):
        pass
