"""What crosses the trust boundary, and nothing else.

The host (``grader`` outside ``harness``) and the harness (what runs in a
sandbox) import nothing of each other; they meet in these modules:

- ``job``: the instructions the host gives the supervisor of one run;
- ``events``: the result events the supervisor writes back (untrusted data
  for the host, which checks every field);
- ``protocol``: the messages between the supervisor and the student's worker;
- ``hints``: the mistake ids a test may name, and their texts;
- ``provided``: the modules the course gives students, which both sides hand out.

Each is plain data and the standard library: the judge runs them beside
the harness (see ``grader.installs``).
"""
