"""A small LMS that speaks LTI 1.3 Advantage to the grader, on loopback.

It has its own RSA key and JWKS; an OIDC authorization endpoint that answers the
tool's login with a signed id_token in a self-submitting form (as Canvas and
Moodle do); a token endpoint that takes the tool's signed client assertion,
checked against the tool's JWKS; line items and scores (AGS); a course's members
(NRPS); and a deep-linking return that checks the tool's signed answer and adds
the assignment it names. Each launch can be spoiled on purpose (``Spoil``) to
see the tool refuse it.
"""

import html
import itertools
import secrets
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import jwt
import uvicorn
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from tests.service.test_service_serve import free_port

CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"
DL = "https://purl.imsglobal.org/spec/lti-dl/claim/"
AGS_SCOPES = ["https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
              "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly",
              "https://purl.imsglobal.org/spec/lti-ags/scope/score"]
NRPS_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
TA = "http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant"
INSTITUTION_INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/institution/person#Instructor"
STARTS_WITHIN = 30  # seconds


class Loopback:
    """An ASGI app served by uvicorn in a thread, on a free 127.0.0.1 port."""

    def __init__(self, app: Any) -> None:
        for _ in range(3):  # a free port can be taken before uvicorn binds it
            self.port = free_port()
            self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port,
                                                        log_level="warning", lifespan="on"))
            self.thread = threading.Thread(target=self.server.run, daemon=True)
            self.thread.start()
            deadline = time.monotonic() + STARTS_WITHIN
            while not self.server.started and self.thread.is_alive():
                assert time.monotonic() < deadline, "uvicorn did not start"
                time.sleep(0.05)  # the polling interval
            if self.server.started:
                return
        raise RuntimeError("no free port in 3 tries")

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


def lms_routes(lms: Any) -> list[Route]:
    """An LMS's LTI routes (this simulator's, or the third-party platform's): its keys,
    the launch's start and authorization, tokens, AGS, NRPS and the deep link's return."""
    return [Route("/jwks", lms.jwks), Route("/launch/{hint}", lms.start_launch),
            Route("/auth", lms.auth), Route("/token", lms.token, methods=["POST"]),
            Route("/contexts/{context}/lineitems", lms.lineitems_of, methods=["GET", "POST"]),
            Route("/lineitems/{item}", lms.lineitem),
            Route("/lineitems/{item}/scores", lms.score, methods=["POST"]),
            Route("/contexts/{context}/memberships", lms.memberships),
            Route("/deep-link-return", lms.deep_link_return, methods=["POST"])]


@dataclass
class Spoil:
    """What to get wrong in a launch's id_token."""

    issuer: str | None = None
    expired: bool = False
    deployment: str | None = None
    forged: bool = False  # signed by another key under the platform's kid
    azp: str | None = None  # an authorized party claim
    audience: list[str] | None = None  # the aud claim, instead of the client id


@dataclass
class Prepared:
    user: str
    context: str
    message: str
    resource_link: str | None
    spoil: Spoil
    nonce: str | None = None  # the nonce of the id_token sent


