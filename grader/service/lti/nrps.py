"""An LMS course's members onto its grader course's roster (Names and Role
Provisioning Services).

The instructor syncs an LMS course that a launch has given the roster's address
of: each active learner becomes (or is found as) the course's student their
identity is, as a launch of theirs would make them (see ``launch.student_of``:
an email ties no one already tied), and a member of the LMS course, so that
their scores are posted there. Staff are left out: they are not graded.
"""

from collections.abc import Callable
from dataclasses import dataclass

from pylti1p3.names_roles import NamesRolesProvisioningService
from pylti1p3.service_connector import ServiceConnector
from pylti1p3.tool_config.dict import ToolConfDict

from grader.service.core import Service
from grader.service.lti import launch, roles
from grader.service.lti.adapter import TimedSession
from grader.service.models import LtiContext, LtiPlatform
from grader.service.refused import Refused


@dataclass
class Synced:
    course: str
    learners: int
    added: int  # new to the roster


def sync(service: Service, config: Callable[[], ToolConfDict], course_id: int,
         context_pk: int) -> Synced:
    with service.sessions() as session:
        context = session.get(LtiContext, context_pk)
        platform = session.get(LtiPlatform, context.platform_id) if context else None
    if context is None or platform is None or context.course_id != course_id:
        raise Refused("no such LMS course in this course", 404)
    if not context.memberships_url:
        raise Refused("the LMS has not given this course's roster service: launch the tool "
                      "from the course once, as its instructor, with roster access on")
    registration = config().find_registration_by_params(platform.issuer, platform.client_id)
    members = NamesRolesProvisioningService(
        ServiceConnector(registration, TimedSession()),
        {"context_memberships_url": context.memberships_url}).get_members()
    learners = [m for m in members if m.get("status", "Active") == "Active"
                and m.get("roles") and roles.course_role(m["roles"]) == "student"]
    before = len(service.students.of_course(course_id))
    with service.sessions.begin() as session:
        for found in learners:
            said = launch.who({**found, "sub": found["user_id"]})
            user = launch.identity(session, platform, context.deployment_id, said.sub)
            launch.student_of(session, course_id, platform, user, said, service.now())
            launch.member(session, session.merge(context), user)
    return Synced(context.title, len(learners), len(service.students.of_course(course_id)) - before)
