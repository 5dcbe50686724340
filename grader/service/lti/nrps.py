"""A course's members onto the roster (Names and Role Provisioning Services).

The instructor syncs a course that a launch has given the roster's address
of: each active learner becomes (or is matched to) a roster student, as a
launch of theirs would, and a member of the course, so that their scores are
posted there. Staff are left out: they are not graded.
"""

from collections.abc import Callable
from dataclasses import dataclass

from pylti1p3.names_roles import NamesRolesProvisioningService
from pylti1p3.service_connector import ServiceConnector
from pylti1p3.tool_config.dict import ToolConfDict

from grader.service.core import Refused, Service
from grader.service.lti import launch
from grader.service.lti.adapter import TimedSession
from grader.service.models import LtiContext, LtiPlatform

LEARNER = "Learner"  # the end of the LIS role's URI (membership#Learner) or its short name


@dataclass
class Synced:
    course: str
    learners: int
    added: int  # new to the roster


def sync(service: Service, config: Callable[[], ToolConfDict], context_pk: int) -> Synced:
    with service.sessions() as session:
        context = session.get(LtiContext, context_pk)
        platform = session.get(LtiPlatform, context.platform_id) if context else None
    if context is None or platform is None:
        raise Refused("no such course", 404)
    if not context.memberships_url:
        raise Refused("the LMS has not given this course's roster service: launch the tool "
                      "from the course once, as its instructor, with roster access on")
    registration = config().find_registration_by_params(platform.issuer, platform.client_id)
    members = NamesRolesProvisioningService(
        ServiceConnector(registration, TimedSession()),
        {"context_memberships_url": context.memberships_url}).get_members()
    learners = [m for m in members if m.get("status", "Active") == "Active"
                and any(role.rsplit("#", 1)[-1] == LEARNER for role in m.get("roles", []))]
    before = len(service.students())
    with service.sessions.begin() as session:
        for found in learners:
            who = launch.person({**found, "sub": found["user_id"]})
            user, _ = launch.student_of(session, platform, who, service.now())
            launch.member(session, session.merge(context), user)
    return Synced(context.title, len(learners), len(service.students()) - before)
