"""The command line: list, stub, grade, batch, check-solutions, image, gradescope-package,
serve, worker, and the service's operators' (db, status; see grader.service.operations)."""

import argparse
import importlib.util
import os
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.table import Table

from grader import __version__, batch, exercises, files, grading, intake, render, solutions
from grader.batch import roster, summary
from grader.contracts import places
from grader.errors import UsageError
from grader.handout import handout, self_check
from grader.hosting import watch
from grader.match import commands as match_commands
from grader.match import config as match_config
from grader.sandbox import Sandbox, layout_of
from grader.service import operations
from grader.service.lti import commands as lti_commands

if TYPE_CHECKING:  # docker is imported where it is used (grader.image)
    from docker import DockerClient

USAGE_ERROR = 2
# A file name that -o suggests when it is given a folder, by --format.
REPORT_NAMES = {"json": "report.json", "text": "report.txt", "gradescope": "results.json",
                "junit": "report.xml"}


def _exercise(name: str) -> exercises.Exercise:
    """The exercise ``name``, graded by a suite or by play."""
    try:
        return exercises.load(name)
    except exercises.UnknownExercise as exc:
        raise UsageError(str(exc)) from None


def _with_suite(name: str, needs: str) -> exercises.Exercise:
    """The exercise ``name``, which ``needs`` (what the command makes) grades by its
    suite: a usage error for one graded by play."""
    exercise = _exercise(name)
    if exercise.by_play:
        raise UsageError(f"{exercise.id} is graded by play, and {needs} grades an "
                         "exercise by its suite: choose one graded by a suite "
                         f"({', '.join(exercises.known(kind=exercises.SUITE))})")
    return exercise


def cmd_list(args: argparse.Namespace) -> int:
    rows = [(exercise.id, exercise.title, ", ".join(exercise.files), f"{exercise.max_score:g}",
             str(len(exercise.tests))) for exercise in exercises.load_all()]
    table = Table(title="minimax-grader exercises")
    for index, column in enumerate(("id", "title", "files", "points", "tests")):
        # the names are typed on the command line: whole, never cut; titles wrap
        whole = column != "title"
        table.add_column(column, no_wrap=whole,
                         min_width=max(len(row[index]) for row in rows) if whole else None)
    for row in rows:
        table.add_row(*row)
    Console(markup=False, highlight=False).print(table)
    return 0


def cmd_stub(args: argparse.Namespace) -> int:
    exercise = _exercise(args.exercise)
    target = Path(args.dir)
    given = handout(exercise)
    clashes = [name for name in given if os.path.lexists(target / name)]
    if clashes and not args.force:
        raise UsageError(f"{', '.join(clashes)} already in {target}; "
                         "nothing was written (use --force to overwrite)")
    try:
        target.mkdir(parents=True, exist_ok=True)
        for name, source in given.items():
            # Replaced, not written through: a link in the way is not followed.
            files.write_atomic(target / name, source.read_bytes(), mode=0o644)
            print(f"wrote {target / name}")
    except OSError as exc:
        raise UsageError(f"{target}: could not write the starter files: "
                         f"{exc.strerror or exc}") from None
    if self_check(exercise) in given:
        print(f"check your work as you go with: python {target / self_check(exercise)}")
    return 0


def _limits(exercise: exercises.Exercise, args: argparse.Namespace) -> exercises.Limits:
    """The exercise's limits with the flags' overrides; a usage error that
    names the flag when the grader can't grade with them."""
    try:
        return exercise.limits.override(
            call_seconds=args.call_seconds, test_seconds=args.test_seconds,
            total_seconds=args.total_seconds, memory_mb=args.memory_mb)
    except exercises.BadLimits as exc:
        raise UsageError(exc.named(
            lambda field, value: f"--{field.replace('_', '-')} {value:g}")) from None


def cmd_grade(args: argparse.Namespace) -> int:
    exercise = _exercise(args.exercise)
    if args.quick and not exercise.by_play:
        raise UsageError(f"--quick is for an agent graded by play; {exercise.id} is graded "
                         "by its suite, whole every time")
    limits = _limits(exercise, args)  # before anything is graded
    target = files.output(args.output or files.STDOUT, example=REPORT_NAMES[args.format])
    grading.check(args.submission)
    with grading.sandbox_for(args.sandbox, warn=_warn) as chosen:
        report = grading.grade(exercise, args.submission, chosen, limits, args.quick)
    target.write(render.RENDERERS[args.format](report))
    if target.path is not None:
        print(report["message"])
    return 0


