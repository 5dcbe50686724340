"""The tool's routes: OIDC login initiation, the launch, the JWKS, the exercise picker
(deep linking), and the instructor's LTI page (platforms, courses and roster sync,
the scores sent). ``Tool`` is mounted by ``app.build``; its poster sends scores
while the app runs."""

import logging
from functools import partial
from typing import Any

from pylti1p3.deep_link_resource import DeepLinkResource
from pylti1p3.lineitem import LineItem
from pylti1p3.tool_config.dict import ToolConfDict
from sqlalchemy import select
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from grader.service import tokens
from grader.service.core import Refused
from grader.service.lti import launch, nrps, platforms
from grader.service.lti.adapter import Launch, Launches, LaunchRequest, login
from grader.service.lti.ags import Poster
from grader.service.models import LtiContext, LtiPlatform, LtiResource, LtiScorePost, Student
from grader.service.webpages import Pages

log = logging.getLogger("grader.service")
MEMBERSHIP = "http://purl.imsglobal.org/vocab/lis/v2/membership#"
STAFF = ("Instructor", "Administrator", "TeachingAssistant", "ContentDeveloper")
POSTS_SHOWN = 200
REFUSED = ("The launch from your course could not be checked, so nothing was opened: "
           "{why}. Open the assignment again from your course; if this happens again, "
           "tell your instructor.")


def is_staff(body: dict[str, Any]) -> bool:
    """Whether the launch's user teaches this course (their role in the course itself,
    not an institution-wide role)."""
    roles = body.get(launch.CLAIM + "roles") or []
    return any(role.removeprefix(MEMBERSHIP).split("#")[-1] in STAFF for role in roles
               if role.startswith(MEMBERSHIP) or "/" not in role)


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
                Route("/i/lti", self.page, methods=["GET"]),
                Route("/i/lti/sync/{context:int}", self.sync, methods=["POST"])]

    def refused(self, why: Exception) -> Response:
        # The library's words name the check that failed, never the token's content.
        log.info("LTI launch refused: %s: %s", type(why).__name__, str(why)[:300])
        said = str(why).split(": ")[-1] if str(why) else type(why).__name__
        return self.web.message("Launch refused", REFUSED.format(why=said.rstrip(".")), 400)

    # -- the platform's side ---------------------------------------------------------------

    async def login(self, request: Request) -> Response:
        asked = await LaunchRequest.read(request)
        target = str(request.url_for("lti_launch"))
        try:
            return await run_in_threadpool(lambda: login(asked, self.config(), self.storage,
                                                         target))
        except Exception as why:  # an unknown platform, a login without its issuer, ...
            return self.refused(why)

    def checked(self, asked: LaunchRequest) -> Launch:
        """The launch, every check passed (each one that fails raises)."""
        made = Launch(asked, self.config(), self.storage)
        made.validate()
        return made

    async def launch(self, request: Request) -> Response:
        asked = await LaunchRequest.read(request)
        try:
            made = await run_in_threadpool(self.checked, asked)
        except Exception as why:  # the launch is refused, saying which check failed
            return self.refused(why)
        body: dict[str, Any] = dict(made.get_launch_data())
        try:
            if made.is_deep_link_launch():
                return self.picker(made, body, str(request.url_for("lti_launch")))
            return await run_in_threadpool(self.open, made, body)
        except Exception as why:  # a launch we can't serve (no course, no exercise)
            return self.refused(why)

    def open(self, made: Launch, body: dict[str, Any]) -> Response:
        """A resource link's launch: the student's page of its exercise, or the
        instructor's pages; its course and assignment are kept for scores and roster."""
        now = self.service.now()
        with self.service.sessions.begin() as session:
            platform = launch.platform_of(session, made.get_iss(), made.get_client_id())
            context = launch.context_of(session, platform, body)
            resource = launch.resource_of(session, context, body, set(self.service.exercises))
            exercise = resource.exercise_id
            if is_staff(body):
                # A link, not a redirect: the instructor's cookie is SameSite=Strict, and a
                # navigation that the LMS's form began would not send it.
                return self.web.page("lti_staff.html", course=context.title,
                                     key=launch.launch_key(session, None, now))
            user, student = launch.student_of(session, platform, launch.person(body), now)
            launch.member(session, context, user)
            key, student_id = launch.launch_key(session, student.id, now), student.id
        self.poster.record(student_id, exercise)  # a score that counts already goes there too
        return RedirectResponse(f"/s/{key}#{exercise}", 303)

    def picker(self, made: Launch, body: dict[str, Any], target: str) -> Response:
        """Deep linking: the exercises, each a form that posts its signed answer back to
        the LMS (no script: the pages' CSP allows none)."""
        if not is_staff(body):
            raise Refused("only the course's staff can add an assignment")
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

    # -- the instructor's page ---------------------------------------------------------------

    async def page(self, request: Request) -> Response:
        secret = self.web.instructor_secret(request)
        found = await run_in_threadpool(self._page_rows)
        base = str(request.base_url).rstrip("/")
        return self.web.page("lti.html", base=base, **found,
                             csrf=self.service.csrf(f"instructor:{tokens.hashed(secret)}"))

    def _page_rows(self) -> dict[str, Any]:
        with self.service.sessions() as session:
            courses = session.execute(select(LtiContext, LtiPlatform).join(
                LtiPlatform, LtiPlatform.id == LtiContext.platform_id)
                .order_by(LtiContext.id)).all()
            posts = session.execute(
                select(LtiScorePost, Student.name, LtiResource.exercise_id)
                .join(Student, Student.id == LtiScorePost.student_id)
                .join(LtiResource, LtiResource.id == LtiScorePost.resource_id)
                .order_by(LtiScorePost.id.desc()).limit(POSTS_SHOWN)).all()
        return {"platforms": platforms.platforms(self.service.sessions), "courses": courses,
                "posts": posts}

    async def sync(self, request: Request) -> Response:
        await self.web.instructor_form(request)
        try:
            done = await run_in_threadpool(partial(nrps.sync, self.service, self.config,
                                                   request.path_params["context"]))
        except Refused as why:
            return self.web.message("Roster not synced", str(why), why.status, "/i/lti")
        except Exception as why:  # the LMS refused or did not answer
            log.warning("LTI roster sync failed: %s", type(why).__name__)
            return self.web.message("Roster not synced", f"The LMS did not give the roster "
                                    f"({type(why).__name__}). Try again later.", 502, "/i/lti")
        return self.web.message("Roster synced", f"{done.course}: {done.learners} learner(s), "
                                f"{done.added} new on the roster.", 200, "/i/lti")

