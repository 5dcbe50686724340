"""The tic-tac-toe lab's checks: the student's ``Game`` class, driven from outside."""
