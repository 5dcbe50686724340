"""The exercises: what a student submits, the tests with points, the limits.

Each exercise is one folder, ``exercises/<id>/`` or one of an instructor's
added beside them, and how it is graded is what the folder holds: an
``exercise.toml``, graded by its pytest suite, with the starter files, a README
for the student, the suite, its self-check (``check.py``) and the hints of the
mistakes it alone names (``hints.toml``); or a ``match.toml``, an agent graded
by play against the baselines (``grader.match``), with its starter and README.
That is what students and the sandbox may see. Its reference solution and its
corpus of known submissions lie apart, in a solutions folder (``grader.solutions``).
"""

import dataclasses
import hashlib
import math
import os
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, ClassVar

from grader import games
from grader.contracts import hints, places, provided
from grader.games import ADDED, GAMES, RULES

ROOT = places.EXERCISES  # the built-in exercises
# The instructor's folders added beside them (ADDED), os.pathsep between two: set
# by --exercises (add), and so seen by every process the command starts; a
# folder's games/ holds its games, if any.
GAMES_FOLDER = "games"
# How an exercise is graded, by the file its folder holds (one of them).
SUITE, PLAY = "suite", "play"
DEFINED_BY = {SUITE: "exercise.toml", PLAY: "match.toml"}
PRIVATE = ("solution", "corpus")  # never in an exercise's folder: see grader.solutions
ID = re.compile(r"[a-z0-9_]+")
VISIBILITY = ("visible", "hidden", "after_due_date", "after_published")


class UnknownExercise(LookupError):
    def __init__(self, name: str, known: Iterable[str]) -> None:
        super().__init__(f"unknown exercise {name!r}; the exercises are: {', '.join(known)}")


class BadExercise(ValueError):
    """An exercise.toml that does not say what the grader needs."""


class BadLimits(ValueError):
    """Limits the grader can't grade with: which, their values, and why.

    ``problem`` has a ``{}`` for each of ``limits`` (field, value), filled in
    by ``named`` in the caller's words: a flag, a line of exercise.toml.
    """

    def __init__(self, problem: str, *limits: tuple[str, object]) -> None:
        self.problem = problem
        self.limits = limits
        super().__init__(self.named(lambda field, value: f"{field} = {value!r}"))

    def named(self, name: Callable[[str, object], str]) -> str:
        """The message, each limit called ``name(field, value)``."""
        return self.problem.format(*(name(field, value) for field, value in self.limits))


# What the grader itself needs to grade a correct submission, from
# bench/grader_needs.py (the reference solutions in Docker and locally, on 2
# cores beside a 2-job Docker batch). Below these a run fails for the
# grader's own want and the report charges the student ("time limit reached
# while importing your files"), or stops it: at 40 MB a gamestate run hung
# until its total limit.
MEMORY_FLOOR_MB = 96  # full marks down to 48 MB in Docker (16 locally): twice that
SECONDS_FLOOR = 1  # a fresh worker and its slowest call: 0.5 s at most (the start 0.13 s)
# A whole correct run as the total's clock sees it (in Docker, from the
# container's start): 2 s at most. Below 1 s the supervisor's CPU rlimit,
# whole seconds of the total, would be 0.
TOTAL_SECONDS_FLOOR = 3

SECONDS = ("call_seconds", "test_seconds", "total_seconds")
WHOLE = ("memory_mb", "output_bytes", "processes", "file_bytes")


def _need(amount: float, unit: str, what: str, measured: str) -> tuple[float, str]:
    return amount, (f"the {amount} {unit} the grader itself needs {what} (measured by "
                    f"bench/grader_needs.py: {measured}, with a margin)")


