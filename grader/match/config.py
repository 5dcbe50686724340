"""An agent exercise's match.toml: what its grade plays (the game, the seed, the
openings, the limits of a move) and against whom, with the points of each.

Its header (the title, the file handed in, the opponents) is the exercises'
loader's to read (``grader.exercises.play_header``), which lists the exercise
from it; its [match] table and the baselines it names are read here, apart from
the playing, so that reading the file imports no sandbox.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from grader import exercises
from grader.exercises import Opponent
from grader.games.knights.rules import VARIANTS
from grader.match import CONFIG, baselines, tournament
from grader.match.player import Limits

DEADLINE_FACTOR = 3.0  # a match's deadline, in the reference's own time a game


class BadConfig(exercises.BadExercise):
    """A match.toml that does not say what grading needs."""


@dataclass(frozen=True)
class Config:
    title: str
    file: str  # what the student hands in
    agent_class: str
    settings: tournament.Settings
    opponents: tuple[Opponent, ...]
    deadline_seconds: float | None = None  # of the agent's own time in its whole match
    exercise_openings: int = 0  # the match.toml's own, before any override (0: the same)

    @property
    def bounded(self) -> bool:
        """Whether this run plays fewer openings than the exercise's grade does."""
        return self.settings.openings < self.exercise_openings

    def bound(self) -> str:
        """The words a bounded run's points come with ("" for the exercise's own)."""
        if not self.bounded:
            return ""
        return (f"a bounded run: {self.settings.openings} of the exercise's "
                f"{self.exercise_openings} openings an opponent, so these points are rough, "
                "not the grade")


def _deadline(match: dict[str, Any], games: int) -> float | None:
    """A match's deadline, from the reference agent's own time a game at 1 s a move
    (scaled with the CPU limit); None where match.toml gives no such time."""
    if "reference_game_seconds" not in match:
        return None
    return round(float(match.get("deadline_factor", DEADLINE_FACTOR))
                 * float(match["reference_game_seconds"]) * float(match["cpu_seconds"])
                 * games, 1)


def load(path: Path = CONFIG, **changes: Any) -> Config:
    """The match.toml at ``path``; ``changes`` override its [match] table."""
    try:
        data = exercises.read_toml(path)
        header = exercises.play_header(data, path)
    except exercises.BadExercise as exc:  # which names the file
        raise BadConfig(str(exc)) from None
    try:
        match = {**data["match"], **{k: v for k, v in changes.items() if v is not None}}
        limits = Limits(float(match["cpu_seconds"]),
                        float(match.get("wall_factor", Limits.wall_factor)))
        settings = tournament.Settings(match["game"], int(match["seed"]), int(match["openings"]),
                                       limits)
        opponents = header.opponents
        config = Config(header.title, header.file, data.get("class", "Agent"), settings,
                        opponents, _deadline(match, 2 * settings.openings * len(opponents)),
                        int(data["match"]["openings"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise BadConfig(f"{path}: {exc!r}") from None
    if settings.variant not in VARIANTS:
        raise BadConfig(f"{path}: game {settings.variant!r}; the games are: {', '.join(VARIANTS)}")
    unknown = [o.baseline for o in opponents if o.baseline not in baselines.BASELINES]
    if unknown or limits.cpu_seconds <= 0 or limits.wall_factor < 1 or settings.openings < 1 \
            or (config.deadline_seconds is not None and config.deadline_seconds <= 0):
        raise BadConfig(f"{path}: unknown baselines {unknown} or limits out of range")
    return config


def check_played(root: Path) -> None:
    """BadConfig where an exercise graded by play in ``root`` (a folder added by
    ``--exercises``) has a match.toml its games can't be played by: told as it is
    added, not at its first hand-in."""
    for folder in exercises.folders(root).values():
        if exercises.graded_by(folder) == exercises.PLAY:
            load(folder / exercises.DEFINED_BY[exercises.PLAY])