def _warn(text: str) -> None:
    print(text, file=sys.stderr)


def _isolated(name: str, jobs: int) -> Sandbox:
    """The batch's sandbox: Docker unless local is asked for by name."""
    chosen = grading.isolated(name, warm=jobs)
    if not layout_of(chosen).isolated:
        _warn("warning: grading in the local sandbox, which is not a security boundary: "
              "the students' code runs as you, on this machine")
    return chosen


def _batch_output(args: argparse.Namespace) -> None:
    """Check OUTDIR before anything is graded: a folder or nothing yet, outside
    SUBMISSIONS, and holding nothing but an earlier run's results unless a flag
    says what to do with it."""
    out, given = Path(args.output), Path(args.submissions)
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out}: not a folder")
    if given.is_dir() and out.resolve().is_relative_to(given.resolve()):
        raise UsageError(f"{out} is inside {given}: the next run would take it for a "
                         "student's entry; write the results elsewhere")
    keeping = args.resume or args.retry_errors
    others = batch.foreign(out)
    if others and not (keeping or args.force):
        more = f" and {len(others) - 3} more" if len(others) > 3 else ""
        raise UsageError(f"{out} holds files that are not a batch's results "
                         f"({', '.join(others[:3])}{more}); give a new or empty folder, or "
                         "--force to write into it anyway")
    if batch.earlier(out) and not keeping:
        print(f"note: {out} holds an earlier run's results: every student is graded again "
              "(--resume keeps the reports of unchanged files)", file=sys.stderr)


def _jobs(args: argparse.Namespace) -> int:
    """--jobs where given, else the cores."""
    jobs = args.jobs if args.jobs is not None else os.cpu_count() or 1
    if jobs < 1:
        raise UsageError("--jobs must be at least 1")
    return jobs


def _batch_options(args: argparse.Namespace, exercise: exercises.Exercise) -> batch.Options:
    jobs = _jobs(args)
    limits = _limits(exercise, args)
    _batch_output(args)
    exclude = Path(args.similar_exclude) if args.similar_exclude else None
    if exclude and not exclude.is_dir():
        raise UsageError(f"--similar-exclude {exclude}: not a folder")
    return batch.Options(jobs=jobs, resume=args.resume, retry_errors=args.retry_errors,
                         limits=limits, similar_exclude=exclude)


def _limit_words(args: argparse.Namespace) -> list[str]:
    """The limit flags given, as words of a command line."""
    words: list[str] = []
    for flag, _ in LIMIT_FLAGS:
        value = getattr(args, flag.replace("-", "_"))
        if value is not None:
            words += [f"--{flag}", f"{value:g}"]
    return words


def _resume_command(args: argparse.Namespace, jobs: int) -> str:
    return shlex.join(["minimax-grader", "batch", "--exercise", args.exercise, "--sandbox",
                       args.sandbox, "--jobs", str(jobs), *_limit_words(args), args.submissions,
                       "-o", args.output, "--resume"])


def _batch_report(outcome: batch.Outcome, args: argparse.Namespace, jobs: int,
                  console: Console) -> None:
    counts = outcome.summary["counts"]
    mean = outcome.summary["scores"]["mean"]
    table = Table(title=f"{outcome.summary['title']} ({outcome.summary['exercise']})",
                  show_header=False)
    table.add_column("what")
    table.add_column("count", justify="right")
    for what, count in (("students", counts["students"]),
                        ("graded by this run", outcome.graded_now),
                        ("kept from an earlier run", outcome.kept),
                        ("full marks", counts["full_marks"]), ("rejected", counts["rejected"]),
                        ("grader errors", counts["errors"]), ("pending", counts["pending"]),
                        ("mean score", "-" if mean is None else f"{mean:g}")):
        table.add_row(what, str(count))
    console.print(table)
    if outcome.summary["identical"]:
        groups = outcome.summary["identical"]
        console.print(f"{sum(map(len, groups))} students handed in identical files "
                      f"({len(groups)} group(s), each graded once; see summary.json)")
    if outcome.summary["ignored"]:
        console.print("ignored (no student's entry): " + ", ".join(outcome.summary["ignored"]))
    if outcome.set_aside:
        names = intake.capped(map(summary.shown_id, outcome.set_aside))
        console.print(f"not in {args.submissions}: the reports of {len(outcome.set_aside)} "
                      f"student(s) were moved to {Path(args.output) / batch.ASIDE} and are "
                      f"not in the gradebook: {', '.join(names)}")
    for entry in outcome.summary["regrade"]:
        console.print(f"error: {summary.shown_id(entry['student'])}: {entry['reason']}")
    if outcome.summary["regrade"]:
        console.print(f"{len(outcome.summary['regrade'])} grader error(s): grade them again "
                      "with --retry-errors")
    console.print(f"wrote {args.output}/: reports/, grades.csv, summary.json, index.html "
                  f"in {outcome.seconds:.1f} s")
    if outcome.interrupted:
        console.print(f"interrupted: {counts['pending']} student(s) not graded. Resume with:\n"
                      f"  {_resume_command(args, jobs)}")