@dataclass(frozen=True)
class Limits:
    # For an exercise whose exercise.toml gives none: about the most generous of
    # the measured ones (see bench/time_limits.py), at the 60 s ceiling of a run.
    call_seconds: float = 10
    test_seconds: float = 10
    total_seconds: float = 60
    memory_mb: int = 512
    output_bytes: int = 16384
    processes: int = 64
    file_bytes: int = 16 << 20

    # field -> (the least the grader itself needs, the words for it). The
    # bench that measures these needs grades below them with a subclass.
    FLOORS: ClassVar[dict[str, tuple[float, str]]] = {
        "memory_mb": _need(MEMORY_FLOOR_MB, "MB", "to grade a correct submission",
                           "48 MB in Docker"),
        "call_seconds": _need(SECONDS_FLOOR, "s", "for a call, which starts a worker",
                              "0.5 s at most"),
        "test_seconds": _need(SECONDS_FLOOR, "s", "for a test, which starts a worker",
                              "0.5 s at most"),
        "total_seconds": _need(TOTAL_SECONDS_FLOOR, "s", "for a run of a correct submission",
                               "2 s at most in Docker"),
    }

    def __post_init__(self) -> None:
        for field in SECONDS + WHOLE:
            self._check(field, getattr(self, field))
        # A call's deadline is the earlier of its own and its test's (the
        # harness's Budget): a call limit above the test's would never apply.
        # The total may be below a test's: it then stops whatever test runs.
        if self.call_seconds > self.test_seconds:
            raise BadLimits("{} is above {}: a call runs within its test, so its limit "
                            "could never apply", ("call_seconds", self.call_seconds),
                            ("test_seconds", self.test_seconds))

    def _check(self, field: str, value: Any) -> None:  # Any: as exercise.toml gave it
        whole = field in WHOLE
        if (isinstance(value, bool) or not isinstance(value, int if whole else (int, float))
                or (isinstance(value, float) and not math.isfinite(value))):
            raise BadLimits("{} is not " + ("a whole number" if whole else "a number of seconds"),
                            (field, value))
        if value <= 0:
            raise BadLimits("{} is not above 0", (field, value))
        floor, need = self.FLOORS.get(field, (0, ""))
        if value < floor:
            raise BadLimits("{} is below " + need, (field, value))

    def facts(self) -> dict[str, float]:
        """The limits as the report states them."""
        return {k: v for k, v in dataclasses.asdict(self).items() if k != "file_bytes"}

    def override(self, **changes: float | None) -> "Limits":
        """These limits with the given ones replaced (None leaves one alone);
        BadLimits if the grader can't grade with them."""
        given: dict[str, Any] = {k: v for k, v in changes.items() if v is not None}
        return dataclasses.replace(self, **given)


@dataclass(frozen=True)
class TestSpec:
    name: str
    title: str
    points: float
    visibility: str = "visible"
    seconds: float | None = None


@dataclass(frozen=True)
class Exercise:
    id: str
    title: str
    summary: str
    files: tuple[str, ...]
    tests: tuple[TestSpec, ...]
    limits: Limits
    folder: Path
    provides: tuple[str, ...] = ()  # modules the course gives students (contracts.provided)
    game: str = "isolation"  # the game of its stand-ins (harness.runtime.standins)
    kind: str = SUITE  # how it is graded: SUITE or PLAY

    @property
    def suite(self) -> Path:
        return self.folder / "suite"

    @property
    def starter(self) -> Path:
        return self.folder / "starter"

    @property
    def by_play(self) -> bool:
        """Whether it is graded by play (its folder's match.toml: the agent)."""
        return self.kind == PLAY

    @property
    def defined_by(self) -> Path:
        """The file that says what it is: its exercise.toml, or its match.toml."""
        return self.folder / DEFINED_BY[self.kind]

    @property
    def modules(self) -> list[str]:
        return [Path(name).stem for name in self.files]

    @property
    def max_score(self) -> float:
        return sum(test.points for test in self.tests)

    def hints(self) -> Mapping[str, str]:
        """The hint of each mistake its tests may name, in its own words
        (its hints.toml's ``[reworded]``; ``grader.contracts.hints``)."""
        return hints.worded(self.folder)


def added() -> list[Path]:
    """The instructor's folders of exercises added beside the built-in ones (``--exercises``)."""
    return [Path(folder) for folder in os.environ.get(ADDED, "").split(os.pathsep) if folder]


def add(root: Path, check: Callable[[Path], None] | None = None) -> None:
    """Add the folder of exercises ``root`` beside the built-in ones, for this process
    and the processes it starts (a grading pool, the service's workers); BadExercise,
    saying what is wrong, where it is not such a folder or an id is taken, or where
    ``check`` (the caller's, of the folder once it is read) raises it.

    ``root`` is taken where it leads (a link to it, or on the way to it, is
    followed once, here); a link inside it is refused (``_no_links``)."""
    root = root.resolve()
    if not root.is_dir():
        raise BadExercise(f"--exercises {root}: no such folder")
    if root in added():  # given twice, or inherited by a process that is given it again
        return
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        _no_links(folder)
        if folder.name == GAMES_FOLDER:
            _check_games(folder)
        elif folder.name != "__pycache__" and graded_by(folder) is None:
            raise BadExercise(f"{folder}: no exercise.toml nor match.toml, so not an "
                              "exercise folder")
        for private in PRIVATE:
            if (folder / private).exists():
                raise BadExercise(
                    f"{folder / private}: an exercise's folder holds what students and the "
                    f"sandbox may see; keep its {private} in a folder of solutions "
                    f"(DIR/{folder.name}/{private}/) and check it with "
                    "check-solutions --solutions DIR")
    before = os.environ.get(ADDED, "")
    os.environ[ADDED] = os.pathsep.join(map(str, [*added(), root]))
    try:
        load_all()  # a bad exercise.toml, or an id in two folders, is told now
        _check_hints()
        if check is not None:
            check(root)
    except (BadExercise, UnknownExercise):
        os.environ[ADDED] = before
        raise


