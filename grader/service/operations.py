"""The operator's side: ``minimax-grader db upgrade``, ``status``, ``backup`` and
``restore``, and the database's URL from the environment, so that a password is
in no command line (``ps`` shows those to every user). What ``serve``, ``worker``
and ``match-host`` share (their log format, their metrics' port, the broker's
URL) is ``grader.hosting.watch``'s.

Nothing here imports the service's packages until a command runs: every
command of the grader builds these parsers.
"""

import argparse
import json
import sys
import urllib.error
import urllib.request
from pathlib import Path

from grader.hosting.watch import url_flag

DATABASE = "MINIMAX_GRADER_DATABASE"  # the database's URL, where --database is not given


def add_parsers(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    database = commands.add_parser("db", help="the service's database")
    actions = database.add_subparsers(dest="db_command", required=True)
    upgrade = actions.add_parser("upgrade", help=(
        "bring the database's schema to this version's (the units run it before start)"))
    upgrade.add_argument("--data", default="grader-data", metavar="DIR",
                         help="the service's data folder (default: ./grader-data)")
    url_flag(upgrade, "--database", DATABASE, "the service's SQLAlchemy database URL, if not "
                                              "DIR's SQLite file")
    status = commands.add_parser("status", help=(
        "whether the running service is ready: its database, store, grading image, broker "
        "and grading slots (exit status 0 ready, 1 not ready, 2 no answer)"))
    status.add_argument("--url", default="http://127.0.0.1:8000",
                        help="the service's address (default: http://127.0.0.1:8000)")
    keep = commands.add_parser("backup", help=(
        "copy the term (database with its LTI keys, stored files, published solutions) into "
        "DEST, a new folder or a new .tar.gz, with a manifest; the service may run"))
    keep.add_argument("destination", metavar="DEST")
    bring = commands.add_parser("restore", help=(
        "bring a backup (its folder or .tar.gz) back into a service's data folder or "
        "database, after checking its manifest; stop the service first"))
    bring.add_argument("source", metavar="SRC")
    bring.add_argument("--force", action="store_true",
                       help="replace the term the target holds (refused otherwise)")
    for command in (keep, bring):
        command.add_argument("--data", default="grader-data", metavar="DIR",
                             help="the service's data folder (default: ./grader-data)")
        url_flag(command, "--database", DATABASE, "the service's SQLAlchemy database URL, if "
                                                  "not DIR's SQLite file")


def cmd_db(args: argparse.Namespace) -> int:
    from grader.service import db

    data = Path(args.data)
    data.mkdir(mode=0o700, parents=True, exist_ok=True)  # serve's first start makes it so
    engine = db.connect(args.database or db.sqlite_url(data))
    try:
        before = db.revision(engine)
        db.migrate(engine)
        after = db.revision(engine)
    finally:
        engine.dispose()
    if before == after:
        print(f"the database is at revision {after}: up to date")
    else:
        print(f"the database was upgraded from revision {before or 'none (new)'} to {after}")
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    """Print the running service's readiness (its /readyz): 0 ready, 1 not, 2 no answer."""
    try:
        try:
            with urllib.request.urlopen(f"{args.url.rstrip('/')}/readyz", timeout=10) as answer:
                said = json.load(answer)
        except urllib.error.HTTPError as refused:  # 503: not ready, and why
            said = json.load(refused)
    except (OSError, ValueError) as exc:  # no answer, or not the service's
        print(f"{args.url}: no answer ({type(exc).__name__}: {exc})")
        return 2
    for name, check in said["checks"].items():
        print(f"{name:<9} {'ok' if check['ok'] else 'FAILING':<8} {check['detail']}")
    print("ready" if said["ready"] else "not ready")
    return 0 if said["ready"] else 1


def cmd_backup(args: argparse.Namespace) -> int:
    from grader.service import backup

    try:
        made = backup.backup(backup.Place(Path(args.data), args.database),
                             Path(args.destination))
    except backup.Refused as why:
        print(f"minimax-grader backup: not done: {why}", file=sys.stderr)
        return 1
    print(f"backed up into {args.destination}: {backup.summary(made)}")
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    from grader.service import backup

    place = backup.Place(Path(args.data), args.database)
    try:
        made = backup.restore(Path(args.source), place, args.force)
    except backup.Refused as why:
        print(f"minimax-grader restore: not done: {why}", file=sys.stderr)
        return 1
    where = args.data if place.kind == "sqlite" else f"{args.data} and the database"
    print(f"restored {args.source} into {where}: {backup.summary(made)}")
    return 0


COMMANDS = {"db": cmd_db, "status": cmd_status, "backup": cmd_backup, "restore": cmd_restore}
