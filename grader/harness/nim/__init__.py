"""The negamax exercise's checks: the student's search on the grader's games."""
