"""Hostile: control characters, invalid UTF-8 and lone surrogates in output and exceptions."""

import os
import sys

NASTY = ("\x00NUL\x1b[2J\x1b[31mRED\x1b[0m\x1b]0;pwned\x07\r\b\u202eevil\u0085\u009b31m\x7f"
         "\ufffe\uffff\u2028\u2029")  # noncharacters (not allowed in XML) and line separators
print(NASTY)
print(NASTY, file=sys.stderr)
os.write(1, b"\xff\xfe\xed\xa0\x80 invalid utf-8 \xc3\x28\n")
sys.stdout.buffer.write("lone \udc80 \ud800 surrogates\n".encode("utf-8", "surrogatepass"))
sys.stdout.flush()
try:
    print("\udc80")
except UnicodeEncodeError as exc:
    print("could not print a lone surrogate:", type(exc).__name__)

Evil = type("\x1b[31mEvil\x1b[0m\u202e\x07", (Exception,), {})  # a type name can't hold a lone surrogate


def terminal_test(gameState):
    return not bool(gameState.get_legal_moves())


def min_value(gameState):
    raise ValueError(NASTY + "\udc80\ud800" + "\x00" * 50)


def max_value(gameState):
    raise Evil(NASTY + "\ud83d")
