"""A term on the service: extensions, manual scores and comments, regrade
requests and regrades, the files handed in, exercises hidden or released,
attempt numbers, the Canvas roster and grade CSV, new links and deactivation."""

import csv
import io
import re
import threading
import zipfile

from grader.service.models import ExerciseSetting
from tests.service.conftest import FLIPPED, FULL_MARKS, NAME, replaying

CANVAS_ROSTER = ("Student,ID,SIS User ID,SIS Login ID,Section,Lab 1 (88)\n"
                 "    Points Possible,,,,,10\n"
                 '"Lovelace, Ada",4711,A-1,ada,Mon,\n'
                 "Test Student,9,,,Mon,\n")


def csrf_of(page: str) -> str:
    match = re.search(r'name="csrf" value="([^"]+)"', page)
    assert match
    return match.group(1)


def test_an_extension_takes_a_late_hand_in_on_time(make, graded):
    site = make(grade=replaying(graded, FULL_MARKS))
    ada, bob = site.enrol(("Ada", "ada@example.edu"), ("Bob", "bob@example.edu"))
    site.service.term.save_setting(ExerciseSetting(
        course_id=1, exercise_id="helpers", deadline=site.clock.now, hard_deadline=site.clock.now,
        late_penalty=0.5, min_minutes=0.0, score_rule="best", visible=True))
    client = site.login()
    csrf = csrf_of(client.get("/i/c/1/students/1").text)
    bad = client.post("/i/c/1/students/1/extension/helpers", data={
        "csrf": csrf, "deadline": "2026-03-05T12:00", "hard_deadline": "2026-03-04T12:00"})
    assert bad.status_code == 400 and "hard deadline comes before" in bad.text
    saved = client.post("/i/c/1/students/1/extension/helpers", data={
        "csrf": csrf, "deadline": "2026-03-05T12:00", "hard_deadline": "2026-03-06T12:00"})
    assert saved.status_code == 303
    assert "Extension of helpers saved." in client.get(saved.headers["location"]).text
    site.clock.advance(days=1)
    assert site.hand_in(ada, (NAME, FULL_MARKS.read_bytes())).status_code == 303
    assert site.hand_in(bob, (NAME, FULL_MARKS.read_bytes())).status_code == 403
    site.service.jobs.drain()
    assert "<td>10</td>" in client.get("/i/c/1").text  # on time: no penalty
    assert "Deadline: 2026-03-05 12:00 UTC" in site.client.get(f"/s/{ada}").text


def test_a_manual_score_wins_is_shown_and_needs_a_comment(make, graded):
    site = make(grade=replaying(graded, FLIPPED))
    [ada] = site.enrol(("Ada", "ada@example.edu"))
    site.hand_in(ada, (NAME, FLIPPED.read_bytes()))
    site.service.jobs.drain()
    rescored: list[str] = []
    site.service.rescored.listen(lambda course, exercise: rescored.append(exercise))
    client = site.login()
    csrf = csrf_of(client.get("/i/c/1/attempts/1").text)
    bare = client.post("/i/c/1/attempts/1/notes", data={"csrf": csrf, "kind": "score",
                                                     "score": "7", "text": " "})
    assert bare.status_code == 400 and "the text is required" in bare.text
    over = client.post("/i/c/1/attempts/1/notes", data={"csrf": csrf, "kind": "score",
                                                     "score": "11", "text": "why"})
    assert over.status_code == 400 and "from 0 to 10" in over.text
    assert client.post("/i/c/1/attempts/1/notes", data={
        "csrf": csrf, "kind": "score", "score": "7", "text": "The idea is right."}
    ).status_code == 303
    assert rescored == ["helpers"]  # the LMS is sent the new score
    grades = list(csv.reader(io.StringIO(client.get("/i/c/1/grades.csv").text)))
    assert grades[1][grades[0].index("helpers")] == "7"
    assert '<span class="manual">manual, by Instructor</span>' in client.get("/i/c/1").text
    mine = site.client.get(f"/s/{ada}/attempts/1").text
    assert "7/10, set by Instructor on 2026-03-02 12:00 UTC: The idea is right." in mine
    assert "(the grader gave 4/10)" in mine


