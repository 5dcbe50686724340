"""pylti1p3 on Starlette: the request, cookie, session and redirect classes the
library leaves to each web framework (it ships Django's and Flask's), and a
launch storage in the service's database.

pylti1p3 is synchronous (it fetches the platform's keys with requests): an
endpoint reads the request first (``LaunchRequest.read``), runs the library in a
thread, then copies the cookies it set onto the response (``Cookies.apply``).

Beyond the library: a nonce is taken, not just looked up (``Launches``), and a
state is used once (``Launch.validate_state``); a replayed launch is refused.
"""

import json
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import Any

import requests
from pylti1p3.cookie import CookieService
from pylti1p3.exception import LtiException
from pylti1p3.launch_data_storage.base import LaunchDataStorage
from pylti1p3.message_launch import MessageLaunch
from pylti1p3.oidc_login import OIDCLogin
from pylti1p3.redirect import Redirect
from pylti1p3.request import Request as LtiRequest
from pylti1p3.session import SessionService
from pylti1p3.tool_config.dict import ToolConfDict
from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from grader.service.models import LtiState

HTTP_SECONDS = 10  # a platform that does not answer in time: the launch or the post fails
STATE_SECONDS = 300  # a login's state and nonce must come back within this


class TimedSession(requests.Session):
    """requests without a timeout waits for ever on a silent platform: this one won't."""

    def request(self, *args: Any, **kwargs: Any) -> requests.Response:
        kwargs.setdefault("timeout", HTTP_SECONDS)
        return super().request(*args, **kwargs)


class LaunchRequest(LtiRequest):
    """What pylti1p3 reads of a request: its parameters, cookies and scheme."""

    def __init__(self, params: Mapping[str, str], cookies: Mapping[str, str],
                 secure: bool) -> None:
        self.params = dict(params)
        self.cookies = dict(cookies)
        self.secure = secure

    @classmethod
    async def read(cls, request: Request) -> "LaunchRequest":
        params = dict(request.query_params)
        if request.method == "POST":
            form = await request.form()
            params.update({key: value for key, value in form.items() if isinstance(value, str)})
        return cls(params, request.cookies, request.url.scheme == "https")

    def is_secure(self) -> bool:
        return self.secure

    def get_param(self, key: str) -> str:
        return self.params.get(key, "")


class Cookies(CookieService):
    """The cookies pylti1p3 reads and sets. Behind HTTPS they are SameSite=None and
    Secure, as a launch in the LMS's iframe (another site) needs; over plain http
    (a loopback test) browsers refuse SameSite=None, so they are Lax there."""

    def __init__(self, request: LaunchRequest) -> None:
        self.request = request
        self.to_set: dict[str, tuple[str, int | None]] = {}

    def _name(self, name: str) -> str:
        return f"{self._cookie_prefix}-{name}"

    def get_cookie(self, name: str) -> str | None:
        return self.request.cookies.get(self._name(name))

    def set_cookie(self, name: str, value: str | int, exp: int | None = 3600) -> None:
        self.to_set[self._name(name)] = (str(value), exp)

    def apply(self, response: Response) -> Response:
        secure = self.request.is_secure()
        for name, (value, exp) in self.to_set.items():
            response.set_cookie(name, value, max_age=exp, path="/lti", httponly=True,
                                secure=secure, samesite="none" if secure else "lax")
        return response


class Launches(LaunchDataStorage[Any]):
    """pylti1p3's launch values in the lti_state table, each with its lapse time."""

    def __init__(self, sessions: sessionmaker[Session], now: Callable[[], datetime]) -> None:
        super().__init__()
        self.sessions = sessions
        self.now = now

    def get_session_cookie_name(self) -> None:  # values are found by their own random keys
        return None

    def can_set_keys_expiration(self) -> bool:
        return True

    def get_value(self, key: str) -> Any:
        with self.sessions() as session:
            found = session.get(LtiState, self._prepare_key(key))
            live = found is not None and found.expires_at > self.now()
            return json.loads(found.value) if found is not None and live else None

    def set_value(self, key: str, value: Any, exp: int | None = None) -> None:
        now = self.now()
        with self.sessions.begin() as session:
            session.execute(delete(LtiState).where(LtiState.expires_at <= now))
            session.merge(LtiState(key=self._prepare_key(key), value=json.dumps(value),
                                   expires_at=now + timedelta(seconds=exp or STATE_SECONDS)))

    def check_value(self, key: str) -> bool:
        return self.get_value(key) is not None

    def take(self, key: str) -> bool:
        """Whether ``key`` was there and live; it is gone either way (used once)."""
        with self.sessions.begin() as session:
            gone = session.execute(delete(LtiState).where(
                LtiState.key == self._prepare_key(key), LtiState.expires_at > self.now()))
        return getattr(gone, "rowcount", 0) == 1

    def first_use(self, key: str) -> bool:
        """Whether this is ``key``'s first use (it is marked used from now on)."""
        try:
            with self.sessions.begin() as session:
                session.add(LtiState(key=self._prepare_key(key), value="true",
                                     expires_at=self.now() + timedelta(days=1)))
        except IntegrityError:
            return False
        return True


