"""A course's times: stored in UTC (naive datetimes, as the database keeps them),
given and shown in the course's time zone (an IANA name, read by zoneinfo).

Functions raise ValueError with a sentence for the user when a value is wrong.
"""

import functools
from datetime import UTC, date, datetime, time, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

DAY_ENDS = time(23, 59)  # a date given without its time: the end of that day


@functools.cache
def names() -> frozenset[str]:
    """The time zones' names, from the system's database (or the tzdata package)."""
    return frozenset(available_timezones())


def zone(name: str) -> ZoneInfo:
    """The zone of that IANA name ("Europe/Berlin", "UTC")."""
    name = name.strip()
    try:
        # Only the database's names: ZoneInfo would also open a path-like key.
        if name in names():
            return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        pass
    raise ValueError(f"{name!r} is not a time zone name: give one such as Europe/Berlin, "
                     "America/New_York or UTC")


def when(moment: datetime, where: tzinfo = UTC) -> str:
    """A stored (UTC) time as pages show it: in the course's zone, with its abbreviation."""
    return moment.replace(tzinfo=UTC).astimezone(where).strftime("%Y-%m-%d %H:%M %Z")


def local(moment: datetime | None, where: tzinfo) -> datetime | None:
    """A stored time in the course's zone (for a form's date and time inputs)."""
    return None if moment is None else moment.replace(tzinfo=UTC).astimezone(where)


def from_form(day: object, hour: object, where: tzinfo) -> datetime | None:
    """A date (YYYY-MM-DD) and a time (HH:MM, the end of the day when empty) picked in
    the course's zone, as stored (UTC); None when no date is given."""
    day_text, hour_text = str(day or "").strip(), str(hour or "").strip()
    if not day_text:
        if hour_text:
            raise ValueError("a time was given without its date")
        return None
    try:
        picked_day = date.fromisoformat(day_text)
        picked_time = time.fromisoformat(hour_text) if hour_text else DAY_ENDS
    except ValueError:
        raise ValueError(f"{day_text} {hour_text}".strip() + " is not a date and time: pick "
                         "a date (YYYY-MM-DD) and a time (HH:MM)") from None
    moment = datetime.combine(picked_day, picked_time.replace(second=0, microsecond=0),
                              tzinfo=where)
    return moment.astimezone(UTC).replace(tzinfo=None)
