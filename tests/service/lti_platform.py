"""A third-party LTI 1.3 platform on loopback: lti1p3platform's (PyPI), not the
project's own simulator. The library signs the launches (its registration's key,
its message launch), issues the access tokens (checking the tool's client
assertion against the tool's JWKS), authenticates and answers the AGS and NRPS
calls, and checks the tool's deep-linking answer. What it leaves to a platform
is here: the web routes, where line items, scores and members are kept, and LTI
Dynamic Registration (the library has none): an OpenID configuration and a
registration endpoint that takes the tool's registration with a one-time token.
"""

import html
import secrets
import typing as t
from dataclasses import dataclass, field
from urllib.parse import urlencode

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from lti1p3platform.ltiplatform import LTI1P3PlatformConfAbstract
from lti1p3platform.membership import Context
from lti1p3platform.message_launch import LTIAdvantageMessageLaunchAbstract
from lti1p3platform.oidc_login import OIDCLoginAbstract
from lti1p3platform.registration import Registration
from lti1p3platform.request import Request as LibraryRequest
from lti1p3platform.request import TRequest
from lti1p3platform.response import Response as LibraryResponse
from lti1p3platform.score import UpdateScoreStatus
from lti1p3platform.service_connector import (
    AssignmentsGradesService,
    NamesRoleProvisioningService,
    TPage,
)
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from tests.service.lms_simulator import Loopback, lms_routes

TOOL_CONFIGURATION = "https://purl.imsglobal.org/spec/lti-tool-configuration"
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"


class Asked(LibraryRequest):
    """A request as the library reads it, from what a route read of Starlette's."""

    def build_metadata(self, request: TRequest) -> TRequest:
        return request


async def asked(request: Request) -> Asked:
    form = dict(await request.form()) if request.method == "POST" and \
        "form" in request.headers.get("content-type", "") else {}
    body = await request.json() if "json" in request.headers.get("content-type", "") else None
    return Asked({"method": request.method, "form_data": form,
                  "get_data": dict(request.query_params), "headers": request.headers,
                  "content_type": request.headers.get("content-type"),
                  "path": request.url.path, "json": body})


def answer(said: LibraryResponse) -> Response:
    if said.result is None:
        return Response(said.message, status_code=said.code)
    return JSONResponse(said.result, status_code=said.code, media_type=said.media_type)


def pem_pair() -> tuple[str, str]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode()
    public = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    return private, public


class Config(LTI1P3PlatformConfAbstract):
    """The library's platform, for the one tool registered with it."""

    def init_platform_config(self, **kwargs: t.Any) -> None:
        self._registration = kwargs["registration"]

    def get_registration_by_params(self, **kwargs: t.Any) -> Registration:
        return self._registration


class Login(OIDCLoginAbstract):
    def set_lti_message_hint(self, **kwargs: t.Any) -> None:
        self._lti_message_hint = kwargs["hint"]

    def get_redirect(self, url: str) -> Response:
        return RedirectResponse(url, 302)


class Launching(LTIAdvantageMessageLaunchAbstract):
    def render_launch_form(self, launch_data: dict[str, t.Any], **kwargs: t.Any) -> Response:
        fields = "".join(f'<input type="hidden" name="{name}" value="{html.escape(value)}">'
                         for name, value in launch_data.items() if name != "launch_url")
        action = html.escape(launch_data["launch_url"])
        return HTMLResponse(f'<form method="post" action="{action}">{fields}'
                            '<button type="submit">Continue</button></form>')


@dataclass
class Prepared:
    user: str
    context: str
    link: str | None  # None: a deep-linking request


