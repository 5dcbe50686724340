"""`minimax-grader batch`: a whole class, resumable, interruptible, nothing lost."""

import csv
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
import zipfile

import pytest
from conftest import ROOT, corpus, left_behind, solution

from grader import batch, exercises, grading, report, sandbox
from grader.batch import roster
from grader.cli import _resume_command, main, parser
from grader.layouts import LAYOUTS
from grader.sandbox import SandboxUnavailable
from grader.sandbox.local import LocalSandbox

RIGHT = (solution("helpers") / "minimax_helpers.py").read_bytes()
FLIPPED = (corpus("helpers") / "flipped_utilities" / "minimax_helpers.py").read_bytes()
NAME = "minimax_helpers.py"


def make_class(folder):
    """A small class in every form an entry can take; returns the expected outcome."""
    folder.mkdir()
    (folder / "ann").mkdir()
    (folder / "ann" / NAME).write_bytes(RIGHT)
    (folder / "ann" / "scratch.txt").write_text("my notes")
    (folder / "bob.py").write_bytes(FLIPPED)
    with zipfile.ZipFile(folder / "cy.zip", "w") as archive:
        archive.writestr(f"work/{NAME}", FLIPPED)  # identical to bob's
    with zipfile.ZipFile(folder / "dan.zip", "w") as archive:
        archive.writestr(f"../{NAME}", RIGHT)  # unsafe: dan only is rejected
    (folder / "eve").mkdir()
    (folder / "eve" / "helpers.py").write_bytes(RIGHT)  # misnamed
    (folder / "fay.py").write_bytes((corpus("helpers") / "aggregation_swapped" / NAME).read_bytes())
    (folder / "README.txt").write_text("course staff notes")
    return {"ann": 10, "bob": 4, "cy": 4, "dan": 0, "eve": 0, "fay": 3}


