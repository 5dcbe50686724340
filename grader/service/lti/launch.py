"""What a checked launch means here: which course, which user, which exercise.

A learner is one of the roster's students: the one an earlier launch or roster
sync tied to their LTI user, else the one with their email, else a new one. A
launch opens their pages through a launch key: a link of its own that lapses
(LAUNCH_HOURS), so their personal link, if they have one, keeps working. Staff
(instructors, TAs, administrators) get an instructor's launch key instead.
"""

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from pylti1p3.exception import LtiException
from sqlalchemy import select
from sqlalchemy.orm import Session

from grader.service import tokens
from grader.service.models import (
    LaunchKey,
    LtiContext,
    LtiMember,
    LtiPlatform,
    LtiResource,
    LtiUser,
    Student,
)

LAUNCH_HOURS = 8
CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"
CONTEXT = CLAIM + "context"
RESOURCE_LINK = CLAIM + "resource_link"
CUSTOM = CLAIM + "custom"
NRPS = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
AGS = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
EXERCISE = "exercise"  # the custom parameter naming the exercise an assignment opens


@dataclass
class Person:
    sub: str
    name: str
    email: str | None


def person(body: dict[str, Any]) -> Person:
    name = body.get("name") or " ".join(
        part for part in (body.get("given_name"), body.get("family_name")) if part)
    return Person(str(body["sub"]), str(name or body["sub"])[:200], body.get("email") or None)


def platform_of(session: Session, issuer: str, client_id: str) -> LtiPlatform:
    found = session.scalar(select(LtiPlatform).where(LtiPlatform.issuer == issuer,
                                                     LtiPlatform.client_id == client_id))
    if found is None:
        raise LtiException("Registration not found.")
    return found


def context_of(session: Session, platform: LtiPlatform, body: dict[str, Any]) -> LtiContext:
    """The launch's course, its title and roster address brought up to date."""
    claim = body.get(CONTEXT) or {}
    if not claim.get("id"):
        raise LtiException("the launch names no course (context claim)")
    found = session.scalar(select(LtiContext).where(LtiContext.platform_id == platform.id,
                                                    LtiContext.context_id == claim["id"]))
    context = found or LtiContext(platform_id=platform.id, context_id=str(claim["id"]))
    context.title = str(claim.get("title") or claim.get("label") or claim["id"])[:255]
    memberships = (body.get(NRPS) or {}).get("context_memberships_url")
    context.memberships_url = memberships or context.memberships_url
    session.add(context)
    session.flush()
    return context


def student_of(session: Session, platform: LtiPlatform, who: Person,
               now: datetime) -> tuple[LtiUser, Student]:
    """The roster's student for an LTI learner (found or added) and their LTI user."""
    user = session.scalar(select(LtiUser).where(LtiUser.platform_id == platform.id,
                                                LtiUser.sub == who.sub))
    student = session.get(Student, user.student_id) if user and user.student_id else None
    if student is None:
        email = who.email or f"{who.sub}@{platform.issuer.split('://')[-1].split('/')[0]}"
        student = session.scalar(select(Student).where(Student.email == email))
        if student is None:  # its own token is never shown: it opens pages by launch keys
            student = Student(name=who.name, email=email[:254], created_at=now,
                              token_hash=tokens.hashed(tokens.new()))
            session.add(student)
            session.flush()
    user = user or LtiUser(platform_id=platform.id, sub=who.sub)
    user.student_id = student.id
    session.add(user)
    session.flush()
    return user, student


def member(session: Session, context: LtiContext, user: LtiUser) -> None:
    if session.get(LtiMember, (context.id, user.id)) is None:
        session.add(LtiMember(context_id=context.id, user_id=user.id))


def resource_of(session: Session, context: LtiContext, body: dict[str, Any],
                exercises: set[str]) -> LtiResource:
    """The assignment launched, tied to the exercise its custom parameter names (the
    deep link set it) or an earlier launch tied it to; its AGS endpoint kept."""
    link = str((body.get(RESOURCE_LINK) or {}).get("id") or "")
    found = session.scalar(select(LtiResource).where(LtiResource.context_id == context.id,
                                                     LtiResource.resource_link_id == link))
    named = str((body.get(CUSTOM) or {}).get(EXERCISE) or "")
    exercise = named or (found.exercise_id if found else "")
    if exercise not in exercises:
        raise LtiException("this assignment names no exercise of the grader: set it up "
                           "again through the tool's exercise picker (deep linking)")
    resource = found or LtiResource(context_id=context.id, resource_link_id=link)
    resource.exercise_id = exercise
    endpoint = body.get(AGS)
    resource.endpoint = json.dumps(endpoint) if endpoint else resource.endpoint
    session.add(resource)
    session.flush()
    return resource


def launch_key(session: Session, student_id: int | None, now: datetime) -> str:
    """A new launch key (its secret, shown once in the redirect) for the student's
    pages, or the instructor's with None."""
    secret = tokens.new()
    session.add(LaunchKey(token_hash=tokens.hashed(secret), student_id=student_id,
                          expires_at=now + timedelta(hours=LAUNCH_HOURS)))
    return secret
