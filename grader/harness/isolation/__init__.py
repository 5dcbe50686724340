"""The lesson's family on mini-isolation's ``GameState``: the rules checks,
the reference searches and their flawed copies, the mistake models of the
searches, and the checks of the decision, depth-limited, alpha-beta and
iterative-deepening exercises.
"""
