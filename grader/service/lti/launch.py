"""What a checked launch means here: which course, which identity, which exercise.

An identity is the platform (issuer and client), the deployment and the subject;
an attribute (the email) never ties one to anyone. A learner is one of the
course's students: the one tied to their identity, else, once, the roster's
student of their email where the roster came from their platform (the
instructor said so at its import), else a new one. A launch opens their pages
through a launch key: a link of its own that lapses (LAUNCH_HOURS), so their
personal link, if they have one, keeps working. Staff (roles.course_role) are a
person with a role in the launch's course only; their launch signs them in to that
course alone (one identity launching from several LMS courses is one person, and
the LMS course a launch comes from opens nothing of another's).

A course the tool does not know (a context never seen) is made only by an
instructor's deep-linking launch; any other launch from it is refused.
"""

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from pylti1p3.exception import LtiException
from sqlalchemy import select
from sqlalchemy.orm import Session

from grader.service import audit, people, tokens
from grader.service.models import (
    Course,
    CourseStaff,
    ExerciseSetting,
    LaunchKey,
    LtiContext,
    LtiMember,
    LtiPlatform,
    LtiResource,
    LtiUser,
    Person,
    Student,
)
from grader.service.refused import Refused
from grader.service.term import default_setting

LAUNCH_HOURS = people.LAUNCH_HOURS
CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"
CONTEXT = CLAIM + "context"
DEPLOYMENT = CLAIM + "deployment_id"
RESOURCE_LINK = CLAIM + "resource_link"
ROLES = CLAIM + "roles"
CUSTOM = CLAIM + "custom"
NRPS = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
AGS = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
EXERCISE = "exercise"  # the custom parameter naming the exercise an assignment opens
UNKNOWN_COURSE = ("the grader does not know this course yet: its instructor adds it by "
                  "adding an assignment through the tool's exercise picker (deep linking)")


@dataclass
class Who:
    """What a launch (or a roster's member) says of its user: only ``sub`` identifies."""

    sub: str
    name: str
    email: str | None


def who(body: dict[str, Any]) -> Who:
    name = body.get("name") or " ".join(
        part for part in (body.get("given_name"), body.get("family_name")) if part)
    return Who(str(body["sub"]), str(name or body["sub"])[:200], body.get("email") or None)


def platform_of(session: Session, issuer: str, client_id: str) -> LtiPlatform:
    found = session.scalar(select(LtiPlatform).where(LtiPlatform.issuer == issuer,
                                                     LtiPlatform.client_id == client_id))
    if found is None:
        raise LtiException("Registration not found.")
    return found


def identity(session: Session, platform: LtiPlatform, deployment: str, sub: str) -> LtiUser:
    """The identity (found, or made)."""
    found = session.scalar(select(LtiUser).where(LtiUser.platform_id == platform.id,
                                                 LtiUser.deployment_id == deployment,
                                                 LtiUser.sub == sub))
    if found is None:
        found = LtiUser(platform_id=platform.id, deployment_id=deployment, sub=sub)
        session.add(found)
        session.flush()
    return found


def context_of(session: Session, platform: LtiPlatform, body: dict[str, Any]) -> LtiContext | None:
    """The launch's course as the tool knows it, its title and roster address brought
    up to date; None for a course never seen."""
    claim = body.get(CONTEXT) or {}
    if not claim.get("id"):
        raise LtiException("the launch names no course (context claim)")
    found = session.scalar(select(LtiContext).where(LtiContext.platform_id == platform.id,
                                                    LtiContext.context_id == claim["id"]))
    if found is not None:
        _up_to_date(found, body)
    return found


def new_context(session: Session, platform: LtiPlatform, body: dict[str, Any],
                course_id: int) -> LtiContext:
    context = LtiContext(platform_id=platform.id, context_id=str(body[CONTEXT]["id"]),
                         course_id=course_id)
    _up_to_date(context, body)
    session.add(context)
    session.flush()
    return context


def _up_to_date(context: LtiContext, body: dict[str, Any]) -> None:
    claim = body[CONTEXT]
    context.title = str(claim.get("title") or claim.get("label") or claim["id"])[:255]
    context.deployment_id = str(body[DEPLOYMENT])
    memberships = (body.get(NRPS) or {}).get("context_memberships_url")
    context.memberships_url = memberships or context.memberships_url


