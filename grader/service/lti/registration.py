"""Registering a platform by URL: LTI Dynamic Registration (IMS, 1.0), as Moodle's and
Canvas's "register by URL" do it, and Canvas's developer-key JSON configuration.

An instructor makes a registration URL on the LTI page (``/lti/register/<secret>``:
good once, for REGISTER_HOURS). The LMS's administrator pastes it into the LMS,
which opens it with ``openid_configuration`` (its OpenID configuration's URL) and
``registration_token``. The tool reads that configuration (its issuer must be the
URL's origin), posts its own client registration to the platform's
``registration_endpoint`` with the token, and registers the platform with the
client id and deployment the answer gives (``platforms.register``: a platform
known already gains the deployment). The page then tells the LMS to close it.
"""

from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import delete
from sqlalchemy.orm import Session, sessionmaker

from grader.service import tokens
from grader.service.lti import platforms
from grader.service.lti.adapter import TimedSession
from grader.service.models import LtiState

REGISTER_HOURS = 24
TOOL = "https://purl.imsglobal.org/spec/lti-tool-configuration"
PLATFORM = "https://purl.imsglobal.org/spec/lti-platform-configuration"
SCOPES = ["https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
          "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly",
          "https://purl.imsglobal.org/spec/lti-ags/scope/score",
          "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"]
NAME = "minimax-grader"
DESCRIPTION = "Grades the game-search exercises (minimax, alpha-beta, an agent) at once."
NEEDED = ("issuer", "authorization_endpoint", "token_endpoint", "jwks_uri",
          "registration_endpoint")


def _key(secret: str) -> str:
    return f"register-{tokens.hashed(secret)}"


def new_secret(sessions: sessionmaker[Session], now: datetime) -> str:
    """A registration URL's secret: good once, for REGISTER_HOURS."""
    secret = tokens.new()
    with sessions.begin() as session:
        session.add(LtiState(key=_key(secret), value="{}",
                             expires_at=now + timedelta(hours=REGISTER_HOURS)))
    return secret


def take_secret(sessions: sessionmaker[Session], secret: str, now: datetime) -> bool:
    """Whether ``secret`` is a live registration URL's; it is used up either way."""
    with sessions.begin() as session:
        gone = session.execute(delete(LtiState).where(LtiState.key == _key(secret),
                                                      LtiState.expires_at > now))
    return getattr(gone, "rowcount", 0) == 1


def tool_configuration(base: str) -> dict[str, Any]:
    """The tool's client registration (the spec's request body): its URLs, the
    services it uses, the claims it reads, and its deep-linking placement."""
    host = urlsplit(base).hostname or ""
    return {
        "application_type": "web", "response_types": ["id_token"],
        "grant_types": ["implicit", "client_credentials"],
        "initiate_login_uri": f"{base}/lti/login", "redirect_uris": [f"{base}/lti/launch"],
        "client_name": NAME, "jwks_uri": f"{base}/lti/jwks.json",
        "token_endpoint_auth_method": "private_key_jwt", "scope": " ".join(SCOPES),
        TOOL: {
            "domain": host, "description": DESCRIPTION,
            "target_link_uri": f"{base}/lti/launch",
            "claims": ["iss", "sub", "name", "given_name", "family_name", "email"],
            "messages": [{"type": "LtiDeepLinkingRequest", "target_link_uri":
                          f"{base}/lti/launch", "label": NAME,
                          "placements": ["ContentArea", "assignment_selection"]},
                         {"type": "LtiResourceLinkRequest", "target_link_uri":
                          f"{base}/lti/launch"}]}}


def register(sessions: sessionmaker[Session], base: str, openid_configuration: str,
             registration_token: str) -> str:
    """Read the platform's configuration, register the tool with it, and the platform
    here: what was done. ValueError says what the platform got wrong."""
    http = TimedSession()
    said = http.get(openid_configuration, headers=_bearer(registration_token))
    said.raise_for_status()
    config = said.json()
    missing = [name for name in NEEDED if not isinstance(config.get(name), str)]
    if missing:
        raise ValueError(f"the platform's configuration lacks {', '.join(missing)}")
    if urlsplit(config["issuer"]).hostname != urlsplit(openid_configuration).hostname:
        raise ValueError("the platform's issuer is not the host its configuration came from")
    answer = http.post(config["registration_endpoint"], json=tool_configuration(base),
                       headers=_bearer(registration_token))
    answer.raise_for_status()
    client = answer.json()
    deployment = (client.get(TOOL) or {}).get("deployment_id")
    if not client.get("client_id") or not deployment:
        raise ValueError("the platform's answer gives no client id or no deployment id")
    spec = platforms.PlatformSpec(
        issuer=config["issuer"], client_id=str(client["client_id"]),
        key_set_url=config["jwks_uri"], auth_login_url=config["authorization_endpoint"],
        auth_token_url=config["token_endpoint"], deployment_ids=[str(deployment)],
        auth_audience=config.get("authorization_server"))
    return platforms.register(sessions, [spec])[0]


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def canvas_configuration(base: str) -> dict[str, Any]:
    """Canvas's developer-key JSON (an LTI key "entered by URL"): the same URLs, public
    privacy (names and emails), and the assignment and link pickers."""
    placements = [{"placement": placement, "message_type": "LtiDeepLinkingRequest",
                   "target_link_uri": f"{base}/lti/launch", "text": NAME,
                   "windowTarget": "_blank"}
                  for placement in ("assignment_selection", "link_selection")]
    return {"title": NAME, "description": DESCRIPTION,
            "oidc_initiation_url": f"{base}/lti/login",
            "target_link_uri": f"{base}/lti/launch", "public_jwk_url": f"{base}/lti/jwks.json",
            "scopes": SCOPES,
            "extensions": [{"platform": "canvas.instructure.com", "privacy_level": "public",
                            "domain": urlsplit(base).hostname or "",
                            "settings": {"placements": placements}}]}