def _grade_class(exercise: exercises.Exercise, the_class: roster.Roster,
                 args: argparse.Namespace, options: batch.Options) -> batch.Outcome:
    chosen = _isolated(args.sandbox, options.jobs)
    console = Console(stderr=True, highlight=False, markup=False)
    try:
        return batch.Batch(exercise, chosen, args.output, options, console).run(the_class)
    finally:
        with batch.held_off():  # a Ctrl-C here would leave warm containers behind
            grading.close(chosen)


def cmd_batch(args: argparse.Namespace) -> int:
    exercise = _exercise(args.exercise)
    options = _batch_options(args, exercise)
    with roster.read(args.submissions, files=exercise.files) as the_class:
        if not the_class.entries:
            raise UsageError(f"{args.submissions}: no student's entry in it (a subfolder, "
                             "a .py file or a .zip per student)")
        outcome = _grade_class(exercise, the_class, args, options)
    _batch_report(outcome, args, options.jobs,
                  Console(highlight=False, markup=False, soft_wrap=True))
    return outcome.exit_code


def _check_cases(args: argparse.Namespace) -> list[solutions.Case]:
    """The cases check-solutions grades, from the checkout's solutions/ or the
    folder --solutions names: the reference solutions (and, with --play, those
    graded by play), then the corpus unless left out."""
    root = places.SOLUTIONS if args.solutions is None else Path(args.solutions)
    if args.solutions is None and not root.is_dir():
        raise UsageError("this installation holds no solutions/ (an installed wheel never "
                         "does): give a folder of them with --solutions DIR")
    try:
        found = solutions.built_in(corpus=not args.solutions_only, root=root)
        found += solutions.by_play(root) if args.play else []
    except solutions.BadSolutions as exc:
        raise UsageError(f"--solutions {exc}" if args.solutions else str(exc)) from None
    if not found:
        raise UsageError(f"{root} holds no reference solution nor corpus case: each exercise's "
                         "are in <id>/solution/ and <id>/corpus/<case>/")
    return found


def cmd_check_solutions(args: argparse.Namespace) -> int:
    exercises.load_all()  # an exercise.toml with bad limits is refused before any grading
    cases = _check_cases(args)
    jobs = _jobs(args)
    chosen = grading.open_sandbox(args.sandbox)
    table = Table(title="check-solutions")
    for column in ("case", "expected", "score", "verdict"):
        table.add_column(column)
    surprises = 0
    for case, report, problems in solutions.check_all(cases, chosen, jobs):
        surprises += bool(problems)
        score = "-" if report["score"] is None else f"{report['score']:g}/{report['max_score']:g}"
        expected = "full marks" if case.full_marks else f"lost marks ({case.mistake or '-'})"
        table.add_row(case.label, expected, score, "; ".join(problems) or "as expected")
    console = Console(markup=False, highlight=False)
    console.print(table)
    console.print(f"{surprises} surprise(s)")
    return 1 if surprises else 0


def cmd_image(args: argparse.Namespace) -> int:
    from grader import image

    try:
        client = image.connect()
    except image.NoEngine as exc:
        raise UsageError(str(exc)) from None
    from docker.errors import DockerException

    tag = args.tag or image.default_tag()
    try:
        if not args.force and not image.problem(client, tag):
            print(f"{tag} is up to date; nothing to do (--force rebuilds it)")
        else:
            built, seconds = image.build(client, base=args.base, tag=tag, force=args.force)
            print(f"built {tag} ({built.short_id}) in {seconds:.0f} s")
        _code_volumes(client, tag)
        _other_images(client, tag, args.prune)
    except (image.WheelhouseError, image.BuildFailed) as exc:  # says why and what to do
        raise UsageError(str(exc)) from None
    except DockerException as exc:  # a --tag the engine refuses, an engine that fails
        raise UsageError(f"the Docker engine refused: {image.said(exc)}") from None
    return 0