def _no_links(folder: Path) -> None:
    """BadExercise where ``folder`` (an exercise's, or ``games/``) is a link or
    holds one. The local sandbox binds an added folder's files where they lie,
    and the image build copies them: through a link either would take in
    whatever it leads to (a solutions folder, say), under another name than
    the one checked here."""
    found = [folder] if folder.is_symlink() else [
        Path(parent) / name for parent, folders, files in os.walk(folder)
        for name in sorted(folders + files) if (Path(parent) / name).is_symlink()]
    if found:
        raise BadExercise(f"{found[0]}: a link, which an added folder may not hold: the "
                          "sandbox and the grading image would take in whatever it leads "
                          "to. Put the folder or file itself there instead")


def _check_hints() -> None:
    """BadExercise where the exercises' own hints.toml files, the added ones
    beside the built-in ones, name one mistake twice, name a shared one
    outside ``[reworded]``, or reword one that is not shared."""
    try:
        hints.load(hints.files(ROOT, *added()))
    except ValueError as exc:
        raise BadExercise(str(exc)) from None


def _check_games(folder: Path) -> None:
    """BadExercise where ``folder`` (``DIR/games``) holds what is no game of the
    lesson's kind (``<name>/__init__.py`` and ``rules.py``), or one named as a
    built-in game."""
    for game in sorted(p for p in folder.iterdir() if p.is_dir() and p.name != "__pycache__"):
        if not (game.name.isidentifier() and (game / "__init__.py").is_file()
                and (game / RULES).is_file()):
            raise BadExercise(f"{game}: a game is a folder named as a Python module, with its "
                              f"__init__.py and {RULES}")
        if game.name in GAMES:
            raise BadExercise(f"{game}: {game.name!r} is a built-in game's name")


def graded_by(folder: Path) -> str | None:
    """How the exercise of ``folder`` is graded (SUITE or PLAY), by the file it
    holds; None where it holds neither, so is no exercise's."""
    held = [kind for kind, name in DEFINED_BY.items() if (folder / name).is_file()]
    if len(held) > 1:
        raise BadExercise(f"{folder}: an exercise is graded by its suite (exercise.toml) or "
                          "by play (match.toml), not both: keep the one that says how")
    return held[0] if held else None


def folders(root: Path | None = None) -> dict[str, Path]:
    """Each exercise's folder by id: of ``root`` alone where given, else the
    built-in ones, then the added ones."""
    found: dict[str, Path] = {}
    for top in [root] if root is not None else [ROOT, *added()]:
        if not top.is_dir():
            raise BadExercise(f"no exercises at {top}: is minimax-grader installed whole?")
        for folder in sorted(p for p in top.iterdir() if graded_by(p) is not None):
            if folder.name in found:
                raise BadExercise(f"two exercises are called {folder.name!r}: "
                                  f"{found[folder.name]} and {folder}")
            if not ID.fullmatch(folder.name):
                raise BadExercise(f"{folder}: an exercise's id, its folder's name, is made of "
                                  "lower-case letters, digits and _")
            found[folder.name] = folder
    return found


def known(root: Path | None = None, kind: str | None = None) -> list[str]:
    """The exercises' ids: of ``root`` alone where given, else every one; where
    ``kind`` is given (SUITE or PLAY), only those graded so."""
    return sorted(name for name, folder in folders(root).items()
                  if kind in (None, graded_by(folder)))


def _limits(table: dict[str, Any], tests: Sequence[TestSpec], path: Path) -> Limits:
    """The limits of exercise.toml's ``[limits]`` table; each test's own
    ``seconds`` must be a limit its test can be graded with too."""
    try:
        limits = Limits(**table)
    except BadLimits as exc:
        raise BadExercise(f"{path}: [limits] {exc}") from None
    for test in tests:
        try:
            limits.override(test_seconds=test.seconds)
        except BadLimits as exc:
            raise BadExercise(f"{path}: test {test.name}: " + exc.named(
                lambda field, value: f"seconds = {value!r}" if field == "test_seconds"
                else f"[limits] {field} = {value!r}")) from None
    return limits


