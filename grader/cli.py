"""The command line: list, stub, grade, check-solutions."""

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

from rich.console import Console
from rich.table import Table

from grader import __version__, exercises, grading, intake, render, sandbox, solutions

USAGE_ERROR = 2


class UsageError(Exception):
    pass


def _exercise(name):
    try:
        return exercises.load(name)
    except exercises.UnknownExercise as exc:
        raise UsageError(str(exc)) from None


def cmd_list(args):
    table = Table(title="minimax-grader exercises")
    for column in ("id", "title", "files", "points", "tests"):
        table.add_column(column)
    for exercise in exercises.load_all():
        table.add_row(exercise.id, exercise.title, ", ".join(exercise.files),
                      f"{exercise.max_score:g}", str(len(exercise.tests)))
    Console(markup=False, highlight=False).print(table)
    return 0


def cmd_stub(args):
    exercise = _exercise(args.exercise)
    target = Path(args.dir)
    starters = sorted(p for p in exercise.starter.iterdir() if p.is_file())
    clashes = [p.name for p in starters if (target / p.name).exists()]
    if clashes and not args.force:
        raise UsageError(f"{', '.join(clashes)} already in {target}; "
                         "nothing was written (use --force to overwrite)")
    target.mkdir(parents=True, exist_ok=True)
    for path in starters:
        shutil.copyfile(path, target / path.name)
        print(f"wrote {target / path.name}")
    return 0


def _write(text, destination):
    """Write ``text`` whole or not at all (temp file, then rename)."""
    destination = Path(destination)
    handle = tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=destination.parent or ".",
                                         prefix=f".{destination.name}.", delete=False)
    with handle:
        handle.write(text)
    os.replace(handle.name, destination)


def _limits(exercise, args):
    return exercise.limits.override(
        call_seconds=args.call_seconds, test_seconds=args.test_seconds,
        total_seconds=args.total_seconds, memory_mb=args.memory_mb)


def cmd_grade(args):
    exercise = _exercise(args.exercise)
    if args.output and not Path(args.output).resolve().parent.is_dir():
        raise UsageError(f"{args.output}: its folder does not exist")
    try:
        intake.kind(args.submission)
    except intake.UsageError as exc:
        raise UsageError(str(exc)) from None
    chosen = sandbox.choose(args.sandbox, warn=lambda text: print(text, file=sys.stderr))
    report = grading.grade(exercise, args.submission, chosen, _limits(exercise, args))
    text = render.RENDERERS[args.format](report)
    if args.output:
        _write(text, args.output)
        print(report["message"])
    else:
        sys.stdout.write(text)
    return 0


def cmd_check_solutions(args):
    root = Path(args.root)
    if not (root / "solutions").is_dir():
        raise UsageError(f"{root}: no solutions/ folder here (run it in a source checkout "
                         "or give --root)")
    chosen = sandbox.backend(args.sandbox)
    table = Table(title="check-solutions")
    for column in ("case", "expected", "score", "verdict"):
        table.add_column(column)
    surprises = 0
    for case in solutions.cases(root, corpus=not args.solutions_only):
        report, problems = solutions.check(case, chosen)
        surprises += bool(problems)
        score = "-" if report["score"] is None else f"{report['score']:g}/{report['max_score']:g}"
        expected = "full marks" if case.full_marks else f"lost marks ({case.mistake or '-'})"
        table.add_row(case.label, expected, score, "; ".join(problems) or "as expected")
    console = Console(markup=False, highlight=False)
    console.print(table)
    console.print(f"{surprises} surprise(s)")
    return 1 if surprises else 0


def cmd_image(args):
    from grader import image
    from grader.sandbox import SandboxUnavailable
    from grader.sandbox.docker import connect

    try:
        client = connect()
    except SandboxUnavailable as exc:
        raise UsageError(str(exc)) from None
    if not args.force and not image.problem(client, args.tag):
        print(f"{args.tag} is up to date; nothing to do (--force rebuilds it)")
        return 0
    built, seconds = image.build(client, base=args.base, tag=args.tag)
    print(f"built {args.tag} ({built.short_id}) in {seconds:.0f} s")
    return 0


def parser():
    top = argparse.ArgumentParser(prog="minimax-grader", description=(
        "Grade the minimax exercises of an intro-AI course."))
    top.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = top.add_subparsers(dest="command", required=True)

    commands.add_parser("list", help="the exercises, with files and points")

    stub = commands.add_parser("stub", help="write an exercise's starter files")
    stub.add_argument("exercise")
    stub.add_argument("dir", nargs="?", default=".")
    stub.add_argument("--force", action="store_true", help="overwrite existing files")

    grade = commands.add_parser("grade", help="grade one submission")
    grade.add_argument("--exercise", required=True)
    grade.add_argument("--sandbox", choices=("auto", "docker", "local"), default="auto")
    grade.add_argument("--format", choices=sorted(render.RENDERERS), default="text")
    grade.add_argument("-o", "--output", help="write the report here instead of stdout")
    for limit, kind in (("call-seconds", float), ("test-seconds", float),
                        ("total-seconds", float), ("memory-mb", int)):
        grade.add_argument(f"--{limit}", type=kind, help="override the exercise's limit")
    grade.add_argument("submission", help="a folder, the .py file itself, or a .zip")

    image = commands.add_parser("image", help="the Docker sandbox's grading image")
    image_commands = image.add_subparsers(dest="image_command", required=True)
    build = image_commands.add_parser("build", help="build the grading image (no registry needed)")
    build.add_argument("--base", default="auto", help=(
        "the base image: auto (python:3.11-slim if present, else one made from Debian's "
        "packages with docker/make-base-image), or any image name"))
    build.add_argument("--tag", default=f"minimax-grader:{__version__}")
    build.add_argument("--force", action="store_true", help="rebuild even when up to date")

    check = commands.add_parser(
        "check-solutions", help="prove the reference solutions and the test corpus")
    check.add_argument("--root", default=str(solutions.ROOT), help="the source checkout")
    check.add_argument("--sandbox", choices=("docker", "local"), default="local")
    check.add_argument("--solutions-only", action="store_true",
                       help="skip the corpus of wrong submissions")
    return top


COMMANDS = {"list": cmd_list, "stub": cmd_stub, "grade": cmd_grade, "image": cmd_image,
            "check-solutions": cmd_check_solutions}


def main(argv=None):
    args = parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except (UsageError, exercises.BadExercise) as exc:
        print(f"minimax-grader: error: {exc}", file=sys.stderr)
        return USAGE_ERROR