def _code_volumes(client: "DockerClient", tag: str) -> None:
    """Make the image's code volumes now, rather than beside its first gradings,
    and say which of its folders they serve."""
    from grader.sandbox import docker_code
    from grader.sandbox.containers import labels

    folders = docker_code.ensure(client, tag, labels())
    print(f"its Python folders are served from volumes: {', '.join(folders)}" if folders else
          "its code volumes could not be made: its containers read the image's layers")


def _other_images(client: "DockerClient", tag: str, prune: bool) -> None:
    """List the other grading images here, or remove them with --prune."""
    from grader import image

    if not prune:
        if others := image.others(client, tag):
            print(f"other grading images here (another checkout's or version's; --prune "
                  f"removes them): {', '.join(others)}")
        return
    removed, kept = image.prune(client, tag)
    print(f"removed {len(removed)} other grading image(s)"
          + "".join(f"\n  {name}" for name in removed))
    for why in kept:
        print(f"kept {why}")
    from grader.sandbox import docker_code

    print(f"removed {docker_code.prune(client)} code volume(s) of images no longer here")


def cmd_gradescope_package(args: argparse.Namespace) -> int:
    from grader.gradescope import package as gradescope_package
    from grader.image import WheelhouseError

    exercise = _with_suite(args.exercise, "the Gradescope package")
    target = files.output(args.output, example="autograder.zip")
    try:
        names = gradescope_package.build(exercise, target)
    except WheelhouseError as exc:
        raise UsageError(str(exc)) from None
    size = ""
    if target.atomic:
        assert target.path is not None  # an atomic target is a file
        size = f", {target.path.stat().st_size / 1e6:.1f} MB"
    print(f"wrote {args.output} ({len(names)} files{size}): the Gradescope autograder of "
          f"{exercise.id}; upload it to a programming assignment whose students hand in "
          f"{', '.join(exercise.files)}", file=sys.stdout if target.path else sys.stderr)
    return 0


def _service_extra() -> None:
    """Refuse, with the way out, where the service's packages are not installed."""
    missing = [name for name in ("sqlalchemy", "alembic", "starlette", "uvicorn", "jinja2",
                                 "celery", "psycopg", "pylti1p3", "prometheus_client",
                                 "pythonjsonlogger")
               if importlib.util.find_spec(name) is None]
    if missing:
        raise UsageError(f"the web service needs {', '.join(missing)}: install the grader with "
                         "its service extra (pip install 'minimax-grader[service]', or "
                         "pip install -e '.[service]' in a checkout)")


def cmd_serve(args: argparse.Namespace) -> int:
    _service_extra()
    from grader.service import server
    from grader.service.options import Options

    if args.workers < 1:
        raise UsageError("--workers must be at least 1")
    options = Options(data=Path(args.data), database=args.database, sandbox=args.sandbox,
                      workers=args.workers, broker=args.broker)
    roster = Path(args.roster) if args.roster else None
    return server.serve(options, args.host, args.port, roster, args.new_instructor_link,
                        watch.Watch.of(args), args.public_url)


def cmd_worker(args: argparse.Namespace) -> int:
    _service_extra()
    from grader.service import host
    from grader.service.options import Options

    if args.concurrency < 1:
        raise UsageError("--concurrency must be at least 1")
    options = Options(data=Path(args.data), database=args.database, sandbox=args.sandbox,
                      broker=args.broker)
    return host.run(options, args.concurrency, args.pretend_image, watch.Watch.of(args))


def cmd_lti(args: argparse.Namespace) -> int:
    _service_extra()
    from grader.service.lti import commands

    return commands.run(args)


LIMIT_FLAGS = (("call-seconds", float), ("test-seconds", float), ("total-seconds", float),
               ("memory-mb", int))


def _limit_flags(command: argparse.ArgumentParser) -> None:
    """The flags that override an exercise's limits (read by ``_limits``)."""
    for flag, kind in LIMIT_FLAGS:
        floor = exercises.Limits.FLOORS[flag.replace("-", "_")][0]
        command.add_argument(f"--{flag}", type=kind,
                             help=f"override the exercise's limit (at least {floor})")