@dataclass
class Platform:
    """The LMS. ``tool`` is the grader's base URL, set once it runs."""

    tool: str = ""
    client_id: str = "grader-tool"
    deployment: str = "deployment-1"
    key: rsa.RSAPrivateKey = field(
        default_factory=lambda: rsa.generate_private_key(public_exponent=65537, key_size=2048))
    kid: str = "platform-key-1"
    users: dict[str, dict[str, Any]] = field(default_factory=dict)  # sub -> claims
    members: dict[str, list[str]] = field(default_factory=dict)  # context -> subs
    links: dict[str, dict[str, Any]] = field(default_factory=dict)  # resource link -> item
    lineitems: dict[str, dict[str, Any]] = field(default_factory=dict)  # id -> line item
    scores: list[dict[str, Any]] = field(default_factory=list)  # each with its lineitem
    refuse_scores: int = 0  # answer the next graded (FullyGraded) score posts with 503
    launches: dict[str, Prepared] = field(default_factory=dict)
    tokens: dict[str, list[str]] = field(default_factory=dict)  # access token -> scopes
    said: list[str] = field(default_factory=list)  # what the platform refused, for failures
    numbers: Any = field(default_factory=itertools.count)

    def __post_init__(self) -> None:
        self.loop = Loopback(Starlette(routes=lms_routes(self)))
        self.issuer = self.loop.base

    # -- what the test sets up -------------------------------------------------------------

    def registration(self) -> dict[str, Any]:
        """What the tool's administrator registers (minimax-grader lti register)."""
        return {"issuer": self.issuer, "client_id": self.client_id,
                "deployment_ids": [self.deployment], "key_set_url": f"{self.issuer}/jwks",
                "auth_login_url": f"{self.issuer}/auth",
                "auth_token_url": f"{self.issuer}/token"}

    def person(self, sub: str, name: str, email: str, role: str | list[str] = LEARNER,
               context: str = "course-1") -> None:
        self.users[sub] = {"name": name, "email": email,
                           "roles": [role] if isinstance(role, str) else role}
        self.members.setdefault(context, []).append(sub)

    def assignment(self, link: str, exercise: str, context: str = "course-1",
                   maximum: float = 10) -> str:
        """An assignment of the course that opens ``exercise``, with its line item."""
        item = self._new_lineitem(context, {"label": exercise, "scoreMaximum": maximum,
                                            "resourceLinkId": link})
        self.links[link] = {"context": context, "exercise": exercise, "lineitem": item}
        return item

    def launch_url(self, sub: str, link: str | None, context: str = "course-1",
                   message: str = "LtiResourceLinkRequest", spoil: Spoil | None = None) -> str:
        """Where a browser starts the launch (the LMS's page for the assignment)."""
        hint = secrets.token_urlsafe(8)
        self.launches[hint] = Prepared(sub, context, message, link, spoil or Spoil())
        return f"{self.issuer}/launch/{hint}"

    def scores_of(self, link: str, progress: str | None = "FullyGraded") -> list[dict[str, Any]]:
        """The scores of the link's line item, those of ``progress`` (None: all)."""
        item = self.links[link]["lineitem"]
        return [score for score in self.scores if score["lineitem"] == item
                and progress in (None, score.get("gradingProgress"))]

    def stop(self) -> None:
        self.loop.stop()

    # -- the LMS's endpoints ------------------------------------------------------------------

    async def jwks(self, request: Request) -> Response:
        public = RSAAlgorithm.to_jwk(self.key.public_key(), as_dict=True)
        return JSONResponse({"keys": [{**public, "kid": self.kid, "alg": "RS256",
                                       "use": "sig"}]})

    async def start_launch(self, request: Request) -> Response:
        """Third-party initiated login: the browser is sent to the tool's login URL."""
        hint = request.path_params["hint"]
        prepared = self.launches[hint]
        params = {"iss": self.issuer, "login_hint": prepared.user, "lti_message_hint": hint,
                  "target_link_uri": f"{self.tool}/lti/launch", "client_id": self.client_id,
                  "lti_deployment_id": self.deployment}
        return RedirectResponse(f"{self.tool}/lti/login?{urlencode(params)}", 302)

    async def auth(self, request: Request) -> Response:
        """The OIDC authorization: the id_token, posted to the tool by a self-submitting
        form."""
        asked = request.query_params
        prepared = self.launches.get(asked.get("lti_message_hint", ""))
        wrong = [name for name, ok in (
            ("launch", prepared is not None),
            ("client_id", asked.get("client_id") == self.client_id),
            ("redirect_uri", asked.get("redirect_uri") == f"{self.tool}/lti/launch"),
            ("login_hint", prepared is not None and asked.get("login_hint") == prepared.user),
            ("scope", asked.get("scope") == "openid"), ("nonce", bool(asked.get("nonce"))),
            ("response_type", asked.get("response_type") == "id_token")) if not ok]
        if wrong or prepared is None:
            self.said.append(f"auth refused: {wrong}")
            return HTMLResponse(f"bad authorization request: {wrong}", 400)
        prepared.nonce = asked["nonce"]
        token = self._id_token(prepared)
        page = (f'<form method="post" action="{html.escape(asked["redirect_uri"])}">'
                f'<input type="hidden" name="id_token" value="{token}">'
                f'<input type="hidden" name="state" value="{html.escape(asked["state"])}">'
                '<button type="submit">Continue</button></form>'
                "<script>document.forms[0].submit()</script>")
        return HTMLResponse(page)

    def _id_token(self, prepared: Prepared) -> str:
        spoil, now, user = prepared.spoil, int(time.time()), self.users[prepared.user]
        claims: dict[str, Any] = {
            "iss": spoil.issuer or self.issuer, "aud": spoil.audience or self.client_id,
            "sub": prepared.user,
            "iat": now - 600 if spoil.expired else now,
            "exp": now - 300 if spoil.expired else now + 300, "nonce": prepared.nonce,
            **{key: value for key, value in user.items() if key != "roles"},
            CLAIM + "roles": user["roles"],
            CLAIM + "message_type": prepared.message, CLAIM + "version": "1.3.0",
            CLAIM + "deployment_id": spoil.deployment or self.deployment,
            CLAIM + "target_link_uri": f"{self.tool}/lti/launch",
            CLAIM + "context": {"id": prepared.context, "title": f"Course {prepared.context}"},
            "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice": {
                "context_memberships_url":
                    f"{self.issuer}/contexts/{prepared.context}/memberships",
                "service_versions": ["2.0"]},
            "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint": {
                "scope": AGS_SCOPES,
                "lineitems": f"{self.issuer}/contexts/{prepared.context}/lineitems"}}
        if spoil.azp is not None:
            claims["azp"] = spoil.azp
        if prepared.resource_link is not None:
            link = self.links[prepared.resource_link]
            claims[CLAIM + "resource_link"] = {"id": prepared.resource_link}
            claims[CLAIM + "custom"] = {"exercise": link["exercise"]}
            claims["https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"]["lineitem"] = \
                link["lineitem"]
        else:
            claims[DL + "deep_linking_settings"] = {
                "deep_link_return_url": f"{self.issuer}/deep-link-return",
                "accept_types": ["ltiResourceLink"], "accept_presentation_document_targets":
                ["iframe", "window"], "data": f"context={prepared.context}"}
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048) \
            if spoil.forged else self.key
        return jwt.encode(claims, key, algorithm="RS256", headers={"kid": self.kid})

    def _tool_claims(self, token: str, audience: str) -> dict[str, Any]:
        """A JWT the tool signed, checked against the tool's published JWKS."""
        key = jwt.PyJWKClient(f"{self.tool}/lti/jwks.json").get_signing_key_from_jwt(token)
        return jwt.decode(token, key.key, algorithms=["RS256"], audience=audience,
                          options={"require": ["exp", "iat"]})

    async def token(self, request: Request) -> Response:
        form = await request.form()
        try:
            claims = self._tool_claims(str(form["client_assertion"]), f"{self.issuer}/token")
            assert form["grant_type"] == "client_credentials"
            assert claims["iss"] == claims["sub"] == self.client_id
        except Exception as exc:
            self.said.append(f"token refused: {type(exc).__name__}: {exc}")
            return JSONResponse({"error": "invalid_client"}, 401)
        access = secrets.token_urlsafe(16)
        self.tokens[access] = str(form["scope"]).split()
        return JSONResponse({"access_token": access, "token_type": "bearer",
                             "expires_in": 3600, "scope": form["scope"]})

    def _allowed(self, request: Request, scope: str) -> bool:
        given = request.headers.get("authorization", "").removeprefix("Bearer ")
        if scope in self.tokens.get(given, []):
            return True
        self.said.append(f"{request.url.path}: no token for {scope}")
        return False

    def _new_lineitem(self, context: str, item: dict[str, Any]) -> str:
        url = f"{self.issuer}/lineitems/{next(self.numbers)}"
        self.lineitems[url] = {**item, "id": url, "context": context}
        return url

    async def lineitems_of(self, request: Request) -> Response:
        if not self._allowed(request, AGS_SCOPES[0]):
            return Response(status_code=401)
        context = request.path_params["context"]
        if request.method == "POST":
            url = self._new_lineitem(context, await request.json())
            return JSONResponse(self.lineitems[url], 201)
        return JSONResponse([item for item in self.lineitems.values()
                             if item["context"] == context])

    async def lineitem(self, request: Request) -> Response:
        if not self._allowed(request, AGS_SCOPES[0]):
            return Response(status_code=401)
        return JSONResponse(self.lineitems[str(request.url).removesuffix("/")])

    async def score(self, request: Request) -> Response:
        if not self._allowed(request, AGS_SCOPES[2]):
            return Response(status_code=401)
        item = str(request.url).removesuffix("/scores")
        body = await request.json()
        if self.refuse_scores and body.get("gradingProgress") == "FullyGraded":
            self.refuse_scores -= 1
            return Response("busy", status_code=503)
        if item not in self.lineitems or body.get("userId") not in self.users:
            return Response(status_code=404)
        self.scores.append({**body, "lineitem": item})
        return Response(status_code=204)

    async def memberships(self, request: Request) -> Response:
        if not self._allowed(request, NRPS_SCOPE):
            return Response(status_code=401)
        context = request.path_params["context"]
        members = [{"user_id": sub, "status": "Active", **self.users[sub]}
                   for sub in self.members.get(context, [])]
        return JSONResponse({"id": str(request.url), "context": {"id": context},
                             "members": members},
                            media_type="application/vnd.ims.lti-nrps.v2.membershipcontainer+json")

    async def deep_link_return(self, request: Request) -> Response:
        form = await request.form()
        try:
            claims = self._tool_claims(str(form["JWT"]), self.issuer)
            assert claims["iss"] == self.client_id
            assert claims[CLAIM + "message_type"] == "LtiDeepLinkingResponse"
            assert claims[CLAIM + "deployment_id"] == self.deployment
        except Exception as exc:
            self.said.append(f"deep link refused: {type(exc).__name__}: {exc}")
            return HTMLResponse("the tool's answer was refused", 400)
        context = str(claims[DL + "data"]).removeprefix("context=")
        added = []
        for item in claims[DL + "content_items"]:
            link = f"link-{uuid.uuid4().hex[:8]}"
            lineitem = self._new_lineitem(context, {**item["lineItem"], "resourceLinkId": link})
            self.links[link] = {"context": context, "exercise": item["custom"]["exercise"],
                                "lineitem": lineitem, "title": item["title"], "url": item["url"]}
            added.append(link)
        return HTMLResponse("<h1>Assignment added</h1>" + "".join(
            f'<p class="added" data-link="{link}">{html.escape(self.links[link]["title"])}</p>'
            for link in added))
