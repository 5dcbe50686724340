"""What the suites know of minimax: the reference search and its flawed
copies, the mistake models, the probes that put questions to the student's
code, and the checks that compare its answers and explain the differences.
"""