def _exercises_flag(command: argparse.ArgumentParser) -> argparse.ArgumentParser:
    command.add_argument("--exercises", action="append", metavar="DIR", help=(
        "a folder of your own exercises, one folder each as the built-in ones (repeatable): "
        "added beside them"))
    return command


class Parser(argparse.ArgumentParser):
    """A parser that takes no abbreviation of an option: ``--exercise`` is never
    ``--exercises``, nor an option of a later version what an older one abbreviates."""

    def __init__(self, **options: Any) -> None:
        super().__init__(allow_abbrev=False, **options)


def parser() -> argparse.ArgumentParser:
    top: argparse.ArgumentParser = Parser(prog="minimax-grader", description=(
        "Grade the minimax exercises of an intro-AI course."))
    top.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands: "argparse._SubParsersAction[argparse.ArgumentParser]" = top.add_subparsers(
        dest="command", required=True, parser_class=Parser)

    _exercises_flag(commands.add_parser("list", help="the exercises, with files and points"))

    stub = _exercises_flag(commands.add_parser("stub", help="write an exercise's starter files"))
    stub.add_argument("exercise")
    stub.add_argument("dir", nargs="?", default=".")
    stub.add_argument("--force", action="store_true", help="overwrite existing files")

    grade = _exercises_flag(commands.add_parser("grade", help="grade one submission"))
    grade.add_argument("--exercise", required=True)
    grade.add_argument("--sandbox", choices=("auto", "docker", "local"), default="auto")
    grade.add_argument("--format", choices=sorted(render.RENDERERS), default="text")
    grade.add_argument("-o", "--output", help=(
        "write the report here instead of stdout: a file (replaced whole), a device or a "
        "named pipe (written through), or - for stdout"))
    _limit_flags(grade)
    grade.add_argument("--quick", action="store_true", help=(
        "an agent graded by play: a self-check of a few games an opponent (the grade plays "
        "up to the exercise's match.toml's)"))
    grade.add_argument("submission", help="a folder, the .py file itself, or a .zip")

    many = commands.add_parser("batch", help="grade a whole class", description=(
        "Grade every student's entry in SUBMISSIONS (a folder, or a .zip of one, holding a "
        "subfolder, a .py file or a .zip per student; the entry's name is the student's id). "
        "Writes OUTDIR/reports/<student>.json and .txt, grades.csv, summary.json and "
        "index.html; OUTDIR must be new, empty or an earlier run's results (else --force), "
        "and the reports of students no longer in SUBMISSIONS are moved to "
        f"OUTDIR/{batch.ASIDE}/. Exit status: 0 all graded, 1 some grader errors "
        "(--retry-errors), 2 usage error, 130 interrupted (--resume)."))
    many.add_argument("--exercise", required=True)
    many.add_argument("submissions", metavar="SUBMISSIONS")
    many.add_argument("-o", "--output", metavar="OUTDIR", required=True)
    many.add_argument("--jobs", type=int, help="submissions graded at once (default: the cores)")
    many.add_argument("--sandbox", choices=("docker", "local"), default="docker", help=(
        "docker (the default; refused when no engine answers) or local, a boundary only "
        "where bubblewrap is installed"))
    many.add_argument("--resume", action="store_true",
                      help="keep the reports of students whose files are unchanged")
    many.add_argument("--retry-errors", action="store_true",
                      help="as --resume, and grade again the students whose report is an error")
    many.add_argument("--force", action="store_true", help=(
        "write into OUTDIR even though it holds files that are not a batch's results"))
    many.add_argument("--similar-exclude", metavar="DIR", help=(
        "a folder of published solutions (its .py files, at any depth): code found there "
        "is no evidence of copying, as the starter's is not"))
    _limit_flags(many)
    _exercises_flag(many)

    image = commands.add_parser("image", help="the Docker sandbox's grading image")
    image_commands = image.add_subparsers(dest="image_command", required=True)
    build = image_commands.add_parser("build", help="build the grading image (no registry needed)")
    build.add_argument("--base", default="auto", help=(
        "the base image: auto (python:3.11-slim or the Debian-made base if present; else "
        "one made from Debian's packages with debootstrap, as root; else python:3.11-slim "
        "pulled), or any image name with python3 and pip (pulled if absent)"))
    build.add_argument("--tag", help=(
        f"the image's name (default: minimax-grader:{__version__}-HASH, HASH a hash of what "
        "it holds; or $MINIMAX_GRADER_IMAGE)"))
    build.add_argument("--force", action="store_true", help="rebuild even when up to date")
    _exercises_flag(build)  # their suites go into the image, for the Docker sandbox
    build.add_argument("--prune", action="store_true", help=(
        "remove the other grading images here (older versions', other checkouts'); "
        "those a container uses are kept"))

    package = commands.add_parser(
        "gradescope-package", help="write the autograder.zip to upload to Gradescope")
    package.add_argument("--exercise", required=True)
    package.add_argument("-o", "--output", default="autograder.zip", help=(
        "the zip to write: a file (replaced whole), a device or a named pipe, or - for stdout"))

    check = commands.add_parser(
        "check-solutions", help="prove the reference solutions and the test corpus")
    check.add_argument("--solutions", metavar="DIR", help=(
        "a folder of solutions: DIR/<exercise>/solution/ and DIR/<exercise>/corpus/<case>/ "
        "with an expect.toml each (default: the checkout's solutions/, which an installed "
        "wheel does not hold)"))
    check.add_argument("--sandbox", choices=("docker", "local"), default="local")
    check.add_argument("--jobs", type=int, help="cases graded at once (default: the cores)")
    check.add_argument("--solutions-only", action="store_true",
                       help="skip the corpus of wrong submissions")
    check.add_argument("--play", action="store_true", help=(
        "also play the references graded by play (the agent's whole match against the "
        "baselines: many minutes, so left out unless asked for)"))
    _exercises_flag(check)

    serve = commands.add_parser("serve", help="run the web service students hand in to")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--public-url", metavar="URL", help=(
        "the address students and staff reach it at (behind a proxy: https://...), "
        "which the links it prints start with (default: http://HOST:PORT)"))
    serve.add_argument("--data", default="grader-data", metavar="DIR",
                       help="the service's files and SQLite database (default: ./grader-data)")
    watch.url_flag(serve, "--database", operations.DATABASE,
                   "an SQLAlchemy database URL instead of DIR's SQLite file")
    serve.add_argument("--sandbox", choices=("docker", "local"), default="docker", help=(
        "docker (the default: while no engine answers or the grading image is missing, "
        "jobs wait) or local, which isolates nothing"))
    serve.add_argument("--workers", type=int, default=2, help="submissions graded at once")
    _exercises_flag(serve)
    serve.add_argument("--roster", metavar="CSV",
                       help="import students (columns name,email) and print their links")
    serve.add_argument("--new-instructor-link", action="store_true",
                       help="a new login link for the first instructor (the old one stops)")
    watch.url_flag(serve, "--broker", watch.BROKER, (
        "a Redis URL (redis:// or rediss://, with its password): grading hosts "
        "(minimax-grader worker) grade, this process only serves"))
    watch.watch_flags(serve, 9464)

    host = commands.add_parser("worker", help="grade the service's submissions on this host")
    watch.url_flag(host, "--broker", watch.BROKER, "the service's Redis URL",
                   required=True)
    watch.url_flag(host, "--database", operations.DATABASE,
                   "the service's SQLAlchemy database URL", required=True)
    host.add_argument("--data", default="grader-data", metavar="DIR", help=(
        "the service's data folder, shared with it, whose store holds the submissions' "
        "files (default: ./grader-data)"))
    host.add_argument("--concurrency", type=int, default=2, help="submissions graded at once")
    _exercises_flag(host)  # the service's own added folders, at the same place
    # For tests only: grading without isolation, and the image the host claims to have.
    host.add_argument("--sandbox", choices=("docker", "local"), default="docker",
                      help=argparse.SUPPRESS)
    host.add_argument("--pretend-image", help=argparse.SUPPRESS)
    watch.watch_flags(host, 9465)
    lti_commands.add_parser(commands)
    operations.add_parsers(commands)
    match_commands.add_parsers(commands)
    return top


COMMANDS = {"list": cmd_list, "stub": cmd_stub, "grade": cmd_grade, "batch": cmd_batch,
            "image": cmd_image, "gradescope-package": cmd_gradescope_package,
            "check-solutions": cmd_check_solutions, "serve": cmd_serve, "worker": cmd_worker,
            "lti": cmd_lti, **match_commands.COMMANDS, **operations.COMMANDS}


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        for folder in getattr(args, "exercises", None) or ():
            exercises.add(Path(folder), check=match_config.check_played)
        return COMMANDS[args.command](args)
    except (UsageError, exercises.BadExercise, files.BadOutput) as exc:
        print(f"minimax-grader: error: {exc}", file=sys.stderr)
        return USAGE_ERROR
