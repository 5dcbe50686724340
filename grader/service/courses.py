"""The staff's own pages: their courses (and a new one), a course's staff (add a
person with a role and their login link, revoke or restore them, a new link),
and the course's audit log (a page, and all of it as CSV). A link made here opens
this course alone (see people), and each change to a person is recorded in every
course they are on the staff of."""

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from grader.service import audit, forms, gradebook, people
from grader.service.models import STAFF_ROLES, CourseStaff, Person
from grader.service.people import Staff
from grader.service.webpages import Pages, Scope

COURSE = "/i/c/{course:int}"
SAVED = {"added": "Added: give them the link below (shown this once).",
         "revoked": "Revoked: their links and launches open nothing in this course now.",
         "restored": "Restored.",
         "link": "A new link: it opens this course alone, and the ones before no longer "
                 "open it."}


class Courses:
    def __init__(self, web: Pages) -> None:
        self.web = web
        self.service = web.service

    def routes(self) -> list[Route]:
        return [Route("/i", self.mine, methods=["GET"]),
                Route("/i/courses", self.new_course, methods=["POST"]),
                Route(f"{COURSE}/staff", self.staff, methods=["GET"]),
                Route(f"{COURSE}/staff", self.add, methods=["POST"]),
                Route(f"{COURSE}/staff/{{person:int}}/{{change}}", self.change,
                      methods=["POST"]),
                Route(f"{COURSE}/audit", self.audit, methods=["GET"]),
                Route(f"{COURSE}/audit.csv", self.audit_csv, methods=["GET"])]

    # -- the courses ------------------------------------------------------------------

    async def mine(self, request: Request) -> Response:
        staff = await run_in_threadpool(self.web.signed_in, request)
        with self.service.sessions() as session:
            found = people.courses_of(session, staff)
        return self.web.page("courses.html", staff=staff, courses=found,
                             may_make=_instructs(staff),
                             csrf=self.service.access.csrf(forms.staff_subject(staff)))

    async def new_course(self, request: Request) -> Response:
        """A course, made by an instructor (of any course), who is its instructor."""
        staff = await run_in_threadpool(self.web.signed_in, request)
        form = await self.web.form(request)
        if not self.service.access.csrf_ok(forms.staff_subject(staff), form.get("csrf")) or \
                not _instructs(staff):
            raise HTTPException(403, "Only an instructor makes a course.")
        title = str(form.get("title") or "").strip()
        if not title:
            return self.web.message("Not made", "Give the course a title.", 400, "/i")
        course = await run_in_threadpool(self.service.access.new_course, title, staff)
        return RedirectResponse(f"/i/c/{course.id}", status_code=303)

    # -- the staff ----------------------------------------------------------------------

    async def staff(self, request: Request) -> Response:
        scope = await self.web.scope(request, "staff")
        with self.service.sessions() as session:
            found = people.staff_of(session, scope.course.id)
        return self.web.course_page(scope, "staff.html", staff=found, roles=STAFF_ROLES,
                                    role_names=people.ROLE_NAMES,
                                    saved=SAVED.get(request.query_params.get("saved", "")))

    async def add(self, request: Request) -> Response:
        scope, form = await self.web.scope_form(request, "staff")
        name, role = str(form.get("name") or "").strip(), str(form.get("role") or "")
        if not name or role not in STAFF_ROLES:
            return self.web.message("Not added", "Give a name and a role.", 400,
                                    f"{scope.base}/staff")
        email = str(form.get("email") or "").strip()[:254] or None
        person, token = await run_in_threadpool(self._add, scope, name, email, role)
        return self.link_page(request, scope, person, token, "added")

    def _add(self, scope: Scope, name: str, email: str | None, role: str) -> tuple[Person, str]:
        now = self.service.now()
        with self.service.sessions.begin() as session:
            person = people.new_person(session, name, email, now)
            people.give_role(session, scope.course.id, person.id, role, now)
            audit.person_changed(session, now, scope.course.id, scope.staff, "staff added",
                                 person, people.ROLE_NAMES[role])
            return person, people.login_link(session, person.id, [scope.course.id], now)

    async def change(self, request: Request) -> Response:
        scope, _ = await self.web.scope_form(request, "staff")
        change = request.path_params["change"]
        if change not in ("revoke", "restore", "link"):
            raise HTTPException(404)
        person, token = await run_in_threadpool(self._change, scope,
                                                request.path_params["person"], change)
        if token is not None:
            return self.link_page(request, scope, person, token, "link")
        saved = "revoked" if change == "revoke" else "restored"
        return RedirectResponse(f"{scope.base}/staff?saved={saved}", status_code=303)

    def _change(self, scope: Scope, person_id: int, change: str) -> tuple[Person, str | None]:
        now = self.service.now()
        with self.service.sessions.begin() as session:
            role = session.get(CourseStaff, (scope.course.id, person_id))
            person = session.get(Person, person_id)
            if role is None or person is None:
                raise HTTPException(404)
            if change == "revoke" and role.role == "instructor" and \
                    not people.instructors_left(session, scope.course.id, person_id):
                raise HTTPException(409, "A course keeps one instructor at least: add "
                                         "another before revoking this one.")
            token = None
            if change == "link":  # it opens this course alone: see people
                token = people.login_link(session, person_id, [scope.course.id], now)
            else:
                role.revoked_at = now if change == "revoke" else None
            audit.person_changed(session, now, scope.course.id, scope.staff,
                                 {"revoke": "staff revoked", "restore": "staff restored",
                                  "link": "staff link"}[change], person,
                                 people.ROLE_NAMES[role.role])
            return person, token

    def link_page(self, request: Request, scope: Scope, person: Person, token: str,
                  saved: str) -> Response:
        return self.web.course_page(scope, "staff_link.html", person=person,
                                    link=f"{str(request.base_url).rstrip('/')}/i/{token}",
                                    saved=SAVED[saved])

    # -- the audit log ---------------------------------------------------------------------

    async def audit(self, request: Request) -> Response:
        scope = await self.web.scope(request, "staff")
        with self.service.sessions() as session:
            found = audit.entries(session, scope.course.id)
        where = await run_in_threadpool(self.service.access.zone, scope.course.id)
        return self.web.course_page(scope, "audit.html", entries=found, shown=audit.SHOWN,
                                    where=where)

    async def audit_csv(self, request: Request) -> Response:
        scope = await self.web.scope(request, "staff")
        with self.service.sessions() as session:
            found = audit.entries(session, scope.course.id, None)
        return Response(gradebook.csv_text(audit.lines(found)),
                        media_type="text/csv; charset=utf-8",
                        headers={"content-disposition": 'attachment; filename="audit.csv"'})


def _instructs(staff: Staff) -> bool:
    return "instructor" in staff.roles.values()
