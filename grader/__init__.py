"""minimax-grader: an autograder for the minimax exercises of an intro-AI course."""

__version__ = "0.1.0"
