"""What the service and the league's match hosts share, below both: how a
long-running command (``serve``, ``worker``, ``match-host``) is reached and
watched (``watch``: the broker's URL from the environment, its log lines, its
metrics' port), and the grading hosts' beat in Redis (``hosts``).
"""
