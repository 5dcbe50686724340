"""Comments on lines of the files of an attempt: a staff member's remark on one
line, shown to the student with that line under the file it is about, and kept in
the audit log (made and removed, with its author)."""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from grader.service import audit
from grader.service.models import LineComment, Submission
from grader.service.people import Staff
from grader.service.refused import Refused
from grader.service.rubrics import attempt_named
from grader.service.store import Store

MAX_TEXT = 2000
QUOTED = 200  # characters of the line shown beside its comment


@dataclass
class Shown:
    """A comment as pages show it: with the line it is about, as handed in."""

    comment: LineComment
    source: str


def lines(store: Store, submission: Submission, name: str) -> list[str]:
    """The lines of the attempt's file ``name``; Refused when it has none of that name."""
    for stored in submission.files:
        if stored.name == name:
            return store.get(stored.sha256).decode("utf-8", "replace").splitlines()
    raise Refused("the attempt has no file of that name", 400)


class Comments:
    def __init__(self, sessions: sessionmaker[Session], now: Callable[[], datetime],
                 store: Store) -> None:
        self.sessions = sessions
        self.now = now
        self.store = store

    def of(self, submission: Submission) -> dict[str, list[Shown]]:
        """The attempt's comments by file, each file's by line, then as made."""
        with self.sessions() as session:
            made = list(session.scalars(select(LineComment).where(
                LineComment.submission_id == submission.id)
                .order_by(LineComment.file, LineComment.line, LineComment.id)))
        texts = {name: lines(self.store, submission, name)
                 for name in {comment.file for comment in made}}
        shown: dict[str, list[Shown]] = {}
        for comment in made:
            source = texts[comment.file][comment.line - 1][:QUOTED]
            shown.setdefault(comment.file, []).append(Shown(comment, source))
        return shown

    def add(self, course_id: int, submission: Submission, file: str, line: int, text: str,
            by: Staff) -> LineComment:
        """A comment on ``line`` (from 1) of the attempt's ``file``; Refused for a
        line the file does not have, or no text."""
        text = text.strip()
        if not text or len(text) > MAX_TEXT:
            raise Refused(f"the comment is 1 to {MAX_TEXT} characters", 400)
        count = len(lines(self.store, submission, file))
        if not 1 <= line <= count:
            raise Refused(f"{file} has lines 1 to {count}", 400)
        with self.sessions.begin() as session:
            made = LineComment(submission_id=submission.id, file=file, line=line, text=text,
                               author=by.name, person_id=by.person.id, created_at=self.now())
            session.add(made)
            audit.record(session, self.now(), course_id, by, "line comment made",
                         attempt_named(session, submission), f"{file} line {line}: {text}")
        return made

    def remove(self, course_id: int, submission: Submission, comment_id: int,
               by: Staff) -> None:
        with self.sessions.begin() as session:
            found = session.get(LineComment, comment_id)
            if found is None or found.submission_id != submission.id:
                raise Refused("no such comment", 404)
            session.delete(found)
            audit.record(session, self.now(), course_id, by, "line comment removed",
                         attempt_named(session, submission),
                         f"{found.file} line {found.line}: {found.text} (by {found.author})")
