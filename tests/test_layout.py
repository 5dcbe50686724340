"""The trust boundary and the package's shape, kept by reading the imports.

The host (``grader`` but the parts below) and the harness (what runs in a
sandbox, the exercises' suites included) import nothing of each other but
the one module the host reads the harness's sources with: they meet in
``grader.contracts``. ``grader.games`` is pure game logic that both may use.
Among the host's packages the arrows run one way (``ABOVE``). Imports are
read with ``ast`` from every module, those inside functions included, so a
lazy import can't slip past. These are the rules docs/architecture.md states.
"""

import ast
import re
import sys
import tomllib
from pathlib import Path

import pytest

from grader import solutions
from grader.contracts import hints, places

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "grader"
SUITES = ROOT / "exercises"  # each exercise's suite runs in the sandbox, beside the harness
# requests: the Docker SDK's transport, whose errors the Docker sandbox tells apart.
THIRD_PARTY = {"pytest", "_pytest", "pytest_timeout", "jsonschema", "rich", "docker", "requests",
               # the web service (grader.service): its data, pages, server and grading hosts
               "sqlalchemy", "alembic", "starlette", "uvicorn", "jinja2", "celery", "redis",
               # LTI 1.3: the library, and the tool's keys
               "pylti1p3", "cryptography",
               # the agent league's ratings
               "openskill",
               # the service's code view and similar hand-ins (copydetect computes with numpy)
               "pygments", "markupsafe", "copydetect", "numpy",
               # what an operator watches: metrics, and log lines as JSON
               "prometheus_client", "pythonjsonlogger"}
# The lesson's modules, which the worker and the students' self-check import
# from the run's own folder: the course's, or the student's.
LESSON = {"gamestate", "minimax_helpers", "minimax"}
# Handed to students as it is: it runs beside their files, with no grader.
HANDOUT = "grader.selfcheck"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    found = {module_name(path): path for path in sorted(SUITES.glob("*/suite/**/*.py"))}
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative.startswith("data/"):
            continue  # the provided modules: the student's side
        if module_name(path) == HANDOUT:
            continue
        found[module_name(path)] = path
    return found


MODULES = modules()


def part(module: str) -> str:
    """Which side a module of ours is on."""
    if module.startswith("exercises."):
        return "harness"  # the suites run in the sandbox
    for side in ("harness", "contracts", "games"):
        if module == f"grader.{side}" or module.startswith(f"grader.{side}."):
            return side
    return "host"


