"""A launch's roles, as the LTI 1.3 spec names them, mapped to what the person is in
the launch's course: an instructor, a TA, a student, or nothing.

Only context (membership) roles count: an institution or system role (``.../
institution/person#Instructor``) says what someone is at the school, not in this
course, and gives nothing here. A context role comes as its full URI
(``.../membership#Instructor``), a sub-role's URI (``.../membership/Instructor#
TeachingAssistant``) or its short name (``Instructor``, ``Instructor#
TeachingAssistant``). A teaching assistant (or grader) sub-role makes a TA even
beside the principal Instructor role the spec says comes with it; an
Administrator of the context is an instructor; Learner or Member, or no context
role at all, a student; any other context role alone (Mentor, ContentDeveloper,
Manager, Officer) nothing.
"""

from collections.abc import Iterable

MEMBERSHIP = "http://purl.imsglobal.org/vocab/lis/v2/membership"
TA_SUB_ROLES = ("TeachingAssistant", "Grader")
STUDENT_ROLES = ("Learner", "Member")


def context_role(role: str) -> tuple[str, str | None] | None:
    """A context role's principal name and sub-role; None for any other role."""
    if role.startswith(MEMBERSHIP + "#"):
        return role.removeprefix(MEMBERSHIP + "#"), None
    if role.startswith(MEMBERSHIP + "/"):
        principal, _, sub = role.removeprefix(MEMBERSHIP + "/").partition("#")
        return principal, sub or None
    if ":" in role or "/" in role:  # an institution's, the system's, another vocabulary's
        return None
    principal, _, sub = role.partition("#")
    return principal, sub or None


def course_role(roles: Iterable[object]) -> str | None:
    """"instructor", "ta", "student", or None (no access) for a launch's roles claim."""
    found = [parsed for role in roles if isinstance(role, str)
             if (parsed := context_role(role)) is not None]
    principals = {principal for principal, _ in found}
    if "Administrator" in principals:
        return "instructor"
    if any(principal == "TeachingAssistant" or (principal == "Instructor" and sub in
                                                TA_SUB_ROLES) for principal, sub in found):
        return "ta"
    if "Instructor" in principals:
        return "instructor"
    if not found or principals & set(STUDENT_ROLES):
        return "student"
    return None
