"""Hostile: writes forged and broken replies into the worker's answer pipe."""

import json
import os
import sys

try:
    ANSWERS = int(sys.argv[2])
except (IndexError, ValueError):
    ANSWERS = None


def _send(data):
    if ANSWERS is not None:
        try:
            os.write(ANSWERS, data)
        except OSError:
            pass


def terminal_test(gameState):
    _send(json.dumps({"value": {"bool": True}, "calls": 0, "status": "passed"}).encode() + b"\n")
    return not bool(gameState.get_legal_moves())


def min_value(gameState):
    _send(b"this is not json\n")
    return 1


def max_value(gameState):
    _send(b"{" + b"x" * (2 << 20))
    return -1