def batch_cli(capsys, *argv):
    code = main(["batch", "--exercise", "helpers", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def read_reports(out):
    return {path.stem: json.loads(path.read_text()) for path in (out / "reports").glob("*.json")}


def test_a_class_through_the_local_sandbox(tmp_path, capsys):
    expected = make_class(tmp_path / "class")
    out = tmp_path / "out"
    code, stdout, stderr = batch_cli(capsys, tmp_path / "class", "-o", out, "--sandbox", "local",
                                     "--jobs", "2")
    assert code == 0, stdout + stderr
    assert ("not a security boundary" in stderr) != sandbox.local_is_boundary()  # without bwrap
    reports = read_reports(out)
    assert {s: r["score"] for s, r in reports.items()} == expected
    for student, made in reports.items():
        report.validate(made)
        text = (out / "reports" / f"{student}.txt").read_text()
        assert made["message"].split(":")[0] in text
    assert reports["ann"]["submission"]["ignored"] == ["scratch.txt"]
    assert "points outside the folder" in reports["dan"]["submission"]["rejected"]
    assert "minimax_helpers.py is missing (found: helpers.py)" in reports["eve"]["message"]
    assert reports["bob"]["tests"][2]["mistakes"] == ["flipped_utilities"]
    assert not list(out.rglob("*.part"))  # no temp file left behind

    with open(out / "grades.csv", newline="") as handle:
        rows = {row["student"]: row for row in csv.DictReader(handle)}
    assert sorted(rows) == sorted(expected)
    assert rows["ann"]["test_max_value"] == "3" and rows["bob"]["test_max_value"] == "0"
    assert {s: float(r["score"]) for s, r in rows.items()} == expected

    made = json.loads((out / "summary.json").read_text())
    assert made["counts"] == {"students": 6, "graded": 6, "full_marks": 1, "rejected": 2,
                              "errors": 0, "pending": 0}
    assert made["identical"] == [["bob", "cy"]] and made["ignored"] == ["README.txt"]
    assert made["mistakes"][0]["id"] == "flipped_utilities"
    assert made["mistakes"][0]["students"] == ["bob", "cy"]
    assert "2 students handed in identical files" in stdout
    assert "ignored (no student's entry): README.txt" in stdout
    html = (out / "index.html").read_text()
    assert "reports/ann.txt" in html and "flipped_utilities" in html


class Counting:
    """The local sandbox, counting runs; ``failing`` runs raise as a lost engine would."""

    name = "local"

    def __init__(self, failing=0):
        self.inner = LocalSandbox()
        self.layout = self.inner.layout
        self.runs = 0
        self.failing = failing

    def run(self, exercise, submission, limits, cancel=None):
        self.runs += 1
        if self.runs <= self.failing:
            raise SandboxUnavailable("the engine went away")
        return self.inner.run(exercise, submission, limits, cancel=cancel)


def run_batch(classroom, out, sandbox, **options):
    exercise = exercises.load("helpers")
    from rich.console import Console

    with roster.read(classroom) as the_class:
        return batch.Batch(exercise, sandbox, out, batch.Options(jobs=2, **options),
                           Console(quiet=True)).run(the_class)


def test_identical_files_are_graded_once_and_resume_grades_only_what_changed(tmp_path):
    classroom = tmp_path / "class"
    make_class(classroom)
    out = tmp_path / "out"
    first = Counting()
    outcome = run_batch(classroom, out, first)
    assert first.runs == 3  # ann, bob = cy, fay: dan and eve never reach a sandbox
    assert outcome.graded_now == 6 and outcome.exit_code == 0

    again = Counting()
    outcome = run_batch(classroom, out, again, resume=True)
    assert again.runs == 0 and outcome.kept == 4  # the rejected two are redone at intake

    (classroom / "fay.py").write_bytes(RIGHT)
    changed = Counting()
    outcome = run_batch(classroom, out, changed, resume=True)
    assert changed.runs == 1 and outcome.reports["fay"]["score"] == 10
    assert outcome.summary["identical"] == [["ann", "fay"], ["bob", "cy"]]


def test_resume_grades_again_what_was_graded_in_another_layout(tmp_path):
    classroom = tmp_path / "class"
    make_class(classroom)
    out = tmp_path / "out"
    run_batch(classroom, out, Counting())
    elsewhere = Counting()
    elsewhere.layout = next(layout for layout in LAYOUTS.values()
                            if layout.name not in ("none", elsewhere.inner.layout.name))
    outcome = run_batch(classroom, out, elsewhere, resume=True)
    assert elsewhere.runs == 3 and outcome.kept == 0
    assert {r["sandbox"]["layout"] for r in outcome.reports.values() if r["score"]} \
        == {elsewhere.layout.name}


def test_grader_errors_are_listed_and_retried(tmp_path, capsys):
    classroom = tmp_path / "class"
    make_class(classroom)
    out = tmp_path / "out"
    outcome = run_batch(classroom, out, Counting(failing=3))
    assert outcome.exit_code == batch.EXIT_ERRORS
    errors = sorted(entry["student"] for entry in outcome.summary["regrade"])
    assert errors == ["ann", "bob", "cy", "fay"]
    assert all(outcome.reports[s]["score"] is None for s in errors)

    kept = Counting()
    outcome = run_batch(classroom, out, kept, resume=True)  # --resume keeps errors
    assert kept.runs == 0 and outcome.summary["counts"]["errors"] == 4

    retry = Counting()
    outcome = run_batch(classroom, out, retry, retry_errors=True)
    assert retry.runs == 3 and outcome.exit_code == 0
    assert outcome.summary["regrade"] == [] and outcome.reports["ann"]["score"] == 10


def test_batch_refuses_to_run_untrusted_code_without_docker(tmp_path, capsys, monkeypatch):
    make_class(tmp_path / "class")
    monkeypatch.setenv("DOCKER_HOST", f"unix://{tmp_path}/no-engine.sock")
    code, out, err = batch_cli(capsys, tmp_path / "class", "-o", tmp_path / "out")
    assert code == 2
    assert "no Docker engine answers" in err and "--sandbox local" in err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("argv, words", [
    (["missing", "-o", "out"], "no such file"),
    (["empty", "-o", "out"], "no student's entry"),
    (["empty", "-o", "out", "--jobs", "0"], "--jobs must be at least 1"),
    (["empty", "-o", "afile", "--jobs", "1"], "not a folder"),
])
def test_usage_errors(tmp_path, capsys, monkeypatch, argv, words):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "empty").mkdir()
    (tmp_path / "afile").write_text("")
    code, out, err = batch_cli(capsys, *argv, "--sandbox", "local")
    assert code == 2 and words in err


def start_cli(*argv):
    """The CLI in its own process (so that it can be sent SIGINT, as Ctrl-C does)."""
    return subprocess.Popen([sys.executable, "-m", "grader", *map(str, argv)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            cwd=ROOT)


def wait_for_reports(out, count, process, seconds=120):
    deadline = time.monotonic() + seconds
    while len(list((out / "reports").glob("*.json"))) < count:
        assert process.poll() is None and time.monotonic() < deadline, "no reports came"
        time.sleep(0.05)


def big_class(folder, size):
    """``size`` students with distinct, correct files that take a while to grade: a
    pause at import, short for the first two, seconds for the others (each test
    imports anew), so that runs are still going when the second Ctrl-C comes
    however busy the machine is (with 0.4 s, both could end between two)."""
    folder.mkdir()
    for number in range(size):
        pause = 0.4 if number < 2 else 3
        (folder / f"s{number:02}.py").write_bytes(
            f"import time\ntime.sleep({pause})  # student {number}\n".encode() + RIGHT)


def interrupt_twice(process):
    """Ctrl-C, and once the batch has said it is stopping, Ctrl-C again. Waiting for
    its words matters: two signals that come before Python runs the handler of the
    first are one (as happens on a busy machine), and the batch would never hear
    the second. The whole output, once the batch has ended."""
    said: list[str] = []
    heard = threading.Event()

    def read() -> None:
        for line in process.stdout:
            said.append(line)
            if line.startswith("stopping:"):
                heard.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    process.send_signal(signal.SIGINT)
    assert heard.wait(120), "".join(said)
    process.send_signal(signal.SIGINT)
    process.wait(timeout=120)
    reader.join(timeout=30)
    return "".join(said)


@pytest.mark.parametrize("sandbox", ["local", "docker"])
def test_ctrl_c_keeps_finished_reports_and_says_how_to_resume(tmp_path, request, sandbox):
    if sandbox == "docker":
        client = request.getfixturevalue("docker_client")
    classroom, out = tmp_path / "class", tmp_path / "out"
    big_class(classroom, 12)
    process = start_cli("batch", "--exercise", "helpers", classroom, "-o", out,
                        "--sandbox", sandbox, "--jobs", "2")
    wait_for_reports(out, 2, process)
    output = interrupt_twice(process)  # twice: the running sandboxes are killed
    assert process.returncode == batch.EXIT_INTERRUPTED, output
    assert "killing the running sandboxes" in output
    made = json.loads((out / "summary.json").read_text())
    finished = read_reports(out)
    assert made["counts"]["pending"] == 12 - len(finished) > 0
    assert all(r["status"] == "graded" and r["score"] == 10 for r in finished.values())
    resume = output.split("Resume with:\n", 1)[1].strip()
    assert resume.endswith("--resume") and f"--sandbox {sandbox}" in resume
    if sandbox == "docker":
        assert left_behind(client) == []

    written = {path: path.stat().st_mtime_ns for path in (out / "reports").iterdir()}
    process = start_cli(*shlex.split(resume)[1:])
    output, _ = process.communicate(timeout=300)
    assert process.returncode == 0, output
    made = json.loads((out / "summary.json").read_text())
    assert made["counts"]["pending"] == 0 and made["counts"]["full_marks"] == 12
    assert all(path.stat().st_mtime_ns == when for path, when in written.items())


def test_a_class_through_docker_with_a_hostile_neighbour(tmp_path, docker_client, capsys):
    classroom = tmp_path / "class"
    expected = make_class(classroom)
    hostile = ROOT / "tests" / "hostile"
    # mallory forges report files beside honestly wrong answers (4/10); trent is correct
    # but kills every process it can see
    shutil.copytree(hostile / "forge_report_files" / "submission", classroom / "mallory")
    shutil.copytree(hostile / "kill_parent_and_init" / "submission", classroom / "trent")
    code, stdout, stderr = batch_cli(capsys, classroom, "-o", tmp_path / "out", "--jobs", "2")
    reports = read_reports(tmp_path / "out")
    assert {s: r["score"] for s, r in reports.items()} == {**expected, "mallory": 4, "trent": 10}
    assert {r["sandbox"]["backend"] for r in reports.values() if r["score"]} == {"docker"}
    assert code == 0, stdout + stderr
    assert left_behind(docker_client) == []


def test_the_summary_page_in_a_browser(tmp_path, capsys, chromium):
    import browser

    make_class(tmp_path / "class")
    out = tmp_path / "out"
    batch_cli(capsys, tmp_path / "class", "-o", out, "--sandbox", "local")
    dom = browser.dump_dom(out / "index.html")
    for words in ("The minimax helpers", "flipped_utilities", "Your terminal values are",
                  "README.txt", "ann", "bob", "cy", "dan", "eve", "fay"):
        assert words in dom, words
    artifact = ROOT / "test-artifacts" / "batch-summary-page.png"
    artifact.parent.mkdir(exist_ok=True)
    browser.screenshot(out / "index.html", artifact, (1280, 1800))
    assert artifact.stat().st_size > 10_000
    print(f"screenshot of a batch's summary page: {artifact}")


# --- the output folder, limits ------------------------------------------------------------

@pytest.fixture
def nothing_graded(monkeypatch):
    """Fails a test that grades or picks a sandbox: refusals come first."""
    def reached(*args, **kwargs):
        raise AssertionError("graded, or a sandbox picked, before the refusal")
    monkeypatch.setattr(grading, "grade_alike", reached)
    monkeypatch.setattr(sandbox, "backend", reached)


def test_an_outdir_holding_other_files_is_refused_unless_forced(tmp_path, capsys,
                                                                nothing_graded):
    make_class(tmp_path / "class")
    out = tmp_path / "out"
    out.mkdir()
    (out / "thesis.tex").write_text("years of work")
    code, stdout, stderr = batch_cli(capsys, tmp_path / "class", "-o", out, "--sandbox", "local")
    assert code == 2 and stdout == ""
    assert stderr == (f"minimax-grader: error: {out} holds files that are not a batch's "
                      "results (thesis.tex); give a new or empty folder, or --force to "
                      "write into it anyway\n")
    assert sorted(os.listdir(out)) == ["thesis.tex"]


def test_forced_into_a_folder_of_other_files_keeps_them(tmp_path, capsys):
    make_class(tmp_path / "class")
    out = tmp_path / "out"
    out.mkdir()
    (out / "thesis.tex").write_text("years of work")
    code, _, _ = batch_cli(capsys, tmp_path / "class", "-o", out, "--sandbox", "local", "--force")
    assert code == 0 and (out / "thesis.tex").read_text() == "years of work"
    assert (out / "grades.csv").is_file()


def test_an_outdir_inside_the_submissions_is_refused(tmp_path, capsys, nothing_graded):
    make_class(tmp_path / "class")
    code, _, stderr = batch_cli(capsys, tmp_path / "class", "-o", tmp_path / "class" / "graded",
                                "--sandbox", "local")
    assert code == 2 and "is inside" in stderr and "student's entry" in stderr
    assert not (tmp_path / "class" / "graded").exists()


def test_a_rerun_says_so_and_sets_aside_the_students_who_left(tmp_path, capsys):
    classroom, out = tmp_path / "class", tmp_path / "out"
    make_class(classroom)
    assert batch_cli(capsys, classroom, "-o", out, "--sandbox", "local")[0] == 0
    (classroom / "bob.py").unlink()
    shutil.rmtree(classroom / "eve")
    code, stdout, stderr = batch_cli(capsys, classroom, "-o", out, "--sandbox", "local")
    assert code == 0
    assert f"note: {out} holds an earlier run's results: every student is graded again" \
        in stderr
    assert (f"not in {classroom}: the reports of 2 student(s) were moved to "
            f"{out / batch.ASIDE} and are not in the gradebook: bob, eve") in stdout
    assert sorted(p.name for p in (out / batch.ASIDE).iterdir()) == [
        "bob.html", "bob.json", "bob.txt", "eve.html", "eve.json", "eve.txt"]
    assert sorted(read_reports(out)) == ["ann", "cy", "dan", "fay"]
    with open(out / "grades.csv", newline="") as handle:
        assert sorted(row["student"] for row in csv.DictReader(handle)) == [
            "ann", "cy", "dan", "fay"]
    made = json.loads((out / "summary.json").read_text())
    assert [s["student"] for s in made["students"]] == ["ann", "cy", "dan", "fay"]
    assert made["identical"] == []  # bob, cy's twin, is gone
    # a student who comes back is graded again, and leaves nothing behind in the aside
    (classroom / "bob.py").write_bytes(FLIPPED)
    code, stdout, _ = batch_cli(capsys, classroom, "-o", out, "--sandbox", "local", "--resume")
    assert code == 0 and "were moved" not in stdout
    assert read_reports(out)["bob"]["score"] == 4


def test_the_gradebook_tells_rejected_students_apart(tmp_path, capsys):
    make_class(tmp_path / "class")
    batch_cli(capsys, tmp_path / "class", "-o", tmp_path / "out", "--sandbox", "local")
    with open(tmp_path / "out" / "grades.csv", newline="") as handle:
        rows = {row["student"]: row for row in csv.DictReader(handle)}
    assert {s: r["status"] for s, r in rows.items()} == {
        "ann": "graded", "bob": "graded", "cy": "graded", "dan": "rejected", "eve": "rejected",
        "fay": "graded"}
    assert rows["eve"]["message"] == ("0/10 points: the submission was rejected: "
                                      "minimax_helpers.py is missing (found: helpers.py)")
    assert rows["bob"]["message"].startswith("4/10 points: 2 of 4 tests passed.")


@pytest.mark.parametrize("flags, says", [
    (["--memory-mb", "32"], "--memory-mb 32 is below the 96 MB the grader itself needs"),
    (["--call-seconds", "0"], "--call-seconds 0 is not above 0"),
    (["--call-seconds", "8", "--test-seconds", "7"],
     "--call-seconds 8 is above --test-seconds 7: a call runs within its test"),
])
def test_limits_batch_can_t_grade_with_are_refused_as_grade_refuses_them(
        tmp_path, capsys, nothing_graded, flags, says):
    make_class(tmp_path / "class")
    code, stdout, stderr = batch_cli(capsys, tmp_path / "class", "-o", tmp_path / "out",
                                     "--sandbox", "local", *flags)
    assert code == 2 and stdout == "" and stderr.startswith(f"minimax-grader: error: {says}")
    grade = main(["grade", "--exercise", "helpers", *flags, str(tmp_path / "class" / "ann")])
    assert grade == 2 and capsys.readouterr().err == stderr  # word for word
    assert not (tmp_path / "out").exists()


def test_limits_given_to_batch_reach_every_report_and_a_resume_honours_them(tmp_path, capsys):
    classroom, out = tmp_path / "class", tmp_path / "out"
    make_class(classroom)
    limits = ["--call-seconds", "2", "--test-seconds", "3", "--total-seconds", "20",
              "--memory-mb", "300"]
    assert batch_cli(capsys, classroom, "-o", out, "--sandbox", "local", *limits)[0] == 0
    for made in read_reports(out).values():
        assert {k: made["sandbox"]["limits"][k] for k in
                ("call_seconds", "test_seconds", "total_seconds", "memory_mb")} == {
            "call_seconds": 2, "test_seconds": 3, "total_seconds": 20, "memory_mb": 300}
    kept = Counting()
    again = run_batch(classroom, out, kept, resume=True,
                      limits=exercises.load("helpers").limits.override(call_seconds=2,
                                                                       test_seconds=3,
                                                                       total_seconds=20,
                                                                       memory_mb=300))
    assert kept.runs == 0 and again.kept == 4
    other = Counting()  # other limits: the reports made with the old ones are not kept
    assert run_batch(classroom, out, other, resume=True).kept == 0 and other.runs == 3


def test_the_resume_command_carries_the_limits_given():
    args = parser().parse_args(["batch", "--exercise", "helpers", "class", "-o", "out",
                                "--sandbox", "local", "--memory-mb", "300",
                                "--total-seconds", "20.5"])
    assert _resume_command(args, 2) == (
        "minimax-grader batch --exercise helpers --sandbox local --jobs 2 --total-seconds 20.5 "
        "--memory-mb 300 class -o out --resume")


def test_ctrl_c_once_the_grading_is_over_can_t_break_the_end(tmp_path, capsys, monkeypatch):
    """A Ctrl-C (a user's second one, say) that comes while the gradebook is written
    and the sandboxes are let go is held off: no traceback, the pages are whole."""
    interrupted = []

    def ctrl_c(*args):
        os.kill(os.getpid(), signal.SIGINT)  # delivered at once: this is the main thread
        interrupted.append(args)

    original = batch.Batch._write_overview
    monkeypatch.setattr(batch.Batch, "_write_overview",
                        lambda self, overview: (ctrl_c(), original(self, overview)))
    monkeypatch.setattr(sandbox, "close", ctrl_c)
    make_class(tmp_path / "class")
    code, _, err = batch_cli(capsys, tmp_path / "class", "-o", tmp_path / "out",
                             "--sandbox", "local")
    assert code == 0 and len(interrupted) == 2 and "Traceback" not in err
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["counts"]["pending"] == 0
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back


GAME_CLASSES = {  # exercise -> (a mistake of the corpus, its score)
    "alphabeta": ("prune_strict_bound", 5),
    "iterative_deepening": ("unfinished_depth_move", 6),
    "tic_tac_toe": ("best_move_first_child", 4),
    "tic_tac_toe_alphabeta": ("prune_on_strict", 4),
    "nim_negamax": ("no_hand_over", 9),
}


@pytest.mark.parametrize("exercise", GAME_CLASSES)
def test_a_class_of_a_game_exercise_through_docker(tmp_path, docker_client, capsys, exercise):
    """The game exercises grade in Docker as a batch: a right file, a mistake
    (its points lost and its hint), a stub."""
    mistake, points = GAME_CLASSES[exercise]
    (name,) = exercises.load(exercise).files
    classroom = tmp_path / "class"
    classroom.mkdir()
    for student, source in [("ann", solution(exercise)), ("bob", corpus(exercise) / mistake),
                            ("cy", corpus(exercise) / "stub")]:
        (classroom / student).mkdir()
        shutil.copyfile(source / name, classroom / student / name)
    code = main(["batch", "--exercise", exercise, str(classroom), "-o", str(tmp_path / "out"),
                 "--jobs", "2"])
    out, err = capsys.readouterr()
    reports = read_reports(tmp_path / "out")
    assert code == 0, out + err
    assert {s: r["score"] for s, r in reports.items()} == {"ann": 10, "bob": points, "cy": 0}
    assert {r["sandbox"]["backend"] for r in reports.values()} == {"docker"}
    assert {m for t in reports["bob"]["tests"] for m in t["mistakes"]} == {mistake}
    assert left_behind(docker_client) == []
