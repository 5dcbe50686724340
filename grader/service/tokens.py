"""Secrets: students' and the instructor's links, and the forms' CSRF tokens.

Only a secret's sha256 is stored, and a secret is found by its hash, so no
comparison of secrets depends on how much of one is right. A form's CSRF
token is an HMAC of the hash of the secret that opened the page, under a key
of the service's own: no session state, and a token from one student's page
is no good on another's.
"""

import hashlib
import hmac
import secrets


def new() -> str:
    return secrets.token_urlsafe(32)


def hashed(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def csrf(key: str, subject: str) -> str:
    return hmac.new(key.encode(), subject.encode(), hashlib.sha256).hexdigest()


def csrf_ok(key: str, subject: str, given: object) -> bool:
    return isinstance(given, str) and hmac.compare_digest(
        csrf(key, subject).encode(), given.encode("utf-8", "replace"))
