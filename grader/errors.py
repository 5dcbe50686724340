"""The one error a user's own mistake raises: a bad path, flag or file.

The command line prints its message and exits 2; nothing was graded. Every
other failure of a run ends in a report (graded, rejected or error).
"""


class UsageError(Exception):
    """What the user asked for can't be done as asked; the message says why."""