@dataclass
class ThirdPartyLms:
    """The LMS, its tool registered by Dynamic Registration (``registration_url``)."""

    users: dict[str, dict[str, t.Any]] = field(default_factory=dict)
    members: dict[str, list[str]] = field(default_factory=dict)  # context: subs
    links: dict[str, dict[str, t.Any]] = field(default_factory=dict)  # resource link: item
    lineitems: dict[str, dict[str, t.Any]] = field(default_factory=dict)
    scores: list[dict[str, t.Any]] = field(default_factory=list)
    launches: dict[str, Prepared] = field(default_factory=dict)
    tool: dict[str, t.Any] = field(default_factory=dict)  # the tool's registration
    registration_token: str = field(default_factory=lambda: secrets.token_urlsafe(16))
    deployment: str = "deployment-9"
    said: list[str] = field(default_factory=list)  # what it refused, for failures

    def __post_init__(self) -> None:
        self.private, self.public = pem_pair()
        self.loop = Loopback(Starlette(routes=[
            Route("/.well-known/openid-configuration", self.openid_configuration),
            Route("/register", self.register, methods=["POST"]), *lms_routes(self)]))
        self.issuer = self.loop.base

    def stop(self) -> None:
        self.loop.stop()

    # -- what the test sets up --------------------------------------------------------

    def registration_url(self, tool_url: str) -> str:
        """Where the admin's browser goes when they paste the tool's registration URL."""
        return f"{tool_url}?" + urlencode({
            "openid_configuration": f"{self.issuer}/.well-known/openid-configuration",
            "registration_token": self.registration_token})

    def person(self, sub: str, name: str, email: str, role: str = LEARNER,
               context: str = "c-1") -> None:
        self.users[sub] = {"name": name, "email": email, "roles": [role]}
        self.members.setdefault(context, []).append(sub)

    def launch_url(self, sub: str, link: str | None, context: str = "c-1") -> str:
        hint = secrets.token_urlsafe(8)
        self.launches[hint] = Prepared(sub, context, link)
        return f"{self.issuer}/launch/{hint}"

    def scores_of(self, link: str) -> list[dict[str, t.Any]]:
        item = self.links[link]["lineitem"]
        return [score for score in self.scores if score["lineitem"] == item]

    def config(self) -> Config:
        tool = self.tool
        registration = (Registration().set_iss(self.issuer).set_client_id(tool["client_id"])
                        .set_deployment_id(self.deployment)
                        .set_oidc_login_url(tool["initiate_login_uri"])
                        .set_launch_url(tool["redirect_uris"][0])
                        .set_deeplink_launch_url(tool["redirect_uris"][0])
                        .set_tool_key_set_url(tool["jwks_uri"])
                        .set_platform_private_key(self.private)
                        .set_platform_public_key(self.public))
        return Config(registration=registration)

    # -- Dynamic Registration ------------------------------------------------------------

    async def openid_configuration(self, request: Request) -> Response:
        return JSONResponse({
            "issuer": self.issuer, "authorization_endpoint": f"{self.issuer}/auth",
            "token_endpoint": f"{self.issuer}/token", "jwks_uri": f"{self.issuer}/jwks",
            "registration_endpoint": f"{self.issuer}/register",
            "scopes_supported": ["openid"], "response_types_supported": ["id_token"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "https://purl.imsglobal.org/spec/lti-platform-configuration": {
                "product_family_code": "lti1p3platform", "version": "0.1.8",
                "messages_supported": [{"type": "LtiResourceLinkRequest"},
                                       {"type": "LtiDeepLinkingRequest"}]}})

    async def register(self, request: Request) -> Response:
        given = request.headers.get("authorization", "").removeprefix("Bearer ")
        body = await request.json()
        wrong = [name for name, ok in (
            ("token", secrets.compare_digest(given, self.registration_token)),
            ("once", not self.tool),
            ("id_token", body.get("response_types") == ["id_token"]),
            ("private_key_jwt", body.get("token_endpoint_auth_method") == "private_key_jwt"),
            ("urls", all(body.get(name) for name in ("initiate_login_uri", "redirect_uris",
                                                     "jwks_uri")))) if not ok]
        if wrong:
            self.said.append(f"registration refused: {wrong}")
            return JSONResponse({"error": "invalid_client_metadata"}, 400)
        self.tool = {**body, "client_id": f"client-{secrets.token_hex(4)}"}
        return JSONResponse({**self.tool, TOOL_CONFIGURATION: {
            **body[TOOL_CONFIGURATION], "deployment_id": self.deployment}})

    # -- launches ------------------------------------------------------------------------

    async def jwks(self, request: Request) -> Response:
        return JSONResponse({"keys": [Registration.get_jwk(self.public)]})

    async def start_launch(self, request: Request) -> Response:
        hint = request.path_params["hint"]
        login = Login(await asked(request), self.config())
        login.set_lti_message_hint(hint=hint)
        return login.initiate_login(self.launches[hint].user)

    async def auth(self, request: Request) -> Response:
        """The OIDC authorization: the library builds and signs the id_token."""
        preflight = dict(request.query_params)
        prepared = self.launches.get(preflight.get("lti_message_hint", ""))
        if prepared is None or preflight.get("redirect_uri") not in self.tool["redirect_uris"] \
                or preflight.get("login_hint") != prepared.user:
            self.said.append(f"auth refused: {preflight}")
            return HTMLResponse("bad authorization request", 400)
        launch = Launching(await asked(request), self.config())
        user = self.users[prepared.user]
        launch.set_user_data(prepared.user, user["roles"], user["name"], user["email"])
        launch.set_launch_context_claim(prepared.context,
                                        context_title=f"LMS {prepared.context}")
        launch.set_nrps(f"{self.issuer}/contexts/{prepared.context}/memberships")
        if prepared.link is None:
            launch.set_dl(f"{self.issuer}/deep-link-return", accept_types={"ltiResourceLink"},
                          extra_data={"context": prepared.context})
            launch.set_ags(f"{self.issuer}/contexts/{prepared.context}/lineitems")
        else:
            link = self.links[prepared.link]
            launch.set_resource_link_claim(prepared.link)
            launch.set_custom_parameters_claim(link["custom"])
            launch.set_ags(f"{self.issuer}/contexts/{prepared.context}/lineitems",
                           link["lineitem"])
        return launch.lti_launch()

    async def token(self, request: Request) -> Response:
        try:
            return JSONResponse(self.config().get_access_token(dict(await request.form())))
        except Exception as exc:
            self.said.append(f"token refused: {type(exc).__name__}: {exc}")
            return JSONResponse({"error": "invalid_client"}, 401)

    async def deep_link_return(self, request: Request) -> Response:
        try:
            items = self.config().validate_deeplinking_resp(dict(await request.form()))
        except Exception as exc:
            self.said.append(f"deep link refused: {type(exc).__name__}: {exc}")
            return HTMLResponse("the tool's answer was refused", 400)
        added = []
        for item in items:
            link = f"link-{secrets.token_hex(4)}"
            url = self._new_lineitem("c-1", {**item["lineItem"], "resourceLinkId": link})
            self.links[link] = {"lineitem": url, "custom": item.get("custom", {}),
                                "title": item["title"]}
            added.append(link)
        return HTMLResponse("".join(f'<p class="added" data-link="{link}"></p>'
                                    for link in added))

    # -- AGS and NRPS, authenticated by the library -------------------------------------------

    def _new_lineitem(self, context: str, item: dict[str, t.Any]) -> str:
        url = f"{self.issuer}/lineitems/{len(self.lineitems) + 1}"
        self.lineitems[url] = {**item, "id": url, "context": context}
        return url

    def grades(self, request: Asked, context: str, item: str | None = None) -> "Grades":
        return Grades(self, request, self.config(),
                      f"{self.issuer}/contexts/{context}/lineitems", item)

    async def lineitems_of(self, request: Request) -> Response:
        grades = self.grades(await asked(request), request.path_params["context"])
        handle = grades.handle_create_lineitem if request.method == "POST" \
            else grades.handle_get_lineitems
        return answer(grades.handle_resp(handle))

    async def lineitem(self, request: Request) -> Response:
        url = str(request.url).split("?")[0]
        grades = self.grades(await asked(request), self.lineitems[url]["context"], url)
        return answer(grades.handle_resp(grades.handle_get_lineitem, line_item_id=url))

    async def score(self, request: Request) -> Response:
        url = str(request.url).removesuffix("/scores")
        grades = self.grades(await asked(request), self.lineitems[url]["context"], url)
        return answer(grades.handle_resp(grades.handle_update_score, line_item_id=url))

    async def memberships(self, request: Request) -> Response:
        context = request.path_params["context"]
        roster = Roster(self, context, await asked(request), self.config(), str(request.url))
        return answer(roster.handle_resp(roster.handle_get_members))


class Grades(AssignmentsGradesService):
    """The library's AGS endpoints over the LMS's line items and scores."""

    def __init__(self, lms: ThirdPartyLms, *args: t.Any) -> None:
        super().__init__(*args)
        self.lms = lms

    def find_lineitems(self, page: int = 1, limit: int | None = None, **kwargs: t.Any) -> TPage:
        context = self.ags.lineitems_url.split("/contexts/")[1].split("/")[0]
        return {"content": [item for item in self.lms.lineitems.values()
                            if item["context"] == context], "has_next": False}

    def find_lineitem(self, line_item_id: str) -> t.Any:
        return self.lms.lineitems[line_item_id]

    def create_lineitem(self, creation_data: t.Any) -> t.Any:
        context = self.ags.lineitems_url.split("/contexts/")[1].split("/")[0]
        return self.lms.lineitems[self.lms._new_lineitem(context, dict(creation_data))]

    def update_lineitem(self, update_data: t.Any) -> t.Any:
        raise NotImplementedError

    def delete_lineitem(self, line_item_id: str) -> None:
        raise NotImplementedError

    def update_score(self, line_item_id: str, score: t.Any) -> UpdateScoreStatus:
        self.lms.scores.append({**score, "lineitem": line_item_id})
        return UpdateScoreStatus.SUCCESS

    def get_results(self, line_item_id: str, page: int = 1, limit: int | None = None,
                    user_id: str | None = None) -> TPage:
        raise NotImplementedError


class Roster(NamesRoleProvisioningService):
    """The library's NRPS endpoint over the LMS's members."""

    def __init__(self, lms: ThirdPartyLms, context: str, *args: t.Any) -> None:
        super().__init__(*args)
        self.lms, self.context = lms, context

    def get_member_data_page(self, page: int = 1, limit: int | None = None, **kwargs: t.Any
                             ) -> TPage:
        return {"content": [{"user_id": sub, "status": "Active", **self.lms.users[sub]}
                            for sub in self.lms.members.get(self.context, [])],
                "has_next": False}

    def get_context_by_id(self) -> t.Any:
        return Context(id=self.context, label=self.context, title=f"LMS {self.context}")