def load(name: str, root: Path | None = None) -> Exercise:
    """The exercise ``name``, graded by a suite or by play: of ``root`` where
    given, else of every folder."""
    found = folders(root)
    if name not in found:
        raise UnknownExercise(name, sorted(found))
    folder = found[name]
    return _played(name, folder) if graded_by(folder) == PLAY else _suite(name, folder)


# An exercise graded by play runs no suite: its match.toml limits its agent's moves,
# and these, the defaults, only its report's facts.
PLAYED_LIMITS = Limits()


@dataclass(frozen=True)
class Opponent:
    """An opponent of an exercise graded by play: a test of its report."""

    name: str
    baseline: str  # a key of grader.match.baselines.BASELINES (the match checks it)
    win_rate: float  # the threshold for full points
    points: float


@dataclass(frozen=True)
class PlayHeader:
    """What a match.toml says of its exercise: its title, the file handed in, the
    opponents. How its games are played (its [match] table, the baselines) is the
    match's to read (``grader.match.config``)."""

    title: str
    file: str  # what the student hands in
    opponents: tuple[Opponent, ...]


def read_toml(path: Path) -> dict[str, Any]:
    """The TOML file at ``path``; BadExercise, naming it, where it is not TOML."""
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise BadExercise(f"{path}: not TOML: {exc}") from None


def play_header(data: dict[str, Any], path: Path) -> PlayHeader:
    """The header of the match.toml at ``path``, read as ``data``."""
    try:
        return PlayHeader(data["title"], data["file"],
                          tuple(Opponent(**entry) for entry in data["opponents"]))
    except (KeyError, TypeError) as exc:
        raise BadExercise(f"{path}: {exc!r}") from None


def _played(name: str, folder: Path) -> Exercise:
    """The exercise graded by play of ``folder``'s match.toml: a test an opponent.
    Only its header is read here: grading by a suite (the Gradescope package's)
    carries nothing of the match."""
    path = folder / DEFINED_BY[PLAY]
    header = play_header(read_toml(path), path)
    tests = tuple(TestSpec(o.name, f"Wins against {o.name} (full points at a win rate of "
                                   f"{o.win_rate:.0%})", o.points)
                  for o in header.opponents)
    return Exercise(id=name, title=header.title,
                    summary="An agent graded by play against the baselines.",
                    files=(header.file,), tests=tests, limits=PLAYED_LIMITS, folder=folder,
                    kind=PLAY)


def _suite(name: str, folder: Path) -> Exercise:
    """The exercise graded by its suite of ``folder``'s exercise.toml."""
    path = folder / DEFINED_BY[SUITE]
    data = read_toml(path)
    try:
        tests = tuple(TestSpec(**test) for test in data["tests"])
        exercise = Exercise(
            id=name, title=data["title"], summary=data.get("summary", ""),
            files=tuple(data["files"]), tests=tests,
            limits=_limits(data.get("limits", {}), tests, path),
            folder=folder, provides=tuple(data.get("provides", ())),
            game=data.get("game", "isolation"),
        )
    except (KeyError, TypeError) as exc:
        raise BadExercise(f"{path}: {exc}") from None
    if exercise.game not in games.known():
        raise BadExercise(f"{path}: game {exercise.game!r}; the games are: "
                          f"{', '.join(games.known())}")
    for module in exercise.provides:
        try:
            provided.source(module, games.added())
        except LookupError as exc:
            raise BadExercise(f"{path}: provides: {exc}") from None
    for test in tests:
        if test.visibility not in VISIBILITY:
            raise BadExercise(f"{name}: test {test.name}: visibility {test.visibility!r}")
    return exercise


def load_all(root: Path | None = None) -> list[Exercise]:
    return [load(name, root) for name in known(root)]


def facts_hash(root: Path | None = None) -> str:
    """A hash of every exercise's ``exercise.toml`` or ``match.toml``: what the host
    applies itself (points, titles, visibility, limits, the opponents and their
    thresholds), which the grading image does not hold. Those graded by a suite
    come first, then those graded by play, each by id."""
    defining = sorted((file, name, folder / file) for name, folder in folders(root).items()
                      for file in DEFINED_BY.values() if (folder / file).is_file())
    digest = hashlib.sha256()
    for _, name, path in defining:
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]