def test_a_regrade_request_is_seen_and_answered(make, graded):
    site = make(grade=replaying(graded, FLIPPED))
    [ada] = site.enrol(("Ada", "ada@example.edu"))
    site.hand_in(ada, (NAME, FLIPPED.read_bytes()))
    site.service.jobs.drain()
    page = site.client.get(f"/s/{ada}/attempts/1").text
    asked = site.client.post(f"/s/{ada}/attempts/1/request",
                             data={"csrf": csrf_of(page), "text": "My max is right."})
    assert asked.status_code == 303
    assert "sent to your instructor" in site.client.get(asked.headers["location"]).text
    client = site.login()
    assert "<strong>open</strong>" in client.get("/i/c/1").text
    assert "My max is right." in client.get("/i/c/1").text
    client.post("/i/c/1/attempts/1/notes", data={"csrf": csrf_of(client.get("/i/c/1").text),
                                             "kind": "answer", "text": "Looked again: fine."})
    assert "<strong>open</strong>" not in client.get("/i/c/1").text
    assert "Looked again: fine." in site.client.get(f"/s/{ada}/attempts/1").text
    # Others can't ask on her attempt.
    [bob] = site.enrol(("Bob", "bob@example.edu"))
    assert site.client.post(f"/s/{bob}/attempts/1/request",
                            data={"csrf": "x", "text": "t"}).status_code == 404


def test_regrade_one_attempt_says_why_and_can_be_forced(make, graded):
    site = make(grade=replaying(graded, FULL_MARKS))
    [ada] = site.enrol(("Ada", "ada@example.edu"))
    site.hand_in(ada, (NAME, FULL_MARKS.read_bytes()))
    site.service.jobs.drain()
    client = site.login()
    csrf = csrf_of(client.get("/i/c/1").text)
    again = client.post("/i/c/1/attempts/1/regrade", data={"csrf": csrf}).text
    assert "0 submission(s) queued" in again and "graded already by this grader" in again
    forced = client.post("/i/c/1/attempts/1/regrade", data={"csrf": csrf, "force": "1"}).text
    assert "1 submission(s) queued" in forced
    student = client.post("/i/c/1/students/1/regrade/helpers", data={"csrf": csrf}).text
    assert "1 not queued: waiting or being graded already" in student
    assert site.service.jobs.drain() == 1 and site.count("reports") == 1


def test_the_files_handed_in_are_shown_and_downloaded(make, graded):
    site = make(grade=replaying(graded, FULL_MARKS))
    [ada, bob] = site.enrol(("Ada", "ada@example.edu"), ("Bob", "bob@example.edu"))
    source = FULL_MARKS.read_bytes()
    site.hand_in(ada, (NAME, source))
    page = site.client.get(f"/s/{ada}/attempts/1").text
    assert f"<h3>{NAME} <small>({len(source)} bytes)</small></h3>" in page
    assert '<div class="code">' in page and '<span class="k">def</span>' in page
    download = site.client.get(f"/s/{ada}/attempts/1/files.zip")
    assert zipfile.ZipFile(io.BytesIO(download.content)).read(NAME) == source
    assert site.client.get(f"/s/{bob}/attempts/1/files.zip").status_code == 404
    assert site.client.get("/i/c/1/attempts/1/files.zip").status_code == 403
    client = site.login()
    assert zipfile.ZipFile(io.BytesIO(client.get("/i/c/1/attempts/1/files.zip").content)
                           ).read(NAME) == source
    assert '<span class="k">def</span>' in client.get("/i/c/1/attempts/1").text


def test_hidden_and_released_exercises_and_attempt_numbers(make, graded):
    site = make(grade=replaying(graded, FULL_MARKS))
    ada, bob = site.enrol(("Ada", "ada@example.edu"), ("Bob", "bob@example.edu"))
    site.hand_in(bob, (NAME, FULL_MARKS.read_bytes()))
    site.hand_in(ada, (NAME, FULL_MARKS.read_bytes()))
    page = site.client.get(f"/s/{ada}?handed=helpers").text
    assert "Handed in: attempt #1 at helpers" in page and '>#1</a>' in page  # hers, not #2
    client = site.login()
    csrf = csrf_of(client.get("/i/c/1").text)
    client.post("/i/c/1/settings/helpers", data={"csrf": csrf, "late_penalty": "0"})  # hidden
    assert 'id="helpers"' not in site.client.get(f"/s/{ada}").text
    assert site.hand_in(ada, (NAME, FULL_MARKS.read_bytes()),
                        csrf=site.csrf(f"/s/{ada}")).status_code == 403
    client.post("/i/c/1/settings/helpers", data={"csrf": csrf, "visible": "1",
                                             "release_at": "2026-03-03T09:00"})
    assert 'id="helpers"' not in site.client.get(f"/s/{ada}").text
    site.clock.advance(days=1)
    assert 'id="helpers"' in site.client.get(f"/s/{ada}").text


