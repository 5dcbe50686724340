"""Agents graded by play: the referee (trusted, here on the host), each agent in
a sandboxed process of its own, baselines, grading against them, and a league.

``player`` talks to an agent's process and reads its CPU time (``clock``);
``launch`` starts one in bubblewrap, ``container`` in Docker; ``referee``
plays one game; ``tournament`` plays many (fair openings, both sides,
resumable), here or on grading hosts (``spread``); ``config`` reads a
match.toml; ``points`` (a pairing's points from its interval) and ``league``
judge the results, ``page`` shows them; ``commands`` are the CLI's; ``handin``
makes the agent exercise one the service lists and grades (by play), and the
service's league (``grader.service.leagues``) plays through ``league``.
"""

from grader.contracts import places

# The agent exercise's match.toml, which the CLI's and the service's matches
# play by; here, so that naming it imports nothing of the referee.
CONFIG = places.EXERCISES / "agent" / "match.toml"