def course_from(session: Session, platform: LtiPlatform, body: dict[str, Any],
                now: datetime) -> LtiContext:
    """An unknown course, made by its instructor's deep-linking launch: a new course of
    the grader, this context its first."""
    claim = body[CONTEXT]
    course = Course(title=str(claim.get("title") or claim.get("label") or claim["id"])[:255],
                    created_at=now)
    session.add(course)
    session.flush()
    audit.record(session, now, course.id, None, "course made",
                 course.title, f"by a deep-linking launch from {platform.issuer}")
    return new_context(session, platform, body, course.id)


def student_of(session: Session, course_id: int, platform: LtiPlatform, user: LtiUser,
               said: Who, now: datetime) -> Student:
    """The course's student an identity is: the one tied to it; else the roster's
    student of its email, not tied yet, whose roster came from this platform (tied
    now, once and for all); else a new one."""
    found = session.scalar(select(Student).where(Student.course_id == course_id,
                                                 Student.lti_user_id == user.id))
    if found is None and said.email:
        found = session.scalar(select(Student).where(
            Student.course_id == course_id, Student.email == said.email,
            Student.lti_user_id.is_(None), Student.match_platform_id == platform.id))
    if found is None:  # its own token is never shown: it opens pages by launch keys
        found = Student(course_id=course_id, name=said.name, created_at=now,
                        email=_free_email(session, course_id, platform, said),
                        token_hash=tokens.hashed(tokens.new()))
        session.add(found)
    found.lti_user_id, found.match_platform_id = user.id, None
    session.flush()
    return found


def _free_email(session: Session, course_id: int, platform: LtiPlatform, said: Who) -> str:
    """The launch's email where no student of the course has it; else the subject at
    the platform's host (an email is a student's name on the roster, never who they
    are)."""
    host = platform.issuer.split("://")[-1].split("/")[0]
    for email in (said.email, f"{said.sub}@{host}"):
        if email and session.scalar(select(Student.id).where(
                Student.course_id == course_id, Student.email == email[:254])) is None:
            return email[:254]
    return f"{said.sub}#{tokens.new()[:8]}@{host}"[:254]


def staff_of(session: Session, course_id: int, user: LtiUser, said: Who, role: str,
             now: datetime) -> Person:
    """The person a staff identity is (made at their first launch), with the role the
    LMS gives them in this course; Refused where the course's instructor revoked it."""
    person = session.get(Person, user.person_id) if user.person_id else None
    if person is None:
        person = people.new_person(session, said.name, said.email, now)
        user.person_id = person.id
    held = session.get(CourseStaff, (course_id, person.id))
    if held is not None and held.revoked_at is not None:
        raise Refused("your access to this course was revoked by its instructor", 403)
    if held is None or held.role != role:
        people.give_role(session, course_id, person.id, role, now)
        audit.person_changed(session, now, course_id, None, "staff added" if held is None
                             else "staff role changed", person,
                             f"{people.ROLE_NAMES[role]}, by an LMS launch")
    return person


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


def assigned(session: Session, course_id: int, exercise_id: str, now: datetime) -> None:
    """An exercise an assignment of the LMS launches is open, unless its staff saved its
    settings already: the link the instructor added is their choice to hand it out (the
    deep link's answer goes to the LMS, so the tool learns of it at its first launch)."""
    if session.get(ExerciseSetting, (course_id, exercise_id)) is not None:
        return
    setting = default_setting(course_id, exercise_id)
    setting.visible = True
    session.add(setting)
    audit.record(session, now, course_id, None, "settings saved", exercise_id,
                 "open to students: an assignment of the LMS launches it")


def launch_key(session: Session, student_id: int, now: datetime) -> str:
    """A new launch key (its secret, shown once in the redirect) for the student's pages."""
    secret = tokens.new()
    session.add(LaunchKey(token_hash=tokens.hashed(secret), student_id=student_id,
                          expires_at=now + timedelta(hours=LAUNCH_HOURS)))
    return secret