def test_the_late_penalty_is_a_percentage(make):
    site = make()
    client = site.login()
    csrf = csrf_of(client.get("/i/c/1").text)
    over = client.post("/i/c/1/settings/helpers", data={"csrf": csrf, "late_penalty": "150"})
    assert over.status_code == 409 and "a percentage from 0 to 100" in over.text
    assert client.post("/i/c/1/settings/helpers", data={"csrf": csrf, "late_penalty": "20%",
                                                    "visible": "1"}).status_code == 303
    assert site.service.term.setting(1, "helpers").late_penalty == 0.2


def test_a_status_the_page_polls(make, graded):
    site = make(grade=replaying(graded, FULL_MARKS))
    [ada] = site.enrol(("Ada", "ada@example.edu"))
    site.hand_in(ada, (NAME, FULL_MARKS.read_bytes()))
    page = site.client.get(f"/s/{ada}").text
    assert 'data-pending="yes"' in page and '<script src="/poll.js" defer>' in page
    waiting = site.client.get(f"/s/{ada}/status.json").json()
    assert waiting == {"pending": True, "attempts": {"1": "waiting"}, "seen": waiting["seen"]}
    # Named as seen something else, the status answers at once.
    assert site.client.get(f"/s/{ada}/status.json?since=other").json() == waiting
    # Named as seen the waiting state, it answers once the report is kept.
    grading = threading.Thread(target=site.service.jobs.drain)
    grading.start()
    graded = site.client.get(f"/s/{ada}/status.json?since={waiting['seen']}").json()
    grading.join()
    assert graded["pending"] is False and graded["attempts"] == {"1": "graded"}
    assert graded["seen"] != waiting["seen"]
    script = site.client.get("/poll.js")
    assert script.headers["content-type"].startswith("text/javascript")


def test_canvas_roster_in_and_canvas_grades_out(make, graded):
    site = make(grade=replaying(graded, FULL_MARKS))
    client = site.login()
    csrf = csrf_of(client.get("/i/c/1").text)
    page = client.post("/i/c/1/roster", data={"csrf": csrf},
                       files={"roster": ("r.csv", CANVAS_ROSTER)}).text
    [token] = re.findall(r"http://testserver/s/([\w-]+)", page)
    assert "1 new student(s), 0 already there." in page
    client.post("/i/c/1/settings/helpers", data={"csrf": csrf, "visible": "1",
                                             "column_name": "Lab 1 (88)"})
    site.hand_in(token, (NAME, FULL_MARKS.read_bytes()))
    site.service.jobs.drain()
    rows = list(csv.reader(io.StringIO(client.get("/i/c/1/canvas.csv").text)))
    column = rows[0].index("Lab 1 (88)")
    assert rows[2][:5] == ["Lovelace, Ada", "4711", "A-1", "ada", "Mon"]
    assert rows[2][column] == "10"


def test_a_new_link_and_deactivation(make):
    site = make()
    [old] = site.enrol(("Ada", "ada@example.edu"))
    client = site.login()
    csrf = csrf_of(client.get("/i/c/1").text)
    page = client.post("/i/c/1/students/1/link", data={"csrf": csrf}).text
    [new] = re.findall(r"http://testserver/s/([\w-]+)", page)
    assert site.client.get(f"/s/{old}").status_code == 404
    assert site.client.get(f"/s/{new}").status_code == 200
    client.post("/i/c/1/students/1/active", data={"csrf": csrf, "active": "0"})
    assert site.client.get(f"/s/{new}").status_code == 404
    assert "(inactive)" in client.get("/i/c/1").text  # kept in the gradebook
    client.post("/i/c/1/students/1/active", data={"csrf": csrf, "active": "1"})
    assert site.client.get(f"/s/{new}").status_code == 200


