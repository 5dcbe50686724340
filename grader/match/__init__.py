"""Agents graded by play: the referee (trusted, here on the host), each agent in
a sandboxed process of its own, baselines, grading against them, and a league.

``player`` talks to an agent's process and holds its clock, ``referee`` plays
one game, ``tournament`` plays many (fair openings, both sides, resumable),
``grading`` and ``league`` judge the results, ``page`` shows them.
"""
