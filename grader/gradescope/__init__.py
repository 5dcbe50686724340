"""Gradescope: the autograder package an instructor uploads (``package``) and
what it runs for each submission there (``autograder``)."""
