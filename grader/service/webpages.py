"""What the service's page modules (staff, similar, lti) use of the app's
pages, as a protocol: ``app.Web`` satisfies it and imports them, so none of
them imports the app back."""

from typing import Any, Protocol

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response

from grader.service.core import Service
from grader.service.models import Student, Submission


class Pages(Protocol):
    service: Service

    def page(self, name: str, status: int = 200, **values: Any) -> Response: ...

    def message(self, title: str, text: str, status: int,
                back: str | None = None) -> Response: ...

    def instructor_secret(self, request: Request) -> str: ...

    async def instructor_form(self, request: Request) -> FormData: ...


class StaffPages(Pages, Protocol):
    """What the instructor's pages for one student and attempt use besides."""

    async def attempt_page(self, template: str, submission: Submission, back: str,
                           subject: str, **values: Any) -> Response: ...

    def files_zip(self, submission: Submission) -> Response: ...

    def _student_by_id(self, student_id: int) -> Student: ...
