"""Make the upgrade test's fixture: a small term's data folder, as this release keeps
it, for the next release to open (tests/service/test_service_upgrade.py).

    python tests/service/upgrade/make_term.py

writes tests/service/upgrade/term-<version>/: ``grader.sqlite3`` (the database at
this release's newest migration) and ``files/`` (the store), made by the service's
own code as a term makes them: a roster (one student made inactive), exercise
rules and an extension, hand-ins graded in the local sandbox (one late, one
replaced before it was graded), a comment, a manual score, a regrade request and
its answer, and the LTI rows of a course (platform, tool key, context, user,
membership, assignment, a score sent, a launch key and a launch's state); and
``term.json``, the links and facts the test opens the term by. Commit the new
folder beside the earlier ones: each is a previous release's term.
"""

import json
import shutil
import sqlite3
import sys
import tempfile
from datetime import datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))  # the checkout's grader, run as a script

from grader import __version__, grading  # noqa: E402
from grader.intake import Submission  # noqa: E402
from grader.sandbox import backend  # noqa: E402
from grader.service import db, tokens  # noqa: E402
from grader.service.core import Service  # noqa: E402
from grader.service.lti import platforms  # noqa: E402
from grader.service.models import (  # noqa: E402
    ExerciseSetting,
    LaunchKey,
    LtiContext,
    LtiMember,
    LtiResource,
    LtiScorePost,
    LtiState,
    LtiUser,
)
from grader.service.options import Options  # noqa: E402

SOLUTIONS = HERE.parents[2] / "solutions"
HELPERS = SOLUTIONS / "helpers" / "solution" / "minimax_helpers.py"
FLIPPED = SOLUTIONS / "helpers" / "corpus" / "flipped_utilities" / "minimax_helpers.py"
START = datetime(2026, 1, 12, 9, 0)  # the term's first day (UTC)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


def hand_in(service: Service, student_id: int, path: Path) -> int:
    return service.jobs.submit(student_id, "helpers", Submission({path.name: path.read_bytes()}))


def term(service: Service, clock: Clock) -> dict[str, object]:
    """The term's rows, made through the service; what the test looks for."""
    people = [("Ada Lovelace", "ada@example.edu"), ("Bob Babbage", "bob@example.edu"),
              ("Cy Inactive", "cy@example.edu")]
    links = {student.name: token for student, token in service.students.import_roster(people)}
    ada, bob, cy = service.students.of_course()
    service.students.set_active(cy.id, False)
    service.term.save_setting(ExerciseSetting(
        exercise_id="helpers", visible=True, deadline=START + timedelta(days=7),
        hard_deadline=START + timedelta(days=9), late_penalty=0.2, min_minutes=0,
        score_rule="best", column_name="Lab 1 (123456)"))
    service.term.extend(bob.id, "helpers", START + timedelta(days=8), None)
    first = hand_in(service, ada.id, FLIPPED)
    clock.now += timedelta(minutes=5)
    hand_in(service, ada.id, HELPERS)  # replaces the first before it is graded
    clock.now += timedelta(days=8, hours=1)  # after Bob's own deadline: late
    late = hand_in(service, bob.id, FLIPPED)
    service.jobs.drain()
    clock.now += timedelta(days=1)
    service.term.add_note(late, "request", "My utilities are right, I think.", bob.name)
    service.term.add_note(late, "answer", "They are flipped: see the hint.", "Instructor")
    service.term.add_note(late, "comment", "Look at max_value's terminal case.", "Instructor")
    service.term.add_note(late, "score", "Partial credit for the tree walk.", "Instructor", 5.0)
    secret = service.access.new_instructor_secret()
    lti(service, ada.id, clock.now)
    return {"version": __version__, "revision": db.revision(service.engine),
            "links": links, "instructor": secret, "replaced": first, "late": late}


def lti(service: Service, student_id: int, now: datetime) -> None:
    """A course on a registered LMS: Ada launched its assignment, her score was sent."""
    platforms.register(service.sessions, [platforms.PlatformSpec(
        issuer="https://lms.example.edu", client_id="tool-1",
        key_set_url="https://lms.example.edu/jwks", auth_login_url="https://lms.example.edu/auth",
        auth_token_url="https://lms.example.edu/token", deployment_ids=["deploy-1"])])
    platforms.keys(service.sessions, now)  # the tool's key, made at first use
    [platform] = platforms.platforms(service.sessions)
    with service.sessions.begin() as session:
        context = LtiContext(platform_id=platform.id, context_id="course-1", title="Intro AI",
                             memberships_url="https://lms.example.edu/members")
        user = LtiUser(platform_id=platform.id, sub="lms-user-ada", student_id=student_id)
        session.add_all([context, user])
        session.flush()
        resource = LtiResource(context_id=context.id, resource_link_id="link-1",
                               exercise_id="helpers", endpoint=json.dumps(
                                   {"lineitem": "https://lms.example.edu/lineitems/1"}))
        session.add_all([resource, LtiMember(context_id=context.id, user_id=user.id)])
        session.flush()
        session.add(LtiScorePost(resource_id=resource.id, student_id=student_id,
                                 score_given=10, score_maximum=10, state="sent", attempts=1,
                                 created_at=now, next_try_at=now, sent_at=now))
        session.add(LaunchKey(token_hash=tokens.hashed("launch-key"), student_id=student_id,
                              expires_at=now + timedelta(days=3650)))
        session.add(LtiState(key="nonce-1", value="true", expires_at=now + timedelta(days=3650)))


def main() -> None:
    target = HERE / f"term-{__version__}"
    if target.exists():
        sys.exit(f"{target} exists: a release's term is made once")
    sandbox = backend("local")
    try:
        with tempfile.TemporaryDirectory() as temp:
            data = Path(temp) / "data"
            clock = Clock()
            service = Service(Options(data=data), now=clock, sandbox=sandbox)
            facts = term(service, clock)
            service.engine.dispose()
            with sqlite3.connect(data / "grader.sqlite3") as connection:  # one file, compact
                connection.execute("PRAGMA journal_mode=DELETE")
                connection.execute("VACUUM")
            target.mkdir()
            shutil.copy(data / "grader.sqlite3", target)
            shutil.copytree(data / "files", target / "files")
    finally:
        grading.close(sandbox)
    (target / "term.json").write_text(json.dumps(facts, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
