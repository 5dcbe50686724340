"""What the service's page modules (staff, similar, lti, ...) use of the app's
pages, as a protocol: ``app.Web`` satisfies it and imports them, so none of
them imports the app back; and the scope of a course page (who, in which course)."""

from dataclasses import dataclass
from typing import Any, Protocol

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response

from grader.service.core import Service
from grader.service.models import Course, Student, Submission
from grader.service.people import ROLE_NAMES, Staff


@dataclass(frozen=True)
class Scope:
    """A course page's signed-in person and course."""

    staff: Staff
    course: Course

    @property
    def base(self) -> str:
        """The course pages' address."""
        return f"/i/c/{self.course.id}"

    @property
    def role_name(self) -> str:
        return ROLE_NAMES[self.staff.roles[self.course.id]]

    def may(self, what: str) -> bool:
        return self.staff.may(self.course.id, what)


class Pages(Protocol):
    service: Service

    def page(self, name: str, status: int = 200, **values: Any) -> Response: ...

    def course_page(self, scope: Scope, name: str, status: int = 200,
                    **values: Any) -> Response: ...

    def message(self, title: str, text: str, status: int,
                back: str | None = None) -> Response: ...

    def signed_in(self, request: Request) -> Staff: ...

    async def form(self, request: Request) -> FormData: ...

    async def scope(self, request: Request, what: str = "view") -> Scope: ...

    async def scope_form(self, request: Request, what: str) -> tuple[Scope, FormData]: ...


class AttemptPages(Pages, Protocol):
    """What the pages of one attempt use besides: the attempt's own page."""

    async def attempt_page(self, template: str, submission: Submission, back: str,
                           subject: str, course_id: int, **values: Any) -> Response: ...


class StaffPages(AttemptPages, Protocol):
    """What the staff's pages for one student and attempt use besides."""

    async def course_student(self, scope: Scope, student_id: int) -> Student: ...


class StudentSide(AttemptPages, Protocol):
    """What a student's own pages use besides: the student their link names."""

    async def student(self, request: Request) -> Student: ...
