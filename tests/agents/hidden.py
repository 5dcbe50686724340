"""Hidden: searches in short-lived children it never waits for. With SIGCHLD
ignored the kernel reaps them, and no rusage of its process ever holds their
time: five children of 0.3 s of CPU each, 1.5 s a move."""

import os
import signal
import time

CHILDREN, WORK = 5, 0.3
signal.signal(signal.SIGCHLD, signal.SIG_IGN)


def ended(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


class Agent:
    def get_move(self, game, time_left):
        for _ in range(CHILDREN):
            pid = os.fork()
            if pid == 0:
                start = time.process_time()
                while time.process_time() - start < WORK:
                    pass
                os._exit(0)
            while not ended(pid):
                time.sleep(0.005)
        return game.get_legal_moves()[0]
