"""What the Gradescope package's run_autograder runs for each submission.

``python -m grader.gradescope.autograder EXERCISE`` takes in the student's files
from /autograder/submission with the grader's intake, grades them in the
launcher sandbox (the supervisor and the student's code as two users, as in
the grading image) and writes the report as Gradescope's results.json. A
results.json is written whatever happens: a rejected submission gets 0 with
the reason, and a failure of the grader itself says so in plain words.
"""

import json
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path

from grader.files import write_atomic

HOME = Path("/autograder")  # Gradescope's: source/, submission/, results/


def results(exercise_id: str, submission: Path | str) -> str:
    """The results.json text for the submission in the folder ``submission``."""
    # Imported here, so that even a broken install ends in a results.json.
    from grader import exercises, grading, render

    exercise = exercises.load(exercise_id)
    report = grading.grade(exercise, submission, grading.open_sandbox("launcher"),
                           exercise.limits)
    return render.to_gradescope(report)


def failed(exc: BaseException) -> str:
    """The results.json text when the grader failed before it had a report."""
    return json.dumps({
        "score": 0,
        "output": (f"The autograder itself failed ({type(exc).__name__}: {exc}), so your "
                   "work was not graded and this 0 is not your score. Please tell your course "
                   "staff, who can regrade the submission."),
        "visibility": "visible",
        "tests": [],
    }, indent=2, ensure_ascii=False) + "\n"


def main(argv: Sequence[str] | None = None, home: Path = HOME) -> int:
    exercise_id = (sys.argv[1:] if argv is None else argv)[0]
    try:
        # Nothing in there (the suite included) is for the student's code, which
        # runs as another user: its files reach it in the launcher's job archive.
        home.chmod(0o700)
        text = results(exercise_id, home / "submission")
    except Exception as exc:
        traceback.print_exc()  # Gradescope shows the instructor this run's output
        text = failed(exc)
    (home / "results").mkdir(exist_ok=True)
    write_atomic(home / "results" / "results.json", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
