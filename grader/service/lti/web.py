"""The tool's routes: OIDC login initiation, the launch, the JWKS, registration by URL
(LTI Dynamic Registration) and Canvas's JSON configuration, the exercise picker
(deep linking), and each course's LTI page (the URLs, the platforms, the course's
LMS courses and roster sync, how its roster is tied to launches, the scores
sent). ``Tool`` is mounted by ``app.build``; its poster sends scores while the
app runs."""

import logging
from functools import partial
from typing import Any

from pylti1p3.deep_link_resource import DeepLinkResource
from pylti1p3.lineitem import LineItem
from pylti1p3.tool_config.dict import ToolConfDict
from sqlalchemy import func, select, update
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from grader.service import audit, people
from grader.service.lti import launch, nrps, platforms, registration, roles
from grader.service.lti.adapter import Launch, Launches, LaunchRequest, login
from grader.service.lti.ags import Poster
from grader.service.models import (
    LtiContext,
    LtiPlatform,
    LtiResource,
    LtiScorePost,
    Student,
)
from grader.service.refused import Refused
from grader.service.webpages import Pages, Scope

log = logging.getLogger("grader.service")
COURSE = "/i/c/{course:int}/lti"
POSTS_SHOWN = 200
REFUSED = ("The launch from your course could not be checked, so nothing was opened: "
           "{why}. Open the assignment again from your course; if this happens again, "
           "tell your instructor.")
STAFF = ("instructor", "ta")
REGISTERED_SCRIPT = ("(window.opener || window.parent).postMessage("
                     "{subject: 'org.imsglobal.lti.close'}, '*');\n")


