"""The platforms (LMSs) registered with the tool, and the tool's RSA keys.

Both live in the database, so that every process of the service (the web process,
a grading host posting nothing but reading the same rows) sees one registration.
A key is made at the first use; ``rotate`` adds a newer one, which signs from
then on, while the JWKS still shows the one before for platforms that cache it.
"""

import json
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from pylti1p3.registration import Registration
from pylti1p3.tool_config.dict import ToolConfDict
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from grader.service.models import LtiKey, LtiPlatform

KEYS_SHOWN = 2  # the newest key signs; the one before stays valid for cached keysets
FIELDS = ("issuer", "client_id", "deployment_ids", "key_set_url", "auth_login_url",
          "auth_token_url")


@dataclass
class PlatformSpec:
    """What a platform's administrator gives the tool's (see docs/service.md: LTI 1.3)."""

    issuer: str
    client_id: str
    key_set_url: str
    auth_login_url: str
    auth_token_url: str
    deployment_ids: list[str] = field(default_factory=list)
    auth_audience: str | None = None

    def check(self) -> None:
        if not self.deployment_ids:
            raise ValueError(f"{self.issuer}: give at least one deployment id")
        for name in ("issuer", "key_set_url", "auth_login_url", "auth_token_url"):
            if not str(getattr(self, name)).startswith(("https://", "http://")):
                raise ValueError(f"{self.issuer}: {name} must be an http(s) URL")


def read_file(path: Path) -> list[PlatformSpec]:
    """The platforms of a TOML file: one ``[[platform]]`` table each, with the
    PlatformSpec's fields; ValueError says what is wrong."""
    try:
        tables = tomllib.loads(path.read_text(encoding="utf-8")).get("platform", [])
        specs = [PlatformSpec(**table) for table in tables]
    except (OSError, tomllib.TOMLDecodeError, TypeError) as exc:
        raise ValueError(f"{path}: {exc}") from None
    if not specs:
        raise ValueError(f"{path}: no [[platform]] table")
    return specs


def register(sessions: sessionmaker[Session], specs: Iterable[PlatformSpec]) -> list[str]:
    """Add the platforms, or update those known by issuer and client id (their URLs;
    their deployments are added to, never replaced: a launch of a deployment
    registered once keeps working): what was done."""
    done = []
    with sessions.begin() as session:
        for spec in specs:
            spec.check()
            found = session.scalar(select(LtiPlatform).where(
                LtiPlatform.issuer == spec.issuer, LtiPlatform.client_id == spec.client_id))
            row = found or LtiPlatform(issuer=spec.issuer, client_id=spec.client_id)
            known = json.loads(row.deployment_ids) if found else []
            row.deployment_ids = json.dumps(
                known + [one for one in spec.deployment_ids if one not in known])
            row.key_set_url, row.auth_audience = spec.key_set_url, spec.auth_audience
            row.auth_login_url, row.auth_token_url = spec.auth_login_url, spec.auth_token_url
            session.add(row)
            done.append(f"{'updated' if found else 'registered'} {spec.issuer} "
                        f"(client id {spec.client_id})")
    return done


def platforms(sessions: sessionmaker[Session]) -> list[LtiPlatform]:
    with sessions() as session:
        return list(session.scalars(select(LtiPlatform).order_by(LtiPlatform.id)))


# -- the tool's keys --------------------------------------------------------------------


def _new_pem() -> str:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption()).decode()


def rotate(sessions: sessionmaker[Session], now: datetime) -> None:
    """A new signing key; the one before stays in the JWKS (KEYS_SHOWN)."""
    with sessions.begin() as session:
        session.add(LtiKey(private_pem=_new_pem(), created_at=now))


def keys(sessions: sessionmaker[Session], now: datetime) -> list[str]:
    """The tool's private keys (PEM), the signing one first; one is made at first use."""
    query = select(LtiKey.private_pem).order_by(LtiKey.id.desc()).limit(KEYS_SHOWN)
    with sessions() as session:
        found = list(session.scalars(query))
    if not found:
        rotate(sessions, now)
        return keys(sessions, now)
    return found


def public_pem(private_pem: str) -> str:
    key = serialization.load_pem_private_key(private_pem.encode(), password=None)
    return key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()


def jwks(private_pems: list[str]) -> dict[str, Any]:
    """The public keys as a JSON Web Key Set (each with its kid, the key's thumbprint)."""
    return {"keys": [dict(Registration.get_jwk(public_pem(pem))) for pem in private_pems]}


def tool_config(sessions: sessionmaker[Session], now: datetime) -> ToolConfDict:
    """pylti1p3's configuration: every platform registered, the tool's signing key."""
    by_issuer: dict[str, list[dict[str, Any]]] = {}
    for platform in platforms(sessions):
        by_issuer.setdefault(platform.issuer, []).append({
            "default": False, "client_id": platform.client_id,
            "auth_login_url": platform.auth_login_url,
            "auth_token_url": platform.auth_token_url,
            "auth_audience": platform.auth_audience, "key_set_url": platform.key_set_url,
            "key_set": None, "deployment_ids": json.loads(platform.deployment_ids)})
    config = ToolConfDict(by_issuer)  # type: ignore[arg-type]
    signing = keys(sessions, now)[0]
    for issuer, clients in by_issuer.items():
        for client in clients:
            config.set_private_key(issuer, signing, client_id=client["client_id"])
            config.set_public_key(issuer, public_pem(signing), client_id=client["client_id"])
    return config
