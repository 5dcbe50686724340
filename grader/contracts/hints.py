"""The mistakes the grader can name: ids, and the hint shown for each.

The texts are data (``hints.toml`` beside this module). A run names mistakes
by id only; the host turns ids into hints here, so no text the sandbox wrote
ever reaches a report as a hint.
"""

import tomllib
from collections.abc import Mapping
from importlib import resources
from types import MappingProxyType


def _load() -> Mapping[str, str]:
    tables = tomllib.loads(resources.files(__package__).joinpath("hints.toml").read_text("utf-8"))
    flat: dict[str, str] = {}
    for table in tables.values():
        for mistake, text in table.items():
            if mistake in flat:
                raise ValueError(f"hints.toml: mistake {mistake!r} is named twice")
            flat[mistake] = text
    return MappingProxyType(flat)


HINTS: Mapping[str, str] = _load()


def unknown(mistakes: list[str]) -> list[str]:
    """The ids among ``mistakes`` that name no known mistake."""
    return [mistake for mistake in mistakes if mistake not in HINTS]
