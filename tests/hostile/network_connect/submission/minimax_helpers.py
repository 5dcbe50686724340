"""Hostile: tries to reach the network; answers wrong if it can."""

import os
import socket
import threading

REACHED = []


def _tcp(host, port):
    try:
        with socket.create_connection((host, port), timeout=1):
            REACHED.append(f"tcp {host}:{port}")
    except OSError as exc:
        print(f"tcp {host}:{port}: {exc}")


def _udp(host, port):
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.settimeout(1)
            s.sendto(b"\x12\x34\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00"
                     b"\x07example\x03com\x00\x00\x01\x00\x01", (host, port))
            s.recvfrom(512)
            REACHED.append(f"udp {host}:{port}")
    except OSError as exc:
        print(f"udp {host}:{port}: {exc}")


def _lookup(name):
    try:
        socket.getaddrinfo(name, 80)
        REACHED.append(f"dns {name}")
    except OSError as exc:
        print(f"dns {name}: {exc}")


def _unix(path):
    try:
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(1)
            s.connect(path)
            REACHED.append(f"unix {path}")
    except OSError as exc:
        print(f"unix {path}: {exc}")


jobs = [(_tcp, "1.1.1.1", 80), (_tcp, "8.8.8.8", 53), (_tcp, "172.17.0.1", 2375),
        (_tcp, "172.17.0.1", 22), (_tcp, "host.docker.internal", 80), (_udp, "8.8.8.8", 53),
        (_lookup, "example.com"), (_unix, "/var/run/docker.sock"), (_unix, "/run/docker.sock")]
threads = [threading.Thread(target=f, args=a, daemon=True) for f, *a in jobs]
for t in threads:
    t.start()
for t in threads:
    t.join(3)
print("REACHED:", REACHED)
NETWORK = bool(REACHED)


def terminal_test(gameState):
    return not bool(gameState.get_legal_moves())


def min_value(gameState):
    if NETWORK:
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