def test_similar_hand_ins_are_listed_and_shown_side_by_side(make):
    from tests.test_similarity import SOLUTION, correct_cases, disguised

    site = make()
    ada, eve, bob = site.enrol(("Ada", "ada@example.edu"), ("Eve", "eve@example.edu"),
                               ("Bob", "bob@example.edu"))
    original = SOLUTION.read_text()
    other = correct_cases()["correct_single_function"].split("\n", 1)[1]  # its name line off
    for token, source in ((ada, original), (eve, disguised(original)), (bob, other)):
        assert site.hand_in(token, ("alphabeta.py", source.encode()),
                            exercise="alphabeta").status_code == 303
    client = site.login()
    assert 'href="/i/c/1/similarity/alphabeta"' in client.get("/i/c/1").text
    page = client.get("/i/c/1/similarity/alphabeta").text
    flagged, others = page.split("The most similar of the others")
    assert flagged.count('href="/i/c/1/similarity/alphabeta/') == 1  # Ada and Eve, not Bob
    assert "compare Ada and Eve" in flagged and "compare Ada and Bob" in others
    pair = client.get("/i/c/1/similarity/alphabeta/1/2").text
    assert '<mark class="shared">' in pair and "plies" in pair and "Not reviewed yet" in pair
    assert client.get("/i/c/1/similarity/alphabeta/1/9").status_code == 404
    assert site.client.get(f"/s/{ada}").status_code == 200
    assert client.get("/i/c/1/similarity/nothing").status_code == 404


def review_form(client, path: str) -> dict[str, str]:
    page = client.get(path).text
    return {name: re.search(rf'name="{name}" value="([^"]*)"', page).group(1)
            for name in ("csrf", "left_digest", "right_digest")}


def test_a_reviewed_pair_stays_marked_until_either_hands_in_again(make):
    from tests.test_similarity import SOLUTION, disguised

    site = make()
    ada, eve = site.enrol(("Ada", "ada@example.edu"), ("Eve", "eve@example.edu"))
    original = SOLUTION.read_text()
    for token, source in ((ada, original), (eve, disguised(original))):
        site.hand_in(token, ("alphabeta.py", source.encode()), exercise="alphabeta")
    client = site.login()
    path = "/i/c/1/similarity/alphabeta/1/2"
    form = review_form(client, path)
    done = client.post(f"{path}/review", data={**form, "note": "Asked: they studied together."})
    assert done.status_code == 303 and done.headers["location"] == f"{path}?reviewed=1"
    assert "by Instructor: Asked: they studied together." in client.get(
        "/i/c/1/similarity/alphabeta").text
    assert "Reviewed by Instructor" in client.get(path).text
    assert "similar pair reviewed" in client.get("/i/c/1/audit").text
    refused = client.post(f"{path}/review", data={**form, "note": " "})
    assert refused.status_code == 400
    site.hand_in(eve, ("alphabeta.py", disguised(original).replace("lo", "low").encode()),
                 exercise="alphabeta")
    assert "Not reviewed yet" in client.get(path).text  # Eve's new hand-in asks for a look
    stale = client.post(f"{path}/review", data={**form, "note": "The old files."})
    assert stale.status_code == 400 and "handed in since" in stale.text
    assert site.count("similar_reviews") == 1


def test_the_solutions_published_for_an_exercise_are_no_evidence(make, tmp_path):
    from tests.test_similarity import SOLUTION, disguised

    site = make()
    ada, eve = site.enrol(("Ada", "ada@example.edu"), ("Eve", "eve@example.edu"))
    original = SOLUTION.read_text()
    for token, source in ((ada, original), (eve, disguised(original))):
        site.hand_in(token, ("alphabeta.py", source.encode()), exercise="alphabeta")
    client = site.login()
    assert "compare Ada and Eve" in client.get("/i/c/1/similarity/alphabeta").text
    published = tmp_path / "data" / "published" / "alphabeta" / "lesson 5"
    published.mkdir(parents=True)
    (published / "solution.py").write_text(original)
    page = client.get("/i/c/1/similarity/alphabeta").text
    assert "No pair is flagged." in page and "compare Ada and Eve" not in page
