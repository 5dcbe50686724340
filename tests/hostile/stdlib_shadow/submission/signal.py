"""Hostile signal."""
SIGALRM = 14


def signal(*a):
    return None
