"""The mistakes the grader can name: ids, and the hint shown for each.

The texts are data: ``hints.toml`` beside this module holds the ids several
exercises name (the models of the search exercises, the tic-tac-toe lab's and
the files'), and an exercise folder's own ``hints.toml`` the ids it alone
names, and, in its table ``[reworded]``, its own words for shared ids, shown
for its tests only. A new id is unique across them all. A run names
mistakes by id only; the host turns ids into hints here, so no text the
sandbox wrote ever reaches a report as a hint. Both sides read the same
files (``worded``): the grading image holds each exercise's ``hints.toml``
beside its suite, and the local sandbox shows an added exercise's there too.
"""

import functools
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import MappingProxyType

from grader.contracts import places

SHARED = Path(__file__).with_name("hints.toml")
EXERCISES = places.EXERCISES  # the built-in ones
NAME = "hints.toml"  # an exercise folder's own
REWORDED = "reworded"  # the table of an exercise's own file that words shared ids its way


def files(*roots: Path) -> list[Path]:
    """The shared file, then the hints.toml of each exercise folder in ``roots``
    (the built-in exercises' when none is given)."""
    return [SHARED, *(path for root in roots or (EXERCISES,)
                      for path in sorted(root.glob(f"*/{NAME}")))]


def _read(path: Path) -> tuple[Mapping[str, str], Mapping[str, str]]:
    """The ids ``path`` names and those it rewords (``[reworded]``), each with
    its text; its other tables only group the ids."""
    found = path.stat()
    return _parsed(path, found.st_mtime_ns, found.st_size)


# Parsed once a process while unchanged: every report, and every run's
# supervisor, words its exercise's hints from the same few files.
@functools.lru_cache(maxsize=64)
def _parsed(path: Path, _mtime_ns: int, _size: int
            ) -> tuple[Mapping[str, str], Mapping[str, str]]:
    named: dict[str, str] = {}
    reworded: dict[str, str] = {}
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: not TOML: {exc}") from None
    for key, value in data.items():
        table = value if isinstance(value, dict) else {key: value}
        for mistake, text in table.items():
            if not isinstance(text, str) or not text:
                raise ValueError(f"{path}: the hint of {mistake!r} is not a text")
            (reworded if key == REWORDED else named)[mistake] = text
    return MappingProxyType(named), MappingProxyType(reworded)


def load(paths: Iterable[Path]) -> Mapping[str, str]:
    """Every id of ``paths``, the shared file first, with its text (a shared
    id's in the shared words). ValueError where an id is named twice (a shared
    one included: an exercise rewords it under ``[reworded]``), or a rewording
    is of no shared id."""
    found: dict[str, str] = {}
    where: dict[str, Path] = {}
    shared: set[str] = set()
    for index, path in enumerate(paths):
        named, reworded = _read(path)
        for mistake, text in named.items():
            if mistake in found:
                how = (f"; to word it for this exercise alone, name it under [{REWORDED}]"
                       if mistake in shared else "")
                raise ValueError(f"{path}: mistake {mistake!r} is named in {where[mistake]} "
                                 f"too{how}")
            found[mistake], where[mistake] = text, path
        if index == 0:
            shared = set(named)
        stray = sorted(set(reworded) - shared)
        if stray:
            raise ValueError(f"{path}: [{REWORDED}] names {', '.join(map(repr, stray))}, no "
                             f"shared mistake (an id of {SHARED}), so nothing to reword; "
                             f"name the exercise's own mistakes outside [{REWORDED}]")
    return MappingProxyType(found)


def worded(folder: Path) -> Mapping[str, str]:
    """The hint of every id a test of the exercise in ``folder`` may name, in
    that exercise's words: the shared ids (as its own file rewords them), the
    built-in exercises' own and its own. The host words its report with it,
    and the harness takes no other id from a test."""
    own = folder / NAME
    paths = [path for path in files() if path.parent.resolve() != folder.resolve()]
    texts = dict(load([*paths, own] if own.is_file() else paths))
    if own.is_file():
        texts.update(_read(own)[1])
    return MappingProxyType(texts)


HINTS: Mapping[str, str] = load(files())  # the built-in exercises', in the shared words


def unknown(mistakes: list[str], known: Mapping[str, str] = HINTS) -> list[str]:
    """The ids among ``mistakes`` that name no mistake of ``known``."""
    return [mistake for mistake in mistakes if mistake not in known]
