"""An agent's process in a match: the student's agent, answering the referee."""
