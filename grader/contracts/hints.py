"""The mistakes the grader can name: ids, and the hint shown for each.

The texts are data: ``hints.toml`` beside this module holds the ids several
exercises name (the models of the search exercises, the tic-tac-toe lab's and
the files'), and an exercise folder's own ``hints.toml`` the ids it alone
names. An id is unique across them all. A run names mistakes by id only; the
host turns ids into hints here, so no text the sandbox wrote ever reaches a
report as a hint. Both sides read the same files: the grading image holds
each exercise's ``hints.toml`` beside its suite.
"""

import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import MappingProxyType

from grader.contracts import places

SHARED = Path(__file__).with_name("hints.toml")
EXERCISES = places.EXERCISES  # the built-in ones
NAME = "hints.toml"  # an exercise folder's own


def files(root: Path = EXERCISES) -> list[Path]:
    """The shared file, then the hints.toml of each exercise folder in ``root``."""
    return [SHARED, *sorted(root.glob(f"*/{NAME}"))]


def _ids(path: Path) -> dict[str, str]:
    """The ids of ``path`` and their texts; its tables only group them."""
    flat: dict[str, str] = {}
    for key, value in tomllib.loads(path.read_text("utf-8")).items():
        table = value if isinstance(value, dict) else {key: value}
        for mistake, text in table.items():
            if not isinstance(text, str) or not text:
                raise ValueError(f"{path}: the hint of {mistake!r} is not a text")
            flat[mistake] = text
    return flat


def load(paths: Iterable[Path]) -> Mapping[str, str]:
    """Every id of ``paths`` and its text; ValueError where an id is named twice."""
    found: dict[str, str] = {}
    where: dict[str, Path] = {}
    for path in paths:
        for mistake, text in _ids(path).items():
            if mistake in found:
                raise ValueError(f"{path}: mistake {mistake!r} is named in {where[mistake]} too")
            found[mistake], where[mistake] = text, path
    return MappingProxyType(found)


HINTS: Mapping[str, str] = load(files())


def unknown(mistakes: list[str]) -> list[str]:
    """The ids among ``mistakes`` that name no known mistake."""
    return [mistake for mistake in mistakes if mistake not in HINTS]