def imports(path: Path) -> set[str]:
    """Every module ``path`` imports, anywhere in it: a name of ours is the
    module itself where ``from X import name`` names a module, else X."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                child = f"{node.module}.{alias.name}"
                found.add(child if child in MODULES else node.module)
    return found


def ours(names: set[str]) -> set[str]:
    return {name for name in names if name.split(".")[0] == "grader"}


# What each side may import of ours, besides the standard library.
ALLOWED = {
    "host": {"host", "contracts", "games"},
    "harness": {"harness", "contracts", "games"},
    "contracts": {"contracts"},
    "games": {"games"},
}
# The one module of the harness the host may import: it only reads the
# harness's sources, to list what a process in a bubblewrap view or an agent's
# container may see (and imports only the standard library: see below).
HOST_READS = {"grader.harness.runtime.closure"}
# And of the installed packages: the sandbox holds Python, pytest, pytest-timeout and
# hypothesis (which draws the trees a failing search is shown on).
ALLOWED_THIRD_PARTY = {
    "host": THIRD_PARTY,
    "harness": {"pytest", "_pytest", "pytest_timeout", "hypothesis", *LESSON},
    "contracts": set(),
    "games": set(),
}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_each_side_imports_only_what_it_may(module):
    side = part(module)
    crossing = []
    for name in imports(MODULES[module]):
        top = name.split(".")[0]
        if top == "grader":
            if name != "grader" and part(name) not in ALLOWED[side] and \
                    not (side == "host" and name in HOST_READS):
                crossing.append(name)
        elif top not in sys.stdlib_module_names and top not in ALLOWED_THIRD_PARTY[side]:
            crossing.append(name)
    assert not crossing, f"{module} ({side}) imports {sorted(crossing)}"


def test_what_the_host_reads_of_the_harness_imports_only_the_standard_library():
    # So the host's one import of the harness brings in nothing else of it.
    for module in HOST_READS:
        taken = {name.split(".")[0] for name in imports(MODULES[module])}
        assert taken <= sys.stdlib_module_names, f"{module} imports {sorted(taken)}"


# What of grader.contracts.run the harness may take: the uids a run may hold, which
# the launcher checks. Its Run, a run's result, is the host's alone: the report
# reads it there so as not to import the sandbox package.
RUN_CROSSES = {"SLOT_UIDS"}


def names_taken(path: Path, module: str) -> set[str]:
    """The names ``path`` takes from ``module`` (``from module import name``), and
    "*" where it imports the module whole (``import module``, ``from package
    import module``)."""
    package, _, last = module.rpartition(".")
    taken = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0:
            if node.module == module:
                taken.update(alias.name for alias in node.names)
            elif node.module == package and last in {alias.name for alias in node.names}:
                taken.add("*")
        elif isinstance(node, ast.Import) and module in {alias.name for alias in node.names}:
            taken.add("*")
    return taken


def test_the_harness_takes_of_a_run_only_the_uids_it_may_hold():
    taken = {module: names_taken(path, "grader.contracts.run")
             for module, path in MODULES.items() if part(module) == "harness"}
    assert {name for names in taken.values() for name in names} <= RUN_CROSSES, taken
    assert any(taken.values())  # the launcher checks its uids


def within(module: str, package: str) -> bool:
    return module == package or module.startswith(f"{package}.")


# The host's arrows that run one way: each module or package imports nothing of
# those above it. What two of them share lies below both: the exercises' loader
# reads a match.toml's header itself; what the match and the service share of
# running on hosts is grader.hosting's; what the match and batch make of pages,
# grader.pages's.
ABOVE = {
    "grader.exercises": ("grader.match", "grader.service", "grader.batch"),
    "grader.match": ("grader.service", "grader.batch"),
    "grader.hosting": ("grader.match", "grader.service", "grader.batch"),
    "grader.pages": ("grader.match", "grader.service", "grader.batch"),
}


def reaching_up(below: str, above: tuple[str, ...],
                modules: dict[str, Path] = MODULES) -> dict[str, list[str]]:
    """The modules of ``below`` that import any of ``above``, with what they import."""
    found = {module: sorted(name for name in ours(imports(path))
                            if any(within(name, top) for top in above))
             for module, path in modules.items() if within(module, below)}
    return {module: names for module, names in found.items() if names}


@pytest.mark.parametrize("below", sorted(ABOVE))
def test_no_arrow_runs_back_up(below):
    assert any(within(module, below) for module in MODULES), below  # still there
    assert not reaching_up(below, ABOVE[below])


def test_an_arrow_back_up_is_seen(tmp_path):
    lazy = tmp_path / "config.py"
    lazy.write_text("def read():\n    from grader.match import config\n    return config\n")
    assert reaching_up("grader.exercises", ABOVE["grader.exercises"],
                       {"grader.exercises": lazy}) == {"grader.exercises": ["grader.match.config"]}


def test_what_students_are_handed_imports_nothing_of_the_grader():
    # The trusted game is the students' gamestate.py: a file of its own.
    assert imports(PACKAGE / "games" / "isolation" / "rules.py") == set()
    # The corpus's submissions are not handed out: some of them reach into the grader.
    handed = [PACKAGE / "selfcheck.py", *(PACKAGE / "data").rglob("*.py"),
              *SUITES.glob("*/starter/**/*.py"), *SUITES.glob("*/check.py")]
    for path in handed:
        assert not ours(imports(path)), path


# The modules that may name solutions/: the record of where things lie, and
# check-solutions (the command and its module). Nothing that builds the wheel,
# the image or a handout, nor any sandbox, reads it.
SOLUTIONS_READERS = {"grader.contracts.places", "grader.solutions", "grader.cli"}


def test_only_check_solutions_names_the_solutions_folder():
    naming = {module for module, path in MODULES.items()
              if "SOLUTIONS" in path.read_text("utf-8") or '"solutions"' in path.read_text(
                  "utf-8")}
    assert naming <= SOLUTIONS_READERS, sorted(naming - SOLUTIONS_READERS)
    assert "grader.solutions" in naming


# What any exercise may use: the shared core. The search exercises' checks,
# declared for any game, still lie in the isolation family's folder.
CORE = ("grader.contracts", "grader.harness.checking", "grader.harness.runtime",
        "grader.harness.lesson.helper_checks", "grader.harness.lesson.decision_checks",
        "grader.harness.lesson.cutoff_checks", "grader.harness.lesson.deepening_checks")
# docs/authoring.md's worked example of an instructor's exercise, laid out as
# exercises/ and solutions/ are: held to the same rules, and named by no module.
EXAMPLE = ROOT / "tests" / "examples"
EXERCISES = sorted(p for root in (SUITES, EXAMPLE / "exercises") for p in root.iterdir()
                   if (p / "exercise.toml").is_file())


def _game(folder: Path) -> str:
    return tomllib.loads((folder / "exercise.toml").read_text("utf-8")).get("game", "isolation")


# The harness family of a game where it is not named for the game: the lesson's
# family checks every game that speaks the lesson's GameState.
FAMILIES = {"isolation": "lesson", "kayles": "lesson"}


@pytest.mark.parametrize("folder", EXERCISES, ids=lambda folder: folder.name)
def test_an_exercise_folder_names_nothing_outside_it_but_its_game_and_the_core(folder):
    # Its game: the rules (grader.games.<game>) and its family's checks (grader.harness.<family>).
    game = _game(folder)
    allowed = (*CORE, f"grader.games.{game}", f"grader.harness.{FAMILIES.get(game, game)}")
    named = {name for path in (folder / "suite").rglob("*.py") for name in ours(imports(path))}
    outside = {name for name in named if name != "grader.games"  # the games' interface
               and not any(name == a or name.startswith(f"{a}.") for a in allowed)}
    assert not outside, f"{folder.name} names {sorted(outside)}"
    # The mistakes its corpus expects have their hints here or in the shared file.
    known = hints.load([hints.SHARED, *folder.glob(hints.NAME)])
    answers = places.SOLUTIONS if folder.parent == SUITES else EXAMPLE / "solutions"
    corpus = solutions.corpus_folder(folder.name, answers)
    expected = {mistake for case in solutions._corpus_cases(folder.name, corpus)
                for mistake in case.mistakes}
    assert expected <= set(known), sorted(expected - set(known))


def test_no_module_names_the_worked_example():
    example = [p.name for p in (EXAMPLE / "exercises").iterdir()]
    assert example
    naming = {module for module, path in MODULES.items() if module.startswith("grader")
              and any(name in path.read_text("utf-8") for name in (*example, "examples/"))}
    assert not naming, sorted(naming)


def test_an_id_named_in_two_hint_files_is_refused(tmp_path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / hints.NAME).write_text('stub = "Again."\n', encoding="utf-8")
    with pytest.raises(ValueError, match="mistake 'stub' is named in .*hints.toml too"):
        hints.load(hints.files(tmp_path))


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of ``graph`` as a list of modules, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(node: str, path: list[str]) -> list[str] | None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt] if nxt in path else [node, nxt]
            if nxt not in state and (found := visit(nxt, path + [nxt])):
                return found
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start, [start])):
            return found
    return None


def test_no_two_modules_import_each_other():
    graph = {module: ours(imports(path)) - {module} for module, path in MODULES.items()}
    assert cycle(graph) is None, " -> ".join(cycle(graph) or [])


def test_the_cycle_finder_finds_a_loop():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None


def test_the_worker_reads_only_its_closure():
    """The files the student's user may read in the image are the worker's
    imports, computed from its source (grader/harness/runtime/closure.py)."""
    sys.path.insert(0, str(PACKAGE / "harness" / "runtime"))
    try:
        import closure
    finally:
        sys.path.pop(0)
    readable = set(closure.worker_modules())
    assert {"grader.harness.runtime.worker", "grader.contracts.protocol",
            "grader.harness.runtime.guard"} <= readable
    # No check, no reference search, no suite: nothing that gives answers away.
    assert not {m for m in readable if part(m) == "host" and m != "grader"}
    families = ("grader.harness.checking", "grader.harness.lesson")
    assert not {m for m in readable if m.startswith(families)}
    # None of the games: their rules are sent to the worker, for the tests
    # granted stand-ins that run them, and the student's user can't read them.
    assert not {m for m in readable if part(m) == "games"}


# The one seam: a front end grades through grader.grading, which alone makes a
# report from a run (the report, the intake and the sandboxes aside), and each
# front end takes files in once, through the intake.
MAKES_REPORTS = {"grader.grading", "grader.report", "grader.intake"}
TAKES_FILES_IN = {"grader.grading", "grader.intake", "grader.service.uploads",
                  "grader.batch.roster", "grader.match.commands",
                  "grader.match.launch"}  # a league's students' folders, as an agent takes them


def calls(path: Path) -> set[str]:
    """Every ``module.function(...)`` call in ``path``, as ``module.function``."""
    return {f"{node.func.value.id}.{node.func.attr}"
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)}


@pytest.mark.parametrize("module", sorted(m for m in MODULES if part(m) == "host"))
def test_no_front_end_grades_around_grading(module):
    made = calls(MODULES[module])
    if module not in MAKES_REPORTS and not module.startswith("grader.sandbox"):
        assert not made & {"report.build", "report.rejected", "report.grader_error"}, module
    if module not in TAKES_FILES_IN:
        assert not {call for call in made if call.startswith("intake.take")}, module


def test_the_seam_rule_sees_a_call(tmp_path):
    source = tmp_path / "front.py"
    source.write_text("from grader import intake\ndef f(p):\n    return intake.take(p, ())\n")
    assert calls(source) == {"intake.take"}
    assert {"report.build", "intake.take_for"} <= calls(PACKAGE / "grading.py")


# A class holds one concern: past this many public methods (properties included) it
# holds several, to be split into classes each holding one (as the service's parts are).
MOST_PUBLIC_METHODS = 15
# The classes that may hold more, each with its reason.
MANY_METHODS = {
    "grader.games.knights.rules.QueenBoard":
        "the students' Board interface, method for method: their agents call it",
}


def public_methods(path: Path) -> dict[str, int]:
    """Each class of ``path`` (by its name), with its count of public methods."""
    return {node.name: sum(1 for item in node.body
                           if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                           and not item.name.startswith("_"))
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.ClassDef)}


def test_no_class_holds_more_than_a_few_public_methods():
    counted = {f"{module}.{name}": count for module, path in MODULES.items()
               if module.startswith("grader.") for name, count in public_methods(path).items()}
    many = {name for name, count in counted.items() if count > MOST_PUBLIC_METHODS}
    assert many <= set(MANY_METHODS), sorted(many - set(MANY_METHODS))
    assert set(MANY_METHODS) <= many, "no longer an exception: " + \
        ", ".join(sorted(set(MANY_METHODS) - many))


def test_the_method_count_sees_properties_and_skips_private_ones(tmp_path):
    source = tmp_path / "parts.py"
    source.write_text("class A:\n    @property\n    def a(self): ...\n    def _b(self): ...\n"
                      "    async def c(self): ...\n    def __init__(self): ...\n")
    assert public_methods(source) == {"A": 2}


def test_no_module_takes_another_modules_private_names():
    # A name that starts with "_" is its module's own: another module asks for a
    # public one instead (dunders such as __version__ are public).
    taken = {(module, f"{node.module}.{alias.name}")
             for module, path in MODULES.items()
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(node, ast.ImportFrom) and node.level == 0
             and (node.module or "").split(".")[0] == "grader"
             for alias in node.names
             if alias.name.startswith("_") and not alias.name.startswith("__")}
    assert not taken, sorted(taken)


# Every HTML page renders through one shell (grader.pages): no module writes a
# document of its own, and every page template extends the shell, through its
# package's base or the offline page. A partial (named _*.html) is included, not
# a page; a template's parent is looked up in its own folder, then the shared one.
SHARED = PACKAGE / "pages" / "templates"
SHELL = SHARED / "shell.html"
PAGE_TEMPLATES = sorted(path for path in PACKAGE.glob("**/templates/*.html")
                        if not path.name.startswith("_"))


def test_no_module_writes_a_document_of_its_own():
    writing = {module for module, path in MODULES.items() if module.startswith("grader")
               and re.search(r"<!doctype|<html", path.read_text("utf-8"), re.I)}
    assert not writing, sorted(writing)


def parent(template: Path) -> Path | None:
    """The template ``template`` extends, or None."""
    found = re.match(r'\s*(?:{#.*?#}\s*)*{%\s*extends\s+"([^"]+)"\s*%}',
                     template.read_text("utf-8"), re.S)
    if not found:
        return None
    own = template.parent / found[1]
    return own if own.is_file() and own != template else SHARED / found[1]


@pytest.mark.parametrize("template", PAGE_TEMPLATES,
                         ids=lambda path: path.relative_to(PACKAGE).as_posix())
def test_every_page_template_extends_the_shell(template):
    chain = [template]
    while chain[-1] != SHELL and (above := parent(chain[-1])) and above not in chain:
        chain.append(above)
    assert chain[-1] == SHELL, " -> ".join(path.name for path in chain)
