"""``minimax-grader lti``: register the platforms (LMSs), list them with what to enter
on the LMS's side, rotate the tool's key. The service's database is opened (and
migrated) as ``serve`` opens it; a running service sees the change at its next launch.
"""

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from grader.errors import UsageError

if TYPE_CHECKING:  # the service's packages are imported when a command runs
    from grader.service.lti.platforms import PlatformSpec
    from grader.service.models import LtiPlatform

SPEC_FLAGS = (("--issuer", "the platform's issuer (Canvas: https://canvas.instructure.com)"),
              ("--client-id", "the client id the LMS gave the tool"),
              ("--keyset-url", "the LMS's public keyset (JWKS) URL"),
              ("--auth-url", "the LMS's OIDC authorization URL"),
              ("--token-url", "the LMS's OAuth2 access token URL"))


def add_parser(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    lti = commands.add_parser("lti", help="LTI 1.3: the LMSs the service is a tool of")
    actions = lti.add_subparsers(dest="lti_command", required=True)
    register = actions.add_parser("register", help="register a platform (or update it)")
    listed = actions.add_parser("list", help="the platforms, and the tool's URLs for the LMS")
    rotate = actions.add_parser("rotate-key", help="a new signing key (the old one stays "
                                                   "in the JWKS a while)")
    for each in (register, listed, rotate):
        each.add_argument("--data", default="grader-data", metavar="DIR",
                          help="the service's data folder (default: ./grader-data)")
        each.add_argument("--database", metavar="URL",
                          help="the service's SQLAlchemy database URL, if not DIR's SQLite")
    register.add_argument("--file", metavar="TOML",
                          help="platforms as [[platform]] tables (instead of the flags)")
    for flag, text in SPEC_FLAGS:
        register.add_argument(flag, help=text)
    register.add_argument("--deployment", action="append", default=[], metavar="ID",
                          help="a deployment id (again for several)")
    register.add_argument("--audience", help="the token URL's audience, if not the token URL")
    listed.add_argument("--url", default="http://127.0.0.1:8000",
                        help="the service's public URL, to show the tool's URLs")


def run(args: argparse.Namespace) -> int:
    from grader.service import db
    from grader.service.lti import platforms

    data = Path(args.data)
    data.mkdir(mode=0o700, parents=True, exist_ok=True)
    engine = db.connect(args.database or db.sqlite_url(data))
    db.migrate(engine)
    sessions = db.sessions(engine)
    try:
        if args.lti_command == "register":
            for line in platforms.register(sessions, _specs(args)):
                print(line)
        elif args.lti_command == "rotate-key":
            platforms.rotate(sessions, db.utcnow())
            print("a new key signs from now on; the one before stays in the JWKS")
        else:
            _list(platforms.platforms(sessions), args.url.rstrip("/"))
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    finally:
        engine.dispose()
    return 0


def _specs(args: argparse.Namespace) -> list["PlatformSpec"]:
    from grader.service.lti import platforms

    if args.file:
        return platforms.read_file(Path(args.file))
    if not all((args.issuer, args.client_id, args.keyset_url, args.auth_url, args.token_url)):
        raise UsageError("give --file, or every one of " + ", ".join(f for f, _ in SPEC_FLAGS))
    return [platforms.PlatformSpec(
        issuer=args.issuer, client_id=args.client_id, key_set_url=args.keyset_url,
        auth_login_url=args.auth_url, auth_token_url=args.token_url,
        deployment_ids=args.deployment, auth_audience=args.audience)]


def _list(found: list["LtiPlatform"], base: str) -> None:
    print(f"enter in the LMS: login URL {base}/lti/login, launch (redirect) URL "
          f"{base}/lti/launch, keyset URL {base}/lti/jwks.json")
    for platform in found:
        print(f"{platform.issuer}  client id {platform.client_id}  deployments "
              f"{platform.deployment_ids}")
    if not found:
        print("no platform registered yet (minimax-grader lti register)")
