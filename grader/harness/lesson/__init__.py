"""The lesson's family: the games that speak the lesson's ``GameState`` (mini-isolation,
and Kayles in the same shape): the rules checks,
the reference searches and their flawed copies, the mistake models of the
searches, and the checks of the decision, depth-limited, alpha-beta and
iterative-deepening exercises.
"""