class Tool:
    def __init__(self, web: Pages) -> None:
        self.web = web
        self.service = web.service
        self.storage = Launches(self.service.sessions, self.service.now)
        self.poster = Poster(self.service, self.config)

    def start(self) -> None:
        """The tool's key made at the first start (a platform's first look finds it), and
        the poster sending scores."""
        platforms.keys(self.service.sessions, self.service.now())
        self.poster.start()

    def stop(self) -> None:
        self.poster.stop()

    def config(self) -> ToolConfDict:
        return platforms.tool_config(self.service.sessions, self.service.now())

    def routes(self) -> list[Route]:
        return [Route("/lti/login", self.login, methods=["GET", "POST"]),
                Route("/lti/launch", self.launch, methods=["POST"], name="lti_launch"),
                Route("/lti/jwks.json", self.jwks, methods=["GET"]),
                Route("/lti/canvas.json", self.canvas, methods=["GET"]),
                Route("/lti/register/{secret}", self.register, methods=["GET"]),
                Route("/lti/registered.js", self.registered_script, methods=["GET"]),
                Route(COURSE, self.page, methods=["GET"]),
                Route(f"{COURSE}/sync/{{context:int}}", self.sync, methods=["POST"]),
                Route(f"{COURSE}/match", self.match, methods=["POST"]),
                Route(f"{COURSE}/register", self.registration_url, methods=["POST"])]

    def _refused(self, why: Exception) -> Response:
        # The library's words name the check that failed, never the token's content.
        log.info("LTI launch refused: %s: %s", type(why).__name__, str(why)[:300])
        said = str(why) if isinstance(why, Refused) else \
            str(why).split(": ")[-1] if str(why) else type(why).__name__
        status = why.status if isinstance(why, Refused) else 400
        return self.web.message("Launch refused", REFUSED.format(why=said.rstrip(".")),
                                status)

    def _base(self, request: Request) -> str:
        return str(request.base_url).rstrip("/")

    # -- the platform's side ---------------------------------------------------------------

    async def login(self, request: Request) -> Response:
        asked = await LaunchRequest.read(request)
        target = str(request.url_for("lti_launch"))
        try:
            return await run_in_threadpool(lambda: login(asked, self.config(), self.storage,
                                                         target))
        except Exception as why:  # an unknown platform, a login without its issuer, ...
            return self._refused(why)

    def _checked(self, asked: LaunchRequest) -> Launch:
        """The launch, every check passed (each one that fails raises)."""
        made = Launch(asked, self.config(), self.storage)
        made.validate()
        return made

    async def launch(self, request: Request) -> Response:
        asked = await LaunchRequest.read(request)
        try:
            made = await run_in_threadpool(self._checked, asked)
        except Exception as why:  # the launch is refused, saying which check failed
            return self._refused(why)
        body: dict[str, Any] = dict(made.get_launch_data())
        try:
            if made.is_deep_link_launch():
                return await run_in_threadpool(self._picker, made, body,
                                               str(request.url_for("lti_launch")))
            return await run_in_threadpool(self._open, made, body)
        except Exception as why:  # a launch we can't serve (no course, no exercise, a role)
            return self._refused(why)

    def _open(self, made: Launch, body: dict[str, Any]) -> Response:
        """A resource link's launch, in a course the tool knows: the student's page of
        its exercise, or the course's pages for its staff; its assignment is kept for
        scores and roster."""
        now = self.service.now()
        role = roles.course_role(body.get(launch.ROLES) or [])
        if role is None:
            raise Refused("your role in this course gives no access to the grader", 403)
        with self.service.sessions.begin() as session:
            platform = launch.platform_of(session, made.get_iss(), made.get_client_id())
            context = launch.context_of(session, platform, body)
            if context is None:
                raise Refused(launch.UNKNOWN_COURSE, 403)
            resource = launch.resource_of(session, context, body, set(self.service.exercises))
            launch.assigned(session, context.course_id, resource.exercise_id, now)
            user = launch.identity(session, platform, context.deployment_id, str(body["sub"]))
            said = launch.who(body)
            if role in STAFF:
                person = launch.staff_of(session, context.course_id, user, said, role, now)
                # A link, not a redirect: the staff's cookie is SameSite=Strict, and a
                # navigation that the LMS's form began would not send it.
                return self.web.page("lti_staff.html", course=context.title,
                                     key=people.launch_credential(session, person.id,
                                                                  context.course_id, now))
            student = launch.student_of(session, context.course_id, platform, user, said, now)
            launch.member(session, context, user)
            key, student_id = launch.launch_key(session, student.id, now), student.id
            exercise = resource.exercise_id
        self.poster.record(student_id, exercise)  # a score that counts already goes there too
        return RedirectResponse(f"/s/{key}#{exercise}", 303)

    def _picker(self, made: Launch, body: dict[str, Any], target: str) -> Response:
        """Deep linking, the course's staff's: the exercises, each a form that posts its
        signed answer back to the LMS (no script: the pages' CSP allows none). A course
        the tool does not know is made here, by its instructor's launch alone."""
        role = roles.course_role(body.get(launch.ROLES) or [])
        if role not in STAFF:
            raise Refused("only the course's staff can add an assignment", 403)
        now = self.service.now()
        with self.service.sessions.begin() as session:
            platform = launch.platform_of(session, made.get_iss(), made.get_client_id())
            context = launch.context_of(session, platform, body)
            if context is None and role != "instructor":
                raise Refused(launch.UNKNOWN_COURSE.replace("its instructor", "an instructor"),
                              403)
            context = context or launch.course_from(session, platform, body, now)
            user = launch.identity(session, platform, context.deployment_id, str(body["sub"]))
            launch.staff_of(session, context.course_id, user, launch.who(body), role, now)
        link = made.get_deep_link()
        settings = body["https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"]
        choices = []
        for exercise in self.service.exercises.values():
            item = (LineItem().set_tag(exercise.id).set_label(exercise.title)
                    .set_score_maximum(exercise.max_score).set_resource_id(exercise.id))
            resource = (DeepLinkResource().set_url(target).set_title(exercise.title)
                        .set_custom_params({launch.EXERCISE: exercise.id}).set_lineitem(item))
            choices.append((exercise, link.get_response_jwt([resource])))
        return self.web.page("lti_pick.html", choices=choices,
                             action=settings["deep_link_return_url"])

    async def jwks(self, request: Request) -> Response:
        pems = await run_in_threadpool(platforms.keys, self.service.sessions,
                                       self.service.now())
        return JSONResponse(platforms.jwks(pems))

    async def canvas(self, request: Request) -> Response:
        return JSONResponse(registration.canvas_configuration(self._base(request)))

    async def register(self, request: Request) -> Response:
        """Dynamic registration: the LMS opens a registration URL an instructor made."""
        asked = request.query_params
        if not await run_in_threadpool(registration.take_secret, self.service.sessions,
                                       request.path_params["secret"], self.service.now()):
            raise HTTPException(404)
        try:
            done = await run_in_threadpool(
                registration.register, self.service.sessions, self._base(request),
                asked.get("openid_configuration", ""), asked.get("registration_token", ""))
        except Exception as why:  # the platform refused, or said too little
            log.warning("LTI registration failed: %s: %s", type(why).__name__, str(why)[:300])
            return self.web.message("Not registered", f"The LMS's registration did not work "
                                    f"({type(why).__name__}: {str(why)[:300]}). Make a new "
                                    "registration URL and try again.", 400)
        await run_in_threadpool(self.service.access.audited, None, None, "platform registered",
                                done)
        return self.web.page("lti_registered.html", done=done)

    async def registered_script(self, request: Request) -> Response:
        return Response(REGISTERED_SCRIPT, media_type="text/javascript")

    # -- a course's LTI page ------------------------------------------------------------

    async def page(self, request: Request) -> Response:
        scope = await self.web.scope(request, "manage")
        found = await run_in_threadpool(self._page_rows, scope.course.id)
        return self.web.course_page(scope, "lti.html", base=self._base(request), **found,
                                    saved=request.query_params.get("saved"))

    def _page_rows(self, course_id: int) -> dict[str, Any]:
        with self.service.sessions() as session:
            contexts = session.execute(select(LtiContext, LtiPlatform).join(
                LtiPlatform, LtiPlatform.id == LtiContext.platform_id)
                .where(LtiContext.course_id == course_id).order_by(LtiContext.id)).all()
            posts = session.execute(
                select(LtiScorePost, Student.name, LtiResource.exercise_id)
                .join(Student, Student.id == LtiScorePost.student_id)
                .join(LtiResource, LtiResource.id == LtiScorePost.resource_id)
                .where(Student.course_id == course_id)
                .order_by(LtiScorePost.id.desc()).limit(POSTS_SHOWN)).all()
            untied = session.scalar(select(func.count()).select_from(Student).where(
                Student.course_id == course_id, Student.lti_user_id.is_(None))) or 0
        return {"platforms": platforms.platforms(self.service.sessions), "contexts": contexts,
                "posts": posts, "untied": untied}

    async def sync(self, request: Request) -> Response:
        scope, _ = await self.web.scope_form(request, "manage")
        back = f"{scope.base}/lti"
        try:
            done = await run_in_threadpool(partial(nrps.sync, self.service, self.config,
                                                   scope.course.id,
                                                   request.path_params["context"]))
        except Refused as why:
            return self.web.message("Roster not synced", str(why), why.status, back)
        except Exception as why:  # the LMS refused or did not answer
            log.warning("LTI roster sync failed: %s", type(why).__name__)
            return self.web.message("Roster not synced", f"The LMS did not give the roster "
                                    f"({type(why).__name__}). Try again later.", 502, back)
        await run_in_threadpool(self.service.access.audited, scope.course.id, scope.staff,
                                "roster synced", done.course,
                                f"{done.learners} learner(s), {done.added} new")
        return self.web.message("Roster synced", f"{done.course}: {done.learners} learner(s), "
                                f"{done.added} new on the roster.", 200, back)

    async def match(self, request: Request) -> Response:
        """The instructor's word: the course's students not tied to an identity yet may
        be tied by their email, once, at a launch from this platform (or from none)."""
        scope, form = await self.web.scope_form(request, "manage")
        chosen = str(form.get("platform") or "")
        platform = int(chosen) if chosen.isdigit() else None
        count = await run_in_threadpool(self._match, scope, platform)
        how = "tied by email at their first launch from it" if platform else \
            "never tied by email"
        return RedirectResponse(f"{scope.base}/lti?saved={count} student(s) not tied yet: "
                                f"{how}.", status_code=303)

    def _match(self, scope: Scope, platform: int | None) -> int:
        with self.service.sessions.begin() as session:
            if platform is not None and session.get(LtiPlatform, platform) is None:
                raise HTTPException(404)
            changed = session.execute(update(Student).where(
                Student.course_id == scope.course.id, Student.lti_user_id.is_(None))
                .values(match_platform_id=platform))
            audit.record(session, self.service.now(), scope.course.id, scope.staff,
                         "roster matching", f"platform #{platform}" if platform else "none")
            return int(getattr(changed, "rowcount", 0))

    async def registration_url(self, request: Request) -> Response:
        scope, _ = await self.web.scope_form(request, "manage")
        secret = await run_in_threadpool(registration.new_secret, self.service.sessions,
                                         self.service.now())
        await run_in_threadpool(self.service.access.audited, scope.course.id, scope.staff,
                                "registration URL made", "LTI")
        return self.web.course_page(scope, "lti_register_url.html",
                                    url=f"{self._base(request)}/lti/register/{secret}",
                                    hours=registration.REGISTER_HOURS)

