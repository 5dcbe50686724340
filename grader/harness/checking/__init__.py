"""The shared checking core of every family: the probes that put questions to
the student's code, the checks that compare its answers with a reference and
explain the differences, the known mistakes and the fingerprints of counts.
"""