class OneUseNonces(SessionService):
    """Nonces saved for STATE_SECONDS, and taken when checked: one launch each."""

    _launch_data_lifetime = STATE_SECONDS

    def __init__(self, request: LaunchRequest, storage: Launches) -> None:
        super().__init__(request)
        self.set_data_storage(storage)
        self.storage = storage

    def check_nonce(self, nonce: str) -> bool:
        return self.storage.take(self._get_key("nonce", nonce))


class Redirection(Redirect[Response]):
    def __init__(self, location: str, cookies: Cookies) -> None:
        self.location = location
        self.cookies = cookies

    def do_redirect(self) -> Response:
        return self.cookies.apply(RedirectResponse(self.location, status_code=302))

    def do_js_redirect(self) -> Response:  # the pages' CSP allows no inline script
        return self.do_redirect()

    def set_redirect_url(self, location: str) -> None:
        self.location = location

    def get_redirect_url(self) -> str:
        return self.location


class Login(OIDCLogin[LaunchRequest, ToolConfDict, OneUseNonces, Cookies, Response]):
    def get_redirect(self, url: str) -> Redirect[Response]:
        return Redirection(url, self._cookie_service)


class Launch(MessageLaunch[LaunchRequest, ToolConfDict, OneUseNonces, Cookies]):
    """A launch checked as pylti1p3 checks it (signature against the platform's keys,
    issuer and client id, deployment, nonce, message), expiry and issue time
    required, ``aud`` and ``azp`` checked, the state used once; the id_token itself
    is kept nowhere."""

    def __init__(self, request: LaunchRequest, config: ToolConfDict, storage: Launches) -> None:
        cookies = Cookies(request)
        super().__init__(request, config, session_service=OneUseNonces(request, storage),
                         cookie_service=cookies, requests_session=TimedSession())
        self.storage = storage
        # The audience is checked as the registration's client id (validate_registration).
        required: dict[str, Any] = {"verify_aud": False, "require": ["exp", "iat"]}
        self.set_jwt_verify_options(required)

    def _get_request_param(self, key: str) -> str:
        return self._request.get_param(key)

    def validate_registration(self) -> "Launch":
        """The library's check of the issuer and client id, and the audience and
        authorized party as OpenID Connect says: the token is for this tool's client id,
        and where it names more than one audience, or an ``azp``, that is this client."""
        super().validate_registration()
        body = self._get_jwt_body()
        client = self._registration.get_client_id() if self._registration else None
        audience = body.get("aud")
        audiences = audience if isinstance(audience, list) else [audience]
        if client not in audiences:
            raise LtiException("The token's audience is not this tool's client id")
        azp = body.get("azp")
        if (len(audiences) > 1 or azp is not None) and azp != client:
            raise LtiException("The token's authorized party (azp) is not this tool's "
                               "client id")
        return self

    def validate_state(self) -> "Launch":
        super().validate_state()
        if not self.storage.first_use(f"used-{self._get_request_param('state')}"):
            raise LtiException("State already used")
        return self

    def save_launch_data(self) -> "Launch":  # nothing of the token is kept
        return self


def login(request: LaunchRequest, config: ToolConfDict, storage: Launches,
          launch_url: str) -> Response:
    """The OIDC login initiation's answer: a redirect to the platform's auth URL."""
    cookies = Cookies(request)
    made = Login(request, config, OneUseNonces(request, storage), cookies)
    return made.redirect(launch_url)
